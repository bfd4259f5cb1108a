// The issue-side power techniques of seeds 003 and 004, as the lane map
// policy of an SM's SP pipe (sm/lane_map_policy.h): which lanes each INT or
// FP instruction's threads use.
//
//  - Thread compaction and warp splitting (seed 003 §3): compaction packs the
//    active threads onto the low lanes; static splitting runs every warp as
//    two half-warps on half the lanes; "mix" does both. Adaptive splitting
//    (the paper's future work, §3.2 and §7): the SP units' input-stage
//    utilisation is measured over windows of power.split_window cycles, and
//    the next window splits only if it was below power.split_below
//    (splitting doubles an instruction's passes, which idle issue slots
//    absorb).
//  - Warp folding (seed 004 §3.1.1), per phase of power.fold_phase cycles:
//    `always` folds every instruction; `typed` folds the minority type (the
//    one, INT or FP, with fewer instructions) for the first power.fold_minority
//    of each phase (aggressive) and the majority type for the first
//    power.fold_majority (conservative); `adaptive` is typed, but folds
//    nothing in a phase after one whose input stages were busy at least
//    power.fold_busy of the time. The folded part of a phase comes first and
//    is contiguous, so the lanes folding idles stay idle for N_fold cycles.
//    Where seed 004 counts the warps of each type waiting in the scheduler's
//    group, we count the instructions of each type that the SP units took
//    in the previous phase (the pipe sees issues, not I-buffers); the first
//    phase treats INT as the majority.
//  - Lane shifting (seed 004 §3.2): threads move to the low lanes of their
//    4-lane cluster, with or without folding. Folding and shifting add
//    power.shift_stages pipeline stages (shift and re-shift) to every SP
//    instruction.
//
// Stats under `stats_name` (e.g. sm0.sp.issue_control): instructions per
// type, those run folded, split or compacted, and per type the cycles of
// the completed phases during which folding was on (seed 004 Fig. 12).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "power/power_params.h"
#include "sm/lane_map_policy.h"
#include "stats/stats.h"

namespace simt::power {

class IssueControlPolicy final : public sm::LaneMapPolicy {
 public:
  // `units`: SP units of the SM (the utilisation measure's denominator).
  IssueControlPolicy(const PowerParams& p, uint32_t units, stats::Registry& reg, const std::string& stats_name);

  sm::LaneMap choose(ptx::InstrClass cls, uint64_t now) override;
  void on_accept(ptx::InstrClass cls, sm::LaneMap map, uint32_t home_busy, uint64_t now) override;
  uint32_t extra_latency() const override { return shifts_ ? p_.shift_stages : 0; }

  // For tests: the decisions in force at `now` (after rolling windows and phases).
  bool splitting(uint64_t now);
  bool folding(ptx::InstrClass cls, uint64_t now);

 private:
  enum class Split : uint8_t { None, Static, Adaptive };
  enum class Fold : uint8_t { None, Always, Typed, Adaptive };
  static int type_of(ptx::InstrClass cls) { return cls == ptx::InstrClass::Fp ? 1 : 0; }
  void roll(uint64_t now);

  PowerParams p_;
  uint32_t units_;
  Split split_;
  Fold fold_;
  bool shifts_;
  // Adaptive splitting: the current window.
  uint64_t window_start_ = 0, window_busy_ = 0;
  bool split_on_ = true;  // the first window splits: nothing measured yet
  // Folding: the current phase.
  uint64_t phase_start_ = 0, phase_busy_ = 0;
  std::array<uint64_t, 2> phase_count_{};  // INT, FP instructions this phase
  bool fold_enabled_ = true;
  int majority_ = 0;  // 0 INT, 1 FP

  std::array<stats::Counter*, 2> instructions_{}, folded_{}, enabled_cycles_{};
  stats::Counter* split_count_ = nullptr;
  stats::Counter* compacted_ = nullptr;
};

}  // namespace simt::power
