#include "power/origami_policy.h"

#include <stdexcept>

namespace simt::power {

namespace {
bool is_sp(ptx::InstrClass c) { return c == ptx::InstrClass::Int || c == ptx::InstrClass::Fp; }
}  // namespace

OrigamiPolicy::OrigamiPolicy(uint32_t active_size, uint32_t warp_size, uint32_t phase, uint32_t switch_phases)
    : sm::TwoLevelPolicy(active_size), warp_size_(warp_size), phase_(phase), switch_phases_(switch_phases) {
  if (phase == 0 || switch_phases == 0) throw std::logic_error("origami scheduler: phase and switch period must be > 0");
  set_favoured(favoured_);
}

void OrigamiPolicy::start_phase(const std::vector<sm::WarpCandidate>& c, uint64_t phases) {
  uint32_t full = 0, partial = 0;
  for (const sm::WarpCandidate& w : c) (w.priority >= warp_size_ ? full : partial) += 1;
  bool pick_full = full >= partial;
  if (pick_full == full_) {
    if (same_ >= switch_phases_) {  // it had M phases in a row: bound starvation
      pick_full = !full_;
      ++forced_;
    } else {
      same_ += static_cast<uint32_t>(phases);  // skipped phases count too
    }
  }
  if (pick_full != full_) {
    full_ = pick_full;
    same_ = 1;
    ++switches_;
  }
}

void OrigamiPolicy::before_pick(const std::vector<sm::WarpCandidate>& c, uint64_t now) {
  const uint64_t phase = now / phase_;
  if (phase != phase_index_) {
    const uint64_t passed = phase_index_ == ~uint64_t{0} ? 1 : phase - phase_index_;
    if (phase_index_ == ~uint64_t{0}) same_ = 0;
    phase_index_ = phase;
    start_phase(c, passed);
  }
}

int OrigamiPolicy::choose(const std::vector<sm::WarpCandidate>& c) {
  // The first ready active warp (in round-robin order) of the best class:
  // class = group * 3 + rank, group 0 the selected one, rank 0 the favoured
  // type, 1 neither SP type, 2 the other type.
  int best = -1;
  uint32_t best_class = 6;
  const size_t n = active().size();
  for (size_t k = 0; k < n; ++k) {
    const int i = candidate(active_at(k));
    if (i < 0) continue;
    const sm::WarpCandidate& w = c[i];
    if (!w.ready) continue;
    const uint32_t cls = ((w.priority >= warp_size_) != full_) * 3u + rank_[static_cast<size_t>(w.cls)];
    if (cls < best_class) {
      best_class = cls;
      best = i;
      if (cls == 0) break;
    }
  }
  return best;
}

void OrigamiPolicy::on_issue(uint32_t warp, ptx::InstrClass cls, uint64_t now) {
  TwoLevelPolicy::on_issue(warp, cls, now);
  if (is_sp(cls) && cls != favoured_) set_favoured(cls);
}

void OrigamiPolicy::set_favoured(ptx::InstrClass cls) {
  favoured_ = cls;
  for (size_t k = 0; k < rank_.size(); ++k) {
    const auto c = static_cast<ptx::InstrClass>(k);
    rank_[k] = c == favoured_ ? 0 : !is_sp(c) ? 1 : 2;
  }
}

}  // namespace simt::power
