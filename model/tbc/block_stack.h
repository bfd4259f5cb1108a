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
// Choices where the paper is silent:
//  * at the branch the executing entry's PC becomes the reconvergence PC, so
//    when it is top again its threads resume there (as GPGPU-Sim's PDOM
//    stack does);
//  * an entry that becomes top with PC == RPC is popped at once (its threads
//    already wait in the entry below), and one with PC == LPC is merged into
//    its likely entry at once (no warp would execute anything before it);
//  * a nested branch whose likely point equals the executing entry's LPC
//    reuses that entry's LPos instead of pushing a second likely entry
//    (Figure 10: at C only two entries are pushed);
//  * all warps of one round of the executing entry must gather at the same
//    sync point (a branch, the RPC or the LPC). Warps of one entry follow the
//    same path unless a bra.uni is not uniform across the block; a second
//    gathering PC throws SyncConflict instead of silently losing threads;
//  * thread exit: exit_threads() removes exited threads from every entry
//    (they never reconverge); a warp all of whose threads exited counts down
//    WCnt through arrive_exit() like an arrival, wherever the others gather.
//    arrive_exit() removes the warp's threads itself, so calling
//    exit_threads() for them first is harmless. A warp that only partly
//    exited goes on: exit_threads() alone, no count change. When every
//    thread exited the bottom entry is empty: the Dispatch then has
//    valid == true, warps == 0, and finished() holds.
//  * compact == false (compactor off): WCnt counts the static warps holding
//    an active thread, as the compactor then hands back static warps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
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
  uint32_t gather_pc = kNoPc;  // where this round's warps gather (kNoPc: none arrived yet)
};

// What the thread compactor must compact next (valid == false: nothing yet,
// other warps are still to arrive).
struct Dispatch {
  bool valid = false;
  uint32_t pc = 0;
  ThreadMask mask;
  uint32_t warps = 0;  // compacted warps this mask yields (new top's WCnt); 0: all threads exited
};

// Warps of one entry reached different sync points (e.g. a bra.uni that is
// not uniform across the block): the stack cannot follow that control flow.
class SyncConflict : public std::runtime_error {
 public:
  explicit SyncConflict(const std::string& what) : std::runtime_error(what) {}
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
  // compact: WCnt counts compacted warps (else static warps, compactor off).
  BlockStack(uint32_t warp_size, const ThreadMask& cta_threads, uint32_t start_pc,
             bool compact = true);

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
  // A warp of the executing entry whose threads all exited (warp_threads:
  // its threads, exited ones included). Counts down WCnt like an arrival.
  Dispatch arrive_exit(const ThreadMask& warp_threads);
  // Threads that exited: removed from every entry (no WCnt change).
  void exit_threads(const ThreadMask& threads);

  // What the issue stage checks at a warp's next PC: the executing entry's
  // RPC / LPC. While a branch synchronises, reaching them is a SyncConflict
  // at the arrive_*() call.
  bool is_reconv_point(uint32_t pc) const { return pc == executing().rpc; }
  bool is_likely_point(uint32_t pc) const { return executing().lpc != kNoPc && pc == executing().lpc; }

  bool sync_pending() const { return exec_ != entries_.size() - 1; }
  // Every thread exited: nothing left to run.
  bool finished() const { return entries_.size() == 1 && entries_[0].mask.none(); }
  // The entry whose warps run (below the top while a branch synchronises).
  const StackEntry& executing() const { return entries_[exec_]; }
  const ThreadMask& exited() const { return exited_; }
  const StackEntry& top() const { return entries_.back(); }
  const StackEntry& entry(uint32_t i) const { return entries_.at(i); }
  uint32_t depth() const { return static_cast<uint32_t>(entries_.size()); }
  const BlockStackStats& stats() const { return stats_; }
  // Deepest the stack got since the last call (pushes popped at once
  // included); restarts from the current depth.
  uint32_t take_peak();
  // Warps a mask yields under this stack's mode (what WCnt is set to).
  uint32_t warp_count(const ThreadMask& mask) const;

 private:
  void push(const StackEntry& e);
  void pop(bool empty);
  // Pops/merges entries that need no warp, then hands the top to the compactor.
  Dispatch settle();
  // A warp of the executing entry gathers at `pc` (kNoPc: it exited); throws
  // SyncConflict when the round already gathers elsewhere.
  void gather(uint32_t pc, const char* what);
  // One warp of the executing entry arrived; true when it was the last.
  bool count_down(const ThreadMask& warp_threads, bool exiting);
  // The round of the executing entry is complete: resolve it.
  Dispatch round_done();
  void drop_finished_exec();
  // Depth for the statistics (see the .cpp).
  uint32_t counted_depth() const;

  uint32_t warp_size_;
  bool compact_;
  std::vector<StackEntry> entries_;
  size_t exec_ = 0;          // entry whose warps execute; below top while a branch syncs
  ThreadMask exited_;        // every thread that exited so far
  uint32_t peak_ = 0;        // for take_peak()
  BlockStackStats stats_;
};

}  // namespace simt::tbc
