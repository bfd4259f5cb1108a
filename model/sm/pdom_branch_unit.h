// The baseline branch unit: one immediate-post-dominator reconvergence stack
// per static warp (sm/simt_stack.h), as in Fermi-era GPUs and seed 001 §2.
// Warps never change their threads; a diverged warp runs the stack top's
// threads. Calls push an entry that pops at the return address.
#pragma once

#include <vector>

#include "sm/branch_unit.h"
#include "sm/simt_stack.h"

namespace simt::sm {

class PdomBranchUnit final : public BranchUnit {
 public:
  PdomBranchUnit(uint32_t slots, uint32_t warp_size);
  const char* name() const override { return "pdom"; }

  void start_cta(uint32_t cta, const BranchKernel& k, const func::ThreadMask& threads,
                 const std::vector<uint32_t>& warp_slots) override;
  void executed(uint32_t s, const ptx::Instr& in, const func::StepResult& r,
                const func::ThreadMask& exited) override;
  // Whole-warp barrier counting: threads of the warp waiting elsewhere on
  // its stack count as arrived (sm/cta_barriers.h).
  uint32_t barrier_weight(uint32_t s, const func::ThreadMask& exited) const override {
    return slots_[s].scope.minus(exited).count();
  }
  void register_stats(stats::Registry& r, const std::string& prefix) override;
  uint32_t take_max_depth() override;

 private:
  void sync(uint32_t s);  // slot view <- stack top

  std::vector<SimtStack> stacks_;        // per slot
  std::vector<const ptx::Cfg*> cfg_;     // per slot: its kernel's CFG
  uint32_t max_depth_ = 0;               // since take_max_depth()
  stats::Counter* st_max_depth_ = nullptr;
  stats::Counter* st_divergences_ = nullptr;
};

}  // namespace simt::sm
