#include "power/issue_control_policy.h"

#include <cmath>

namespace simt::power {

namespace {
const char* const kType[2] = {"int", "fp"};
}

IssueControlPolicy::IssueControlPolicy(const PowerParams& p, uint32_t units, stats::Registry& reg,
                                       const std::string& stats_name)
    : p_(p),
      units_(units ? units : 1),
      split_(p.split == "static" ? Split::Static : p.split == "adaptive" ? Split::Adaptive : Split::None),
      fold_(p.fold == "always"  ? Fold::Always
            : p.fold == "typed" ? Fold::Typed
            : p.fold == "adaptive" ? Fold::Adaptive
                                   : Fold::None),
      shifts_(p.fold != "none" || p.lane_shift) {
  p_.validate();
  for (int t = 0; t < 2; ++t) {
    const std::string pre = stats_name + "." + kType[t];
    instructions_[t] = &reg.counter(pre + "_instructions", std::string(kType[t]) + " instructions the SP units took");
    folded_[t] = &reg.counter(pre + "_folded", std::string(kType[t]) + " instructions issued with folding on");
    enabled_cycles_[t] = &reg.counter(pre + "_fold_enabled_cycles",
                                      "cycles of completed phases during which " + std::string(kType[t]) +
                                          " instructions were folded (seed 004 Fig. 12)");
  }
  split_count_ = &reg.counter(stats_name + ".split_instructions", "SP instructions run as two half-warps on half the lanes");
  compacted_ = &reg.counter(stats_name + ".compacted_instructions", "SP instructions whose active threads were packed low");
}

void IssueControlPolicy::roll(uint64_t now) {
  if (split_ == Split::Adaptive && now >= window_start_ + p_.split_window) {
    const double capacity = static_cast<double>(units_) * p_.split_window;
    split_on_ = static_cast<double>(window_busy_) < p_.split_below * capacity;
    window_start_ += p_.split_window;
    window_busy_ = 0;
    if (now >= window_start_ + p_.split_window) {  // whole windows without an instruction
      split_on_ = p_.split_below > 0.0;
      window_start_ += (now - window_start_) / p_.split_window * p_.split_window;
    }
  }
  if ((fold_ == Fold::Typed || fold_ == Fold::Adaptive) && now >= phase_start_ + p_.fold_phase) {
    for (int t = 0; t < 2; ++t) {
      const double share = fold_enabled_ ? (t == majority_ ? p_.fold_majority : p_.fold_minority) : 0.0;
      *enabled_cycles_[t] += static_cast<uint64_t>(std::floor(share * p_.fold_phase));
    }
    majority_ = phase_count_[1] > phase_count_[0] ? 1 : 0;
    const double capacity = static_cast<double>(units_) * p_.fold_phase;
    fold_enabled_ = fold_ == Fold::Typed || static_cast<double>(phase_busy_) < p_.fold_busy * capacity;
    phase_start_ += p_.fold_phase;
    phase_busy_ = 0;
    phase_count_ = {0, 0};
    if (now >= phase_start_ + p_.fold_phase) {  // idle phases: nothing issued, nothing busy
      const uint64_t skipped = (now - phase_start_) / p_.fold_phase;
      for (int t = 0; t < 2; ++t)
        *enabled_cycles_[t] +=
            skipped * static_cast<uint64_t>(std::floor((t == 0 ? p_.fold_majority : p_.fold_minority) * p_.fold_phase));
      majority_ = 0;
      fold_enabled_ = true;
      phase_start_ += skipped * p_.fold_phase;
    }
  }
}

bool IssueControlPolicy::splitting(uint64_t now) {
  roll(now);
  return split_ == Split::Static || (split_ == Split::Adaptive && split_on_);
}

bool IssueControlPolicy::folding(ptx::InstrClass cls, uint64_t now) {
  roll(now);
  if (fold_ == Fold::None) return false;
  if (fold_ == Fold::Always) return true;
  if (!fold_enabled_) return false;
  const double share = type_of(cls) == majority_ ? p_.fold_majority : p_.fold_minority;
  return static_cast<double>(now - phase_start_) < share * p_.fold_phase;
}

sm::LaneMap IssueControlPolicy::choose(ptx::InstrClass cls, uint64_t now) {
  using sm::LaneMap;
  if (fold_ != Fold::None)
    return folding(cls, now) ? (p_.lane_shift ? LaneMap::FoldShift : LaneMap::Fold)
                             : (p_.lane_shift ? LaneMap::Shift : LaneMap::Home);
  if (p_.lane_shift) return LaneMap::Shift;
  const bool split = splitting(now);
  if (p_.compaction) return split ? LaneMap::CompactHalf : LaneMap::Compact;
  return split ? LaneMap::Half : LaneMap::Home;
}

void IssueControlPolicy::on_accept(ptx::InstrClass cls, sm::LaneMap map, uint32_t home_busy, uint64_t now) {
  roll(now);
  const int t = type_of(cls);
  ++*instructions_[t];
  ++phase_count_[t];
  phase_busy_ += home_busy;
  window_busy_ += home_busy;
  if (sm::folds(map)) ++*folded_[t];
  if (map == sm::LaneMap::Half || map == sm::LaneMap::CompactHalf) ++*split_count_;
  if (map == sm::LaneMap::Compact || map == sm::LaneMap::CompactHalf) ++*compacted_;
}

}  // namespace simt::power
