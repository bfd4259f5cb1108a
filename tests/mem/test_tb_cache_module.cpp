#define BOOST_TEST_MODULE tb_cache_module
#include <boost/test/unit_test.hpp>

#include <deque>
#include <map>
#include <vector>

#include "mem/cache_module.h"
#include "mem/mem_port.h"
#include "stats/stats.h"
#include "util/cycle.h"

// One SystemC world: core stub -> L1 CacheModule -> memory stub with a fixed
// latency. The core plays a script of phases far enough apart that each
// phase starts with the cache idle; the checks come after sc_start.
namespace {

using simt::mem::MemRequest;
using simt::mem::MemRequester;
using simt::mem::MemResponder;
using simt::util::cycle_time;
using simt::util::cycles;
using simt::util::now_cycle;

struct Step {
  uint64_t cycle;  // not before this cycle
  uint64_t addr;
  bool write;
  bool atomic;
  uint64_t id;
};

struct Core : sc_core::sc_module {
  MemRequester port{"port"};
  std::vector<Step> script;
  size_t next = 0;
  std::map<uint64_t, uint64_t> sent_at, resp_at;

  SC_HAS_PROCESS(Core);
  Core(sc_core::sc_module_name n, std::vector<Step> s) : sc_module(n), script(std::move(s)) { SC_METHOD(tick); }

  void tick() {
    const uint64_t now = now_cycle();
    MemRequest r;
    while (port.pop_response(r)) resp_at[r.id] = now;
    if (next < script.size() && script[next].cycle <= now) {
      const Step& s = script[next];
      MemRequest q;
      q.addr = s.addr;
      q.bytes = 4;
      q.write = s.write;
      q.atomic = s.atomic;
      q.id = s.id;
      if (port.send(q)) {
        sent_at[s.id] = now;
        ++next;
      }
    }
    if (port.has_response() || (next < script.size() && script[next].cycle <= now + 1))
      next_trigger(cycle_time());
    else if (next < script.size())
      next_trigger(cycles(script[next].cycle - now), port.response_event());
    else
      next_trigger(port.response_event());
  }
};

// Takes one request a cycle and answers it kLatency cycles later, in order.
struct Memory : sc_core::sc_module {
  MemResponder port;
  uint32_t latency;
  std::deque<std::pair<uint64_t, MemRequest>> pending;
  std::vector<MemRequest> seen;
  std::vector<uint64_t> seen_at;

  SC_HAS_PROCESS(Memory);
  Memory(sc_core::sc_module_name n, uint32_t lat) : sc_module(n), port("port", 8), latency(lat) { SC_METHOD(tick); }

  void tick() {
    const uint64_t now = now_cycle();
    while (!pending.empty() && pending.front().first <= now) {
      port.respond(pending.front().second);
      pending.pop_front();
    }
    MemRequest r;
    if (port.pop_request(r)) {
      seen.push_back(r);
      seen_at.push_back(now);
      pending.push_back({now + latency, r});
    }
    if (!pending.empty() || port.queued() > 0)
      next_trigger(cycle_time());
    else
      next_trigger(port.request_event());
  }

  size_t count(uint64_t addr, bool write) const {
    size_t n = 0;
    for (const MemRequest& r : seen) n += (r.addr == addr && r.write == write && !r.atomic);
    return n;
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(l1_between_a_core_and_a_fixed_latency_memory) {
  // 4 sets x 2 ways x 64 B; lines 256 B apart share a set. Two MSHRs of two.
  simt::mem::CacheParams p;
  p.size = 512;
  p.line = 64;
  p.assoc = 2;
  p.mshrs = 2;
  p.mshr_merge = 2;
  p.hit_latency = 2;
  p.write_policy = "write-back";
  const uint32_t kMemLatency = 10;

  const std::vector<Step> script = {
      {0, 0x0000, false, false, 1},    // A: read miss
      {50, 0x0004, false, false, 2},   // B: same line: hit
      {100, 0x1040, false, false, 3},  // C: two reads of one line in flight:
      {100, 0x1048, false, false, 4},  //    one memory request, one merge
      {200, 0x3000, false, false, 5},  // D: four lines, two MSHRs: the third stalls
      {200, 0x3040, false, false, 6},
      {200, 0x3080, false, false, 7},
      {200, 0x30c0, false, false, 8},
      {300, 0x5000, true, false, 9},    // E: write miss -> dirty line in set 0 (evicts clean 0x0000)
      {340, 0x3000, false, false, 10},  //    touch 0x3000: 0x5000 is now LRU in set 0
      {360, 0x6000, false, false, 11},  //    miss in set 0 evicts dirty 0x5000 -> write-back
      {400, 0x7000, true, true, 12},    // F: atomic bypasses the L1
  };

  simt::stats::Registry stats;
  Core core("core", script);
  simt::mem::CacheModule l1("l1", p, stats, "sm0.l1d");
  Memory mem("mem", kMemLatency);
  core.port.socket.bind(l1.up.socket);
  l1.down.socket.bind(mem.port.socket);

  // A second, independent netlist in the same world: an L2 that performs
  // atomics (read-modify-write: a miss fetches the line, a hit dirties it).
  const std::vector<Step> l2_script = {
      {0, 0x8000, false, true, 21},   // atomic miss
      {50, 0x8010, false, true, 22},  // atomic hit on the same line
  };
  Core core2("core2", l2_script);
  simt::mem::CachePortParams l2_ports;
  l2_ports.atomics = "perform";
  simt::mem::CacheModule l2("l2", p, l2_ports, stats, "l2");
  Memory mem2("mem2", kMemLatency);
  core2.port.socket.bind(l2.up.socket);
  l2.down.socket.bind(mem2.port.socket);

  sc_core::sc_start(cycles(600));

  BOOST_TEST(core2.resp_at.count(21) == 1u);
  BOOST_TEST(core2.resp_at.count(22) == 1u);
  BOOST_TEST(mem2.seen.size() == 1u);  // only the line fill: atomics stay in the L2
  BOOST_REQUIRE(!mem2.seen.empty());
  BOOST_TEST(!mem2.seen[0].atomic);
  BOOST_TEST(!mem2.seen[0].write);
  BOOST_TEST(mem2.seen[0].addr == 0x8000u);
  BOOST_TEST(core2.resp_at[22] - core2.sent_at[22] == p.hit_latency + 2);
  BOOST_TEST(l2.cache().dirty(0x8000));
  BOOST_TEST(stats.value("l2.write_hits") == 1u);
  BOOST_TEST(stats.value("l2.write_misses") == 1u);
  BOOST_TEST(stats.value("l2.atomics_forwarded") == 0u);

  // Everything was answered, and nothing is left in flight.
  for (const Step& s : script) BOOST_TEST_CONTEXT("id " << s.id) BOOST_TEST(core.resp_at.count(s.id) == 1u);
  BOOST_TEST(core.port.outstanding() == 0u);
  BOOST_TEST(l1.cache().mshrs_in_use() == 0u);
  BOOST_TEST(l1.down.outstanding() == 0u);

  // Latency: a hit takes hit_latency plus one cycle each way through the
  // ports; a miss adds the memory's latency and its two port crossings.
  const uint64_t hit = core.resp_at[2] - core.sent_at[2];
  const uint64_t miss = core.resp_at[1] - core.sent_at[1];
  BOOST_TEST(hit == p.hit_latency + 2);
  BOOST_TEST(miss == p.hit_latency + kMemLatency + 4);

  // C: one memory request for the line, both answered by the same fill.
  BOOST_TEST(mem.count(0x1040, false) == 1u);
  BOOST_TEST(core.resp_at[3] == core.resp_at[4]);
  BOOST_TEST(stats.value("sm0.l1d.mshr_merges") == 1u);

  // D: the third line found no MSHR and waited (input stalled) until the
  // first fill; the fourth waited for the second fill. All completed.
  BOOST_TEST(stats.value("sm0.l1d.stalls") > 0u);
  BOOST_TEST(stats.value("sm0.l1d.stalls") == stats.value("sm0.l1d.reservation_fails"));
  for (uint64_t line : {0x3000, 0x3040, 0x3080, 0x30c0}) BOOST_TEST(mem.count(line, false) == 1u);
  BOOST_TEST(core.resp_at[7] >= core.resp_at[5]);
  BOOST_TEST(core.resp_at[8] >= core.resp_at[6]);
  // First fill seen at: sent 200, visible 201, down at 203, memory 204..214,
  // back at 215: the third is stalled at 203..214.
  BOOST_TEST(stats.value("sm0.l1d.stalls") == 12u);

  // E: the dirty victim goes down as a line write; the write miss fetched its line.
  size_t writes = 0;
  for (const MemRequest& r : mem.seen)
    if (r.write && !r.atomic) {
      ++writes;
      BOOST_TEST(r.addr == 0x5000u);
      BOOST_TEST(r.bytes == p.line);
    }
  BOOST_TEST(writes == 1u);
  BOOST_TEST(mem.count(0x5000, false) == 1u);
  BOOST_TEST(stats.value("sm0.l1d.writebacks") == 1u);

  // F: the atomic reached memory untouched and the cache did not count it.
  size_t atomics = 0;
  for (const MemRequest& r : mem.seen)
    if (r.atomic) {
      ++atomics;
      BOOST_TEST(r.addr == 0x7000u);
      BOOST_TEST(r.bytes == 4u);
    }
  BOOST_TEST(atomics == 1u);
  BOOST_TEST(stats.value("sm0.l1d.atomics_forwarded") == 1u);

  // Counters agree with each other and with the script: 11 cache accesses,
  // 2 hits (B and the touch of 0x3000), 9 misses (merged one included); the
  // memory saw 8 line reads, 1 write-back and the atomic.
  BOOST_TEST(stats.value("sm0.l1d.accesses") == 11u);
  BOOST_TEST(stats.value("sm0.l1d.hits") + stats.value("sm0.l1d.misses") == stats.value("sm0.l1d.accesses"));
  BOOST_TEST(stats.value("sm0.l1d.hits") == 2u);
  BOOST_TEST(stats.value("sm0.l1d.misses") == 9u);
  BOOST_TEST(mem.seen.size() == 10u);
  BOOST_TEST(stats.value("sm0.l1d.down_requests") == mem.seen.size());
  BOOST_TEST(stats.value("sm0.l1d.fills") == 8u);
}
