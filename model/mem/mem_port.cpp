#include "mem/mem_port.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

#include "util/cycle.h"
#include "util/ring_queue.h"

namespace simt::mem {

using tlm::tlm_generic_payload;
using tlm::tlm_phase;
using tlm::tlm_sync_enum;

// ---------------------------------------------------------------- extension

tlm::tlm_extension_base* MemRequestInfo::clone() const { return new MemRequestInfo(*this); }

void MemRequestInfo::copy_from(const tlm::tlm_extension_base& e) {
  const auto& o = static_cast<const MemRequestInfo&>(e);
  id = o.id;
  source = o.source;
  instruction = o.instruction;
  atomic = o.atomic;
}

namespace {

// The cycle at which something arriving now with annotated delay `d` may be
// seen: the next cycle at the earliest (so the evaluation order of methods
// within a cycle cannot matter), later when `d` reaches beyond it.
uint64_t visible_cycle(const sc_core::sc_time& d) {
  const uint64_t c = util::cycle_time().value();
  const uint64_t ahead = d.value() <= c ? 1 : (d.value() + c - 1) / c;  // no division in the common case
  return util::now_cycle() + ahead;
}

// A request as seen from the payload (either side of a port).
MemRequest describe(tlm_generic_payload& gp) {
  MemRequest r;
  r.addr = gp.get_address();
  r.bytes = gp.get_data_length();
  r.write = gp.is_write();
  if (const MemRequestInfo* info = gp.get_extension<MemRequestInfo>()) {
    r.id = info->id;
    r.source = info->source;
    r.atomic = info->atomic;
    r.instruction = info->instruction;
  }
  return r;
}

// Notifies `ev` for the cycle an item becomes visible, at most once per cycle
// (stamps are kept monotonic by the queues, so a later stamp always needs its
// own notification and an equal one never does).
struct ArrivalNotifier {
  uint64_t last_notified = 0;
  util::Clocked* client = nullptr;  // woken through the clock instead of `ev`
  void notify(sc_core::sc_event_queue& ev, uint64_t stamp) {
    if (stamp <= last_notified) return;
    if (client)
      util::Clock::get().wake_at(*client, stamp);
    else
      ev.notify(util::until_cycle(stamp));
    last_notified = stamp;
  }
};

// A payload of the pool with its own dummy data buffer (the contents are
// never read: data moves functionally) and its MemRequestInfo attached for
// life.
class PooledPayload : public tlm_generic_payload {
 public:
  explicit PooledPayload(tlm::tlm_mm_interface* mm) : tlm_generic_payload(mm), info(new MemRequestInfo) {
    set_extension(info);  // deleted by the payload's destructor
  }
  MemRequestInfo* info;
  std::vector<unsigned char> data;
  // The request as sent (payload null): what its response is reported as,
  // without reading the payload's fields and extension back from cold
  // lines, and whatever an interconnect did to the payload's address on
  // the way (the owner asked for this request).
  MemRequest req;
};

class PayloadPool : public tlm::tlm_mm_interface {
 public:
  PooledPayload* get() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<PooledPayload>(this));
      return all_.back().get();
    }
    PooledPayload* p = free_.back();
    free_.pop_back();
    return p;
  }
  // Called by tlm_generic_payload::release() when the last reference goes.
  void free(tlm_generic_payload* gp) override { free_.push_back(static_cast<PooledPayload*>(gp)); }
  size_t allocated() const { return all_.size(); }
  size_t available() const { return free_.size(); }

 private:
  std::vector<std::unique_ptr<PooledPayload>> all_;
  std::vector<PooledPayload*> free_;
};

}  // namespace

// ---------------------------------------------------------------- requester

class MemRequester::Impl {
 public:
  explicit Impl(MemRequester& o) : owner(o), arrived("arrived") {}

  struct Done {
    uint64_t stamp;
    MemRequest req;
  };

  MemRequester& owner;
  PayloadPool pool;
  tlm_generic_payload* in_request = nullptr;  // BEGIN_REQ sent, END_REQ not yet seen
  uint64_t free_from = 0;                     // first cycle a new BEGIN_REQ may go
  size_t outstanding = 0;
  util::RingQueue<Done> done;
  uint64_t last_stamp = 0;
  ArrivalNotifier notifier;
  sc_core::sc_event_queue arrived;

  void end_request(const sc_core::sc_time& t) {
    in_request = nullptr;
    free_from = visible_cycle(t);
  }

  // The response is here: record it (visible from its cycle) and give the
  // payload back to the pool.
  void complete(tlm_generic_payload& gp, const sc_core::sc_time& t) {
    if (gp.is_response_error()) {
      const std::string msg = "memory request at address " + std::to_string(gp.get_address()) +
                              " failed: " + gp.get_response_string();
      SC_REPORT_ERROR(owner.name(), msg.c_str());
    }
    const uint64_t stamp = std::max(visible_cycle(t), last_stamp);  // FIFO: never earlier than the previous one
    last_stamp = stamp;
    done.push_back({stamp, static_cast<PooledPayload&>(gp).req});  // only our pool's payloads come back
    if (done.size() == 1) owner.first_response_ = stamp;
    --outstanding;
    notifier.notify(arrived, stamp);
    gp.release();
  }

  tlm_sync_enum nb_transport_bw(tlm_generic_payload& gp, tlm_phase& phase, sc_core::sc_time& t) {
    if (phase == tlm::END_REQ) {
      if (&gp == in_request) end_request(t);
      return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::BEGIN_RESP) {
      if (&gp == in_request) end_request(t);  // BEGIN_RESP implies END_REQ
      complete(gp, t);
      return tlm::TLM_COMPLETED;  // we take the response at once: no END_RESP phase
    }
    SC_REPORT_ERROR(owner.name(), "illegal phase on the backward path (base protocol)");
    return tlm::TLM_ACCEPTED;
  }
};

MemRequester::MemRequester(sc_core::sc_module_name name)
    : sc_core::sc_module(name), socket("socket"), impl_(std::make_unique<Impl>(*this)) {
  socket.register_nb_transport_bw(this, &MemRequester::nb_transport_bw);
}

tlm_sync_enum MemRequester::nb_transport_bw(tlm_generic_payload& gp, tlm_phase& ph, sc_core::sc_time& t) {
  return impl_->nb_transport_bw(gp, ph, t);
}

MemRequester::~MemRequester() = default;

bool MemRequester::can_send() const {
  return impl_->in_request == nullptr && util::now_cycle() >= impl_->free_from;
}

bool MemRequester::send(const MemRequest& r) {
  if (!can_send()) return false;
  if (r.bytes == 0) SC_REPORT_ERROR(name(), "memory request of 0 bytes");
  Impl& m = *impl_;
  PooledPayload* p = m.pool.get();
  if (p->data.size() < r.bytes) p->data.resize(r.bytes);
  p->set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p->set_address(r.addr);
  p->set_data_ptr(p->data.data());
  p->set_data_length(r.bytes);
  p->set_streaming_width(r.bytes);
  p->set_byte_enable_ptr(nullptr);
  p->set_byte_enable_length(0);
  p->set_dmi_allowed(false);
  p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p->info->id = r.id;
  p->info->source = r.source;
  p->info->atomic = r.atomic;
  p->info->instruction = r.instruction;
  p->req = r;
  p->req.payload = nullptr;
  p->acquire();
  ++m.outstanding;
  m.in_request = p;

  tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm_sync_enum s = socket->nb_transport_fw(*p, phase, t);
  if (s == tlm::TLM_COMPLETED) {
    m.end_request(t);
    m.complete(*p, t);
  } else if (s == tlm::TLM_UPDATED) {
    if (phase == tlm::END_REQ) {
      m.end_request(t);
    } else if (phase == tlm::BEGIN_RESP) {
      m.end_request(t);
      tlm_phase end = tlm::END_RESP;  // the response came on the return path: close it
      sc_core::sc_time z = sc_core::SC_ZERO_TIME;
      socket->nb_transport_fw(*p, end, z);
      m.complete(*p, t);
    } else {
      SC_REPORT_ERROR(name(), "illegal phase returned to BEGIN_REQ (base protocol)");
    }
  }
  // TLM_ACCEPTED: END_REQ or BEGIN_RESP will come on the backward path.
  return true;
}

bool MemRequester::pop_response(MemRequest& r) {
  if (!has_response()) return false;
  auto& d = impl_->done;
  r = d.front().req;
  d.pop_front();
  first_response_ = d.empty() ? UINT64_MAX : d.front().stamp;
  return true;
}

bool MemRequester::pop_response(uint64_t& id) {
  MemRequest r;
  if (!pop_response(r)) return false;
  id = r.id;
  return true;
}

size_t MemRequester::outstanding() const { return impl_->outstanding; }
const sc_core::sc_event& MemRequester::response_event() const { return impl_->arrived.default_event(); }
void MemRequester::wake_on_response(util::Clocked& block) { impl_->notifier.client = &block; }
size_t MemRequester::pool_allocated() const { return impl_->pool.allocated(); }
size_t MemRequester::pool_free() const { return impl_->pool.available(); }

// ---------------------------------------------------------------- responder

class MemResponder::Impl {
 public:
  Impl(MemResponder& o, uint32_t cap) : owner(o), capacity(cap), arrived("arrived") {}

  struct Pending {
    uint64_t stamp;
    MemRequest req;  // described once, on arrival; req.payload = the payload to answer
  };

  MemResponder& owner;
  uint32_t capacity;
  util::RingQueue<Pending> queue;            // accepted (END_REQ given), not popped yet
  tlm_generic_payload* held = nullptr;       // BEGIN_REQ without END_REQ: the queue was full
  uint64_t* flag_word = nullptr;             // flag_queued(): the owner's bit set, and our bit
  uint64_t flag_bit = 0;
  sc_core::sc_time held_delay;
  uint64_t last_stamp = 0;
  ArrivalNotifier notifier;
  sc_core::sc_event_queue arrived;

  std::deque<tlm_generic_payload*> responses;   // waiting for the response channel
  tlm_generic_payload* in_response = nullptr;   // BEGIN_RESP sent, END_RESP not yet seen
  sc_core::sc_event drain;                      // the response channel came free

  // b_transport callers (loosely-timed initiators) wait on these.
  std::vector<tlm_generic_payload*> blocking_open, blocking_done;
  sc_core::sc_event space, blocking_answered;
  uint32_t space_waiters = 0;  // b_transport callers waiting for `space`

  bool full() const { return queue.size() >= capacity || held != nullptr; }

  void enqueue(tlm_generic_payload& gp, const sc_core::sc_time& t) {
    const uint64_t stamp = std::max(visible_cycle(t), last_stamp);
    last_stamp = stamp;
    MemRequest r = describe(gp);
    r.payload = &gp;
    queue.push_back({stamp, r});
    if (queue.size() == 1) {
      owner.first_request_ = stamp;
      if (flag_word) *flag_word |= flag_bit;
    }
    notifier.notify(arrived, stamp);
  }

  tlm_sync_enum nb_transport_fw(tlm_generic_payload& gp, tlm_phase& phase, sc_core::sc_time& t) {
    if (phase == tlm::BEGIN_REQ) {
      if (gp.has_mm()) gp.acquire();  // ours until the response completes
      if (!full()) {
        enqueue(gp, t);
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
      }
      if (held) SC_REPORT_ERROR(owner.name(), "BEGIN_REQ before END_REQ of the previous request (base protocol)");
      held = &gp;  // END_REQ withheld until the owner pops a request
      held_delay = t;
      return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::END_RESP) {
      if (&gp != in_response) SC_REPORT_ERROR(owner.name(), "END_RESP for a transaction not in its response phase");
      finish_response();
      return tlm::TLM_COMPLETED;
    }
    SC_REPORT_ERROR(owner.name(), "illegal phase on the forward path (base protocol)");
    return tlm::TLM_ACCEPTED;
  }

  void b_transport(tlm_generic_payload& gp, sc_core::sc_time& t) {
    sc_core::wait(t);  // catch up with the initiator's local time
    t = sc_core::SC_ZERO_TIME;
    while (full()) {
      ++space_waiters;
      sc_core::wait(space);
      --space_waiters;
    }
    enqueue(gp, sc_core::SC_ZERO_TIME);
    blocking_open.push_back(&gp);
    for (;;) {
      auto it = std::find(blocking_done.begin(), blocking_done.end(), &gp);
      if (it != blocking_done.end()) {
        blocking_done.erase(it);
        return;
      }
      sc_core::wait(blocking_answered);
    }
  }

  void send_response(tlm_generic_payload* gp) {
    in_response = gp;
    tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    const tlm_sync_enum s = owner.socket->nb_transport_bw(*gp, phase, t);
    if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::END_RESP)) finish_response();
    else if (s == tlm::TLM_UPDATED)
      SC_REPORT_ERROR(owner.name(), "illegal phase returned to BEGIN_RESP (base protocol)");
    // TLM_ACCEPTED: END_RESP will come on the forward path.
  }

  void finish_response() {
    tlm_generic_payload* gp = in_response;
    in_response = nullptr;
    if (gp && gp->has_mm()) gp->release();
    if (!responses.empty()) drain.notify(util::until_cycle(util::now_cycle()));  // later in this cycle
  }

  // Sends queued responses while the response channel is free (only a
  // foreign initiator that answers BEGIN_RESP with TLM_ACCEPTED makes a queue).
  void drain_responses() {
    while (!in_response && !responses.empty()) {
      tlm_generic_payload* gp = responses.front();
      responses.pop_front();
      send_response(gp);
    }
  }
};

MemResponder::MemResponder(sc_core::sc_module_name name, uint32_t capacity)
    : sc_core::sc_module(name), socket("socket"), impl_(std::make_unique<Impl>(*this, capacity)) {
  if (capacity == 0) SC_REPORT_ERROR(this->name(), "a responder needs a capacity of at least 1");
  socket.register_nb_transport_fw(this, &MemResponder::nb_transport_fw);
  socket.register_b_transport(this, &MemResponder::b_transport);
  sc_core::sc_spawn_options opt;
  opt.spawn_method();
  opt.set_sensitivity(&impl_->drain);
  opt.dont_initialize();
  Impl* m = impl_.get();
  sc_core::sc_spawn([m] { m->drain_responses(); }, "drain", &opt);
}

MemResponder::~MemResponder() = default;

tlm_sync_enum MemResponder::nb_transport_fw(tlm_generic_payload& gp, tlm_phase& ph, sc_core::sc_time& t) {
  return impl_->nb_transport_fw(gp, ph, t);
}

void MemResponder::b_transport(tlm_generic_payload& gp, sc_core::sc_time& t) { impl_->b_transport(gp, t); }

bool MemResponder::pop_request(MemRequest& r) {
  if (!has_request()) return false;
  r = impl_->queue.front().req;
  pop_request();
  return true;
}

void MemResponder::pop_request() {
  Impl& m = *impl_;
  if (!has_request()) throw std::logic_error(std::string(name()) + ": pop_request() with no visible request");
  m.queue.pop_front();
  first_request_ = m.queue.empty() ? UINT64_MAX : m.queue.front().stamp;
  if (m.queue.empty() && m.flag_word) *m.flag_word &= ~m.flag_bit;
  if (m.held) {  // room again: accept the held request now
    tlm_generic_payload* h = m.held;
    m.held = nullptr;
    m.enqueue(*h, m.held_delay);
    tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    socket->nb_transport_bw(*h, phase, t);  // the initiator may only answer TLM_ACCEPTED
  }
  if (m.space_waiters) m.space.notify(util::until_cycle(util::now_cycle()));
}

bool MemResponder::peek_request(MemRequest& r) const {
  if (!has_request()) return false;
  r = impl_->queue.front().req;
  return true;
}

void MemResponder::respond(const MemRequest& r) {
  Impl& m = *impl_;
  tlm_generic_payload* gp = r.payload;
  if (!gp) SC_REPORT_ERROR(name(), "respond() to a request that was not taken with pop_request()");
  gp->set_response_status(tlm::TLM_OK_RESPONSE);
  auto it = std::find(m.blocking_open.begin(), m.blocking_open.end(), gp);
  if (it != m.blocking_open.end()) {  // a b_transport caller: wake it next cycle
    m.blocking_open.erase(it);
    m.blocking_done.push_back(gp);
    m.blocking_answered.notify(util::until_cycle(util::now_cycle() + 1));
    return;
  }
  if (m.in_response || !m.responses.empty()) {
    m.responses.push_back(gp);  // response exclusion: wait for END_RESP of the previous one
    return;
  }
  m.send_response(gp);
}

const sc_core::sc_event& MemResponder::request_event() const { return impl_->arrived.default_event(); }
void MemResponder::wake_on_request(util::Clocked& block) { impl_->notifier.client = &block; }
void MemResponder::flag_queued(uint64_t* word, uint64_t bit) {
  impl_->flag_word = word;
  impl_->flag_bit = bit;
  if (!impl_->queue.empty()) *word |= bit;
}
size_t MemResponder::queued() const { return impl_->queue.size(); }
bool MemResponder::holding() const { return impl_->held != nullptr; }

}  // namespace simt::mem
