// Dynamic warp formation (DWF, Fung et al. MICRO 2007) as the comparison
// point of seed 001 (§2.3-2.4): at every branch a warp's threads leave it and
// join other warps waiting at the same PC whose lane is free, so diverged
// threads from several warps are packed into fuller warps. Two variants:
//   dwf     plain DWF; the issue stage's "majority" policy schedules it
//           (priority() = threads of the SM at the warp's PC).
//   dwf-wb  DWF with warp barriers (§2.4): threads stay in their static warp
//           until a top-level divergent branch; then each static warp waits
//           at the branch's immediate post-dominator until all its threads
//           arrived, and resumes there as its static warp.
//
// Model (and where it simplifies the hardware):
//  * A thread keeps its home lane t % warp_size, so a warp holds at most one
//    thread per lane and no register moves between lanes.
//  * The warp pool. A warp is {PC, threads}. Each CTA launches into the
//    issue slots it was given (static warp i starts in warp_slots[i]); a
//    slot whose warp dissolved is Waiting until a warp is placed in it. The
//    hardware's warp pool has an entry for every warp it can form; ours is
//    bounded by the slots, so warps that find no free slot wait in an
//    overflow list (still part of the pool: later threads merge into them)
//    and take the next slot that becomes Waiting, oldest first. At a branch
//    the executing warp's slot is freed before its threads are placed, so
//    with overflow pending the slots rotate between warps. Pool::Cta (the
//    default): threads merge within their CTA, a CTA's warps use its slots
//    and its own overflow list and LUT. Pool::Sm (Fung et al.'s pool,
//    GPGPU-Sim keys warps by PC alone): threads of every CTA of a kernel on
//    the SM merge, so a warp may hold parts of several CTAs (WarpSlot::
//    others; the issue stage runs each part on its CTA, executed_parts());
//    warps take a Waiting slot of their own CTA first, else any of a CTA of
//    their kernel (the issue stage fetches the reserving CTA's program); one
//    overflow list and one LUT per kernel serve the SM. Barrier, warp-sync
//    and warp-barrier bookkeeping stays per CTA. Threads gathered at a CTA
//    barrier go only to their CTA's slots (they block there, and a slot
//    must not leave with a blocked warp of another CTA); their release also
//    waits while the CTA has threads in the overflow list. When a CTA
//    retires, warps of other CTAs in its slots move to another Waiting slot
//    of their kernel or to the overflow list (they refetch).
//  * Straight-line code (Next, Exit, Barrier) keeps a warp's threads. At any
//    branch (uniform or not) the warp's live threads split by outcome; each
//    group joins the pool at its PC thread by thread: first the warp that
//    last received threads at that PC (DWF's warp LUT), then the CTA's other
//    Running, non-blocked warps at that PC in slot order, then overflow
//    warps; threads whose lane is taken everywhere form one new warp (the
//    executing warp's own slot first, then any Waiting slot, else overflow).
//  * Warp-synchronous instructions (vote, shfl, match, redux, bar.warp.sync)
//    need the threads of each 32-thread PTX warp (group t / 32) together.
//    Our addition, not in the paper: threads reaching such a PC without all
//    live members of their group are parked per (group, PC); when every live
//    member arrived (members: the group's live threads, limited to the
//    membermask when it is an immediate; exited threads count as arrived)
//    they resume as one warp (the home slot of the group's first thread if
//    Waiting, else any Waiting slot, else overflow). Groups are never split
//    when they join a warp at such a PC. Executing one with a warp that
//    lacks a live member of a group it holds is a model bug (logic_error).
//  * CTA barriers (bar.sync, bar.red, barrier.sync; not bar.arrive): our
//    addition, needed because the pool is bounded: if every slot held a warp
//    blocked at a barrier while threads still waited in the overflow list,
//    the CTA would deadlock. So threads reaching a blocking barrier are
//    gathered at its PC and released, each static warp's gathered threads
//    as one warp, once no warp of the CTA can issue (normally: when every
//    live thread arrived). They then execute the barrier, so the issue
//    stage's barrier counting (default BranchUnit: a warp's live threads,
//    participants = the CTA's live threads) is unchanged. Barriers reached
//    at different PCs by one CTA, inside divergent code, may still deadlock.
//  * After a Barrier instruction the warp stays in its slot at pc + 1 (the
//    issue stage counts its threads at the barrier and blocks the slot).
//    When the barrier completes, barrier_released() regroups the released
//    warps as a branch does: each dissolves and its threads arrive at pc + 1
//    (so a warp barrier, warp-synchronous instruction or CTA barrier there
//    is checked) and merge with the warps at that PC.
//  * DWF-WB: a static warp is coherent until a branch actually splits it
//    (a top-level divergence: all threads of the executing warp belong to
//    static warps without a warp barrier; our coherent warps are always one
//    static warp). Coherent warps never merge and nothing merges into them;
//    they simply jump (while warps wait for a slot, a jumping coherent warp
//    yields its slot to the oldest of them, as a dissolving warp does). At a
//    top-level divergence the static warp gets a warp barrier at the
//    branch's IPDOM (Cfg reconv_pc) and its threads regroup with DWF rules
//    with other diverged threads. When the IPDOM is the function exit there
//    is no barrier; every later branch of those threads is control dependent
//    on this one (the paper's definition of not top-level), so the static
//    warp stays diverged and its threads regroup freely until they exit.
//    Threads reaching their static warp's barrier PC (after a branch, a
//    sequential advance or a release) leave their warp and wait; when every
//    live thread of the static warp arrived it resumes there as one warp
//    (home slot if Waiting, else any Waiting slot, else overflow), coherent.
//  * Exit: a warp whose threads all exited leaves its slot Waiting; when
//    every thread of the CTA exited, all its slots retire.
//  * Calls to functions are refused before launch (no return stack); builtin
//    calls (vprintf, __assertfail) are plain instructions.
//  * Scope (scoreboard) = the warp's own threads. depth = 1 for a warp in a
//    slot (there is no stack); take_max_depth() is 1 once a CTA ran, else 0.
//  * Majority: priority(s) counts the live threads of the SM's CTAs of the
//    same kernel in Running warps at slot(s).pc, kept incrementally per PC.
//
// Statistics (register_stats prefix, e.g. "sm0.branch"): dwf_merges (threads
// that joined an existing warp), dwf_new_warps (warps formed at branches
// because no warp had the lanes free), dwf_overflow_events (warps that found
// no free slot), warp_barrier_waits (DWF-WB: static warps that waited at a
// warp barrier), warp_sync_regroups (groups parked and regrouped for a
// warp-synchronous instruction), dwf_barrier_regroups (warps a CTA barrier
// released that dissolved and rejoined the pool).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "sm/branch_unit.h"
#include "stats/stats.h"
#include "tbc/dwf_kernel_facts.h"

namespace simt::tbc {

class DwfBranchUnit final : public sm::BranchUnit {
 public:
  // Where threads merge and warps wait for a slot (dwf.pool).
  enum class Pool : uint8_t { Cta, Sm };
  DwfBranchUnit(uint32_t slots, uint32_t warp_size, bool warp_barrier, uint32_t extra_slots = 0,
                Pool pool = Pool::Cta);
  const char* name() const override { return wb_ ? "dwf-wb" : "dwf"; }

  void check_kernel(const sm::BranchKernel& k) const override;
  void start_cta(uint32_t cta, const sm::BranchKernel& k, const func::ThreadMask& threads,
                 const std::vector<uint32_t>& warp_slots) override;
  void executed(uint32_t s, const ptx::Instr& in, const func::StepResult& r,
                const func::ThreadMask& exited) override;
  void executed_parts(uint32_t s, const ptx::Instr& in, const std::vector<sm::PartStep>& parts) override;
  void barrier_released(uint32_t cta, const std::vector<uint32_t>& slots) override;
  uint32_t priority(uint32_t s) const override;
  std::string describe_cta(uint32_t cta) const override;
  void register_stats(stats::Registry& r, const std::string& prefix) override;
  uint32_t take_max_depth() override;

  // Inspection (tests, diagnostics).
  struct Counts {
    uint64_t merges = 0, new_warps = 0, overflow_events = 0, warp_barrier_waits = 0, warp_sync_regroups = 0;
    uint64_t cross_cta_merges = 0;
  };
  Counts counts() const;
  // Warps holding threads of the CTA that wait for a slot.
  size_t overflow_warps(uint32_t cta) const;
  // Threads of the CTA waiting outside any warp: at a warp barrier, at a
  // warp-synchronous instruction or gathered at a CTA barrier.
  func::ThreadMask waiting_threads(uint32_t cta) const;
  // DWF-WB: the warp barrier PC of static warp `w` (kNoPc: none).
  uint32_t warp_barrier_pc(uint32_t cta, uint32_t w) const { return ctas_.at(cta).warps.at(w).barrier; }

 private:
  using ThreadMask = func::ThreadMask;

  struct PoolWarp {         // a warp waiting for a slot (overflow): like a slot's warp
    uint32_t pc = 0;
    uint32_t cta = 0;
    ThreadMask mask;
    std::vector<sm::WarpPart> others;  // SM pool: threads of further CTAs
    bool own_slots = false;  // gathered at a CTA barrier: only its CTA's slots (it blocks there)
  };
  struct Parked {           // threads waiting at `pc` (warp-sync: per 32-thread group)
    uint32_t group = 0;
    uint32_t pc = 0;
    ThreadMask mask;
  };
  struct Release {          // a thread set that becomes one warp at `pc`
    uint32_t pc = 0;
    ThreadMask mask;
    bool checked = false;   // already went through arrive() at pc (gathered at a barrier)
  };
  struct StaticWarp {       // DWF-WB state of one static warp
    bool diverged = false;
    uint32_t barrier = ptx::kNoPc;
    ThreadMask arrived;     // threads waiting at the barrier
  };
  struct Kernel {
    DwfKernelFacts facts;
    std::vector<uint32_t> at_pc;  // live threads in Running warps per PC (majority)
    std::vector<uint32_t> lut;    // SM pool: per PC, the slot that last received threads there
    uint32_t ctas = 0;            // CTAs of this kernel on the SM; 0 = entry free
  };
  struct Cta {
    bool active = false;
    uint32_t kernel = 0;
    uint32_t n = 0;                      // threads 0..n-1
    ThreadMask threads, exited;
    std::vector<uint32_t> slots;         // slots[i]: home slot of static warp i
    std::vector<ThreadMask> static_mask; // threads of static warp i
    std::vector<StaticWarp> warps;
    std::deque<PoolWarp> overflow;       // CTA pool only (SM pool: sm_overflow_)
    std::vector<Parked> syncs;           // parked at warp-synchronous PCs
    std::vector<Parked> gathered;        // gathered at CTA barrier PCs (group unused)
    std::vector<Release> pending;        // released, to be placed
    std::vector<uint32_t> lut;           // CTA pool: per PC, slot that last received threads there
  };
  struct Live {              // executed_parts(): one CTA part's live threads
    uint32_t cta = 0;
    ThreadMask mask;
    const func::StepResult* r = nullptr;
  };

  // dwf_branch_unit.cpp: protocol
  uint32_t kernel_entry(const sm::BranchKernel& k);
  void refuse_warp_sync(const DwfKernelFacts& f) const;
  void advance(uint32_t s, const ThreadMask& live, uint32_t next);
  void branch(uint32_t s, const ThreadMask& live, uint32_t pc, const func::StepResult& r);
  // A branch's outcomes join the pool: `taken` at `target`, `fall` at pc + 1.
  void join_outcomes(Cta& c, const ThreadMask& taken, const ThreadMask& fall, uint32_t pc, uint32_t target,
                     uint32_t prefer);
  void check_warp_sync(const Cta& c, const ThreadMask& m, uint32_t pc) const;
  void recheck_after_exit(Cta& c);
  void retire(Cta& c);
  void evict_foreign_warps(const Cta& c);
  void snapshot(const Cta& c);
  void touch_changed(const Cta& c, uint32_t advanced, uint32_t next_pc);
  std::string where(const Cta& c, uint32_t pc) const;
  uint32_t cta_index(const Cta& c) const { return static_cast<uint32_t>(&c - ctas_.data()); }

  // dwf_warp_pool.cpp: the pool
  ThreadMask arrive(Cta& c, uint32_t pc, ThreadMask m);
  void merge(Cta& c, ThreadMask g, uint32_t pc, uint32_t prefer);
  void new_warp(Cta& c, const ThreadMask& g, uint32_t pc, uint32_t prefer);
  void place_release(Cta& c, const Release& rel);
  void fill_from_overflow(Cta& c);
  void settle(Cta& c, uint32_t blocking_slot);
  bool can_issue(const Cta& c, uint32_t except_slot) const;
  void release_gathered(Cta& c);
  void try_release_barrier(Cta& c, uint32_t w);
  bool try_release_sync(Cta& c, size_t i);
  ThreadMask sync_members(const Cta& c, uint32_t group, uint32_t pc) const;
  // A Waiting slot for a warp of `c`: `prefer` if usable, else one of c's,
  // else (SM pool) one of a CTA of its kernel other than `leaving`.
  uint32_t waiting_slot(const Cta& c, uint32_t prefer, bool own_only = false, uint32_t leaving = UINT32_MAX) const;
  uint32_t home_slot(const Cta& c, const ThreadMask& m) const { return c.slots[m.first() / warp_size_]; }
  bool can_merge_into(uint32_t cta, const ThreadMask& warp) const;
  uint64_t lanes(const ThreadMask& m) const;
  uint64_t lanes(const ThreadMask& m, const std::vector<sm::WarpPart>& others) const;  // a warp of several parts
  // The pool's structures: per CTA, or the SM's (dwf.pool = sm).
  std::deque<PoolWarp>& overflow_of(Cta& c) { return sm_pool_ ? sm_overflow_ : c.overflow; }
  uint32_t& lut_of(Cta& c, uint32_t pc) { return sm_pool_ ? kernels_[c.kernel].lut[pc] : c.lut[pc]; }
  const std::vector<uint32_t>& slots_of(const Cta& c) const { return sm_pool_ ? pool_slots_ : c.slots; }
  // Threads of CTA `cta` in a warp (null: none).
  static ThreadMask* part_of(uint32_t cta, uint32_t& own_cta, ThreadMask& own, std::vector<sm::WarpPart>& others);

  // Slot edits that keep the per-PC counts right.
  void uncount(uint32_t s);
  void count(uint32_t s);
  void put(uint32_t s, uint32_t cta, uint32_t pc, const ThreadMask& m);  // slot s: Running warp {pc, m of cta}
  void put(uint32_t s, PoolWarp&& w);                                   // slot s: that warp
  void add(uint32_t s, uint32_t cta, const ThreadMask& m);
  void vacate(uint32_t s);                                              // slot s: Waiting

  bool wb_;
  bool sm_pool_;
  std::vector<Kernel> kernels_;
  std::vector<Cta> ctas_;      // by the issue stage's CTA slot
  // SM pool: every active CTA's slots (ascending), which CTA reserved each
  // slot, and the warps waiting for a slot (oldest first).
  std::vector<uint32_t> pool_slots_;
  std::vector<uint32_t> owner_;
  std::deque<PoolWarp> sm_overflow_;
  std::vector<Live> lives_;    // executed_parts(): scratch
  uint32_t max_depth_ = 0;
  struct Regroup {           // a warp released by a CTA barrier, dissolved
    uint32_t slot = 0, pc = 0;
    ThreadMask mask;
  };
  std::vector<Regroup> regroup_;  // barrier_released(): scratch
  std::vector<uint32_t> snap_slots_;       // executed(): slots before, for version bumps
  std::vector<sm::SlotState> snap_state_;
  std::vector<uint32_t> snap_pc_;
  stats::Counter* st_merges_ = nullptr;
  stats::Counter* st_new_warps_ = nullptr;
  stats::Counter* st_overflow_ = nullptr;
  stats::Counter* st_wb_waits_ = nullptr;
  stats::Counter* st_sync_regroups_ = nullptr;
  stats::Counter* st_barrier_regroups_ = nullptr;
  stats::Counter* st_cross_cta_ = nullptr;  // SM pool only
  stats::Counter own_[7];      // where the pointers point until register_stats()
  bool regrouping_ = false;    // in barrier_released(): warps formed there are not dwf_new_warps
};

}  // namespace simt::tbc
