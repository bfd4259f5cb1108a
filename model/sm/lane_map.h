// Which lanes of a SIMD unit a warp instruction's threads use, pass by pass:
// the datapath's thread-to-lane mapping. The baseline keeps every thread on
// its home lane; the power techniques move threads so that some lanes stay
// idle long enough to gate (seeds 003 and 004).
//
// A warp of `width` threads on a unit of `lanes` lanes takes H =
// ceil(width / lanes) passes at home: thread t on lane t % lanes in pass
// t / lanes. `active` has bit t set for each thread that executes.
//
//   home          the baseline
//   compact       seed 003's thread compaction: the active threads, in
//                 order, packed onto the lowest lanes (its shared-port
//                 register file lets any thread use any lane); still H
//                 passes, so timing is unchanged (seed 003 §5.2)
//   half          seed 003's warp splitting 32 -> 16: the two half-warps
//                 (threads [0, width/2) and [width/2, width)) each run at
//                 home on the low lanes/2 lanes, one after the other: twice
//                 the passes; a half-warp without an active thread is not
//                 issued
//   compact_half  both ("mix"): active threads packed onto the low half, with
//                 half's pass count
//   shift         Origami's lane shifting (seed 004 §3.2): within each
//                 cluster of 4 lanes, the active threads move to the lowest
//                 lanes of the cluster; H passes
//   fold          Origami's warp folding (seed 004 §3.1): per 4-lane cluster,
//                 the threads of its two low lanes form sub-warp 0, those of
//                 its two high lanes sub-warp 1, which is shifted onto the
//                 low lanes; sub-warp 0's H passes, then sub-warp 1's. When
//                 one sub-warp has no active thread, the other runs alone on
//                 the low lanes (H passes): no folding is needed
//   fold_shift    fold, with lane shifting inside each cluster's low pair
//                 (and shift when no folding is needed)
// Cluster maps need lanes to be a multiple of 4; otherwise they act as home.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace simt::sm {

enum class LaneMap : uint8_t { Home, Compact, Half, CompactHalf, Shift, Fold, FoldShift };

const char* lane_map_name(LaneMap m);
const std::vector<std::string>& lane_map_names();
// False for an unknown name.
bool parse_lane_map(const std::string& name, LaneMap* out);
inline std::ostream& operator<<(std::ostream& o, LaneMap m) { return o << lane_map_name(m); }
// True for the maps that fold warps (two sub-warps on the low half of each cluster).
inline bool folds(LaneMap m) { return m == LaneMap::Fold || m == LaneMap::FoldShift; }

// Most passes any map takes for a warp of `width` threads on `lanes` lanes.
uint32_t max_lane_passes(uint32_t width, uint32_t lanes);

// Writes the lanes of each pass (bit l = lane l gets a thread) to out[0..n)
// and returns n (1 <= n <= max_lane_passes(width, lanes)). width 1..64,
// lanes 1..64.
uint32_t map_lanes(LaneMap m, uint64_t active, uint32_t width, uint32_t lanes, uint64_t* out);

}  // namespace simt::sm
