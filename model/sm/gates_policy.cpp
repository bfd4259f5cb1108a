#include "sm/gates_policy.h"

namespace simt::sm {

namespace {
bool is_sp(ptx::InstrClass c) { return c == ptx::InstrClass::Int || c == ptx::InstrClass::Fp; }
}  // namespace

int GatesPolicy::choose(const std::vector<WarpCandidate>& c) {
  int neutral = -1, other = -1;
  size_t n = active().size();
  for (size_t k = 0; k < n; ++k) {
    int i = candidate(active_at(k));
    if (i < 0 || !c[i].ready) continue;
    ptx::InstrClass cls = c[i].cls;
    if (cls == favoured_) return i;
    if (!is_sp(cls)) {
      if (neutral < 0) neutral = i;
    } else if (other < 0) {
      other = i;
    }
  }
  return neutral >= 0 ? neutral : other;
}

void GatesPolicy::on_issue(uint32_t warp, ptx::InstrClass cls, uint64_t now) {
  TwoLevelPolicy::on_issue(warp, cls, now);
  if (is_sp(cls) && cls != favoured_) {
    favoured_ = cls;
    ++switches_;
  }
}

}  // namespace simt::sm
