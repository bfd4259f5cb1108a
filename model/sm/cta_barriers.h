// The 16 named barriers of one CTA (bar.sync / bar.arrive / bar.red), with
// the semantics of the PDOM-stack GPUs we model (sm_6x and earlier): a
// barrier counts whole warps, so threads of an arriving warp that wait
// elsewhere on its reconvergence stack (e.g. at the join after an early
// return) count as arrived, and `if (i >= n) return; __syncthreads();`
// works. Shared by the functional runner and the SM's issue stage.
#pragma once

#include <array>
#include <cstdint>

#include "func/cta_state.h"
#include "func/executor.h"
#include "ptx/ir.h"

namespace simt::sm {

class CtaBarriers {
 public:
  static constexpr uint32_t kCount = 16;

  void reset() { b_.fill(Barrier{}); }

  // A warp's arrival, as the executor reported it (Control::Barrier);
  // `warp_live` = the warp's threads that have not exited.
  void arrive(const func::StepResult& r, uint32_t warp_live) {
    Barrier& b = b_[r.bar_id];
    b.arrived += warp_live;
    b.expected = r.bar_count;
    if (r.bar_red) {
      b.red = true;
      b.red_op = r.bar_red_op;
      b.red_true += r.bar_red_true;
      b.red_count += r.taken.count();
      b.red_dest = r.bar_red_dest;
      b.red_threads |= r.taken;
    }
  }

  // Completes every barrier whose count is met (0 = `participants`, by
  // default every live thread of the CTA; a branch unit may count fewer,
  // sm/branch_unit.h), delivers bar.red results into the participants'
  // registers, and calls released(id) for each completed barrier.
  template <class F>
  void release(func::CtaState& cta, F&& released, uint32_t participants = UINT32_MAX) {
    const uint32_t live = participants != UINT32_MAX ? participants : cta.threads() - cta.exited().count();
    for (uint32_t id = 0; id < kCount; ++id) {
      Barrier& b = b_[id];
      if (b.arrived == 0 || b.arrived < (b.expected ? b.expected : live)) continue;
      if (b.red && b.red_dest != ptx::kNoReg) {
        const uint64_t v = b.red_op == ptx::BoolOp::Popc  ? b.red_true
                           : b.red_op == ptx::BoolOp::And ? (b.red_true == b.red_count ? 1 : 0)
                                                          : (b.red_true > 0 ? 1 : 0);
        b.red_threads.for_each([&](uint32_t t) { cta.reg(b.red_dest, t) = v; });
      }
      b = Barrier{};
      released(id);
    }
  }

  uint32_t arrived(uint32_t id) const { return b_[id].arrived; }
  // Threads barrier `id` waits for, given `live` threads in the CTA.
  uint32_t expected(uint32_t id, uint32_t live) const { return b_[id].expected ? b_[id].expected : live; }

 private:
  struct Barrier {
    uint32_t arrived = 0;
    uint32_t expected = 0;  // 0 = every live thread of the CTA
    bool red = false;
    ptx::BoolOp red_op = ptx::BoolOp::None;
    uint32_t red_true = 0;   // contributing threads whose predicate is true
    uint32_t red_count = 0;  // contributing (active) threads
    uint32_t red_dest = ptx::kNoReg;
    func::ThreadMask red_threads;
  };
  std::array<Barrier, kCount> b_{};
};

}  // namespace simt::sm
