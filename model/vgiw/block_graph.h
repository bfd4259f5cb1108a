// The basic blocks the VGIW core schedules (seed 002 §3.1), in program
// order, before the schedule order gives them their block IDs.
//
// They are ptx::Cfg's blocks of the kernel's entry function, cut once more
// after every waiting barrier (bar.sync, bar.red, barrier.sync) and where
// the compiler splits a block too large for the grid: a barrier
// ends its block, and the scheduler then runs the successor only when every
// thread of the CTA has finished the block (core and BBS). bar.arrive does
// not wait and does not cut.
//
// Each block has at most two successors, which its terminator (a CVU)
// chooses between per thread: the taken target and the fall-through of a
// guarded bra, the single target of an unguarded one, or the next block.
// A thread whose block ends in exit or ret (or a guarded exit, when its
// guard holds) terminates: `exits`. A block that only terminates has no
// successor.
//
// What the VGIW compiler does not map is refused here with a BadInput error
// naming the kernel, the source line and the instruction:
//  - calls (nvcc inlines device functions unless told not to; a call would
//    need a return address per thread and a block per call site);
//  - warp-level instructions (shfl, vote, match, redux, activemask,
//    bar.warp.sync): threads run one by one through the grid, not in warps;
//  - traps and brkpt are kept (a thread that traps faults at run time).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ptx/cfg.h"
#include "ptx/ir.h"

namespace simt::vgiw {

inline constexpr uint32_t kNone = 0xffffffffu;

struct Block {
  uint32_t begin = 0, end = 0;          // [begin, end) PCs
  uint32_t cfg_block = kNone;           // the ptx::Cfg block it comes from
  std::vector<uint32_t> succs;          // blocks (indexes into BlockGraph::blocks), at most 2
  uint32_t taken = kNone;               // guarded bra: the taken successor (the other falls through)
  bool exits = false;                   // some thread may terminate at its end
  bool barrier = false;                 // ends in a waiting barrier
  bool reachable = true;                // from the entry block
};

class BlockGraph {
 public:
  // Throws BadInput for what the VGIW compiler does not map (above).
  // `starts`: PCs where the compiler wants a block to start as well (it
  // splits blocks too large for the grid there).
  BlockGraph(const ptx::Program& p, const ptx::Cfg& cfg, const std::vector<uint32_t>& starts = {});

  const std::vector<Block>& blocks() const { return blocks_; }
  // The block holding `pc`, kNone outside the entry function.
  uint32_t block_of(uint32_t pc) const { return pc < block_of_pc_.size() ? block_of_pc_[pc] : kNone; }

 private:
  std::vector<Block> blocks_;
  std::vector<uint32_t> block_of_pc_;
};

// Where an instruction comes from, for messages: "kernel 'k' line 12 (shfl.sync...)".
std::string where(const ptx::Program& p, uint32_t pc);

}  // namespace simt::vgiw
