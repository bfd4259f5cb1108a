#define BOOST_TEST_MODULE tb_issue_unit
#include <boost/test/unit_test.hpp>

// A SystemC testbench of its own (one elaboration per process): the issue
// unit with stub fetch, stub pipes and a stub CTA dispatcher runs a small
// divergent kernel; its memory and instruction counts must equal the
// functional runner's.

#include <algorithm>
#include <set>
#include <vector>

#include "common/issue_tb.h"
#include "sm/pdom_branch_unit.h"
#include "stats/stats.h"
#include "util/error.h"

using namespace simt;
using namespace simt::test;

namespace {

// 64-thread CTAs: a loop whose trip count and body depend on the thread
// (nested divergence), a shared-memory exchange across both warps behind a
// barrier, an SFU op, a store to global memory.
const char* kKernel = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry tb(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<10>;
  .shared .align 4 .b32 buf[64];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  and.b32 %r3, %r1, 5;
  mov.u32 %r4, 1;
  mov.u32 %r5, 0;
LOOP:
  setp.ge.u32 %p1, %r5, %r3;
  @%p1 bra END;
  add.u32 %r6, %r5, %r1;
  and.b32 %r6, %r6, 1;
  setp.ne.u32 %p2, %r6, 0;
  @%p2 bra ODD;
  mul.lo.u32 %r4, %r4, 3;
  bra.uni CONT;
ODD:
  add.u32 %r4, %r4, %r1;
CONT:
  add.u32 %r5, %r5, 1;
  bra.uni LOOP;
END:
  add.u32 %r4, %r4, %r2;
  mov.u64 %rd5, buf;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd5, %rd6;
  st.shared.u32 [%rd7], %r4;
  bar.sync 0;
  xor.b32 %r10, %r1, 63;
  mul.wide.u32 %rd8, %r10, 4;
  add.s64 %rd9, %rd5, %rd8;
  ld.shared.u32 %r11, [%rd9];
  cvt.rn.f32.u32 %f1, %r11;
  sqrt.approx.f32 %f2, %f1;
  cvt.rzi.u32.f32 %r12, %f2;
  mul.lo.u32 %r13, %r11, 1000;
  add.u32 %r14, %r13, %r12;
  mad.lo.u32 %r15, %r2, 64, %r1;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r15, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r14;
  ret;
}
)";

constexpr uint32_t kCtas = 3;
constexpr uint32_t kThreads = 64;

}  // namespace

BOOST_AUTO_TEST_CASE(issue_unit_runs_a_divergent_kernel_like_the_functional_runner) {
  const TbKernel kern(kKernel, "tb", kCtas, kThreads);
  const uint64_t words = uint64_t{kCtas} * kThreads;

  // Reference: the functional runner on its own memory.
  const Reference ref = run_reference(kern, words);
  const std::vector<uint32_t>& expected = ref.out;
  const runtime::RunnerStats& rs = ref.rs;
  BOOST_TEST_REQUIRE(rs.max_stack_depth >= 3u);  // the kernel really diverges (nested)

  // Timing: the same kernel through the issue unit.
  func::GlobalMemory mem;
  const uint64_t out = mem.allocate(words * 4);

  sm::IssueParams p;
  p.warp_size = 32;
  p.max_warps = 4;   // two CTAs resident at a time: the third waits for a slot
  p.max_ctas = 2;
  p.schedulers = 2;
  p.policy.policy = "gto";
  p.watchdog_cycles = 5000;
  stats::Registry reg;
  sm::IssueUnit issue("issue", p, std::make_unique<sm::PdomBranchUnit>(p.max_warps, p.warp_size), reg,
                      "sm0", 7);
  FetchStub fetch("fetch");
  PipeStub sp("sp", 4, 1), sfu("sfu", 8, 2), ldst("ldst", 20, 3);
  DispatcherStub disp("disp");  // max_resident unlimited: refused launches are retried every cycle
  disp.kernel = make_context(kern, mem, out);
  disp.ctas = kCtas;
  bind_front(issue, disp, fetch);
  bind_pipes(issue, sp, sfu, ldst);
  issue.set_tracing(true);

  sc_core::sc_start(sc_core::sc_time(200000, sc_core::SC_NS), sc_core::SC_EXIT_ON_STARVATION);
  issue.rethrow_fault();
  const uint64_t end = util::now_cycle();

  // Every CTA ran and reported; the unit drained.
  BOOST_TEST(disp.next == kCtas);
  BOOST_TEST(disp.refusals > 0u);  // the third launch waited for room
  std::vector<uint64_t> fin = disp.finished;
  std::sort(fin.begin(), fin.end());
  BOOST_TEST(fin == (std::vector<uint64_t>{0, 1, 2}), boost::test_tools::per_element());
  BOOST_TEST(issue.idle());
  BOOST_TEST(end < 20000u);  // finished long before the time limit (simulation starved)

  // Same memory, same instruction counts as the functional runner.
  const std::vector<uint32_t> got = read_words(mem, out, words);
  BOOST_TEST(got == expected, boost::test_tools::per_element());
  BOOST_TEST(reg.value("sm0.warp_instructions") == rs.warp_instructions);
  BOOST_TEST(reg.value("sm0.thread_instructions") == rs.thread_instructions);
  BOOST_TEST(reg.value("sm0.max_stack_depth") == rs.max_stack_depth);
  BOOST_TEST(reg.value("sm0.ctas_done") == kCtas);
  BOOST_TEST(reg.value("sm0.ctas_launched") == kCtas);
  BOOST_TEST(reg.value("sm0.barrier_waits") == 2u * kCtas);  // both warps of each CTA wait at bar.sync
  BOOST_TEST(reg.value("sm0.ibuffer_flushes") > 0u);

  // Instructions went to the pipe of their class; LDST refusals were absorbed by the latches.
  BOOST_TEST((sp.log.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Int, ptx::InstrClass::Fp}));
  BOOST_TEST((sfu.log.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Sfu}));
  BOOST_TEST((ldst.log.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Ldst}));
  BOOST_TEST(ldst.log.refused > 0u);
  BOOST_TEST(reg.value("sm0.latch_stalls") == sp.log.refused + sfu.log.refused + ldst.log.refused);
  // Per warp: ld.param, st.shared, ld.shared, st.global; 32 accesses each except ld.param.
  BOOST_TEST(ldst.log.accepted == 4u * 2 * kCtas);
  BOOST_TEST(ldst.log.accesses == (32u + 3 * 32u) * 2 * kCtas);
  BOOST_TEST(sfu.log.accepted == 2u * kCtas);
  BOOST_TEST(fetch.credits >= rs.warp_instructions);

  // The issue breakdown: every scheduler cycle lands in exactly one bin.
  const uint64_t cycles = reg.value("sm0.cycles");
  BOOST_TEST(cycles > 0u);
  BOOST_TEST(cycles <= end);
  const auto js = reg.to_json();
  uint64_t issued_bins = 0, all_bins = 0;
  for (uint32_t s = 0; s < p.schedulers; ++s) {
    const std::string pre = "sm0.sched" + std::to_string(s);
    const auto& h = js["histograms"][pre + ".issue_breakdown"];
    const std::vector<uint64_t> bins = h["bins"].get<std::vector<uint64_t>>();
    BOOST_TEST(bins.size() == 3u + 8u);
    uint64_t sum = 0, iss = 0;
    for (size_t b = 0; b < bins.size(); ++b) {
      sum += bins[b];
      if (b >= sm::kBinIssued) iss += bins[b];
    }
    BOOST_TEST(sum == reg.value(pre + ".cycles"));
    BOOST_TEST(reg.value(pre + ".cycles") == cycles);
    BOOST_TEST(iss == reg.value(pre + ".issued"));
    BOOST_TEST(bins[sm::kBinStall] + bins[sm::kBinMem] > 0u);  // latencies made warps wait
    issued_bins += iss;
    all_bins += sum;
  }
  BOOST_TEST(issued_bins == rs.warp_instructions);
  BOOST_TEST(all_bins == p.schedulers * cycles);
  const auto& total = js["histograms"]["sm0.issue_breakdown"];
  BOOST_TEST(total["labels"][3].get<std::string>() == "W1-4");
  BOOST_TEST(total["labels"][10].get<std::string>() == "W29-32");
  // Both full-width and divergent (partial) issues happened.
  const std::vector<uint64_t> tb = total["bins"].get<std::vector<uint64_t>>();
  BOOST_TEST(tb[10] > 0u);
  uint64_t partial = 0;
  for (size_t b = 3; b < 10; ++b) partial += tb[b];
  BOOST_TEST(partial > 0u);
  BOOST_TEST(reg.value("sm0.active_lanes") == rs.thread_instructions);
  BOOST_TEST(reg.value("sm0.issue_cycles") <= rs.warp_instructions);
  BOOST_TEST(reg.value("sm0.issue_cycles") * p.schedulers >= rs.warp_instructions);
}
