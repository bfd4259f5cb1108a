// The SM's branch unit: how threads are grouped into warps and where they
// reconverge. The issue stage owns warp slots (I-buffer, scoreboard, fetch,
// scheduling); a BranchUnit decides, per slot, which threads form the warp
// in it and at which PC it runs. Variants (chosen by sm.reconvergence):
//   pdom  per-warp immediate-post-dominator stacks (sm/pdom_branch_unit)
//   tbc   block-wide stacks + thread compactor, seed 001 (tbc/tbc_branch_unit);
//         also PDOM with likely-convergence points (per-warp block stacks)
//   dwf   dynamic warp formation, majority scheduling, warp barriers (tbc/dwf_branch_unit)
//
// Protocol with the issue stage:
//  * start_cta() reserves `warp_slots` for a CTA (static warp i = threads
//    [i*W, (i+1)*W) belongs in warp_slots[i]); the unit fills them.
//  * Each cycle the issue stage offers, for each slot in state Running, the
//    instruction at slot(s).pc to the scheduler; the warp's active threads
//    are slot(s).mask minus the CTA's exited threads.
//  * After the instruction executes, executed() moves the warp on. A plain
//    advance to pc+1 leaves `version` alone; anything else the issue stage
//    must refetch for (a jump, a new warp placed in the slot, the slot
//    parked or retired) bumps the slot's version. Units may change other
//    slots than the executing one (DWF merges): they bump those versions too.
//  * Slot states: Running (may issue), Waiting (empty for now: parked at a
//    synchronisation point, will hold a warp again), Retired (never used
//    again by this CTA: the issue stage frees it once its in-flight
//    instructions drained). A CTA is finished when all its slots retired.
//  * Register hazards: the scoreboard is per thread; a warp may issue when
//    no register it reads or writes is pending for any thread of
//    slot(s).scope (PDOM: its whole static warp, so a diverged path waits on
//    the other path's writes as a per-warp scoreboard does; TBC/DWF: the
//    warp's own threads).
//  * TBC only: peek_request() hands the issue stage block-wide masks for the
//    thread compactor module; the compacted warps come back through
//    warp_generated(), one per cycle.
//  * Units that mix CTAs (mixes_ctas(): DWF's SM-wide pool) may put threads
//    of several CTAs of one kernel into one warp (slot(s).others, lanes
//    t % warp_size disjoint across parts) and a CTA's warp into a slot that
//    another CTA reserved; such a warp executes with executed_parts(). It
//    may pass a bar.arrive (each part counts at its CTA's barrier); a warp
//    that waits at a CTA barrier holds threads of one CTA only.
//
// A unit is plain C++ (no SystemC), testable on its own.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "func/executor.h"
#include "func/thread_mask.h"
#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "sm/packets.h"

namespace simt::stats { class Registry; struct Counter; }

namespace simt::sm {

enum class SlotState : uint8_t { Free, Running, Waiting, Retired };

// Threads of a warp that belong to another CTA than the slot's (see
// mixes_ctas()): `mask` of CTA slot `cta`; they are their own scope.
struct WarpPart {
  uint32_t cta = 0;
  func::ThreadMask mask;
};

struct WarpSlot {
  SlotState state = SlotState::Free;
  uint32_t cta = 0;          // CTA slot of the issue stage
  uint32_t pc = 0;           // next instruction (Running)
  func::ThreadMask mask;     // threads of the warp (may include exited threads: subtract them)
  func::ThreadMask scope;    // threads whose pending writes it must respect (see above)
  uint32_t version = 0;      // bumped on anything but a sequential advance
  uint32_t depth = 0;        // reconvergence stack depth this warp sees (traces)
  bool blocked = false;      // set by the issue stage while the warp waits at a CTA barrier
  // Further parts of other CTAs (units that mix CTAs only; `cta`, `mask`
  // and `scope` above are the first part).
  std::vector<WarpPart> others;
};

// What one CTA part of a warp did (executed_parts()).
struct PartStep {
  uint32_t cta = 0;
  const func::StepResult* r = nullptr;
  const func::ThreadMask* exited = nullptr;  // the CTA's exited threads after it
};

// The kernel facts a unit needs.
struct BranchKernel {
  const ptx::Program* prog = nullptr;
  const ptx::Cfg* cfg = nullptr;
};

class BranchUnit {
 public:
  BranchUnit(uint32_t slots, uint32_t warp_size) : slots_(slots), warp_size_(warp_size) {}
  virtual ~BranchUnit() = default;
  virtual const char* name() const = 0;

  uint32_t num_slots() const { return static_cast<uint32_t>(slots_.size()); }
  uint32_t warp_size() const { return warp_size_; }
  const WarpSlot& slot(uint32_t s) const { return slots_[s]; }

  // Throws simt::input_error when the unit cannot run the kernel (e.g. calls
  // under TBC). Asked before a launch starts (sm/core.h, check_kernel), so a
  // refused kernel never reaches the simulation.
  virtual void check_kernel(const BranchKernel& k) const {}
  // CTA `cta` starts with `threads` (0..n-1) at PC 0 in `warp_slots`
  // (ceil(n / warp_size) Free slots).
  virtual void start_cta(uint32_t cta, const BranchKernel& k, const func::ThreadMask& threads,
                         const std::vector<uint32_t>& warp_slots) = 0;

  // The warp in slot `s` (Running) executed `in` at slot(s).pc; `r` is what
  // the executor reported, `exited` the CTA's exited threads after it.
  // Throws simt::kernel_fault (util/error.h) for control flow the unit cannot follow.
  virtual void executed(uint32_t s, const ptx::Instr& in, const func::StepResult& r,
                        const func::ThreadMask& exited) = 0;
  // The same for a warp with parts of several CTAs: parts[0] is slot(s)'s
  // own CTA, parts[k] is slot(s).others[k - 1]. Only units that mix CTAs
  // make such warps.
  virtual void executed_parts(uint32_t s, const ptx::Instr& in, const std::vector<PartStep>& parts) {
    throw std::logic_error(std::string(name()) + " branch unit: executed_parts() for a warp of several CTAs");
  }

  // The issue stage freed a Retired slot (its in-flight work drained).
  void release(uint32_t s) {
    const uint32_t v = slots_[s].version + 1;
    slots_[s] = WarpSlot{};
    slots_[s].version = v;
  }
  // The issue stage marks a warp waiting at bar.sync (units must not merge
  // other threads into it) and clears it when the barrier completes.
  void set_blocked(uint32_t s, bool b) { slots_[s].blocked = b; }

  // Barriers. A warp arriving at bar.sync counts barrier_weight() threads;
  // the barrier (count 0) completes when barrier_participants() arrived.
  // PDOM counts whole static warps (threads waiting elsewhere on the warp's
  // stack count as arrived); TBC counts the executing entry's threads.
  // The issue stage asks before executed() moves the warp on, so a barrier
  // is judged against the entry its threads arrived in.
  virtual uint32_t barrier_weight(uint32_t s, const func::ThreadMask& exited) const {
    return slots_[s].mask.minus(exited).count();
  }
  virtual uint32_t barrier_participants(uint32_t cta, const func::ThreadMask& exited,
                                        uint32_t cta_live) const {
    return cta_live;
  }
  // A CTA barrier of `cta` completed and the warps in `slots` (Running,
  // no longer blocked) may go on. Called after executed() of the
  // instruction that completed it. DWF regroups them here; a unit that
  // changes slots bumps their versions as executed() does.
  virtual void barrier_released(uint32_t cta, const std::vector<uint32_t>& slots) {}

  // Scheduling hint for the "majority" policy (DWF): threads of the SM at
  // the slot's PC. 0 = no preference. Units that give hints say so with
  // ranks_warps(), so the issue stage skips the call for all others.
  virtual uint32_t priority(uint32_t s) const { return 0; }
  bool ranks_warps() const { return ranks_warps_; }
  // True when executed() changes no slot but the one that executed (per-warp
  // stacks), so the issue stage need not look at the CTA's other slots.
  bool changes_one_slot() const { return changes_one_slot_; }
  // True when each slot's scope is its own static warp, disjoint from every
  // other slot's: threads a slot issued for concern no other slot's hazards.
  bool static_scopes() const { return static_scopes_; }
  // Warp slots a CTA holds beyond its static warps, empty at launch, for
  // the warps the unit forms (DWF's dwf.extra_slots); the issue stage
  // reserves them with the CTA, at most sm.max_warps in all.
  uint32_t extra_slots() const { return extra_slots_; }
  // True when the unit keeps a reconvergence stack per CTA (TBC's
  // block-wide stack, cta_stack()); waveforms then trace one per CTA slot.
  bool cta_stacks() const { return cta_stacks_; }
  // True when warps may hold threads of several CTAs and sit in slots
  // another CTA reserved: the issue stage then looks at every slot where it
  // would look at a CTA's own.
  bool mixes_ctas() const { return mixes_ctas_; }

  // TBC: the next block-wide mask to compact, if any (the issue stage sends
  // it to the thread compactor; pop_request() once it was accepted), and
  // the compacted warps coming back.
  virtual const CompactRequest* peek_request() const { return nullptr; }
  virtual void pop_request() {}
  virtual void warp_generated(const GeneratedWarp& g) {}

  // Per-CTA reconvergence state for waveforms (TBC's block-wide stack):
  // false when the unit has none (per-warp stacks are traced per slot).
  virtual bool cta_stack(uint32_t cta, uint32_t& depth, uint32_t& tos_pc) const { return false; }

  // Where the CTA's threads are that no slot shows (deadlock reports), e.g.
  // "; 3 threads wait for a slot"; empty when every thread is in a slot.
  virtual std::string describe_cta(uint32_t cta) const { return {}; }

  // Statistics under `prefix` (e.g. "sm0.branch"): registered once.
  virtual void register_stats(stats::Registry& r, const std::string& prefix) {}
  // Deepest reconvergence stack seen since the last call (per-kernel max
  // stack depth); resets the running maximum.
  virtual uint32_t take_max_depth() { return 0; }

 protected:
  // For units without a return stack: throws simt::input_error naming the
  // kernel's first call of a function (builtins such as vprintf and malloc
  // run in place like any instruction and are fine).
  void refuse_calls(const ptx::Program& p) const;
  // Bump the slot's version (the issue stage refetches).
  void touch(uint32_t s) { ++slots_[s].version; }
  bool ranks_warps_ = false;  // priority() is overridden
  bool changes_one_slot_ = false;
  bool static_scopes_ = false;
  uint32_t extra_slots_ = 0;
  bool cta_stacks_ = false;
  bool mixes_ctas_ = false;

  std::vector<WarpSlot> slots_;
  uint32_t warp_size_;
};

}  // namespace simt::sm
