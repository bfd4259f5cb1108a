// The L1 fetch arbiter block bound to a multi-ported L1I (as in the VWS
// SM): the L1I serves the ports it grants in the cycle their requests are
// visible, so a lone fetch takes exactly as long as on a one-port L1I with
// no arbiter; with one port, the gang pipe's read goes first and the slices'
// reads follow one a cycle, the slice served longest ago first.
#define BOOST_TEST_MODULE tb_l1_fetch_arbiter_unit
#include <boost/test/unit_test.hpp>

#include <map>
#include <vector>

#include "mem/cache_module.h"
#include "mem/mem_port.h"
#include "stats/stats.h"
#include "util/cycle.h"
#include "vws/l1_fetch_arbiter_unit.h"

namespace {

using simt::mem::MemRequest;
using simt::util::cycle_time;
using simt::util::now_cycle;

// Sends one read of `addr` at each cycle of `at`; records when answers arrive.
struct Front : sc_core::sc_module {
  simt::mem::MemRequester port{"port"};
  std::vector<uint64_t> at;
  uint64_t addr;
  size_t next = 0;
  std::map<uint64_t, uint64_t> answered;  // id -> cycle

  SC_HAS_PROCESS(Front);
  Front(sc_core::sc_module_name n, std::vector<uint64_t> when, uint64_t a)
      : sc_module(n), at(std::move(when)), addr(a) {
    SC_METHOD(tick);
  }
  void tick() {
    const uint64_t now = now_cycle();
    MemRequest r;
    while (port.pop_response(r)) answered[r.id] = now;
    if (next < at.size() && at[next] <= now) {
      MemRequest q;
      q.addr = addr;
      q.bytes = 8;
      q.instruction = true;
      q.id = next;
      if (port.send(q)) ++next;
    }
    next_trigger(cycle_time());
  }
};

// Answers every line fill 20 cycles later.
struct Below : sc_core::sc_module {
  simt::mem::MemResponder port{"port", 8};
  std::vector<std::pair<uint64_t, MemRequest>> pending;
  SC_HAS_PROCESS(Below);
  explicit Below(sc_core::sc_module_name n) : sc_module(n) { SC_METHOD(tick); }
  void tick() {
    const uint64_t now = now_cycle();
    for (auto it = pending.begin(); it != pending.end();)
      if (it->first <= now) {
        port.respond(it->second);
        it = pending.erase(it);
      } else {
        ++it;
      }
    MemRequest r;
    while (port.pop_request(r)) pending.push_back({now + 20, r});
    next_trigger(cycle_time());
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(grants_cost_no_cycle_gangs_first_then_slices_in_turn) {
  simt::mem::CacheParams p;
  p.size = 4096;
  p.line = 64;
  p.assoc = 4;
  p.hit_latency = 1;
  simt::stats::Registry st;

  // Reference: one front end on a one-port L1I.
  Front ref("ref", {10, 100}, 0x40);
  Below ref_below("ref_below");
  simt::mem::CacheModule ref_l1i("ref_l1i", p, simt::mem::CachePortParams{}, st, "ref.l1i");
  ref.port.socket.bind(ref_l1i.up.socket);
  ref_l1i.down.socket.bind(ref_below.port.socket);

  // Two slices and one gang pipe on a three-input L1I with one L1 port.
  // Each warms the line at cycle 10 (one at a time: only slice 0 asks),
  // then all three ask at cycle 100, and slice 1 alone at 200.
  Front s0("s0", {10, 100}, 0x40), s1("s1", {100, 200}, 0x40), g0("g0", {100}, 0x40);
  Below below("below");
  simt::mem::CachePortParams pp;
  pp.up_ports = 3;
  pp.ports = 1;
  simt::mem::CacheModule l1i("l1i", p, pp, st, "sm0.l1i");
  simt::vws::L1FetchArbiterUnit arb("arb", 2, 1, 1, st, "sm0.l1i_arbiter");
  s0.port.socket.bind(l1i.up_port(0).socket);
  s1.port.socket.bind(l1i.up_port(1).socket);
  g0.port.socket.bind(l1i.up_port(2).socket);
  l1i.arbiter.bind(arb.grants);
  l1i.down.socket.bind(below.port.socket);

  sc_core::sc_start(simt::util::cycles(300));

  // A lone hit takes as long as on the plain L1I.
  const uint64_t lone_hit = ref.answered.at(1) - 100;
  BOOST_TEST(s1.answered.at(1) - 200 == lone_hit);
  BOOST_TEST(s0.answered.at(0) - 10 == ref.answered.at(0) - 10);  // and so does a miss
  // One port: the gang first, then the slices a cycle apart, slice 1 before
  // slice 0 (slice 0 had the last slice grant, at cycle 10).
  BOOST_TEST(g0.answered.at(0) - 100 == lone_hit);
  BOOST_TEST(s1.answered.at(0) - 100 == lone_hit + 1);
  BOOST_TEST(s0.answered.at(1) - 100 == lone_hit + 2);
  BOOST_TEST(st.counter("sm0.l1i_arbiter.gang_fetches", "").value == 1u);
  BOOST_TEST(st.counter("sm0.l1i_arbiter.slice_fetches", "").value == 4u);
  BOOST_TEST(st.counter("sm0.l1i_arbiter.waits", "").value == 3u);  // slice 1 one cycle, slice 0 two
}
