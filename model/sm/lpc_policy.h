// Lowest-PC-first (seed 000 §6.3, the per-slice scheduler of I-VWS-LPC):
// issue the ready warp whose next instruction has the lowest PC, ties to the
// oldest warp (lowest age, then lower warp id). Warps behind on the same
// code catch up, which favours reconvergence. The issue stage puts each
// warp's PC in WarpCandidate::priority for a policy that says wants_pc().
#pragma once

#include "sm/issue_policy.h"

namespace simt::sm {

class LpcPolicy final : public IssuePolicy {
 public:
  int pick(const std::vector<WarpCandidate>& c, uint64_t now) override;
  const char* name() const override { return "lpc"; }
  bool wants_pc() const override { return true; }
  bool idle_pick_repeats() const override { return true; }  // pick() changes nothing
};

}  // namespace simt::sm
