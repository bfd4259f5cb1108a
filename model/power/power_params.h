// Parameters of per-lane power gating of the SP units' INT and FP pipelines
// (seeds 003 and 004; docs/power.md). Bound under "power.*".
//
//   power.gating      none (default: no lane power controllers at all, no cost),
//                     ideal (seed 003's evaluation: an oracle gates exactly the
//                     idle periods of at least BET cycles and never delays an
//                     issue), conventional (Hu et al.'s idle-detect controller,
//                     seed 004's baseline: wake-ups delay issue)
//   power.domain      lane | cluster (4 lanes gate together) | unit (the whole
//                     SP unit's INT or FP pipelines, as Warped-Gates)
//   power.idle_detect idle cycles before a domain gates (5)
//   power.bet         break-even time: gated cycles that pay for one gating (14)
//   power.wakeup      cycles from a wake-up request to the lanes being ON (3)
//   power.eager       with folding: the lanes a folded instruction leaves idle
//                     gate after one idle cycle (seed 004 §3.3)
//   power.blackout    a domain that gated stays gated until BET has passed,
//                     even when work arrives (Warped-Gates)
// Issue control (which lanes an SP instruction's threads use; sm/lane_map.h,
// power/issue_control_policy.h), with or without gating:
//   power.compaction  seed 003: active threads packed onto the low lanes
//   power.split       seed 003: none | static (every warp as two half-warps on
//                     half the lanes) | adaptive (only in windows of
//                     power.split_window cycles after one whose SP input
//                     stages were busy less than power.split_below of the time)
//   power.fold        seed 004: none | always | typed (per phase of
//                     power.fold_phase cycles, the minority type INT/FP folds
//                     for power.fold_minority of the phase and the majority
//                     for power.fold_majority) | adaptive (typed, but not in a
//                     phase after one busy at least power.fold_busy)
//   power.lane_shift  seed 004: threads move to the low lanes of their cluster
//   power.shift_stages pipeline stages the shifting datapath adds (2)
//   power.fold_pipeflush N_pipeflush of seed 004's Equation 1 (19): typed and
//                     adaptive folding need fold_majority x fold_phase >=
//                     N_fold = fold_pipeflush + idle_detect + bet
//   power.scheduler   none (sm.policy decides) | origami (seed 004's
//                     scheduler on the two-level one; phases of
//                     power.fold_phase, a group at most
//                     power.origami_switch_phases phases in a row)
#pragma once

#include <cstdint>
#include <string>

namespace simt::config { class ParamRegistry; }

namespace simt::power {

enum class Gating : uint8_t { None, Ideal, Conventional };

struct PowerParams {
  std::string gating = "none";
  std::string domain = "lane";
  uint32_t idle_detect = 5;
  uint32_t bet = 14;
  uint32_t wakeup = 3;
  bool eager = false;
  bool blackout = false;
  bool compaction = false;
  std::string split = "none";
  uint32_t split_window = 300;
  double split_below = 0.5;
  std::string fold = "none";
  uint32_t fold_phase = 300;
  uint32_t fold_pipeflush = 19;  // N_pipeflush of seed 004's Equation 1

  double fold_minority = 0.7;
  double fold_majority = 0.4;
  double fold_busy = 0.9;
  bool lane_shift = false;
  uint32_t shift_stages = 2;
  std::string scheduler = "none";
  uint32_t origami_switch_phases = 2;

  void bind(config::ParamRegistry& r);
  // Throws simt::input_error naming the option.
  void validate() const;

  Gating mode() const;
  // Seed 004 Equation 1: the shortest folding stretch that can pay back a
  // gating, N_fold = N_pipeflush + idle detect + BET.
  uint32_t n_fold() const { return fold_pipeflush + idle_detect + bet; }
  // Any issue control on (the SP pipe then gets a lane map policy).
  bool issue_control() const { return compaction || split != "none" || fold != "none" || lane_shift; }
  // Lanes that gate together in an SP unit of `lanes` lanes.
  uint32_t domain_lanes(uint32_t lanes) const;
};

}  // namespace simt::power
