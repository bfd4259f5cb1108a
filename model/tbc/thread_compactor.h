// Thread compactor of Thread Block Compaction (seed 001 §3.3, Figure 9 right
// side). It turns the block-wide activemask of one branch target into warps:
// one priority encoder per home lane picks at most one pending thread of its
// lane per generated warp, so a thread never leaves its home lane
// (t % warp_size) and no register state has to move. One warp comes out per
// next() call, i.e. per cycle, as the hardware generates one per cycle.
//
// Encoder order: each lane picks the LOWEST pending thread id of its lane
// first, so the k-th generated warp holds, in every lane, that lane's k-th
// active thread. The warp count is therefore the largest lane population.
//
// With compaction off (compact = false) the compactor hands back the
// original static warps instead: static warp w = threads
// [w*W, (w+1)*W) in ascending w, only those with at least one active thread,
// each carrying just its active threads. That is the baseline per-warp
// behaviour at the same interface, so a block-wide stack can run either way.
#pragma once

#include <array>
#include <cstdint>

#include "func/thread_mask.h"

namespace simt::tbc {

inline constexpr uint32_t kNoThread = UINT32_MAX;
inline constexpr uint32_t kMaxWarpSize = 64;

// One generated warp: the thread id each lane runs (kNoThread when the lane
// is idle) and the same threads as a mask.
struct CompactedWarp {
  std::array<uint32_t, kMaxWarpSize> lane_thread{};
  func::ThreadMask mask;
  uint32_t warp_size = 0;

  uint32_t active_lanes() const { return mask.count(); }
};

class ThreadCompactor {
 public:
  explicit ThreadCompactor(bool compact = true) : compact_(compact) {}

  bool compacting() const { return compact_; }
  // Takes effect at the next start(); a running generation keeps its mode.
  void set_compacting(bool on) { compact_ = on; }

  // Loads the activemask of one target. Threads are 0..threads_in_cta-1;
  // the last static warp may be partial. A start() while busy discards the
  // warps not yet generated (the stack never does that; tests may).
  // Throws std::invalid_argument for warp_size outside 1..64, a CTA above
  // 1024 threads, or mask bits at or above threads_in_cta.
  void start(const func::ThreadMask& mask, uint32_t threads_in_cta, uint32_t warp_size);

  // More warps to generate from the last start().
  bool busy() const { return remaining_ > 0; }
  // Warps the last start() yields in total (what WCnt is set to).
  uint32_t warps_needed() const { return needed_; }
  uint32_t warps_remaining() const { return remaining_; }

  // Generates the next warp (one per cycle); false when nothing is left.
  bool next(CompactedWarp& out);

  // The warp count a start() with these arguments would yield, without
  // generating: max lane population when compacting, else the number of
  // static warps with an active thread. Same argument checks as start().
  static uint32_t count_warps(const func::ThreadMask& mask, uint32_t threads_in_cta,
                              uint32_t warp_size, bool compact);

 private:
  static void check(const func::ThreadMask& mask, uint32_t threads_in_cta, uint32_t warp_size);
  bool next_compacted(CompactedWarp& out);
  bool next_static(CompactedWarp& out);

  bool compact_;
  bool running_compact_ = true;  // mode latched at start()
  func::ThreadMask pending_;     // threads not yet placed in a warp
  uint32_t threads_ = 0;
  uint32_t warp_size_ = 0;
  uint32_t needed_ = 0;
  uint32_t remaining_ = 0;
  // Compacting: per lane, the static warp index where that lane's encoder
  // resumes. Encoders take the lowest pending id and clear it, so nothing
  // below the cursor is ever pending again: each start() costs O(threads).
  std::array<uint32_t, kMaxWarpSize> lane_cursor_{};
  // Static: next static warp to look at.
  uint32_t static_cursor_ = 0;
};

}  // namespace simt::tbc
