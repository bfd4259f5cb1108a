// If-conversion for the VGIW compiler pass (simtlab issue 37, item 4): the
// block formation of the paper's LLVM compiler, whose SSA form folds short
// guarded blocks into their neighbours, where nvcc's PTX cuts a block at
// every `@p bra L`.
//
// A region is converted into straight-line predicated code when it is
//   - a triangle: `@G bra L; arm; L:` (L after the branch), or
//   - a diamond:  `@G bra E; then; bra J; E: else; J:` (J at or after E),
// it is single-entry (nothing but the region's own branch targets a PC
// inside it: no back edge or other path enters an arm), and its arms hold
// no control flow and nothing that cannot be guarded exactly: no branch,
// barrier (bar, barrier, bar.warp), exit, ret, trap, call, nanosleep,
// brkpt, pmevent, cp.async or warp-level instruction. Loads, stores and
// atomics are guarded (`@a st`), which the executor runs exactly as the
// branch would have: threads whose guard is false touch nothing.
//
// The conversion removes the region's branches (both in a diamond) and
// guards each arm instruction with the arm's predicate: !G for the
// fall-through arm, G for the taken one. An arm instruction already
// guarded by Q gets a fresh conjunction first, `and.pred t, A, Q` (t a new
// predicate register, A the arm's predicate, either operand possibly
// negated: the executor reads `!` on predicate sources), and then runs
// under @t. When an arm writes G's register, G is first copied
// (`mov.pred s, G`) and the arms read the copy. These added instructions
// are nodes of the dataflow graph like any ALU op (FP-ALUs), and they count
// against the size limit; they write only the conversion's own registers,
// read nowhere but inside their region, so they stay unguarded when an
// enclosing region is converted later.
//
// Regions are converted innermost first, repeatedly: once a region's arms
// are straight-line, an enclosing triangle or diamond may qualify in turn.
// A region converts when its converted instruction count (arm instructions
// plus added ones) is at most `limit`; limit 0 converts nothing and returns
// the program unchanged. Programs with more than the entry function (calls)
// are left unchanged: the pass refuses calls anyway (block_graph.h).
#pragma once

#include <cstdint>

#include "ptx/ir.h"

namespace simt::vgiw {

struct IfConversionStats {
  uint32_t triangles = 0, diamonds = 0;  // regions converted
  uint32_t branches_removed = 0;
  uint32_t added = 0;                    // and.pred / mov.pred instructions added
};

// `p` with every convertible region of its entry function converted
// (above). New predicate registers are named "%<if>N" (no PTX name can
// clash). A program whose registers share rows (ptx/register_slots.h) has
// them shared again from the converted code's liveness: the arms read the
// branch predicate where the kernel's liveness had it dead.
ptx::Program if_convert(const ptx::Program& p, uint32_t limit, IfConversionStats* stats = nullptr);

}  // namespace simt::vgiw
