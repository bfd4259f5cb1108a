#define BOOST_TEST_MODULE tb_fetch_decode
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <ostream>
#include <set>
#include <tuple>
#include <vector>

#include "mem/mem_port.h"
#include "sm/decode_unit.h"
#include "sm/fetch_unit.h"
#include "stats/stats.h"
#include "util/cycle.h"
#include "util/error.h"

// One SystemC world with two front ends (stub issue -> FetchUnit -> stub
// L1I, FetchUnit -> DecodeUnit -> stub issue):
//  A: L1I answers in 5 cycles (30 for addresses in its slow set); the stub
//     issue runs the scripted phases below;
//  B: L1I answers in 15 cycles, decode takes 3; one credit, to see both
//     latencies in the timing.
using namespace simt;
using sm::FetchCredit;
using sm::FetchedInstr;
using util::cycles;
using util::now_cycle;

namespace {

constexpr uint64_t kCodeBase = 0x1000;
constexpr uint64_t addr_of(uint32_t pc) { return kCodeBase + uint64_t(pc) * 8; }

void wait_until(uint64_t cycle) {
  if (cycles(cycle) > sc_core::sc_time_stamp()) sc_core::wait(cycles(cycle) - sc_core::sc_time_stamp());
}

// An L1I that answers each request `latency` cycles after it saw it (or
// `slow_latency` for addresses in `slow`), recording what it was asked.
struct StubL1I : sc_core::sc_module {
  mem::MemResponder port;
  uint32_t latency, slow_latency = 0;
  std::set<uint64_t> slow;
  struct Seen {
    uint64_t cycle, addr;
    uint32_t bytes;
    bool instruction, write;
  };
  std::vector<Seen> seen;
  std::deque<std::pair<uint64_t, mem::MemRequest>> due;  // (answer cycle, request)

  StubL1I(sc_core::sc_module_name n, uint32_t lat) : sc_core::sc_module(n), port("port", 4), latency(lat) {
    SC_HAS_PROCESS(StubL1I);
    SC_THREAD(run);
  }
  void run() {
    for (;;) {
      mem::MemRequest r;
      while (port.pop_request(r)) {
        seen.push_back({now_cycle(), r.addr, r.bytes, r.instruction, r.write});
        uint64_t at = now_cycle() + (slow.count(r.addr) ? slow_latency : latency);
        auto it = due.begin();
        while (it != due.end() && it->first <= at) ++it;
        due.insert(it, {at, r});
      }
      while (!due.empty() && due.front().first <= now_cycle()) {
        port.respond(due.front().second);
        due.pop_front();
      }
      sc_core::wait(util::cycle_time());
    }
  }
};

struct Arrival {
  uint64_t cycle;
  uint32_t warp, pc, gen;
  bool operator==(const Arrival& o) const {
    return std::tie(cycle, warp, pc, gen) == std::tie(o.cycle, o.warp, o.pc, o.gen);
  }
};
std::ostream& operator<<(std::ostream& os, const Arrival& a) {
  return os << "{cycle " << a.cycle << " warp " << a.warp << " pc " << a.pc << " gen " << a.gen << "}";
}

// The issue side: hands out credits and records what decode delivers.
struct StubIssue : sc_core::sc_module {
  simt::util::PacketInitiator<StubIssue, FetchCredit> credits{"credits"};
  simt::util::PacketTarget<StubIssue, FetchedInstr> in{"in", this, &StubIssue::receive};
  std::vector<Arrival> got;
  std::set<uint64_t> refuse_cycles;
  bool script_b = false;
  std::vector<std::pair<uint32_t, bool>> phase2_results;  // (pc, accepted)

  SC_CTOR(StubIssue) { SC_THREAD(run); }

  bool credit(uint32_t warp, uint32_t pc, uint32_t gen) {
    FetchCredit c;
    c.warp = warp;
    c.pc = pc;
    c.gen = gen;
    c.addr = addr_of(pc);
    c.bytes = 8;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    credits->b_transport(c, t);
    return c.accepted;
  }
  void receive(FetchedInstr& fi, sc_core::sc_time&) {
    if (refuse_cycles.count(now_cycle())) return;  // I-buffer full this cycle
    fi.accepted = true;
    got.push_back({now_cycle(), fi.warp, fi.pc, fi.gen});
  }
  void run() {
    wait_until(1);
    if (script_b) {
      credit(0, 0, 0);
      return;
    }
    // Phase 1: warps 0 and 1.
    credit(0, 10, 0);
    credit(1, 20, 0);
    // Phase 2: all three at once, after warp 1 was fetched last; a second
    // credit of the same generation for warp 1 is refused, a newer one replaces it.
    wait_until(20);
    using C = std::tuple<uint32_t, uint32_t, uint32_t>;  // warp, pc, gen
    for (auto [w, pc, gen] : std::initializer_list<C>{{0, 11, 0}, {1, 21, 0}, {2, 30, 0}, {1, 22, 0}, {1, 99, 1}})
      phase2_results.push_back({pc, credit(w, pc, gen)});
    // Phase 3: warp 2 is redirected while its fetch is in flight.
    wait_until(40);
    credit(2, 40, 1);
    wait_until(43);
    credit(2, 50, 2);
    // Phase 4: warp 0 misses in the L1I on pc 60 and hits on pc 61.
    wait_until(60);
    credit(0, 60, 0);
    wait_until(62);
    credit(0, 61, 0);
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(fetch_and_decode_through_sockets) {
  stats::Registry reg;
  sm::FetchParams fp;
  sm::DecodeParams dp;

  sm::FetchUnit fetch_a("fetch_a", fp, 3, reg, "a.fetch");
  sm::DecodeUnit decode_a("decode_a", dp, reg, "a.decode");
  StubL1I l1i_a("l1i_a", 5);
  l1i_a.slow_latency = 30;
  l1i_a.slow.insert(addr_of(60));
  StubIssue issue_a("issue_a");
  issue_a.refuse_cycles.insert(10);
  issue_a.credits.bind(fetch_a.credits);
  fetch_a.icache.socket.bind(l1i_a.port.socket);
  fetch_a.out.bind(decode_a.in);
  decode_a.out.bind(issue_a.in);

  sm::FetchUnit fetch_b("fetch_b", fp, 3, reg, "b.fetch");
  sm::DecodeParams dp_b;
  dp_b.latency = 3;
  sm::DecodeUnit decode_b("decode_b", dp_b, reg, "b.decode");
  StubL1I l1i_b("l1i_b", 15);
  StubIssue issue_b("issue_b");
  issue_b.script_b = true;
  issue_b.credits.bind(fetch_b.credits);
  fetch_b.icache.socket.bind(l1i_b.port.socket);
  fetch_b.out.bind(decode_b.in);
  decode_b.out.bind(issue_b.in);

  sc_core::sc_start(cycles(200));

  // Fetch order seen by the L1I: one read per cycle, LRR over credited warps.
  // Phase 2 starts after warp 1 (fetched last), so 2, 0, 1 — not 0, 1, 2.
  std::vector<uint64_t> addrs, when;
  for (const auto& s : l1i_a.seen) {
    addrs.push_back(s.addr);
    when.push_back(s.cycle);
    BOOST_TEST(s.bytes == 8u);
    BOOST_TEST(s.instruction);
    BOOST_TEST(!s.write);
  }
  std::vector<uint64_t> want_addrs;
  for (uint32_t pc : {10, 20, 30, 11, 99, 40, 50, 60, 61}) want_addrs.push_back(addr_of(pc));
  BOOST_TEST(addrs == want_addrs, boost::test_tools::per_element());
  // A read sent in cycle s is seen by the L1I in s + 1; credits given in
  // cycle c are fetched from c + 1.
  BOOST_TEST(when == (std::vector<uint64_t>{3, 4, 22, 23, 24, 42, 45, 62, 64}), boost::test_tools::per_element());

  BOOST_TEST((issue_a.phase2_results ==
              std::vector<std::pair<uint32_t, bool>>{{11, true}, {21, true}, {30, true}, {22, false}, {99, true}}));

  // What reached issue. A read sent in cycle s is answered in s + 1 + 5,
  // seen by fetch in s + 7, decoded for one cycle: at issue in s + 8.
  //  - phase 1: warp 0 refused by issue in cycle 10, so 11 and 12;
  //  - phase 2: one instruction per credit, warp 1 with the replacing credit;
  //  - phase 3: the stale generation 1 still arrives (issue drops it), then gen 2;
  //  - phase 4: pc 61 returned first (hit under miss) but waits for pc 60.
  std::vector<Arrival> want{{11, 0, 10, 0}, {12, 1, 20, 0},                 //
                            {29, 2, 30, 0}, {30, 0, 11, 0}, {31, 1, 99, 1}, //
                            {49, 2, 40, 1}, {52, 2, 50, 2},                 //
                            {94, 0, 60, 0}, {95, 0, 61, 0}};
  BOOST_TEST(issue_a.got == want, boost::test_tools::per_element());

  BOOST_TEST(reg.value("a.fetch.fetches") == 9u);
  BOOST_TEST(reg.value("a.fetch.redirected_credits") == 1u);
  BOOST_TEST(reg.value("a.fetch.icache_waits") == 8u * 7 + 32);
  BOOST_TEST(reg.value("a.decode.decoded") == 9u);
  BOOST_TEST(reg.value("a.decode.stall_cycles") == 1u);
  BOOST_TEST(fetch_a.pending_work() == 0u);
  BOOST_TEST(decode_a.occupancy() == 0u);

  // Latencies show one for one: front end B has 10 more cycles of L1I and
  // 2 more of decode, so 12 more from credit to arrival (credit in cycle 1,
  // read at 2, answered at 3 + 15, at decode 19, at issue 19 + 3).
  BOOST_TEST(issue_b.got == (std::vector<Arrival>{{22, 0, 0, 0}}), boost::test_tools::per_element());
  uint64_t a_span = 49 - 40, b_span = issue_b.got.at(0).cycle - 1;
  BOOST_TEST(b_span - a_span == 12u);
  // Blocks waiting on the L1I or on a credit sleep instead of running every cycle.
  BOOST_TEST(fetch_b.activations() <= 4u);
  BOOST_TEST(decode_b.activations() <= 3u);
  BOOST_TEST(fetch_a.activations() <= 40u);
}

BOOST_AUTO_TEST_CASE(parameters_refuse_what_is_not_modelled) {
  sm::FetchParams fp;
  fp.scheduler = "gto";
  BOOST_CHECK_THROW(fp.validate("fetch"), Error);
  fp.scheduler = "lrr";
  fp.width = 2;
  BOOST_CHECK_THROW(fp.validate("fetch"), Error);
  sm::DecodeParams dp;
  dp.latency = 0;
  BOOST_CHECK_THROW(dp.validate("decode"), Error);
}
