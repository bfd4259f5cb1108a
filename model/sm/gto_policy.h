// Greedy-then-oldest (Rogers et al., "Cache-Conscious Wavefront Scheduling",
// MICRO 2012; the VWS baseline, seed 000 Table 1 / ref [32]): keep issuing
// from the warp that issued last while it is ready; otherwise issue the
// oldest ready warp (lowest age, ties broken by lower warp id).
#pragma once

#include "sm/issue_policy.h"

namespace simt::sm {

class GtoPolicy final : public IssuePolicy {
 public:
  int pick(const std::vector<WarpCandidate>& c, uint64_t now) override;
  void on_issue(uint32_t warp, ptx::InstrClass cls, uint64_t now) override;
  void on_warp_removed(uint32_t warp) override;
  const char* name() const override { return "gto"; }
  bool idle_pick_repeats() const override { return true; }  // pick() changes nothing

 private:
  int64_t greedy_ = -1;  // warp that issued last, -1 when none
};

}  // namespace simt::sm
