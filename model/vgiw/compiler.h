// The VGIW compiler pass (seed 002 §3.1) over a linked kernel: if-conversion
// of short forward branches (if_conversion.h), then block IDs in
// schedule order (block_order.h), up to two successors per block, live value
// IDs (live_values.h) and one dataflow graph per block (dataflow_graph.h),
// with how many replicas of it the grid's units hold.
//
// Each block's graph is placed and routed on the grid (placer.h), as many
// replicas as fit. A block of which not even one replica fits (more units
// of some type than the grid has, or edges the switches cannot carry) is
// split after its longest prefix whose units fit (in the middle when only
// routing failed; values crossing the cut go through the LVC), repeatedly,
// until every reachable block fits; a single instruction that does not fit
// is a BadInput error naming the block and the resource.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "func/executor.h"
#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "vgiw/block_graph.h"
#include "vgiw/block_order.h"
#include "vgiw/dataflow_graph.h"
#include "vgiw/grid_layout.h"
#include "vgiw/if_conversion.h"
#include "vgiw/live_values.h"
#include "vgiw/placer.h"

namespace simt::vgiw {

struct CompiledBlock {
  uint32_t id = 0;                     // schedule order: the BBS runs the smallest waiting ID
  uint32_t begin = 0, end = 0;         // [begin, end) PCs
  std::vector<uint32_t> succ_ids;      // at most 2, ascending
  uint32_t taken_id = kNone;           // guarded bra: the taken successor's ID
  bool exits = false, barrier = false, reachable = true;
  uint32_t loop_head = kNone;          // ID of the head of its innermost loop
  uint32_t loop_end = kNone;           // a loop head: its loop is IDs [id, loop_end)
  std::vector<uint32_t> live_in, live_out;  // registers
  DataflowGraph graph;
  Placement placement;                 // unreachable blocks: none
  uint32_t replicas = 0;               // placed and routed (0 only for unreachable blocks)
};

// Instructions per if-converted region (vgiw.if_convert_limit; docs/vgiw.md
// gives the reasons for 8): on by default, as the paper's LLVM compiler was.
inline constexpr uint32_t kDefaultIfConvertLimit = 8;

struct CompilerOptions {
  UnitCounts grid = table1_grid();
  uint32_t tracks = 2;  // producers one switch-to-switch link carries (placer.h)
  uint32_t if_convert_limit = kDefaultIfConvertLimit;  // 0: no if-conversion
};

class Compilation {
 public:
  // Throws BadInput for what the compiler does not map (block_graph.h).
  // The Compilation keeps its own copy of `p`, if-converted.
  explicit Compilation(const ptx::Program& p, const CompilerOptions& o = {});

  // The program after if-conversion: what the blocks' PCs, registers and
  // live values refer to, and what the grid runs (executor()); equal to the
  // kernel's program with if_convert_limit 0.
  const ptx::Program& program() const { return p_; }
  const func::Executor& executor() const { return *exec_; }
  const IfConversionStats& if_conversion() const { return ifc_; }
  const UnitCounts& grid() const { return opt_.grid; }
  const GridLayout& layout() const { return layout_; }
  const std::vector<CompiledBlock>& blocks() const { return blocks_; }  // by ID
  const LiveValues& live_values() const { return *lv_; }
  // The ID of the block holding `pc`, kNone outside the kernel's entry function.
  uint32_t id_at(uint32_t pc) const;
  // Blocks added by splitting blocks too large for the grid.
  uint32_t splits() const { return static_cast<uint32_t>(starts_.size()); }

 private:
  // `place`: place and route every block (else replicas count units only).
  void build(bool place);

  IfConversionStats ifc_;
  std::unique_ptr<const ptx::Program> own_;  // the if-converted program
  const ptx::Program& p_;                    // *own_
  std::unique_ptr<func::Executor> exec_;     // runs p_ (made once every block fits)
  CompilerOptions opt_;
  GridLayout layout_;
  ptx::Cfg cfg_;
  std::vector<uint32_t> starts_;  // PCs where a split starts a block
  std::unique_ptr<BlockGraph> graph_;
  BlockOrder order_;
  std::unique_ptr<LiveValues> lv_;
  std::vector<CompiledBlock> blocks_;
};

// The compilation of `p` for every core and launch: each core's BBS asks for
// it at its first CTA, and the cores of one GPU share one result (compiling,
// placing and routing once per kernel instead of once per core and launch).
// `owner` lives as long as `p` (KernelContext::program_owner, or the launch's
// context when the program has no owner); entries go when it does.
std::shared_ptr<const Compilation> compile_for(const std::shared_ptr<const void>& owner, const ptx::Program& p,
                                               const CompilerOptions& o);

}  // namespace simt::vgiw
