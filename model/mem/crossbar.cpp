#include "mem/crossbar.h"

#include <algorithm>
#include <stdexcept>

#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::mem {

void CrossbarParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".latency", latency, "crossbar cycles from a grant to the delivery of a one-flit message", 1,
        100000);
  r.add(prefix + ".flit_bytes", flit_bytes, "crossbar bytes a port moves per cycle", 1, 1u << 20);
  r.add(prefix + ".partitions", partitions, "crossbar L2 partitions; follows dram.channels (setting another value is refused)", 1, 256);
  r.add(prefix + ".interleave", interleave,
        "bytes per crossbar partition chunk; follows dram.interleave (setting another value is refused)", 1, 1u << 30);
  r.add(prefix + ".queue", queue, "crossbar messages buffered per port", 1, 1u << 20);
}

void CrossbarParams::validate(const std::string& prefix) const {
  auto bad = [&](const std::string& name, const std::string& why) {
    throw input_error("option " + prefix + "." + name + ": " + why);
  };
  if (latency == 0) bad("latency", "must be at least 1");
  if (flit_bytes == 0) bad("flit_bytes", "must be at least 1");
  if (partitions == 0) bad("partitions", "must be at least 1");
  if (interleave == 0 || (interleave & (interleave - 1)) != 0)
    bad("interleave", std::to_string(interleave) + " is not a power of two");
  if (queue == 0) bad("queue", "must be at least 1");
}

void CrossbarParams::check_matches(const DramParams& dram, const std::string& prefix) const {
  if (partitions != dram.channels)
    throw input_error("option " + prefix + ".partitions: " + std::to_string(partitions) +
                      " differs from dram.channels (" + std::to_string(dram.channels) + ")");
  if (interleave != dram.interleave)
    throw input_error("option " + prefix + ".interleave: " + std::to_string(interleave) +
                      " differs from dram.interleave (" + std::to_string(dram.interleave) + ")");
}

Crossbar::Crossbar(sc_core::sc_module_name name, const CrossbarParams& p, uint32_t num_sources,
                   stats::Registry& stats, const std::string& stats_name, trace::Waveform* waveform)
    : sc_core::sc_module(name),
      p_(p),
      requests_(stats.counter(stats_name + ".requests", "requests routed to an L2 partition")),
      responses_(stats.counter(stats_name + ".responses", "responses routed back to their source")),
      flits_(stats.counter(stats_name + ".flits", "flits moved through the crossbar (both directions)")),
      stall_cycles_(stats.counter(stats_name + ".stall_cycles",
                                  "message-cycles a ready message waited for a busy, full or contended port")) {
  p_.validate("xbar");
  if (num_sources == 0) throw std::logic_error(std::string(this->name()) + ": a crossbar needs at least one source");
  for (uint32_t i = 0; i < num_sources; ++i)
    src_.emplace_back(new MemResponder(("src" + std::to_string(i)).c_str(), p_.queue));
  for (uint32_t i = 0; i < p_.partitions; ++i)
    part_.emplace_back(new MemRequester(("part" + std::to_string(i)).c_str()));

  auto shape = [&](Net& n, uint32_t ins, uint32_t outs) {
    n.staged.assign(ins, kNone);
    n.in_free.assign(ins, 0);
    n.out_free.assign(outs, 0);
    n.rr.assign(outs, 0);
    n.outq.resize(outs);
  };
  shape(req_, num_sources, p_.partitions);
  shape(rsp_, p_.partitions, num_sources);

  if (waveform && waveform->enabled()) {
    bool any = false;
    for (int n = 0; n < 2; ++n) {
      const std::string k = stats_name + (n == 0 ? ".req" : ".rsp");
      sig_waiting_[n] = waveform->signal<uint32_t>(k + "_waiting", 0);
      sig_in_flight_[n] = waveform->signal<uint32_t>(k + "_in_flight", 0);
      any = any || sig_waiting_[n] || sig_in_flight_[n];
    }
    if (any) wf_ = waveform;
  }

  attach_to_clock(true);
  for (auto& s : src_) s->wake_on_request(*this);
  for (auto& q : part_) q->wake_on_response(*this);
}

Crossbar::~Crossbar() = default;

// Writes and atomics carry data toward L2; reads and atomics carry it back.
uint32_t Crossbar::flits(const Slot& s, bool request) const {
  const bool data = request ? (s.req.write || s.req.atomic) : (!s.req.write || s.req.atomic);
  if (!data || s.req.bytes == 0) return 1;
  return (s.req.bytes + p_.flit_bytes - 1) / p_.flit_bytes;
}

void Crossbar::deliver(uint64_t now) {
  // Requests leave toward the partitions, one per port per cycle, in order.
  for (uint32_t o = 0; o < part_.size(); ++o) {
    auto& q = req_.outq[o];
    if (q.empty() || q.front().ready > now) continue;
    const Slot& s = slots_[q.front().slot];
    MemRequest r = s.req;
    r.id = q.front().slot;  // our tag: the response names the slot
    r.source = s.source;
    r.payload = nullptr;
    if (part_[o]->send(r)) {
      q.pop_front();
    } else {
      ++stall_cycles_;  // the partition holds back (its input is full)
    }
  }
  // Responses leave toward the sources; the source port queues them itself.
  for (uint32_t o = 0; o < src_.size(); ++o) {
    auto& q = rsp_.outq[o];
    if (q.empty() || q.front().ready > now) continue;
    const uint32_t slot = q.front().slot;
    q.pop_front();
    src_[o]->respond(slots_[slot].req);
    ++responses_;
    slots_.release(slot);
  }
}

void Crossbar::stage_inputs() {
  MemRequest r;
  for (uint32_t i = 0; i < src_.size(); ++i) {
    if (req_.staged[i] != kNone || !src_[i]->pop_request(r)) continue;
    const uint64_t last = r.addr + std::max<uint32_t>(r.bytes, 1) - 1;
    if (r.addr / p_.interleave != last / p_.interleave)
      throw input_error(std::string(name()) + ": request at " + std::to_string(r.addr) + " of " +
                        std::to_string(r.bytes) + " bytes spans two partitions (interleave " +
                        std::to_string(p_.interleave) + "): line sizes must not exceed the interleave");
    const uint32_t slot = slots_.alloc();
    Slot& s = slots_[slot];
    s.req = r;
    s.source = i;
    s.part = partition_of(r.addr, p_.interleave, p_.partitions);
    req_.staged[i] = slot;
  }
  uint64_t id = 0;
  for (uint32_t i = 0; i < part_.size(); ++i) {
    if (rsp_.staged[i] != kNone || !part_[i]->pop_response(id)) continue;
    if (id >= slots_.size())
      throw std::logic_error(std::string(name()) + ": partition " + std::to_string(i) +
                             " answered an unknown id " + std::to_string(id));
    rsp_.staged[i] = uint32_t(id);
  }
}

void Crossbar::arbitrate(Net& n, bool to_part, uint64_t now) {
  // One pass over the inputs sorts the ready ones by output; each output
  // then grants the first of its contenders in round-robin order from
  // rr[o], and every other contender (all of them when the output is busy
  // or its queue full) counts a stall. Each input wants one output, so the
  // outputs do not interact.
  const uint32_t ins = uint32_t(n.staged.size());
  if (n.contenders.size() != n.outq.size()) n.contenders.resize(n.outq.size());
  n.wanted.clear();
  for (uint32_t i = 0; i < ins; ++i) {
    const uint32_t slot = n.staged[i];
    if (slot == kNone || n.in_free[i] > now) continue;  // its own port still sending: bandwidth, not contention
    const Slot& s = slots_[slot];
    const uint32_t o = to_part ? s.part : s.source;
    if (n.contenders[o].empty()) n.wanted.push_back(o);
    n.contenders[o].push_back(i);
  }
  for (uint32_t o : n.wanted) {
    std::vector<uint32_t>& c = n.contenders[o];
    const bool out_ok = n.out_free[o] <= now && n.outq[o].size() < p_.queue;
    if (!out_ok) {
      stall_cycles_ += c.size();
      c.clear();
      continue;
    }
    stall_cycles_ += c.size() - 1;
    // Inputs are in ascending order: the first at or after rr[o], else the first.
    uint32_t winner = c.front();
    for (uint32_t i : c)
      if (i >= n.rr[o]) {
        winner = i;
        break;
      }
    c.clear();
    const uint32_t slot = n.staged[winner];
    const uint32_t f = flits(slots_[slot], to_part);
    n.in_free[winner] = now + f;
    n.out_free[o] = now + f;
    n.outq[o].push_back(Msg{slot, now + p_.latency + f - 1});
    n.staged[winner] = kNone;
    n.rr[o] = (winner + 1) % ins;
    flits_ += f;
    if (to_part) ++requests_;
  }
}

// Whether anything is in the crossbar; `next` = the earliest cycle after
// `now` at which something can move (a lower bound: waking early is harmless).
bool Crossbar::pending_now(uint64_t now, uint64_t& next) const {
  next = UINT64_MAX;
  // Ports fire their event once per arrival cycle: items still waiting there
  // (their input was staged) keep us awake.
  for (const auto& s : src_)
    if (s->has_request()) next = now + 1;
  for (const auto& q : part_)
    if (q->has_response()) next = now + 1;
  for (const Net* n : {&req_, &rsp_}) {
    for (size_t i = 0; i < n->staged.size(); ++i)
      if (n->staged[i] != kNone) next = std::min(next, std::max(now + 1, n->in_free[i]));
    for (const auto& q : n->outq)
      if (!q.empty()) next = std::min(next, std::max(now + 1, q.front().ready));
  }
  return next != UINT64_MAX;
}

void Crossbar::on_cycle(uint64_t now) {
  ++activations_;
  deliver(now);
  stage_inputs();
  arbitrate(req_, true, now);
  arbitrate(rsp_, false, now);
  uint64_t next = 0;
  bool pending = pending_now(now, next);
  if (wf_) {
    // The counts change only here; asleep when the window opens, wake then.
    if (wf_->in_window(now)) {
      write_signals();
    } else if (now < wf_->window_start()) {
      next = std::min(next, wf_->window_start());
      pending = true;
    }
  }
  if (pending) sleep_until(next);
  // else idle: the next request or response wakes us
}

void Crossbar::write_signals() {
  const Net* nets[2] = {&req_, &rsp_};
  for (int n = 0; n < 2; ++n) {
    uint32_t waiting = 0, in_flight = 0;
    for (uint32_t slot : nets[n]->staged) waiting += slot != kNone;
    for (const auto& q : nets[n]->outq) in_flight += static_cast<uint32_t>(q.size());
    if (sig_waiting_[n]) sig_waiting_[n]->write(waiting);
    if (sig_in_flight_[n]) sig_in_flight_[n]->write(in_flight);
  }
}

}  // namespace simt::mem
