// The Origami scheduler (seed 004 §3.2), on top of the two-level scheduler:
//  1. type-aware: one SP type, INT or FP, is favoured (as GATES): a ready
//     warp whose next instruction is of that type issues first, then one
//     that uses neither (LDST, SFU, branch), then the other type, whose
//     issue switches the favoured type;
//  2. lane-aware: warps form two groups, those with all warp_size threads
//     active ("= 32") and the others ("< 32"); at the start of each phase of
//     power.fold_phase cycles the group with more warps offered is selected,
//     and its warps go before the other group's (which issue only when none
//     of the selected group can);
//  3. starvation bound: after power.origami_switch_phases (M = 2) phases in
//     a row with the same group, the other group is selected;
// lane shifting (step 3 of §3.2) is the SP datapath's lane map
// (power.lane_shift). Group sizes are counted among the warps the issue
// stage offers the scheduler at the first pick of a phase, whether ready or
// not (the paper's two 5-bit counters count the warps pending in each group).
#pragma once

#include <array>
#include <cstdint>

#include "sm/two_level_policy.h"

namespace simt::power {

class OrigamiPolicy final : public sm::TwoLevelPolicy {
 public:
  OrigamiPolicy(uint32_t active_size, uint32_t warp_size, uint32_t phase, uint32_t switch_phases);

  void on_issue(uint32_t warp, ptx::InstrClass cls, uint64_t now) override;
  const char* name() const override { return "origami"; }
  bool wants_active_threads() const override { return true; }

  ptx::InstrClass favoured() const { return favoured_; }
  bool full_group() const { return full_; }  // the "= 32" group is selected
  uint64_t group_switches() const { return switches_; }
  uint64_t forced_switches() const { return forced_; }

 protected:
  int choose(const std::vector<sm::WarpCandidate>& c) override;
  // A new phase picks the group (full or partial warps) from the whole list.
  void before_pick(const std::vector<sm::WarpCandidate>& c, uint64_t now) override;

 private:
  void start_phase(const std::vector<sm::WarpCandidate>& c, uint64_t phases);
  void set_favoured(ptx::InstrClass cls);  // and the ranks that follow from it

  uint32_t warp_size_, phase_, switch_phases_;
  ptx::InstrClass favoured_ = ptx::InstrClass::Int;
  // Per instruction class: 0 the favoured type, 1 neither SP type, 2 the other.
  std::array<uint8_t, static_cast<size_t>(ptx::InstrClass::Tensor) + 1> rank_{};
  bool full_ = true;
  uint64_t phase_index_ = ~uint64_t{0};  // phase of the last pick
  uint32_t same_ = 0;                    // phases in a row the current group has been selected
  uint64_t switches_ = 0, forced_ = 0;
};

}  // namespace simt::power
