// Control-flow analyses on a linked Program (PCs, not labels): basic blocks,
// dominators, immediate post-dominators (reconvergence PCs), natural loops,
// likely-convergence points (seed 001 §4), uniform branches and a
// conservative divergence analysis. Everything is computed once in the
// constructor; queries are O(1) lookups.
//
// Blocks. Each function range (Program::funcs) is split on its own; leaders
// are the function start, every branch target and the PC after a bra, ret,
// exit or trap. `call` does not end a block (control returns to pc+1).
// Block ids follow PC order, so a function's blocks are contiguous.
// Successors: guarded bra -> {target, pc+1}; unguarded bra -> {target};
// unguarded ret/exit/trap -> none, with an edge to the function's virtual
// exit (`exits`); a guarded ret/exit/trap -> {pc+1} plus the exit edge; a
// block that runs off the end of its function also goes to the exit.
// Indirect branches (brx.idx) are rejected with a BadInput error.
//
// Post-dominators are computed per function on the reverse CFG with a
// virtual exit node (Cooper-Harvey-Kennedy iterative, reverse post-order).
// Blocks that cannot reach an exit (infinite loops) would have no
// post-dominator: for every such region we add a virtual edge to the exit
// from its block with the highest start PC (for nvcc layout the loop's
// bottom block, i.e. its latch), repeating until every block reaches the
// exit. A diamond inside `while (1)` thus still reconverges at its join,
// and the latch's own branch reconverges at the virtual exit (kNoPc).
// Such blocks report reaches_exit() == false.
//
// Likely-convergence points, restricted as in the paper's evaluation to the
// closest enclosing backward branch (the `break` case). For a branch that
// is not `uniform`:
//   L = innermost natural loop containing the branch's block (loops come
//       from back edges latch->header where the header dominates the latch;
//       back edges to one header form one loop);
//   none if there is no L, if the block is a latch of L (the loop's own
//   backward branch), or if the IPDOM lies inside L (no break-like exit);
//   otherwise the start PC of the latch of L reachable from the branch
//   without passing the header (the one with the highest PC if several),
//   unless that equals the reconvergence PC.
//
// Uniformity. `uniform`: the branch never diverges by construction
// (unguarded, or bra.uni as asserted by the compiler). `provably_uniform`:
// the guard predicate is shown uniform across the CTA by a conservative
// forward divergence analysis over registers:
//   - uniform sources: immediates, %ntid, %ctaid, %nctaid and launch-wide
//     constants (WARP_SZ, %nsmid, %gridid, %smid, %dynamic_smem_size,
//     %total_smem_size), and ld.param inside the kernel entry's own range
//     (kernel parameters; callee .param reads are per-thread call data);
//   - divergent sources: every other special register (%tid, %laneid,
//     %clock...), loads from any other space, atomics, shfl, vote, match,
//     redux, activemask, texture/surface reads;
//   - a register is divergent if any instruction writing it is a divergent
//     source, reads a divergent register (guard included), or lies in the
//     region influenced by a divergent branch (blocks reachable from the
//     branch before its IPDOM): this covers values merged after divergent
//     control flow and values leaving loops with divergent exits;
//   - iterated to a fixed point. bra.uni is not trusted by this analysis.
//   The analysis is flow-insensitive per register (a register divergent at
//   one definition is divergent everywhere): precise for nvcc's SSA-like
//   virtual registers, merely conservative for reused ones.
#pragma once

#include <cstdint>
#include <vector>

#include "ptx/ir.h"

namespace simt::ptx {

struct BasicBlock {
  uint32_t id = 0, func = 0, begin = 0, end = 0;  // [begin, end) PCs
  std::vector<uint32_t> succs, preds;             // block ids, no duplicates
  bool exits = false;                             // has an edge to the function's virtual exit
};

struct BranchInfo {
  uint32_t pc = 0, target = 0;  // the bra and its taken target
  uint32_t reconv_pc = kNoPc;   // start PC of the IPDOM block; kNoPc = the function's exit
  uint32_t likely_pc = kNoPc;   // likely-convergence point, kNoPc when none / equal to reconv_pc
  bool uniform = false;         // never diverges: unguarded bra, or bra.uni
  bool backward = false;        // target <= pc
  bool provably_uniform = false;  // guard shown uniform by the divergence analysis
};

struct Loop {
  uint32_t header = 0;               // block id
  std::vector<uint32_t> latches;     // blocks with a back edge to the header, ascending
  std::vector<uint32_t> blocks;      // body incl. header, ascending block ids
  uint32_t parent = kNoPc;           // enclosing loop index, kNoPc at top level
  bool contains(uint32_t block) const;
};

class Cfg {
 public:
  // Sentinel for "the virtual exit" / "no block".
  static constexpr uint32_t kNone = kNoPc;

  explicit Cfg(const Program& p);

  const std::vector<BasicBlock>& blocks() const { return blocks_; }
  // Block containing `pc`, kNone for a PC outside every function.
  uint32_t block_of(uint32_t pc) const { return pc < block_of_pc_.size() ? block_of_pc_[pc] : kNone; }
  // Blocks of function `f` are ids [func_first_block(f), func_end_block(f)).
  uint32_t func_first_block(uint32_t f) const { return func_blocks_[f]; }
  uint32_t func_end_block(uint32_t f) const { return func_blocks_[f + 1]; }
  uint32_t num_funcs() const { return static_cast<uint32_t>(func_blocks_.size() - 1); }

  uint32_t ipdom(uint32_t block) const { return ipdom_[block]; }  // kNone = virtual exit
  uint32_t idom(uint32_t block) const { return idom_[block]; }    // kNone for the entry / unreachable
  bool dominates(uint32_t a, uint32_t b) const;                   // a dominates b (same function)
  bool reachable(uint32_t block) const { return idom_[block] != kNone || is_func_entry(block); }
  bool reaches_exit(uint32_t block) const { return reaches_exit_[block] != 0; }

  const std::vector<Loop>& loops() const { return loops_; }
  uint32_t innermost_loop(uint32_t block) const { return loop_of_[block]; }  // kNone if none

  const BranchInfo* branch(uint32_t pc) const {
    return pc < branch_of_pc_.size() && branch_of_pc_[pc] != kNone ? &branches_[branch_of_pc_[pc]] : nullptr;
  }
  // Start PC of the IPDOM of pc's block (kNoPc: the function's exit).
  uint32_t reconv_pc(uint32_t pc) const;
  // Whether pc starts the reconvergence block of a branch that may diverge:
  // where a 32-wide ISA's compiler puts its stack sync instruction (seed
  // 000's E-VWS-Sync waits there).
  bool sync_point(uint32_t pc) const { return pc < sync_pc_.size() && sync_pc_[pc]; }
  // Likely-convergence PC of the bra at pc, kNoPc when none or not a bra.
  uint32_t likely_pc(uint32_t pc) const;
  const std::vector<BranchInfo>& branches() const { return branches_; }

 private:
  bool is_func_entry(uint32_t block) const;
  void build_blocks(const Program& p);
  void analyse_function(uint32_t f);
  void find_loops(uint32_t f);
  void compute_likely();
  void compute_divergence(const Program& p);

  std::vector<BasicBlock> blocks_;
  std::vector<uint32_t> block_of_pc_, branch_of_pc_, func_blocks_;
  std::vector<uint32_t> ipdom_, idom_, loop_of_;
  std::vector<uint8_t> sync_pc_;  // per pc: sync_point()
  std::vector<uint8_t> reaches_exit_;
  std::vector<Loop> loops_;
  std::vector<BranchInfo> branches_;
};

}  // namespace simt::ptx
