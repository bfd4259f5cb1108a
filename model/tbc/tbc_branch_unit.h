// The branch unit of Thread Block Compaction (seed 001 §3) and of PDOM with
// likely-convergence points (seed 001 §4), both on tbc::BlockStack.
//
// Scope::Cta (TBC): one block-wide stack per CTA. Warps synchronise at every
// potentially divergent branch and at reconvergence / likely-convergence
// points: the arriving warp's slot parks (Waiting). When the last warp of
// the executing entry arrives, the new top entry's mask becomes a
// CompactRequest (peek_request / pop_request, FIFO over CTAs) for the thread
// compactor module; its warps come back through warp_generated() and run in
// the CTA's slots (generated warp i in warp_slots[i]). At launch all threads
// are active, so the static warps go straight into their slots. With
// compact = false the compactor hands back static warps ("tbc-static").
//
// Scope::Warp (PDOM, optionally with likely-convergence points): one stack
// per static warp, so WCnt is always 1 and a dispatch goes straight back
// into the warp's own slot within the same call. As with the per-warp PDOM
// stack, entries are pushed only when the warp really diverges (the block
// stack would push an empty side and pop it at once: same issue order, but
// a deeper reported stack). With likely = false this follows sm/simt_stack.h.
//
// Both: a branch whose IPDOM is the function exit reconverges where the
// executing entry does (as the PDOM unit does); bra.uni / unguarded bra skip
// synchronisation; calls are refused before launch (calls to builtins such as
// vprintf are plain instructions and allowed). In TBC a bra.uni that splits
// a warp, warps of one entry gathering at different points, and a
// warp-synchronous instruction (vote, shfl, match, redux, bar.warp) in a
// compacted warp that splits a 32-thread PTX warp are kernel faults.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "sm/branch_unit.h"
#include "tbc/block_stack.h"

namespace simt::stats { struct Counter; }

namespace simt::tbc {

enum class Scope { Cta, Warp };

class TbcBranchUnit final : public sm::BranchUnit {
 public:
  using Scope = tbc::Scope;

  // compact: Cta scope only (false = compactor hands back static warps).
  // likely: use the CFG's likely-convergence points. Throws
  // std::invalid_argument for a warp size outside 1..64.
  TbcBranchUnit(uint32_t slots, uint32_t warp_size, Scope scope, bool compact, bool likely);
  ~TbcBranchUnit() override;

  const char* name() const override;

  void check_kernel(const sm::BranchKernel& k) const override { refuse_calls(*k.prog); }
  void start_cta(uint32_t cta, const sm::BranchKernel& k, const func::ThreadMask& threads,
                 const std::vector<uint32_t>& warp_slots) override;
  void executed(uint32_t s, const ptx::Instr& in, const func::StepResult& r,
                const func::ThreadMask& exited) override;

  uint32_t barrier_weight(uint32_t s, const func::ThreadMask& exited) const override;
  uint32_t barrier_participants(uint32_t cta, const func::ThreadMask& exited,
                                uint32_t cta_live) const override;

  const sm::CompactRequest* peek_request() const override;
  void pop_request() override;
  void warp_generated(const sm::GeneratedWarp& g) override;

  void register_stats(stats::Registry& r, const std::string& prefix) override;
  uint32_t take_max_depth() override;

  // Inspection (tests, traces): the CTA's block-wide stack (Cta scope) or
  // the slot's per-warp stack (Warp scope); nullptr when there is none.
  const BlockStack* cta_stack(uint32_t cta) const;
  // Waveforms: depth and top-of-stack PC of the CTA's block-wide stack.
  bool cta_stack(uint32_t cta, uint32_t& depth, uint32_t& tos_pc) const override {
    const BlockStack* b = cta_stack(cta);
    if (!b) return false;
    depth = b->depth();
    tos_pc = b->top().pc;
    return true;
  }
  const BlockStack* warp_stack(uint32_t s) const;
  size_t queued_requests() const { return requests_.size(); }

 private:
  struct Cta {
    bool live = false;
    sm::BranchKernel k;
    std::vector<uint32_t> slots;   // warp_slots from start_cta
    uint32_t threads = 0;
    uint32_t running = 0;               // Warp scope: warps not yet retired
    std::unique_ptr<BlockStack> stack;  // Cta scope
  };
  struct Counters;

  BlockStack& stack_of(uint32_t s);
  std::string where(uint32_t s, uint32_t pc) const;  // "kernel 'k' CTA c pc P: "
  void check_warp_sync(uint32_t s, const ptx::Instr& in, const func::ThreadMask& live);

  // Moves a running warp to `pc`; parks it when pc is a sync point.
  void move_to(uint32_t s, uint32_t pc, bool jump, const func::ThreadMask& live);
  void branch(uint32_t s, const func::StepResult& r, const func::ThreadMask& live);
  void exit(uint32_t s, const func::ThreadMask& exited);
  void park(uint32_t s, bool sync_wait);
  void place(uint32_t s, uint32_t pc, const func::ThreadMask& mask, const func::ThreadMask& scope);
  void retire(uint32_t s);
  // A stack operation: stats, depth, and SyncConflict as a kernel fault.
  template <class F>
  Dispatch run(uint32_t s, F&& op);
  // A dispatch of slot s's stack: to the compactor (Cta) or straight back
  // into the slot (Warp); warps == 0 retires the CTA's / warp's slots.
  void handle(uint32_t s, const Dispatch& d);

  Scope scope_;
  bool compact_;
  bool likely_;
  std::vector<Cta> ctas_;                               // by CTA slot
  std::vector<std::unique_ptr<BlockStack>> warp_stacks_; // Warp scope, by slot
  std::deque<sm::CompactRequest> requests_;
  uint32_t max_depth_ = 0;  // since take_max_depth()
  std::unique_ptr<Counters> st_;
};

}  // namespace simt::tbc
