// The gang table of Variable Warp Sizing (seed 000 §4.2-4.5, Figure 6 block
// 12), as a plain class that the warp ganging unit drives.
//
// An original gang is what one 32-thread warp of the baseline SM becomes:
// one narrow warp on each slice (8 slices of 4 lanes; 4 of 8 or 2 of 16
// lanes with wider base warps). Each original gang has its own set, and its
// warps never join a gang of another set. A set holds up to four entries:
// a gang of 8 warps splits into at most 4 gangs of at least two warps, and
// a warp left alone is unganged (its slice schedules it). An entry holds
// GangID (set * 4 + way), GangMask (bit k = the set's warp on slice k), the
// gang's PC, valid (its I-buffer entries are filled: the gang front-end sets
// it, the gang issue scheduler clears it) and ReadyMask (members whose slice
// scoreboard lets them issue).
//
// What changes a set:
//  * start(): the original gang forms at launch, one entry of all members.
//  * split_on_pcs() (control divergence, always): the members' next PCs are
//    grouped like coalesced addresses; two or more warps on a PC stay one
//    gang (the first such group, by lowest slice, keeps the entry), a warp
//    alone on its PC leaves.
//  * split_impatient() / split_group() (memory latency divergence, by
//    policy): every member leaves; or the members that became ready in the
//    same cycle form a gang of their own (a single one leaves), and a
//    remainder of one leaves too.
//  * reform() (opportunistic reformation): gangs and unganged warps of the
//    set on one PC merge into one gang, which must refetch (valid cleared).
//  * remove(): warps that finished leave; a gang of one dissolves.
// Every change returns which warps left or joined the ganging unit and which
// entries changed, so the caller can move warps between the ganging unit
// and their slices and refetch for changed gangs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simt::vws {

struct GangEntry {
  bool used = false;
  uint8_t mask = 0;    // GangMask: bit k = the set's warp on slice k
  uint32_t pc = 0;
  bool valid = false;  // the gang's I-buffer entries are filled
  uint8_t ready = 0;   // ReadyMask
};

struct GangChange {
  uint8_t left = 0;     // warps that are unganged now (their slice takes them)
  uint8_t joined = 0;   // unganged warps that joined a gang
  uint8_t ways = 0;     // bit w = entry w changed (new, resized, moved or freed)
};

class GangTable {
 public:
  static constexpr uint32_t kWays = 4;

  // `sets` original gangs (the SM's 32-thread warp slots), `slices` 2..8.
  GangTable(uint32_t sets, uint32_t slices);

  uint32_t sets() const { return sets_; }
  uint32_t slices() const { return slices_; }
  const GangEntry& entry(uint32_t set, uint32_t way) const { return e_[at(set, way)]; }
  // The same unchecked (set < sets(), way < kWays): for loops that read every entry each cycle.
  const GangEntry& entry_unchecked(uint32_t set, uint32_t way) const { return e_[size_t{set} * kWays + way]; }
  uint32_t gang_id(uint32_t set, uint32_t way) const { return set * kWays + way; }
  // The way holding slice `slice`'s warp of `set`, or -1 if it is unganged.
  int way_of(uint32_t set, uint32_t slice) const {
    if (set >= sets_) out_of_range(set, 0);
    for (uint32_t w = 0; w < kWays; ++w) {
      const GangEntry& g = entry_unchecked(set, w);
      if (g.used && ((g.mask >> slice) & 1)) return static_cast<int>(w);
    }
    return -1;
  }
  // Warps of the set in some gang.
  uint8_t ganged(uint32_t set) const;
  // Gangs in use in the set.
  uint32_t gangs(uint32_t set) const;

  GangChange start(uint32_t set, uint8_t members, uint32_t pc);
  void clear(uint32_t set);
  // After gang `way` issued: next_pc[k] is slice k's warp's next PC (only
  // the members' entries are read).
  GangChange split_on_pcs(uint32_t set, uint32_t way, const std::vector<uint32_t>& next_pc);
  GangChange split_impatient(uint32_t set, uint32_t way);
  GangChange split_group(uint32_t set, uint32_t way, uint8_t ready_now);
  // `candidates`: unganged warps of the set that may join; pc[k] is slice
  // k's warp's PC (read for candidates).
  GangChange reform(uint32_t set, uint8_t candidates, const std::vector<uint32_t>& pc);
  GangChange remove(uint32_t set, uint8_t warps);

  void set_valid(uint32_t set, uint32_t way, bool v) { e_[at(set, way)].valid = v; }
  void set_ready(uint32_t set, uint32_t way, uint8_t ready) { e_[at(set, way)].ready = ready & e_[at(set, way)].mask; }

 private:
  std::size_t at(uint32_t set, uint32_t way) const {
    if (set >= sets_ || way >= kWays) out_of_range(set, way);
    return size_t{set} * kWays + way;
  }
  [[noreturn]] static void out_of_range(uint32_t set, uint32_t way);
  uint8_t all() const { return static_cast<uint8_t>((1u << slices_) - 1); }
  int free_way(uint32_t set) const;
  // Entry `way` becomes the gang `mask` at `pc` (a fresh gang: not valid, not ready).
  void put(uint32_t set, uint32_t way, uint8_t mask, uint32_t pc, GangChange& c);
  void free(uint32_t set, uint32_t way, GangChange& c);
  // A gang left with one member dissolves.
  void settle(uint32_t set, uint32_t way, GangChange& c);

  uint32_t sets_, slices_;
  std::vector<GangEntry> e_;  // [set][way]
};

}  // namespace simt::vws
