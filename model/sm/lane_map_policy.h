// Chooses the lane map (sm/lane_map.h) of each instruction an SP pipe takes:
// the issue-side half of the power techniques (thread compaction, warp
// splitting, warp folding, lane shifting), which live in power/ and are
// handed to the pipe by the core factory. Without a policy every
// instruction runs at home.
#pragma once

#include <cstdint>

#include "ptx/ir.h"
#include "sm/lane_map.h"

namespace simt::sm {

class LaneMapPolicy {
 public:
  virtual ~LaneMapPolicy() = default;
  // The map for an instruction of class `cls` (Int or Fp) entering at `now`.
  virtual LaneMap choose(ptx::InstrClass cls, uint64_t now) = 0;
  // It entered with lane map `map`; at home it would have held the unit's
  // input for `home_busy` cycles (the utilisation adaptive policies measure).
  virtual void on_accept(ptx::InstrClass cls, LaneMap map, uint32_t home_busy, uint64_t now) {}
  // Pipeline stages the policy's datapath adds (Origami's shift and re-shift).
  virtual uint32_t extra_latency() const { return 0; }
};

}  // namespace simt::sm
