#define BOOST_TEST_MODULE tb_ldst_unit
#include <boost/test/unit_test.hpp>

#include <map>

#include "config/param_registry.h"
#include "func/address_space.h"
#include "util/error.h"
#include "sm/ldst_unit.h"
#include "util/cycle.h"
#include "common/cache_stub.h"
#include "common/ldst_issue_stub.h"

// One SystemC world: an issue stub drives a script of LDST instructions at
// fixed cycles and takes the write-backs; a stub L1D answers every request a
// fixed latency after it saw it (one request's answer can be delayed, and
// the stub can stop taking requests for a window: backpressure).
namespace {

using namespace simt;
using sc_core::sc_time;

constexpr uint32_t kLatency = 20;   // stub L1D
constexpr uint32_t kSm = 2;


using test::IssueStub;
using test::Step;

using test::CacheStub;
using test::Seen;

sm::IssuePacket packet(uint32_t warp, ptx::Space space, uint64_t base, uint64_t stride, uint32_t threads = 32,
                       uint8_t size = 4) {
  sm::IssuePacket p;
  p.warp = warp;
  p.is_load = true;
  p.long_latency = true;
  p.cta_threads = 64;
  p.active_lanes = threads;
  for (uint32_t t = 0; t < threads; ++t) p.accesses.push_back(func::MemAccess{t, space, size, base + t * stride});
  return p;
}

constexpr uint64_t G = func::kGlobalHeapBase;

}  // namespace

BOOST_AUTO_TEST_CASE(ldst_parameters_bind_under_ldst_and_shmem) {
  sm::LdstParams lp;
  config::ParamRegistry r;
  lp.bind(r);
  BOOST_TEST(r.has("ldst.line"));
  BOOST_TEST(r.has("ldst.queue"));
  BOOST_TEST(r.has("shmem.banks"));
  BOOST_TEST(r.has("shmem.latency"));
  r.set("ldst.line", "64", "test");
  r.set("shmem.banks", "16", "test");
  BOOST_TEST(lp.line == 64u);
  BOOST_TEST(lp.shared.banks == 16u);
  lp.line = 96;  // not a power of two
  BOOST_CHECK_THROW(lp.validate(), simt::Error);
  lp.line = 128;
  lp.queue = 0;
  BOOST_CHECK_THROW(lp.validate(), simt::Error);
}

BOOST_AUTO_TEST_CASE(ldst_unit_timing_through_its_sockets) {
  stats::Registry st;
  sm::LdstParams lp;  // line 128, 32 banks x 4 B, shared latency 13
  lp.queue = 8;       // small, so the test can fill it
  sm::LdstUnit ldst("ldst", lp, st, "sm2.ldst", kSm);
  IssueStub issue("issue");
  CacheStub l1d("l1d", kLatency);
  CacheStub tex("tex", kLatency);  // no texture access here: it must see nothing
  issue.out.bind(ldst.in);
  ldst.writeback.bind(issue.wb);
  ldst.l1d.socket.bind(l1d.port.socket);
  ldst.tex.socket.bind(tex.port.socket);

  auto& S = issue.script;
  S.push_back({10, packet(1, ptx::Space::Global, G, 4)});                 // unit stride: 1 line
  S.push_back({100, packet(2, ptx::Space::Global, G + 0x10000, 128)});    // stride 128: 32 lines
  S.push_back({200, packet(3, ptx::Space::Shared, 0, 4)});                // shared, conflict-free
  S.push_back({300, packet(4, ptx::Space::Shared, 0, 8)});                // shared, stride 2 words
  {
    sm::IssuePacket st_pkt = packet(5, ptx::Space::Global, G + 0x20000, 4);
    st_pkt.is_load = false;
    st_pkt.is_store = true;
    st_pkt.long_latency = false;
    S.push_back({400, st_pkt});
    sm::IssuePacket at = packet(6, ptx::Space::Global, G + 0x30000, 0);  // every thread, one word
    at.is_atomic = true;
    S.push_back({500, at});
  }
  {
    sm::IssuePacket loc = packet(7, ptx::Space::Local, 8, 0);  // each thread's local word 2
    loc.cta_slot = 3;
    loc.local_bytes = 16;
    S.push_back({600, loc});
    S.push_back({650, packet(8, ptx::Space::Param, 0, 0)});   // every thread reads param 0
  }
  S.push_back({700, packet(9, ptx::Space::Global, G + 0x40000, 128, 4)});  // 4 lines, the last one slow
  l1d.slow_addr = G + 0x40000 + 3 * 128;
  l1d.slow_extra = 100;
  S.push_back({1000, packet(10, ptx::Space::Global, G + 0x50000, 128)});   // 32 lines into a stalled L1D
  l1d.stall_from = 1000;
  l1d.stall_to = 1100;
  for (uint32_t w = 20; w < 29; ++w) S.push_back({1300, packet(w, ptx::Space::Shared, 0, 4)});  // 9 > queue
  S.push_back({1500, packet(30, ptx::Space::Shared, 0, 4)});  // its write-back refused until 1530
  issue.refuse_wb_from = 1500;
  issue.refuse_wb_to = 1530;

  sc_core::sc_start(util::cycles(2000));

  for (const Step& s : S) {
    BOOST_TEST_INFO("warp " << s.pkt.warp);
    BOOST_TEST(issue.written_back_at.count(s.pkt.warp) == 1u);
  }
  auto wb = [&](uint32_t w) { return issue.written_back_at.at(w); };
  auto acc = [&](uint32_t w) { return issue.accepted_at.at(w); };

  // Unit stride: one 128-byte read request; done one L1D round trip later.
  const auto r1 = l1d.in_range(G, G + 0x10000);
  BOOST_TEST(r1.size() == 1u);
  BOOST_TEST(r1[0]->req.addr == G);
  BOOST_TEST(r1[0]->req.bytes == 128u);
  BOOST_TEST(!r1[0]->req.write);
  BOOST_TEST(r1[0]->req.source == kSm);
  const uint64_t lat1 = wb(1) - acc(1);
  BOOST_TEST(lat1 >= kLatency + 2);
  BOOST_TEST(lat1 <= kLatency + 6);
  BOOST_TEST(issue.wb_long.at(1) == 1u);

  // Stride 128: 32 requests, one per cycle, so 31 cycles longer.
  const auto r2 = l1d.in_range(G + 0x10000, G + 0x20000);
  BOOST_TEST(r2.size() == 32u);
  for (size_t i = 0; i < r2.size(); ++i) BOOST_TEST(r2[i]->req.addr == G + 0x10000 + 128 * i);  // in order
  BOOST_TEST(r2.back()->cycle - r2.front()->cycle == 31u);
  BOOST_TEST(wb(2) - acc(2) == lat1 + 31);
  BOOST_TEST(wb(2) >= l1d.last_answer(G + 0x10000, G + 0x20000));

  // Shared memory: conflict-free = latency after the cycle it starts (the
  // cycle after acceptance); stride 2 words = 2 bank cycles, one later.
  BOOST_TEST(wb(3) - acc(3) == 1u + lp.shared.latency);
  BOOST_TEST(wb(4) - acc(4) == 2u + lp.shared.latency);

  // Store: one write request, written back once acknowledged.
  const auto r5 = l1d.in_range(G + 0x20000, G + 0x30000);
  BOOST_TEST(r5.size() == 1u);
  BOOST_TEST(r5[0]->req.write);
  BOOST_TEST(!r5[0]->req.atomic);
  BOOST_TEST(wb(5) >= r5[0]->answered);
  BOOST_TEST(issue.wb_long.at(5) == 0u);

  // Atomic on one word by every thread: one request flagged atomic.
  const auto r6 = l1d.in_range(G + 0x30000, G + 0x40000);
  BOOST_TEST(r6.size() == 1u);
  BOOST_TEST(r6[0]->req.atomic);
  BOOST_TEST(r6[0]->req.bytes == 4u);

  // Local: word 2 of threads 0..31 of a 64-thread CTA in slot 3 is
  // interleaved into one line of the SM's local region.
  const uint64_t lbase = sm::LdstUnit::kLocalRegion + (uint64_t{kSm} << 40) + (uint64_t{3} << 32);
  const auto r7 = l1d.in_range(lbase, lbase + (uint64_t{1} << 32));
  BOOST_TEST(r7.size() == 1u);
  if (!r7.empty()) BOOST_TEST(r7[0]->req.addr == lbase + 2 * 64 * 4);
  // Param: its own window, never a device address.
  const auto r8 = l1d.in_range(func::kParamWindow, func::kParamWindow + func::kWindowSize);
  BOOST_TEST(r8.size() == 1u);

  // The write-back waits for the last (slow) response, not the first ones.
  const auto r9 = l1d.in_range(G + 0x40000, G + 0x50000);
  BOOST_TEST(r9.size() == 4u);
  BOOST_TEST(l1d.last_answer(G + 0x40000, G + 0x50000) >= 700 + 100 + kLatency);
  BOOST_TEST(wb(9) >= l1d.last_answer(G + 0x40000, G + 0x50000));
  BOOST_TEST(wb(9) - acc(9) >= 100 + kLatency);

  // Backpressure: the stalled L1D (4 requests held) makes the unit wait;
  // all 32 requests get through afterwards.
  const auto r10 = l1d.in_range(G + 0x50000, G + 0x60000);
  BOOST_TEST(r10.size() == 32u);
  BOOST_TEST(r10.front()->cycle >= 1100u);
  BOOST_TEST(st.value("sm2.ldst.mem_pipeline_stall_cycles") >= 90u);
  // 4 queued + 1 held were sent before the stall; 27 more follow, one a cycle.
  BOOST_TEST(wb(10) >= 1100 + 26 + kLatency);
  BOOST_TEST(wb(10) >= l1d.last_answer(G + 0x50000, G + 0x60000));
  BOOST_TEST_MESSAGE("stall cycles " << st.value("sm2.ldst.mem_pipeline_stall_cycles") << ", wb(10) " << wb(10)
                                     << ", wb(1)-acc(1) " << wb(1) - acc(1));

  // A full queue refuses: the 9th of a burst waits until the 1st has written
  // back, and gets in the cycle after.
  BOOST_TEST(issue.refusals[28] > 0u);
  BOOST_TEST(issue.refusals[27] == 0u);
  BOOST_TEST(acc(28) == wb(20) + 1);

  // A refused write-back is retried each cycle.
  BOOST_TEST(wb(30) == 1530u);
  BOOST_TEST(st.value("sm2.ldst.writeback_stall_cycles") == 1530u - (acc(30) + 1 + lp.shared.latency));
  BOOST_TEST(issue.wb_refused == st.value("sm2.ldst.writeback_stall_cycles"));

  // Counters.
  BOOST_TEST(st.value("sm2.ldst.instructions") == S.size());
  BOOST_TEST(st.value("sm2.ldst.requests") == 1u + 32 + 1 + 1 + 1 + 1 + 4 + 32);
  BOOST_TEST(st.value("sm2.ldst.shared_cycles") == 1u + 2 + 9 + 1);
  BOOST_TEST(st.value("sm2.ldst.bank_conflicts") == 1u);
  BOOST_TEST(st.value("sm2.shmem.bank_conflicts") == 1u);
  const stats::Histogram& h = st.histogram("sm2.ldst.requests_per_instruction", 0, 1, 129);
  BOOST_TEST(h.bins[0] == 12u);   // the shared-only instructions
  BOOST_TEST(h.bins[1] == 5u);
  BOOST_TEST(h.bins[4] == 1u);
  BOOST_TEST(h.bins[32] == 2u);
  BOOST_TEST(ldst.in_flight() == 0u);
  // It sleeps while idle and while it only waits for responses: it runs on
  // busy cycles (about one per request, bank cycle and write-back attempt)
  // and once per response arrival, far fewer than the 2000 simulated.
  BOOST_TEST_MESSAGE("activations " << ldst.activations());
  BOOST_TEST(ldst.activations() < 400u);
  BOOST_TEST(ldst.l1d.outstanding() == 0u);
  BOOST_TEST(l1d.seen.size() == st.value("sm2.ldst.requests"));
  BOOST_TEST(tex.seen.empty());
  BOOST_TEST(st.value("sm2.ldst.tex_requests") == 0u);
}
