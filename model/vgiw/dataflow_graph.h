// One VGIW block as a dataflow graph (seed 002 §3.1, §3.5): the graph
// instruction word the grid is configured with. Nodes are what occupies a
// unit of the MT-CGRF; an edge carries a token from a producer to a
// consumer, per thread.
//
//   Initiator   CVU: takes thread batches from the BBS and sends each
//               thread's ID and CUDA coordinates (%tid, %ctaid, ...) on, so
//               a `mov %r, %tid.x` is an edge from it, not a node.
//   Instr       one PTX instruction: loads, stores, atomics, textures and
//               surfaces on LDST units; division, remainder, square root,
//               reciprocal and the transcendental ops on SCUs (non-pipelined);
//               every other ALU/FPU op on FP-ALUs. An instruction with no
//               register input fires on the initiator's token.
//   LiveLoad    LVU: reads a live-in register from the LVC (once per block).
//   LiveStore   LVU: writes a live-out register the block defines.
//   Join        SJU: waits for up to three control tokens and sends one on.
//               Joins order memory operations inside a thread (a store or
//               atomic waits for every earlier load and store of the block,
//               a load for the last earlier store; membar/fence orders all)
//               and gather the completions the terminator waits for.
//   Terminator  CVU: decides the thread's next block (the guard of its bra
//               or exit) once every store, atomic and live-value store of the
//               thread, and every node whose result nothing reads, has
//               completed, and returns the thread to the BBS.
// bar.arrive, nanosleep, pmevent and brkpt occupy no unit.
// Token buffer entries hold up to three operands; a consumer of more values
// still takes them all (the router spreads them over its ports).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ptx/ir.h"
#include "vgiw/block_graph.h"
#include "vgiw/live_values.h"

namespace simt::vgiw {

enum class Unit : uint8_t { FpAlu, Scu, Ldst, Lvu, Sju, Cvu, Count };
const char* unit_name(Unit u);
inline constexpr size_t kUnitTypes = static_cast<size_t>(Unit::Count);

// Units per type: a block's needs, or a grid's capacity.
struct UnitCounts {
  std::array<uint32_t, kUnitTypes> n{};
  uint32_t& operator[](Unit u) { return n[static_cast<size_t>(u)]; }
  uint32_t operator[](Unit u) const { return n[static_cast<size_t>(u)]; }
  uint32_t total() const;
};
// The MT-CGRF of seed 002's Table 1: 32 FP-ALU, 12 SCU, 16 LDST, 16 LVU,
// 16 SJU, 16 CVU (108 units).
UnitCounts table1_grid();

enum class NodeKind : uint8_t { Initiator, Instr, LiveLoad, LiveStore, Join, Terminator };
const char* node_kind_name(NodeKind k);

struct Node {
  NodeKind kind = NodeKind::Instr;
  Unit unit = Unit::FpAlu;
  uint32_t pc = kNone;                 // Instr, Terminator: the instruction
  uint32_t reg = kNone;                // LiveLoad / LiveStore: the register
  uint32_t live_id = kNone;            // LiveLoad / LiveStore: its live value ID
  std::vector<uint32_t> data, control;  // input nodes: values, and ordering/completion tokens
};

class DataflowGraph {
 public:
  DataflowGraph(const ptx::Program& p, const BlockGraph& g, const LiveValues& lv, uint32_t block);

  const std::vector<Node>& nodes() const { return nodes_; }
  uint32_t initiator() const { return 0; }
  uint32_t terminator() const { return static_cast<uint32_t>(nodes_.size() - 1); }
  // Units one replica occupies (initiator and terminator: two CVUs).
  const UnitCounts& needs() const { return needs_; }
  // Replicas of this graph that fit in `grid` by unit count alone (0: it
  // does not fit even once).
  uint32_t replicas(const UnitCounts& grid) const;
  // Longest path from the initiator to the terminator, in nodes.
  uint32_t depth() const;

 private:
  uint32_t add(Node n);
  // Control tokens from `from`, gathered by joins of up to three inputs
  // until at most `max_left` remain; returns those left.
  std::vector<uint32_t> gather(std::vector<uint32_t> from, size_t max_left);

  std::vector<Node> nodes_;
  UnitCounts needs_;
};

}  // namespace simt::vgiw
