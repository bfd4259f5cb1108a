// A unit that binds warps of different slices into groups issued in lock
// step (seed 000's warp ganging unit: vws/warp_ganging_unit.h). The issue
// stage runs in "slices" mode when it has one (IssueUnit::set_lockstep):
// scheduler k is slice k, with lanes of its own, and static warp i of a CTA
// lives on slice i % slices, so the warps of one 32-thread PTX warp (an
// "original group") sit on different slices.
//
// Protocol with the issue stage (a plain class, testable without SystemC):
//  * start_cta(): the CTA's warps (static warp i in slots[i]).
//  * Each cycle, before the slices' schedulers, pick() returns the groups to
//    issue, in priority order, on disjoint slices. The issue stage executes
//    each group as one instruction over its members' threads (so warp-wide
//    PTX such as shfl sees all of them) and gives every member slice its
//    own packet; a slice a group used issues nothing else that cycle.
//  * holds(slot): the unit schedules this warp now; its slice does not.
//    A warp whose next instruction synchronises its 32-thread group (shfl,
//    vote, ...) is never issued by its slice alone either: the unit issues it
//    with the other warps of its group that must take part (a "meet").
//  * fetch_leader(slot): the warp whose fetches fill this warp's I-buffer:
//    itself, or the first member of its group (the group front end fetches
//    once for all members).
//  * moved(): after a group or a lone warp executed and the branch unit
//    moved it, the unit regroups by the warps' new PCs.
//  * take_changed(): warps whose grouping changed since the last call. A
//    warp that left a group keeps its I-buffer (members hold the same
//    entries); the issue stage only fixes who fetches for it. A warp that
//    joined one (`refetch`) drops its I-buffer and fetches again with its
//    new group.
//  * retired(): a warp finished.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/bit_set.h"

namespace simt::stats { class Registry; }
namespace simt::trace { class Waveform; }

namespace simt::sm {

// What the unit may ask the issue stage about a warp slot this cycle.
class LockstepView {
 public:
  virtual ~LockstepView() = default;
  virtual bool running(uint32_t slot) const = 0;   // holds a warp that has not finished
  virtual uint32_t pc(uint32_t slot) const = 0;    // its next PC (running)
  virtual bool eligible(uint32_t slot) const = 0;  // next instruction buffered, not at a CTA barrier
  virtual bool at_barrier(uint32_t slot) const = 0;  // waits at a CTA barrier
  virtual bool ready(uint32_t slot) const = 0;     // eligible, and its scoreboard and pipe let it issue now
  // ready() in two halves, for a unit that keeps the first across cycles:
  // eligible and its scoreboard lets it issue (changes only for slots in
  // touched()); and the pipe its next instruction needs (pipe(), a small
  // number: the same for warps at one PC) is free on its slice
  // (free_slices(pipe): bit k = slice k; changes every cycle).
  virtual bool unblocked(uint32_t slot) const = 0;
  virtual uint32_t pipe(uint32_t slot) const = 0;
  virtual uint64_t free_slices(uint32_t pipe) const = 0;
  // The slots whose state (anything but the pipes) may have changed since
  // the last pick(): a unit that caches what it learnt of a slot looks again
  // at these. The issue stage empties it after each pick().
  virtual const util::BitSet& touched() const = 0;
  virtual bool waits_on_memory(uint32_t slot) const = 0;  // held up by a load in flight
  // Its next instruction synchronises its 32-thread group; `lanes` (bit l =
  // lane l of the group) must take part.
  virtual bool sync_point(uint32_t slot, uint32_t& lanes) const = 0;
  // A superset of the slots for which sync_point() may be true (so that a
  // cycle need not ask every warp).
  virtual const util::BitSet& maybe_sync() const = 0;
  // Its next PC is a reconvergence point of a branch that may diverge
  // (ptx::Cfg::sync_point).
  virtual bool at_reconvergence(uint32_t slot) const = 0;
};

struct LockstepChange {
  uint32_t slot = 0;
  bool refetch = false;
};

struct LockstepGroup {
  std::vector<uint32_t> slots;  // members, ascending slice order
  bool gang = false;            // a gang of the table (false: a meet of unganged warps)
};

class LockstepUnit {
 public:
  virtual ~LockstepUnit() = default;
  virtual const char* name() const = 0;
  virtual uint32_t slices() const = 0;

  // Whether a CTA of `warps` warps can start now: the unit's own storage
  // (seed 000's gang table: one set per original gang) is a launch resource
  // like warp slots, and a CTA waits for it.
  virtual bool has_room(uint32_t warps) const { return true; }
  virtual void start_cta(uint32_t cta, const std::vector<uint32_t>& slots, const LockstepView& v) = 0;
  virtual bool holds(uint32_t slot) const = 0;
  // Warps the unit holds back this cycle although their slice manages them
  // (seed 000's E-VWS-Sync: waiting at a reconvergence point to regang);
  // null when it never does. Valid after pick().
  virtual const util::BitSet* held_back() const { return nullptr; }
  // Per slice, bit p = the slice may not issue its own warps to pipe p
  // (LockstepView::pipe) this cycle: a group that has priority waits for
  // that pipe there. Null when the unit never claims a pipe. Valid after
  // pick().
  virtual const std::vector<uint8_t>* claimed_pipes() const { return nullptr; }
  virtual uint32_t fetch_leader(uint32_t slot) const = 0;
  // The warps a leader's group fetch fills (the leader first); just the
  // leader when it is alone.
  virtual void members(uint32_t leader, std::vector<uint32_t>& out) const = 0;
  // The groups to issue this cycle; may split or reform groups first
  // (memory divergence, reformation), reporting the warps in take_changed().
  virtual const std::vector<LockstepGroup>& pick(const LockstepView& v, uint64_t now) = 0;
  // The warps in `slots` executed (one group, or one lone warp) and moved on.
  virtual void moved(const std::vector<uint32_t>& slots, const LockstepView& v) = 0;
  virtual void retired(uint32_t slot) = 0;
  virtual const std::vector<LockstepChange>& take_changed() = 0;

  virtual void register_stats(stats::Registry& r, const std::string& prefix) {}
  // Time series sampled every `interval` cycles (stats.interval): the issue
  // stage calls sample() at each boundary.
  virtual void register_series(stats::Registry& r, const std::string& prefix, uint64_t interval) {}
  virtual void sample() {}
  // VCD: creates the unit's signals under `prefix`; true when any is
  // recorded. write_signals() runs after every cycle the issue stage ran,
  // inside the waveform's window.
  virtual bool make_signals(trace::Waveform& wf, const std::string& prefix) { return false; }
  virtual void write_signals() {}
};

}  // namespace simt::sm
