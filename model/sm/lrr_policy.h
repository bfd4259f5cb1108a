// Loose round robin: the search for a ready warp starts just after the warp
// that issued last (by warp id, wrapping), so every ready warp gets its turn
// and a stalled warp is skipped without losing its place.
#pragma once

#include "sm/issue_policy.h"

namespace simt::sm {

// Loose round-robin order: distance of warp `w` from the one after `last`
// (the warp that issued last, -1 = none), wrapping. Smaller goes first.
inline uint64_t lrr_key(uint32_t w, int64_t last) {
  return int64_t(w) > last ? w : w + (uint64_t{1} << 33);
}

class LrrPolicy final : public IssuePolicy {
 public:
  int pick(const std::vector<WarpCandidate>& c, uint64_t now) override;
  void on_issue(uint32_t warp, ptx::InstrClass cls, uint64_t now) override;
  const char* name() const override { return "lrr"; }
  bool idle_pick_repeats() const override { return true; }  // pick() changes nothing

 private:
  int64_t last_ = -1;  // warp id that issued last; -1: start at warp 0
};

}  // namespace simt::sm
