#include "sm/lrr_policy.h"

namespace simt::sm {

int LrrPolicy::pick(const std::vector<WarpCandidate>& c, uint64_t) {
  // Distance from the warp after last_, wrapping: ids above last_ come first
  // in ascending order, then ids at or below it. Independent of c's order.
  int best = -1;
  uint64_t best_key = UINT64_MAX;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!c[i].ready) continue;
    const uint64_t key = lrr_key(c[i].warp, last_);
    if (key < best_key) {
      best_key = key;
      best = static_cast<int>(i);
    }
  }
  return best;
}

void LrrPolicy::on_issue(uint32_t warp, ptx::InstrClass, uint64_t) { last_ = warp; }

}  // namespace simt::sm
