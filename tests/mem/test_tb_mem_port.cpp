#define BOOST_TEST_MODULE tb_mem_port
#include <boost/test/unit_test.hpp>

#include <deque>
#include <vector>

#include "mem/mem_port.h"
#include "util/cycle.h"

// One SystemC world: three small netlists side by side, run once, checked
// afterwards.
//   core  (MemRequester)      -> mem    (MemResponder, capacity 2, late start)
//   lt    (b_transport thread)-> lt_mem (MemResponder)
//   raw   (hand-written AT initiator, slow END_RESP) -> raw_mem (MemResponder)
namespace {

using simt::mem::MemRequest;
using simt::mem::MemRequester;
using simt::mem::MemResponder;
using simt::util::cycle_time;
using simt::util::cycles;
using simt::util::now_cycle;

// Sends request i (id 100+i) as soon as cycle ready[i] has come and the port
// takes it; records when requests left and responses arrived.
struct Core : sc_core::sc_module {
  MemRequester port{"port"};
  std::vector<uint64_t> ready;
  size_t next = 0;
  std::vector<uint64_t> sent_at, resp_at, resp_ids;
  uint32_t second_send_refused = 0;  // a second send in the same cycle
  size_t max_outstanding = 0;

  SC_HAS_PROCESS(Core);
  Core(sc_core::sc_module_name n, std::vector<uint64_t> r) : sc_module(n), ready(std::move(r)) { SC_METHOD(tick); }

  void tick() {
    const uint64_t now = now_cycle();
    MemRequest r;
    while (port.pop_response(r)) {
      resp_ids.push_back(r.id);
      resp_at.push_back(now);
    }
    bool sent = false;
    while (next < ready.size() && ready[next] <= now) {
      MemRequest q;
      q.addr = 0x1000 + 128 * next;
      q.bytes = 128;
      q.id = 100 + next;
      if (!port.send(q)) {
        if (sent) ++second_send_refused;
        break;
      }
      sent = true;
      sent_at.push_back(now);
      ++next;
    }
    max_outstanding = std::max(max_outstanding, port.outstanding());
    if (port.has_response() || (next < ready.size() && ready[next] <= now))
      next_trigger(cycle_time());
    else if (next < ready.size())  // the next request's cycle, or a response before it
      next_trigger(cycles(ready[next] - now), port.response_event());
    else if (port.has_response())
      next_trigger(cycle_time());
    else
      next_trigger(port.response_event());
  }
};

// Pops at most one request a cycle from `start` on and answers it `latency`
// cycles later, in order. Sleeps on the port's event when idle.
struct Mem : sc_core::sc_module {
  MemResponder port;
  uint64_t start;
  uint32_t latency;
  std::deque<std::pair<uint64_t, MemRequest>> pending;
  std::vector<uint64_t> popped_at, popped_ids, active_at;
  size_t queued_at_start = 0;
  bool holding_at_start = false;

  SC_HAS_PROCESS(Mem);
  Mem(sc_core::sc_module_name n, uint32_t capacity, uint64_t s, uint32_t lat)
      : sc_module(n), port("port", capacity), start(s), latency(lat) {
    SC_METHOD(tick);
  }

  void tick() {
    const uint64_t now = now_cycle();
    active_at.push_back(now);
    if (now < start) {
      next_trigger(cycles(start - now));
      return;
    }
    if (now == start) {
      queued_at_start = port.queued();
      holding_at_start = port.holding();
    }
    while (!pending.empty() && pending.front().first <= now) {
      port.respond(pending.front().second);
      pending.pop_front();
    }
    MemRequest r;
    if (port.pop_request(r)) {
      popped_at.push_back(now);
      popped_ids.push_back(r.id);
      pending.push_back({now + latency, r});
    }
    if (!pending.empty() || port.has_request() || port.queued() > 0)
      next_trigger(cycle_time());
    else
      next_trigger(port.request_event());
  }
};

// A loosely-timed initiator: two blocking calls in a row.
struct LtInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<LtInitiator> socket{"socket"};
  std::vector<uint64_t> returned_at;
  std::vector<bool> ok;
  SC_HAS_PROCESS(LtInitiator);
  explicit LtInitiator(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void run() {
    unsigned char buf[4];
    for (int i = 0; i < 2; ++i) {
      tlm::tlm_generic_payload gp;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(0x40 * i);
      gp.set_data_ptr(buf);
      gp.set_data_length(4);
      gp.set_streaming_width(4);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      socket->b_transport(gp, t);
      wait(t);
      returned_at.push_back(now_cycle());
      ok.push_back(gp.is_response_ok());
    }
  }
};

// A hand-written AT initiator that answers BEGIN_RESP with TLM_ACCEPTED and
// sends END_RESP 4 cycles later: the responder must not start a second
// response before that (response exclusion).
struct RawInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<RawInitiator> socket{"socket"};
  tlm::tlm_generic_payload gp[2];
  unsigned char buf[2][8];
  std::vector<uint64_t> begin_resp_at, end_resp_at;
  bool overlap = false;  // a BEGIN_RESP while another response was open
  tlm::tlm_generic_payload* open = nullptr;
  sc_core::sc_event end_req, got_resp;

  SC_HAS_PROCESS(RawInitiator);
  explicit RawInitiator(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_nb_transport_bw(this, &RawInitiator::bw);
    SC_THREAD(run);
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph == tlm::END_REQ) {
      end_req.notify(sc_core::SC_ZERO_TIME);
    } else if (ph == tlm::BEGIN_RESP) {
      if (open) overlap = true;
      open = &p;
      begin_resp_at.push_back(now_cycle());
      got_resp.notify(sc_core::SC_ZERO_TIME);
    }
    return tlm::TLM_ACCEPTED;
  }
  void run() {
    for (int i = 0; i < 2; ++i) {
      gp[i].set_command(tlm::TLM_WRITE_COMMAND);
      gp[i].set_address(0x80 * i);
      gp[i].set_data_ptr(buf[i]);
      gp[i].set_data_length(8);
      gp[i].set_streaming_width(8);
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      if (socket->nb_transport_fw(gp[i], ph, t) == tlm::TLM_ACCEPTED) wait(end_req);
      wait(cycle_time());
    }
    for (int i = 0; i < 2; ++i) {
      while (!open) wait(got_resp);
      wait(cycles(4));
      tlm::tlm_generic_payload* p = open;
      open = nullptr;
      end_resp_at.push_back(now_cycle());
      tlm::tlm_phase ph = tlm::END_RESP;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      socket->nb_transport_fw(*p, ph, t);
    }
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(requests_responses_backpressure_latency_and_pool) {
  // Six requests ready at cycle 0, a lone one at cycle 100 for a clean latency.
  Core core("core", {0, 0, 0, 0, 0, 0, 100});
  const uint32_t kLatency = 5;
  Mem mem("mem", 2, 10, kLatency);
  core.port.socket.bind(mem.port.socket);

  LtInitiator lt("lt");
  Mem lt_mem("lt_mem", 2, 0, 3);
  lt.socket.bind(lt_mem.port.socket);

  RawInitiator raw("raw");
  Mem raw_mem("raw_mem", 4, 0, 2);
  raw.socket.bind(raw_mem.port.socket);

  sc_core::sc_start(cycles(200));

  // Every id comes back, in order (one responder answering in order).
  BOOST_TEST(core.resp_ids == (std::vector<uint64_t>{100, 101, 102, 103, 104, 105, 106}));
  BOOST_TEST(mem.popped_ids == core.resp_ids);

  // One request a cycle; the third is held (no END_REQ) while two wait in the
  // responder, until the responder pops at cycle 10: the fourth leaves at 11.
  BOOST_TEST(mem.queued_at_start == 2u);
  BOOST_TEST(mem.holding_at_start);
  BOOST_REQUIRE(core.sent_at.size() == 7u);
  BOOST_TEST((std::vector<uint64_t>(core.sent_at.begin(), core.sent_at.begin() + 4)) ==
             (std::vector<uint64_t>{0, 1, 2, 11}));
  BOOST_TEST(core.second_send_refused > 0u);  // six were ready at cycle 0, only one went
  for (size_t i = 1; i < core.sent_at.size(); ++i) BOOST_TEST(core.sent_at[i] > core.sent_at[i - 1]);
  // The responder then takes one a cycle.
  BOOST_TEST((std::vector<uint64_t>(mem.popped_at.begin(), mem.popped_at.begin() + 6)) ==
             (std::vector<uint64_t>{10, 11, 12, 13, 14, 15}));

  // Latency: a response sent in cycle N is seen at N+1; a request accepted in
  // cycle N is seen at N+1. The lone request: sent 100, popped 101, answered
  // 106, seen 107.
  BOOST_TEST(core.sent_at[6] == 100u);
  BOOST_TEST(mem.popped_at[6] == 101u);
  BOOST_TEST(core.resp_at[6] == 100u + kLatency + 2);
  for (size_t i = 0; i < 6; ++i) BOOST_TEST(core.resp_at[i] == mem.popped_at[i] + kLatency + 1);

  // Idle blocks sleep: the responder does not run between draining the
  // backlog and the lone request.
  for (uint64_t c : mem.active_at) BOOST_TEST((c <= 30 || c >= 100));
  BOOST_TEST(mem.active_at.size() < 40u);

  // No payload leaks: the pool grew to the most requests in flight at once
  // and the lone request reused a payload; all are back.
  BOOST_TEST(core.max_outstanding == 6u);
  BOOST_TEST(core.port.pool_allocated() == 6u);
  BOOST_TEST(core.port.pool_free() == 6u);
  BOOST_TEST(core.port.outstanding() == 0u);

  // Loosely-timed initiator: call at 0, visible 1, answered 4, returns 5;
  // again at 5 -> 10.
  BOOST_TEST(lt.returned_at == (std::vector<uint64_t>{5, 10}));
  BOOST_TEST(lt.ok == (std::vector<bool>{true, true}));

  // Response exclusion: the second BEGIN_RESP waits for END_RESP of the first.
  BOOST_REQUIRE(raw.begin_resp_at.size() == 2u);
  BOOST_REQUIRE(raw.end_resp_at.size() == 2u);
  BOOST_TEST(!raw.overlap);
  BOOST_TEST(raw.begin_resp_at[1] >= raw.end_resp_at[0]);
  BOOST_TEST(raw.gp[0].is_response_ok());
  BOOST_TEST(raw.gp[1].is_response_ok());
}
