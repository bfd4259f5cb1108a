#include "power/power_params.h"

#include "config/param_registry.h"
#include "util/error.h"

namespace simt::power {

void PowerParams::bind(config::ParamRegistry& r) {
  r.add_choice("power.gating", gating, {"none", "ideal", "conventional"},
               "lane power gating of the SP units' INT and FP pipelines: none (no controllers), ideal (seed 003's "
               "oracle: gates exactly the idle periods of at least power.bet cycles, never delays issue), "
               "conventional (idle-detect controller per domain; a wake-up delays issue)");
  r.add_choice("power.domain", domain, {"lane", "cluster", "unit"},
               "lanes that gate together: lane, cluster (4 lanes), unit (the whole SP unit, as Warped-Gates)");
  r.add("power.idle_detect", idle_detect, "idle cycles before a domain gates (conventional)", 1, 1000000);
  r.add("power.bet", bet, "break-even time: gated cycles that pay for one gating event", 1, 1000000);
  r.add("power.wakeup", wakeup, "cycles from a wake-up request until the lanes are ON (conventional)", 0, 1000000);
  r.add("power.eager", eager,
        "eager gating (seed 004 §3.3): when a folded instruction issues, the lanes folding leaves idle gate after one "
        "idle cycle instead of power.idle_detect");
  r.add("power.blackout", blackout,
        "a gated domain stays gated until power.bet cycles have passed even when work arrives (Warped-Gates)");
  r.add("power.compaction", compaction, "seed 003 thread compaction: an SP instruction's active threads packed onto the low lanes");
  r.add_choice("power.split", split, {"none", "static", "adaptive"},
               "seed 003 warp splitting: none, static (every SP instruction as two half-warps on half the lanes), "
               "adaptive (only after a power.split_window whose SP input stages were busy less than power.split_below)");
  r.add("power.split_window", split_window, "adaptive splitting: cycles per measurement window", 1, 100000000);
  r.add("power.split_below", split_below, "adaptive splitting: split after a window busy less than this share", 0.0, 1.0);
  r.add_choice("power.fold", fold, {"none", "always", "typed", "adaptive"},
               "seed 004 warp folding: none, always, typed (per power.fold_phase, the minority INT/FP type folds for "
               "power.fold_minority of the phase, the majority for power.fold_majority), adaptive (typed, off after a "
               "phase busy at least power.fold_busy)");
  r.add("power.fold_phase", fold_phase, "warp folding: cycles per phase (N_phase)", 1, 100000000);
  r.add("power.fold_pipeflush", fold_pipeflush,
        "warp folding: N_pipeflush of seed 004's Equation 1, the longest SP pipeline drain (19 on GPGPU-Sim's GTX480)", 0,
        1000000);
  r.add("power.fold_minority", fold_minority, "warp folding: share of a phase the minority type folds (aggressive)", 0.0, 1.0);
  r.add("power.fold_majority", fold_majority, "warp folding: share of a phase the majority type folds (conservative)", 0.0, 1.0);
  r.add("power.fold_busy", fold_busy, "adaptive folding: no folding after a phase whose SP input stages were busy this share", 0.0, 1.0);
  r.add("power.lane_shift", lane_shift, "seed 004 lane shifting: active threads move to the low lanes of their 4-lane cluster");
  r.add("power.shift_stages", shift_stages, "pipeline stages the folding / lane-shifting datapath adds to SP instructions", 0, 100);
  r.add_choice("power.scheduler", scheduler, {"none", "origami"},
               "warp scheduler of the power techniques: none (sm.policy decides) or origami (seed 004: type-aware and "
               "lane-aware groups on the two-level scheduler, sm.active_warps active warps, phases of power.fold_phase)");
  r.add("power.origami_switch_phases", origami_switch_phases,
        "origami scheduler: phases in a row one lane group may be selected before a forced switch (M)", 1, 1000000);
}

void PowerParams::validate() const {
  if (gating != "none" && gating != "ideal" && gating != "conventional")
    throw input_error("option power.gating: must be none, ideal or conventional (got '" + gating + "')");
  if (domain != "lane" && domain != "cluster" && domain != "unit")
    throw input_error("option power.domain: must be lane, cluster or unit (got '" + domain + "')");
  if (idle_detect < 1) throw input_error("option power.idle_detect: must be at least 1");
  if (bet < 1) throw input_error("option power.bet: must be at least 1");
  if (split != "none" && split != "static" && split != "adaptive")
    throw input_error("option power.split: must be none, static or adaptive (got '" + split + "')");
  if (fold != "none" && fold != "always" && fold != "typed" && fold != "adaptive")
    throw input_error("option power.fold: must be none, always, typed or adaptive (got '" + fold + "')");
  if (fold != "none" && (compaction || split != "none"))
    throw input_error(std::string("option power.fold: warp folding (seed 004) does not combine with power.") +
                      (compaction ? "compaction" : "split") + " (seed 003)");
  if (lane_shift && (compaction || split != "none"))
    throw input_error("option power.lane_shift: lane shifting (seed 004) does not combine with compaction or splitting (seed 003)");
  if (scheduler != "none" && scheduler != "origami")
    throw input_error("option power.scheduler: must be none or origami (got '" + scheduler + "')");
  if (origami_switch_phases < 1) throw input_error("option power.origami_switch_phases: must be at least 1");
  // Seed 004 §3.1.1: the shorter folded stretch of a phase (the majority
  // type's) must last N_fold cycles, or the lanes it idles wake before they
  // pay back their gating.
  if ((fold == "typed" || fold == "adaptive") && gating == "conventional" &&
      fold_majority * fold_phase < static_cast<double>(n_fold()))
    throw input_error("option power.fold_phase: " + std::to_string(fold_phase) + " x power.fold_majority " +
                      std::to_string(fold_majority) + " is shorter than N_fold = power.fold_pipeflush + power.idle_detect + "
                      "power.bet = " + std::to_string(n_fold()) + " cycles (seed 004 Equation 1)");
  if (split_window < 1) throw input_error("option power.split_window: must be at least 1");
  if (fold_phase < 1) throw input_error("option power.fold_phase: must be at least 1");
  for (double v : {split_below, fold_minority, fold_majority, fold_busy})
    if (!(v >= 0.0 && v <= 1.0)) throw input_error("option power.split_below / fold_*: shares must be 0..1");
  if (eager && fold == "none")
    throw input_error("option power.eager: applies with warp folding (power.fold), which tells the controllers when to gate eagerly");
  if (gating != "conventional" && (eager || blackout))
    throw input_error(std::string("option power.") + (eager ? "eager" : "blackout") +
                      ": applies to power.gating = conventional, not " + gating);
}

Gating PowerParams::mode() const {
  if (gating == "ideal") return Gating::Ideal;
  if (gating == "conventional") return Gating::Conventional;
  return Gating::None;
}

uint32_t PowerParams::domain_lanes(uint32_t lanes) const {
  if (domain == "unit") return lanes;
  if (domain == "cluster") return lanes < 4 ? lanes : 4;
  return 1;
}

}  // namespace simt::power
