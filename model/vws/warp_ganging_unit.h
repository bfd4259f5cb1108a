// The warp ganging unit of Variable Warp Sizing (seed 000 §4.2-4.5, Figure
// 6 block 3): the issue half, as the lock-step unit of the issue stage's
// slices mode (sm/lockstep_unit.h). It owns the gang table and the gang
// issue scheduler and decides, every cycle before the slices' own
// schedulers, which gangs issue.
//
// - Original gangs: when a CTA arrives, each group of `slices` consecutive
//   narrow warps (one 32-thread PTX warp) takes a set of the gang table and
//   starts as one gang (vws.ganging = false: every warp stays with its
//   slice, the WSn machines).
// - Issue: a gang may issue when every member has its instruction buffered
//   and its slice's scoreboard and pipe let it (ReadyMask full); up to
//   vws.gangs_per_cycle gangs on disjoint slices, in the order of
//   vws.gang_scheduler.
// - Splitting on control divergence: after a gang issued, its members' next
//   PCs regroup it (GangTable::split_on_pcs). On memory latency divergence
//   (vws.split_on_memory): when some members are ready while others still
//   wait on a load, `impatient` ungangs all of them, `group` makes the ready
//   ones a gang of their own.
// - Reforming (vws.reform = opportunistic): one original gang a cycle, in
//   round robin, merges its gangs and unganged warps that stand at one PC.
//   E-VWS-Sync<N> (vws.sync_wait = N): a gang or unganged warp of a split
//   original gang that reaches a reconvergence point (the start of the
//   IPDOM block of a branch that may diverge: where a 32-wide ISA's compiler
//   puts its stack sync instruction, ptx::Cfg::sync_point) is held there
//   for up to N cycles, so that the rest of its original gang can catch up
//   and be merged with it; the wait ends early once the original gang is
//   one gang again. Warps at a CTA barrier never wait.
// - Issue priority (§4.2: gangs before the slices' warps): a gang that
//   could issue but for a full pipe latch on some member slice claims that
//   pipe on its slices (the best such gangs, as many as may issue a cycle,
//   on slices no issued gang took), so the slices do not refill the latch
//   with their own warps and the gang goes once it drains. Without the
//   claim a gang on slices whose own warps keep the LDST latch busy waited
//   hundreds of thousands of cycles (nqueens, docs/vws.md).
// - Warp-synchronous instructions (shfl, vote, match, redux, bar.warp.sync)
//   keep their 32-thread meaning: the warps of an original gang whose lanes
//   the instruction's membermask names wait for each other and issue as one
//   group (a "meet"), whether they are ganged or not. Not in the paper,
//   whose traces come from a 32-wide ISA; this is what a PTX machine needs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sm/lockstep_unit.h"
#include "vws/gang_issue_scheduler.h"
#include "vws/gang_table.h"

#include <systemc>

namespace simt::stats { struct Counter; class Histogram; struct TimeSeries; }
namespace simt::trace { class MaybeSignal; }

namespace simt::vws {

struct GangingParams {
  bool ganging = true;                 // false: slice-only (WS4, WS8, WS16)
  uint32_t gangs_per_cycle = 2;        // 0 = as many as fit
  std::string gang_scheduler = "bgto"; // bgto | lgto | gto | lrr | lpc
  std::string split_on_memory = "none";  // none | impatient | group
  std::string reform = "none";         // none | opportunistic
  uint32_t sync_wait = 0;              // cycles to wait at reconvergence points (0 = none; E-VWS-Sync<N>)
};

class WarpGangingUnit : public sm::LockstepUnit {
 public:
  // `warp_slots` narrow-warp slots of the SM, `slices` 2..8 (slot s is on
  // slice s % slices).
  WarpGangingUnit(const GangingParams& p, uint32_t warp_slots, uint32_t slices);

  const char* name() const override { return "warp ganging"; }
  uint32_t slices() const override { return slices_; }
  bool has_room(uint32_t warps) const override;
  void start_cta(uint32_t cta, const std::vector<uint32_t>& slots, const sm::LockstepView& v) override;
  bool holds(uint32_t slot) const override;
  const util::BitSet* held_back() const override { return p_.sync_wait ? &held_ : nullptr; }
  const std::vector<uint8_t>* claimed_pipes() const override { return p_.ganging ? &claimed_ : nullptr; }
  uint32_t fetch_leader(uint32_t slot) const override;
  void members(uint32_t leader, std::vector<uint32_t>& out) const override;
  const std::vector<sm::LockstepGroup>& pick(const sm::LockstepView& v, uint64_t now) override;
  void moved(const std::vector<uint32_t>& slots, const sm::LockstepView& v) override;
  void retired(uint32_t slot) override;
  const std::vector<sm::LockstepChange>& take_changed() override;
  void register_stats(stats::Registry& r, const std::string& prefix) override;
  // VCD: <prefix>.g<GangID>_mask, _pc ('x' while the entry is unused) and
  // _valid (every member holds the gang's next instruction) per entry.
  bool make_signals(trace::Waveform& wf, const std::string& prefix) override;
  void write_signals() override;

  // <prefix>.warps_in_gangs_of_<k> (k = 1..slices; 1 = unganged): resident
  // warps by the size of the gang they belong to, at each boundary (the data
  // of the paper's Figure 18).
  void register_series(stats::Registry& r, const std::string& prefix, uint64_t interval) override;
  void sample() override;

  const GangTable& table() const { return table_; }
  // Resident warps in gangs of each size now: [k] = warps in gangs of k
  // members (k = 1: unganged).
  std::array<uint32_t, 9> warps_by_gang_size() const;

 private:
  static constexpr uint32_t kNone = ~uint32_t{0};
  enum class MemSplit : uint8_t { None, Impatient, Group };
  struct Set {
    bool used = false;
    uint64_t age = 0;
    std::array<uint32_t, 8> slot;  // per slice: its warp slot, kNone when none
  };

  uint32_t set_of(uint32_t slot) const { return set_of_[slot]; }
  // Records a table change of `set`: the warps that left or joined, and the
  // members of the entries it touched (`before`: their members before it).
  // On a merge (reformation) the merged gangs' members refetch.
  void note(uint32_t set, const GangChange& c, uint8_t before, bool merge = false);
  uint8_t members_of_ways(uint32_t set, uint8_t ways) const;
  void add_slots(uint32_t set, uint8_t mask, bool refetch);
  void split_on_memory(uint32_t set, const sm::LockstepView& v);
  void reform_one(const sm::LockstepView& v);
  void find_meets(uint32_t set, const sm::LockstepView& v);
  void hold_at_sync_points(uint32_t set, const sm::LockstepView& v, uint64_t now);
  // Whether gang `gang` of `set` could issue but for its pipes: every member
  // unblocked, none regrouped this cycle, none at a warp-synchronous
  // instruction whose lanes reach outside the gang.
  bool members_unblocked(uint32_t set, uint8_t gang, const sm::LockstepView& v) const;
  // Recomputes unblocked_[set] for the sets that changed since the last cycle.
  void refresh_dirty_sets(const sm::LockstepView& v);
  void mark_dirty(uint32_t set) { dirty_.set(set); }

  GangingParams p_;
  uint32_t slices_;
  MemSplit mem_split_;
  bool reform_;
  GangTable table_;
  GangIssueScheduler sched_;
  std::vector<Set> sets_;
  uint32_t sets_used_ = 0;  // original gangs resident (sets_[i].used)
  std::vector<uint32_t> set_of_;  // per slot
  uint64_t next_age_ = 0;
  uint32_t reform_next_ = 0;      // the set opportunistic reformation looks at next
  std::vector<sm::LockstepGroup> groups_, spare_;  // spare_: emptied groups kept for their storage
  sm::LockstepGroup& new_group(bool gang);
  std::vector<GangCandidate> cands_;
  std::vector<GangCandidate> blocked_;  // scratch: gangs held up only by a full pipe latch (pipe: pipe_[id])
  std::vector<uint8_t> claimed_;        // per slice: the pipes gangs claim this cycle (claimed_pipes)
  std::vector<sm::LockstepChange> changed_, handed_;
  std::vector<uint32_t> changed_flag_;  // per slot: its index in changed_ + 1, 0 = not in it
  std::vector<uint32_t> next_pc_;
  uint64_t taken_ = 0;                 // slices used by this cycle's meets
  std::vector<uint32_t> meet_sets_;    // scratch: sets with a warp that may be at a sync point
  // Gang readiness but the pipes, kept across cycles: per set, bit w = gang
  // w's members are unblocked; recomputed only for the sets in dirty_ (a
  // member went stale in the issue stage, or the set's gangs changed).
  // with_unblocked_ = the sets with any such gang; pipe_[set * kWays + w] =
  // the pipe gang w's instruction needs (LockstepView::pipe).
  std::vector<uint8_t> unblocked_, pipe_;
  static constexpr uint32_t kPipes = 5;  // sm::PipeKind: SP, SFU, tensor, LDST, none
  std::array<uint64_t, kPipes> free_;  // this cycle's free_slices per pipe, ~0 = not asked yet
  util::BitSet dirty_, with_unblocked_;
  // E-VWS-Sync: per slot, the reconvergence PC it waits at (kNone: none) and
  // until when; held_ = the slots waiting this cycle.
  std::vector<uint32_t> wait_pc_;
  std::vector<uint64_t> wait_until_;
  util::BitSet held_;
  bool tracing_ = false;               // VCD signals recorded: keep ReadyMask and valid up to date
  std::vector<stats::TimeSeries*> ser_sizes_;  // [k - 1]

  std::vector<sc_core::sc_signal<uint32_t>*> sig_mask_;  // per entry, null = not recorded
  std::vector<trace::MaybeSignal*> sig_pc_;
  std::vector<sc_core::sc_signal<bool>*> sig_valid_;

  stats::Counter* st_control_splits_ = nullptr;
  stats::Counter* st_memory_splits_ = nullptr;
  stats::Counter* st_reforms_ = nullptr;
  stats::Counter* st_meets_ = nullptr;
  stats::Counter* st_sync_waits_ = nullptr;
  stats::Histogram* st_gang_sizes_ = nullptr;
};

}  // namespace simt::vws
