// GATES-style type-aware two-level scheduler, after the "gating aware
// two-level warp scheduler (GATES)" of Warped-Gates (Abdel-Majeed, Wong and
// Annavaram, MICRO 2013), as seed 004 (Origami, §2 and §3.2) describes it:
// schedule by execution-unit type so that INT and FP instructions are issued
// in clusters, leaving the unused unit type idle for longer stretches that
// power gating can use.
//
// What is implemented (on top of TwoLevelPolicy's active/pending sets):
//  - one SP type, INT or FP, is favoured (INT at start);
//  - among the ready active warps (round-robin order), a warp whose next
//    instruction is of the favoured type issues first;
//  - otherwise a ready warp whose instruction uses neither INT nor FP units
//    (LDST, SFU, branch, barrier) issues: it does not break the idle stretch
//    of either SP type;
//  - only when no warp of the favoured type and no such warp is ready does a
//    warp of the other SP type issue, and its issue switches the favoured type.
// Not modelled here: Warped-Gates' blackout power-gating of the SP clusters
// and its adaptive idle-detect window (power gating belongs to the lane power
// controller, not the scheduler). The Origami scheduler's lane-aware
// grouping (seed 004 §3.2, second step) is a separate policy, not this one.
#pragma once

#include "sm/two_level_policy.h"

namespace simt::sm {

class GatesPolicy final : public TwoLevelPolicy {
 public:
  explicit GatesPolicy(uint32_t active_size) : TwoLevelPolicy(active_size) {}

  void on_issue(uint32_t warp, ptx::InstrClass cls, uint64_t now) override;
  const char* name() const override { return "gates"; }

  ptx::InstrClass favoured() const { return favoured_; }
  uint64_t type_switches() const { return switches_; }

 protected:
  int choose(const std::vector<WarpCandidate>& c) override;

 private:
  ptx::InstrClass favoured_ = ptx::InstrClass::Int;
  uint64_t switches_ = 0;
};

}  // namespace simt::sm
