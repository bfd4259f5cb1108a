#define BOOST_TEST_MODULE tb_issue_pipe_wait
#include <boost/test/unit_test.hpp>

// A SystemC testbench of its own (one elaboration per process): the issue
// unit with the real ExecPipes for SP and SFU, a stub LDST unit, stub fetch
// and a stub CTA dispatcher runs a kernel of back-to-back independent SFU
// instructions on a narrow SFU. Both schedulers' SFU latches then sit
// refused for most cycles, and the SFU says when it frees (retry_at), so
// the issue unit sleeps instead of re-offering every cycle. The test checks
// that it did sleep, that results are the functional runner's, and that the
// stall counts are what a unit offering every cycle would have counted.

#include <algorithm>
#include <set>
#include <vector>

#include "common/issue_tb.h"
#include "sm/exec_pipe.h"
#include "sm/pdom_branch_unit.h"
#include "stats/stats.h"
#include "util/error.h"

using namespace simt;
using namespace simt::test;

namespace {

// 128-thread CTAs: 16 SFU instructions that all read %f1 only (no
// dependences between them: a warp could issue one per cycle), then a chain
// of FP adds and one store. Every input is positive (lg2, sqrt, rsqrt).
const char* kKernel = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry sfu_heavy(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .f32 %f<40>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 128, %r1;
  add.u32 %r4, %r3, 1;
  cvt.rn.f32.u32 %f1, %r4;
  mul.f32 %f1, %f1, 0f3C23D70A;
  sin.approx.f32 %f2, %f1;
  cos.approx.f32 %f3, %f1;
  ex2.approx.f32 %f4, %f1;
  lg2.approx.f32 %f5, %f1;
  rcp.approx.f32 %f6, %f1;
  sqrt.approx.f32 %f7, %f1;
  rsqrt.approx.f32 %f8, %f1;
  sin.approx.f32 %f9, %f1;
  cos.approx.f32 %f10, %f1;
  ex2.approx.f32 %f11, %f1;
  lg2.approx.f32 %f12, %f1;
  rcp.approx.f32 %f13, %f1;
  sqrt.approx.f32 %f14, %f1;
  rsqrt.approx.f32 %f15, %f1;
  sin.approx.f32 %f16, %f1;
  ex2.approx.f32 %f17, %f1;
  add.f32 %f20, %f2, %f3;
  add.f32 %f20, %f20, %f4;
  add.f32 %f20, %f20, %f5;
  add.f32 %f20, %f20, %f6;
  add.f32 %f20, %f20, %f7;
  add.f32 %f20, %f20, %f8;
  add.f32 %f20, %f20, %f9;
  add.f32 %f20, %f20, %f10;
  add.f32 %f20, %f20, %f11;
  add.f32 %f20, %f20, %f12;
  add.f32 %f20, %f20, %f13;
  add.f32 %f20, %f20, %f14;
  add.f32 %f20, %f20, %f15;
  add.f32 %f20, %f20, %f16;
  add.f32 %f20, %f20, %f17;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.f32 [%rd4], %f20;
  ret;
}
)";

constexpr uint32_t kCtas = 4;
constexpr uint32_t kThreads = 128;
constexpr uint32_t kSfuPerThread = 16;

// Between the issue unit and a real ExecPipe: forwards every offer as is
// (the pipe's retry_at and refusal counter go back in the same packet) and
// logs it.
struct Tap : sc_core::sc_module {
  PacketTarget<Tap, sm::IssuePacket> in{"in", this, &Tap::on_issue};
  PacketInitiator<Tap, sm::IssuePacket> out{"out"};
  OfferLog log;
  SC_CTOR(Tap) {}
  void on_issue(sm::IssuePacket& p, sc_core::sc_time& t) {
    out->b_transport(p, t);
    log.record(p);
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(issue_unit_sleeps_while_latches_wait_for_a_busy_sfu_and_counts_as_if_it_had_offered) {
  const TbKernel kern(kKernel, "sfu_heavy", kCtas, kThreads);
  const uint64_t words = uint64_t{kCtas} * kThreads;

  // Reference: the functional runner on its own memory.
  const Reference ref = run_reference(kern, words);
  const std::vector<uint32_t>& expected = ref.out;
  const runtime::RunnerStats& rs = ref.rs;

  // Timing: the same kernel through the issue unit.
  func::GlobalMemory mem;
  const uint64_t out = mem.allocate(words * 4);

  sm::IssueParams p;
  p.warp_size = 32;
  p.max_warps = 8;   // two 4-warp CTAs resident at a time
  p.max_ctas = 2;
  p.schedulers = 2;
  p.policy.policy = "gto";  // idle_pick_repeats(): the wait is allowed
  p.watchdog_cycles = 5000;
  stats::Registry reg;
  sm::IssueUnit issue("issue", p, std::make_unique<sm::PdomBranchUnit>(p.max_warps, p.warp_size), reg,
                      "sm0", 0);

  // SP: two 16-lane units, rarely in the way. SFU: one 4-lane unit with
  // ii 4, so a 32-wide warp instruction takes 8 passes and holds it 32
  // cycles; both schedulers' SFU latches wait behind it. (With ii 1 the
  // unit still ran in ~70% of the cycles: 8-cycle gaps are hardly longer
  // than the wake-ups every SFU instruction causes anyway: its issue, the
  // fetch answer, its write-back.)
  sm::OpLatencyTable ops;
  sm::PipeParams sp_p;
  sp_p.lanes = 16;
  sp_p.units = 2;
  sp_p.latency = 4;
  sm::PipeParams sfu_p;
  sfu_p.lanes = 4;
  sfu_p.units = 1;
  sfu_p.latency = 10;
  sfu_p.ii = 4;
  const uint64_t sfu_busy = 32 / sfu_p.lanes * sfu_p.ii;  // cycles per warp instruction
  sm::ExecPipe sp("sp", sp_p, ops, reg, "sm0.sp");
  sm::ExecPipe sfu("sfu", sfu_p, ops, reg, "sm0.sfu");
  Tap sp_tap("sp_tap"), sfu_tap("sfu_tap");
  // The LDST unit leaves retry_at unknown, so while its latch is refused
  // the issue unit must keep offering every cycle.
  PipeStub ldst("ldst", 20, 3);
  FetchStub fetch("fetch");
  // Offers a CTA only while the SM has a free CTA slot: a launch parked in
  // the SM's launch queue waiting for room would keep the issue unit awake
  // every cycle.
  DispatcherStub disp("disp");
  disp.kernel = make_context(kern, mem, out);
  disp.ctas = kCtas;
  disp.max_resident = p.max_ctas;

  bind_front(issue, disp, fetch);
  bind_pipes(issue, sp_tap.in, sfu_tap.in, ldst.in, sp.writeback, sfu.writeback, ldst.wb);
  sp_tap.out.bind(sp.in);
  sfu_tap.out.bind(sfu.in);
  // No set_tracing(true): tracing turns the wait off.

  sc_core::sc_start(sc_core::sc_time(500000, sc_core::SC_NS), sc_core::SC_EXIT_ON_STARVATION);
  issue.rethrow_fault();
  const uint64_t end = util::now_cycle();

  // 1. Every CTA ran and reported; memory and instruction counts are the
  //    functional runner's.
  BOOST_TEST(disp.next == kCtas);
  std::vector<uint64_t> fin = disp.finished;
  std::sort(fin.begin(), fin.end());
  BOOST_TEST(fin == (std::vector<uint64_t>{0, 1, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(issue.idle());
  BOOST_TEST(end < 50000u);  // finished long before the time limit (simulation starved)
  const std::vector<uint32_t> got = read_words(mem, out, words);
  BOOST_TEST(got == expected, boost::test_tools::per_element());
  BOOST_TEST(reg.value("sm0.warp_instructions") == rs.warp_instructions);
  BOOST_TEST(reg.value("sm0.thread_instructions") == rs.thread_instructions);
  BOOST_TEST(reg.value("sm0.ctas_done") == kCtas);

  // The SFU was the bottleneck: it took every SFU instruction and was busy
  // for most of the run.
  const uint64_t warps = uint64_t{kCtas} * kThreads / 32;
  BOOST_TEST(sfu_tap.log.accepted == warps * kSfuPerThread);
  BOOST_TEST((sfu_tap.log.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Sfu}));
  BOOST_TEST((sp_tap.log.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Int, ptx::InstrClass::Fp}));
  BOOST_TEST((ldst.log.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Ldst}));
  const uint64_t cycles = reg.value("sm0.cycles");
  BOOST_TEST(cycles > 0u);
  BOOST_TEST(cycles <= end);
  BOOST_TEST(sfu_tap.log.accepted * sfu_busy * 10 > cycles * 9);  // SFU busy > 90% of the resident cycles

  // 2. The issue unit slept while its latches waited for the SFU: it ran in
  //    under a third of the cycles it had CTAs resident (measured: about a
  //    quarter; with can_wait_for_pipes() forced false it runs in over 99%
  //    of them), and made under a third as many SFU offers as the refusals
  //    it accounted (forced false: as many).
  const uint64_t act = issue.activations();
  BOOST_TEST_MESSAGE("activations " << act << ", resident cycles " << cycles << ", end " << end);
  BOOST_TEST(act * 3 < cycles);
  BOOST_TEST(sfu_tap.log.refused * 3 < reg.value("sm0.sfu.structural_stalls"));

  // 3. Accounting identities that hold with or without the wait.
  const uint64_t sp_stalls = reg.value("sm0.sp.structural_stalls");
  const uint64_t sfu_stalls = reg.value("sm0.sfu.structural_stalls");
  BOOST_TEST_MESSAGE("latch_stalls " << reg.value("sm0.latch_stalls") << ": sp " << sp_stalls << ", sfu "
                     << sfu_stalls << " (" << sfu_tap.log.refused << " offered), ldst " << ldst.log.refused);
  BOOST_TEST(sfu_stalls > 0u);
  BOOST_TEST(reg.value("sm0.latch_stalls") == sp_stalls + sfu_stalls + ldst.log.refused);
  // Every scheduler cycle lands in exactly one breakdown bin, slept or not.
  const auto js = reg.to_json();
  uint64_t stall = 0;
  for (uint32_t s = 0; s < p.schedulers; ++s) {
    const std::string pre = "sm0.sched" + std::to_string(s);
    const std::vector<uint64_t> bins = js["histograms"][pre + ".issue_breakdown"]["bins"].get<std::vector<uint64_t>>();
    uint64_t sum = 0;
    for (uint64_t b : bins) sum += b;
    BOOST_TEST_MESSAGE(pre << ": stall " << bins[sm::kBinStall] << ", idle " << bins[sm::kBinIdle]
                           << " of " << sum << " cycles");
    BOOST_TEST(sum == reg.value(pre + ".cycles"));
    BOOST_TEST(reg.value(pre + ".cycles") == cycles);
    BOOST_TEST(bins[sm::kBinStall] > 0u);
    stall += bins[sm::kBinStall];
  }
  // Held up by the SFU latch in most scheduler cycles. Not checked per
  // scheduler: scheduler 0's latch is offered first, so it wins the SFU
  // whenever both wait; its warps do their SFU work in bursts while
  // scheduler 1's wait, and it idles while scheduler 1 catches up: about
  // half the run.
  BOOST_TEST(stall * 2 > p.schedulers * cycles);

  // 4. The counts equal those of a unit that offered every cycle: each pipe
  //    counted one refusal per cycle a packet sat in its latch before being
  //    accepted (OfferLog::latched_cycles, from the accepted packets' issue
  //    and accept cycles), however many offers were really made. The LDST
  //    stub leaves retry_at unknown, so there every offer was really made.
  BOOST_TEST(sfu_stalls == sfu_tap.log.latched_cycles);
  BOOST_TEST(sp_stalls == sp_tap.log.latched_cycles);
  BOOST_TEST(ldst.log.refused > 0u);  // the unknown-retry path was exercised
  BOOST_TEST(ldst.log.refused == ldst.log.latched_cycles);
  BOOST_TEST(reg.value("sm0.latch_stalls") ==
             sfu_tap.log.latched_cycles + sp_tap.log.latched_cycles + ldst.log.latched_cycles);
}
