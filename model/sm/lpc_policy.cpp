#include "sm/lpc_policy.h"

namespace simt::sm {

int LpcPolicy::pick(const std::vector<WarpCandidate>& c, uint64_t) {
  int best = -1;
  for (size_t i = 0; i < c.size(); ++i) {
    const WarpCandidate& w = c[i];
    if (!w.ready) continue;
    if (best < 0) {
      best = static_cast<int>(i);
      continue;
    }
    const WarpCandidate& b = c[best];
    if (w.priority != b.priority ? w.priority < b.priority
                                 : (w.age != b.age ? w.age < b.age : w.warp < b.warp))
      best = static_cast<int>(i);
  }
  return best;
}

}  // namespace simt::sm
