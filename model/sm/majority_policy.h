// Majority scheduling of dynamic warp formation (Fung et al., MICRO 2007;
// seed 001 §2.3): issue a ready warp at the PC shared by the most threads,
// so the majority advances together and stragglers can join it. The branch
// unit supplies the count as WarpCandidate::priority; ties go to the oldest
// warp (lowest age).
#pragma once

#include "sm/issue_policy.h"

namespace simt::sm {

class MajorityPolicy final : public IssuePolicy {
 public:
  int pick(const std::vector<WarpCandidate>& c, uint64_t now) override;
  const char* name() const override { return "majority"; }
  bool idle_pick_repeats() const override { return true; }  // pick() changes nothing
};

}  // namespace simt::sm
