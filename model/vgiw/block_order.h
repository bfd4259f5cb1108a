// The VGIW compiler's schedule order (seed 002 §3.1): block IDs such that
// the BBS, which always runs the smallest ID with waiting threads, coalesces
// as many threads as the control flow allows.
//
// The order is a weak topological order of the block graph (Bourdoncle,
// "Efficient chaotic iteration strategies with widenings", 1993): every
// edge goes to a larger ID except the edges back to the head of an
// enclosing loop, each loop (strongly connected region, nested ones
// included, irreducible ones too) takes consecutive IDs starting at its
// head, and the blocks after a loop come after all of it. So the entry is
// ID 0, a join runs once every path into it has drained, threads that
// iterate go back to a smaller ID (the head) and run before any that left,
// and a loop's epilogue runs once, with every thread that left the loop.
// Between independent paths (the two arms of an if) the lower PC goes first.
// Blocks no path reaches take the last IDs, in PC order.
#pragma once

#include <cstdint>
#include <vector>

#include "vgiw/block_graph.h"

namespace simt::vgiw {

struct BlockOrder {
  std::vector<uint32_t> block_at;  // ID -> block index (BlockGraph::blocks)
  std::vector<uint32_t> id_of;     // block index -> ID
  std::vector<uint32_t> loop_head; // per ID: the ID of the head of its innermost loop, kNone outside loops
  std::vector<uint32_t> loop_end;  // per ID of a loop head: one past its loop's last ID (else kNone)
};

BlockOrder schedule_order(const BlockGraph& g);

}  // namespace simt::vgiw
