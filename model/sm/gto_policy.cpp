#include "sm/gto_policy.h"

namespace simt::sm {

int GtoPolicy::pick(const std::vector<WarpCandidate>& c, uint64_t) {
  int oldest = -1;
  for (size_t i = 0; i < c.size(); ++i) {
    const WarpCandidate& w = c[i];
    if (!w.ready) continue;
    if (int64_t(w.warp) == greedy_) return static_cast<int>(i);
    if (oldest < 0 || w.age < c[oldest].age || (w.age == c[oldest].age && w.warp < c[oldest].warp))
      oldest = static_cast<int>(i);
  }
  return oldest;
}

void GtoPolicy::on_issue(uint32_t warp, ptx::InstrClass, uint64_t) { greedy_ = warp; }

void GtoPolicy::on_warp_removed(uint32_t warp) {
  if (greedy_ == int64_t(warp)) greedy_ = -1;
}

}  // namespace simt::sm
