// Block-wide reconvergence stack of Thread Block Compaction (seed 001 §3.2-3.3,
// Figure 9 left) extended with likely-convergence points (§4, Figure 10).
// Plain logic, one per CTA: the issue stage reports warp arrivals at branches,
// reconvergence points and likely-convergence points; the stack answers with
// the block-wide mask (and its PC) the thread compactor must turn into warps.
//
// Paper rules implemented:
//  * entry = {PC, RPC, WCnt, block-wide active mask} + {LPC, LPos};
//  * a potentially divergent branch: the FIRST warp to arrive pushes the
//    not-taken then the taken entry (taken ends on top, as in Figure 7) with
//    RPC = the branch's IPDOM, even if that warp does not diverge; every
//    arriving warp ORs its threads into them and decrements the executing
//    entry's WCnt; at WCnt == 0 the new top goes to the compactor and its WCnt
//    becomes the number of compacted warps (max threads in one home lane);
//  * an entry with an empty mask is popped when it becomes top;
//  * a warp reaching the top's RPC decrements its WCnt; at 0 the entry pops
//    and the next entry is handed to the compactor;
//  * bra.uni: no synchronisation and no entries;
//  * likely-convergence: a branch whose likely point differs from its IPDOM
//    pushes, below its two target entries, a special entry {PC = LPC, RPC =
//    IPDOM, empty mask}; the target entries record LPC and its position
//    (LPos). Warps reaching the top's LPC OR their threads into the entry at
//    LPos and count down WCnt like a reconvergence; at 0 the top pops.
//
// Choices where the paper is silent (GPGPU-Sim's PDOM stack does the same):
//  * at the branch the executing entry's PC becomes the reconvergence PC, so
//    when it is top again its threads resume there;
//  * an entry that becomes top with PC == RPC is popped at once (its threads
//    already wait in the entry below), and one with PC == LPC is merged into
//    its likely entry at once (no warp would execute anything before it);
//  * a nested branch whose likely point equals the executing entry's LPC
//    reuses that entry's LPos instead of pushing a second likely entry
//    (Figure 10: at C only two entries are pushed);
//  * thread exit inside divergent code is not modelled here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "func/thread_mask.h"

namespace simt::tbc {

using func::ThreadMask;

inline constexpr uint32_t kNoPc = UINT32_MAX;
inline constexpr uint32_t kNoPos = UINT32_MAX;

struct StackEntry {
  uint32_t pc = 0;
  uint32_t rpc = kNoPc;
  uint32_t wcnt = 0;  // warps still to arrive at this entry's next sync point
  ThreadMask mask;
  uint32_t lpc = kNoPc;   // likely-convergence PC, kNoPc when none
  uint32_t lpos = kNoPos; // stack index of the likely-convergence entry
};

// What the thread compactor must compact next (valid == false: nothing yet,
// other warps are still to arrive).
struct Dispatch {
  bool valid = false;
  uint32_t pc = 0;
  ThreadMask mask;
  uint32_t warps = 0;  // compacted warps this mask yields (new top's WCnt)
};

struct BlockStackStats {
  uint32_t max_depth = 0;
  uint64_t pushes = 0;
  uint64_t pops = 0;
  uint64_t empty_pops = 0;     // entries popped because no thread took them
  uint64_t likely_merges = 0;  // entries merged into a likely-convergence entry
  uint64_t uniform_branches = 0;
};

// Warps needed for a mask when threads keep their home lane (t % warp_size):
// the largest number of threads sharing one lane.
uint32_t compacted_warp_count(const ThreadMask& mask, uint32_t warp_size);

class BlockStack {
 public:
  // cta_threads: the CTA's threads; all start at start_pc in one entry.
  BlockStack(uint32_t warp_size, const ThreadMask& cta_threads, uint32_t start_pc);

  // A warp executing the top entry reached a branch at pc. taken: its threads
  // that take the branch (subset of warp_threads). likely_pc == reconv_pc or
  // kNoPc: no likely-convergence point. uniform (bra.uni): no sync, no entries.
  Dispatch arrive_branch(uint32_t pc, const ThreadMask& taken, const ThreadMask& warp_threads,
                         uint32_t reconv_pc, uint32_t likely_pc, uint32_t target,
                         uint32_t fallthrough, bool uniform = false);
  // A warp of the top entry reached the top's RPC.
  Dispatch arrive_reconv(uint32_t pc, const ThreadMask& warp_threads);
  // A warp of the top entry reached the top's LPC.
  Dispatch arrive_likely(uint32_t pc, const ThreadMask& warp_threads);

  // What the issue stage checks at a warp's next PC.
  bool is_reconv_point(uint32_t pc) const { return !sync_pending() && pc == top().rpc; }
  bool is_likely_point(uint32_t pc) const { return !sync_pending() && top().lpc != kNoPc && pc == top().lpc; }

  bool sync_pending() const { return exec_ != entries_.size() - 1; }
  const StackEntry& top() const { return entries_.back(); }
  const StackEntry& entry(uint32_t i) const { return entries_.at(i); }
  uint32_t depth() const { return static_cast<uint32_t>(entries_.size()); }
  const BlockStackStats& stats() const { return stats_; }

 private:
  void push(const StackEntry& e);
  void pop(bool empty);
  // Pops/merges entries that need no warp, then hands the top to the compactor.
  Dispatch settle();
  // One warp of the top entry arrived at a sync point; true when it was the last.
  bool count_down(const ThreadMask& warp_threads);

  uint32_t warp_size_;
  std::vector<StackEntry> entries_;
  size_t exec_ = 0;          // entry whose warps execute; below top while a branch syncs
  uint32_t branch_pc_ = kNoPc;  // the branch being synchronised
  BlockStackStats stats_;
};

}  // namespace simt::tbc
