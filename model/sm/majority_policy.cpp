#include "sm/majority_policy.h"

namespace simt::sm {

int MajorityPolicy::pick(const std::vector<WarpCandidate>& c, uint64_t) {
  int best = -1;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!c[i].ready) continue;
    if (best < 0 || c[i].priority > c[best].priority ||
        (c[i].priority == c[best].priority && c[i].age < c[best].age))
      best = static_cast<int>(i);
  }
  return best;
}

}  // namespace simt::sm
