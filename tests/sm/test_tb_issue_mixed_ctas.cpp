#define BOOST_TEST_MODULE tb_issue_mixed_ctas
#include <boost/test/unit_test.hpp>

// The issue stage runs warps that hold threads of two CTAs (what DWF's
// SM-wide warp pool forms): a test branch unit pairs CTAs as they start and
// puts half of each CTA into the other's warp slot. Every instruction then
// runs on both CTAs' state (registers, shared memory, exits), reserves and
// releases registers per CTA, and a CTA finishes only when its last thread
// exited in whichever slot it was. Results must equal the functional
// runner's, which runs each CTA alone.

#include <algorithm>
#include <map>
#include <vector>

#include "common/issue_tb.h"
#include "stats/stats.h"
#include "util/error.h"

using namespace simt;
using namespace simt::test;

namespace {

// Each thread stores ctaid*100 + tid in shared memory, reads its
// neighbour's (tid ^ 1, same CTA and same half of the warp), stores it,
// reloads it from global memory (a long-latency write-back) and stores it + 1.
const char* kKernel = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry tb(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  .shared .align 4 .b32 buf[32];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 100, %r1;
  mov.u64 %rd3, buf;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.shared.u32 [%rd5], %r3;
  xor.b32 %r4, %r1, 1;
  mul.wide.u32 %rd6, %r4, 4;
  add.s64 %rd7, %rd3, %rd6;
  ld.shared.u32 %r5, [%rd7];
  mad.lo.u32 %r6, %r2, 32, %r1;
  mul.wide.u32 %rd8, %r6, 4;
  add.s64 %rd9, %rd2, %rd8;
  st.global.u32 [%rd9], %r5;
  ld.global.u32 %r7, [%rd9];
  add.u32 %r8, %r7, 1;
  st.global.u32 [%rd9], %r8;
  ret;
}
)";

constexpr uint32_t kCtas = 4;
constexpr uint32_t kThreads = 32;

// Pairs CTAs in start order (each has one 32-thread warp slot): slot of CTA
// a runs a's threads 0-15 with b's 16-31, slot of b runs b's 0-15 with a's
// 16-31. Straight-line kernels only.
class PairingBranchUnit final : public sm::BranchUnit {
 public:
  PairingBranchUnit(uint32_t slots, uint32_t warp_size) : BranchUnit(slots, warp_size) { mixes_ctas_ = true; }
  const char* name() const override { return "pairing"; }
  uint64_t mixed_steps = 0;

  void start_cta(uint32_t cta, const sm::BranchKernel&, const func::ThreadMask& threads,
                 const std::vector<uint32_t>& warp_slots) override {
    if (threads.count() != kThreads || warp_slots.size() != 1) throw std::logic_error("pairing: one 32-thread warp per CTA");
    const uint32_t s = warp_slots[0];
    set(s, sm::SlotState::Waiting, cta, {}, {});
    home_[cta] = s;
    exited_[cta].clear();
    if (!waiting_) {
      waiting_ = true;
      first_ = cta;
      return;
    }
    waiting_ = false;
    partner_[first_] = cta;
    partner_[cta] = first_;
    const func::ThreadMask lo = func::ThreadMask::range(0, 16), hi = func::ThreadMask::range(16, 16);
    set(home_[first_], sm::SlotState::Running, first_, lo, {sm::WarpPart{cta, hi}});
    set(home_[cta], sm::SlotState::Running, cta, lo, {sm::WarpPart{first_, hi}});
  }

  void executed(uint32_t, const ptx::Instr&, const func::StepResult&, const func::ThreadMask&) override {
    throw std::logic_error("pairing: a warp of one CTA executed");
  }

  void executed_parts(uint32_t s, const ptx::Instr&, const std::vector<sm::PartStep>& parts) override {
    sm::WarpSlot& w = slots_[s];
    if (parts.size() != 2 || parts[0].cta != w.cta || parts[1].cta != w.others[0].cta)
      throw std::logic_error("pairing: parts do not match the slot");
    ++mixed_steps;
    const func::Control c = parts[0].r->control;
    if (parts[1].r->control != c) throw std::logic_error("pairing: the parts went different ways");
    if (c == func::Control::Next) {
      ++w.pc;  // a plain advance: no version bump
      return;
    }
    if (c != func::Control::Exit) throw std::logic_error("pairing: straight-line kernels only");
    for (const sm::PartStep& q : parts) exited_[q.cta] = *q.exited;
    const uint32_t a = w.cta, b = w.others[0].cta;
    set(s, sm::SlotState::Waiting, a, {}, {});
    // Both CTAs are done once every thread of both exited (each slot ran its ret).
    if (exited_[a].count() == kThreads && exited_[b].count() == kThreads) {
      set(home_[a], sm::SlotState::Retired, a, {}, {});
      set(home_[b], sm::SlotState::Retired, b, {}, {});
    }
  }

 private:
  void set(uint32_t s, sm::SlotState st, uint32_t cta, const func::ThreadMask& m, std::vector<sm::WarpPart> others) {
    sm::WarpSlot& w = slots_[s];
    w.state = st;
    w.cta = cta;
    w.pc = 0;
    w.mask = m;
    w.scope = m;
    w.others = std::move(others);
    w.depth = st == sm::SlotState::Running ? 1 : 0;
    touch(s);
  }
  bool waiting_ = false;
  uint32_t first_ = 0;
  std::map<uint32_t, uint32_t> home_, partner_;
  std::map<uint32_t, func::ThreadMask> exited_;
};

}  // namespace

BOOST_AUTO_TEST_CASE(warps_with_threads_of_two_ctas_run_like_each_cta_alone) {
  const TbKernel kern(kKernel, "tb", kCtas, kThreads);
  const uint64_t words = uint64_t{kCtas} * kThreads;
  const Reference ref = run_reference(kern, words);
  for (uint32_t c = 0; c < kCtas; ++c)
    for (uint32_t t = 0; t < kThreads; ++t) BOOST_TEST_REQUIRE(ref.out[c * kThreads + t] == c * 100 + (t ^ 1) + 1);

  func::GlobalMemory mem;
  const uint64_t out = mem.allocate(words * 4);
  sm::IssueParams p;
  p.warp_size = 32;
  p.max_warps = 2;  // two CTAs at a time, paired
  p.max_ctas = 2;
  p.schedulers = 2;
  p.policy.policy = "lrr";
  p.watchdog_cycles = 5000;
  stats::Registry reg;
  auto unit = std::make_unique<PairingBranchUnit>(p.max_warps, p.warp_size);
  const PairingBranchUnit& pairing = *unit;
  sm::IssueUnit issue("issue", p, std::move(unit), reg, "sm0");
  FetchStub fetch("fetch");
  PipeStub sp("sp", 4, 1), sfu("sfu", 8, 2), ldst("ldst", 30, 1);
  DispatcherStub disp("disp");
  disp.kernel = make_context(kern, mem, out);
  disp.ctas = kCtas;
  disp.max_resident = 2;
  bind_front(issue, disp, fetch);
  bind_pipes(issue, sp, sfu, ldst);

  sc_core::sc_start(sc_core::sc_time(200000, sc_core::SC_NS), sc_core::SC_EXIT_ON_STARVATION);
  issue.rethrow_fault();

  std::vector<uint64_t> fin = disp.finished;
  std::sort(fin.begin(), fin.end());
  BOOST_TEST(fin == (std::vector<uint64_t>{0, 1, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(issue.idle());
  BOOST_TEST(read_words(mem, out, words) == ref.out, boost::test_tools::per_element());
  // Every instruction ran as one warp instruction over both CTAs' halves.
  BOOST_TEST(reg.value("sm0.warp_instructions") == ref.rs.warp_instructions);
  BOOST_TEST(reg.value("sm0.thread_instructions") == ref.rs.thread_instructions);
  BOOST_TEST(pairing.mixed_steps == ref.rs.warp_instructions);
  BOOST_TEST(ldst.log.mixed == ldst.log.accepted);
  BOOST_TEST(ldst.log.other_part_accesses * 2 == ldst.log.accesses);  // half of each warp's accesses are part 1's
  BOOST_TEST(reg.value("sm0.ctas_done") == kCtas);
}
