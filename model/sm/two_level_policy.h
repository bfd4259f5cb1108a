// Two-level warp scheduler (Gebhart et al., "Energy-efficient Mechanisms for
// Managing Thread Context in Throughput Processors", ISCA 2011; the Fermi
// baseline of seed 004 §4.1 uses it as "implemented as described in [15]").
//
// Warps are split into an active set of at most N warps and a pending set.
// Only active warps are considered for issue, round robin inside the set
// (the search starts after the active warp that issued last). A warp leaves
// the active set for the back of the pending FIFO when it issues a
// long-latency operation (on_long_latency) or when it is offered with
// long_wait set (its next instruction waits on one). Free active slots are
// refilled from the pending FIFO in order, skipping warps that still wait:
// a warp is eligible once on_wakeup() has been called for it (if it slept)
// and it is offered this cycle without long_wait. Warps join the pending
// FIFO in on_warp_added() order.
#pragma once

#include <vector>

#include "sm/issue_policy.h"

namespace simt::sm {

class TwoLevelPolicy : public IssuePolicy {
 public:
  explicit TwoLevelPolicy(uint32_t active_size);

  // Both picks are final: a subclass changes the choice among active warps
  // (choose()) and what happens before each pick (before_pick()).
  int pick(const std::vector<WarpCandidate>& c, uint64_t now) final;
  // Reads readiness and long waits from the bits, looks a warp's candidate
  // up (binary search) only for the pick and for choose() overrides, and
  // moves warps between the sets only as far as the reported warps and the
  // hooks can have changed them (regroup_touched()), so a pick costs the
  // warps it looks at, not the list's length.
  void on_offer_changed(uint32_t warp, bool shifted) override;
  int pick_incremental(const std::vector<WarpCandidate>& c, const OfferBits& bits, uint64_t now) final;
  void on_issue(uint32_t warp, ptx::InstrClass cls, uint64_t now) override;
  void on_long_latency(uint32_t warp) override;
  void on_wakeup(uint32_t warp) override;
  void on_warp_added(uint32_t warp, uint64_t age) override;
  void on_warp_removed(uint32_t warp) override;
  const char* name() const override { return "two_level"; }
  // A pick() that moved warps between the sets reaches a fixed point: the
  // same candidates move none the next time (choose() overrides must not
  // keep state either).
  bool idle_pick_repeats() const override { return true; }

  uint32_t active_size() const { return active_size_; }
  // The active set in round-robin order and the pending FIFO, front first.
  const std::vector<uint32_t>& active() const { return active_; }
  std::vector<uint32_t> pending() const;  // allocates: tests and dumps only

 protected:
  // Chooses among the active warps (round robin from rr_); returns an index
  // into `c` or -1. `candidate(w)` maps a warp id to its index in `c`.
  virtual int choose(const std::vector<WarpCandidate>& c);
  // Called at the start of every pick, with the whole list (Origami's phases).
  virtual void before_pick(const std::vector<WarpCandidate>& c, uint64_t now) {
    (void)c, (void)now;
  }
  int candidate(uint32_t warp) const {
    const Slot& s = slots_[warp];
    if (s.stamp == stamp_) return s.cand;
    return sorted_ ? find_sorted(warp) : -1;
  }
  // Active warps in the order choose() should scan them.
  // k < active().size(); rr_ <= size, so one subtraction wraps (no division
  // in the scheduler's inner loop).
  uint32_t active_at(size_t k) const {
    const size_t j = rr_ + k;
    return active_[j < active_.size() ? j : j - active_.size()];
  }

 private:
  struct Slot {
    bool present = false, in_active = false, sleeping = false;
    bool touched = false;          // listed in touched_
    int32_t prev = -1, next = -1;  // pending FIFO links
    uint64_t seq = 0;              // when it joined the pending FIFO (FIFO order)
    mutable int32_t cand = -1;     // index in the current candidate vector
    mutable uint64_t stamp = 0;    // the list (stamp_) `cand` belongs to
  };
  Slot& slot(uint32_t warp, const char* what) {
    if (warp >= slots_.size() || !slots_[warp].present) never_added(warp, what);
    return slots_[warp];
  }
  [[noreturn]] static void never_added(uint32_t warp, const char* what);
  void push_pending(uint32_t warp);
  void unlink_pending(uint32_t warp);
  void leave_active(uint32_t warp);
  void join_active(uint32_t warp);
  void touch(uint32_t warp);
  // Binary search of the sorted list for `warp`; caches the answer in its slot.
  int find_sorted(uint32_t warp) const;
  // Whether a pending warp could join the active set now.
  bool eligible(uint32_t warp, const std::vector<WarpCandidate>& c) const {
    if (slots_[warp].sleeping) return false;
    if (bits_) return bits_->listed.test(warp) && !bits_->long_wait.test(warp);
    const int i = candidate(warp);
    return i >= 0 && !c[i].long_wait;
  }
  bool waits_long(uint32_t warp, const std::vector<WarpCandidate>& c) const {
    if (bits_) return bits_->long_wait.test(warp);
    const int i = candidate(warp);
    return i >= 0 && c[i].long_wait;
  }
  // Active warps that wait on a long-latency result move to the back of the
  // pending FIFO; free active slots are refilled from its front. All warps
  // (full) or, knowing that only touched warps can have changed since the
  // last regroup, only those.
  void regroup_full(const std::vector<WarpCandidate>& c);
  void regroup_touched(const std::vector<WarpCandidate>& c);
  // The two steps: active warps that wait leave (all, or only touched ones);
  // the FIFO refills the set in order; or, when every untouched pending warp
  // is known not eligible, the eligible touched ones join (false: too many
  // to sort, nothing done).
  template <bool OnlyTouched>
  void release_waiting(const std::vector<WarpCandidate>& c);
  void refill_in_order(const std::vector<WarpCandidate>& c);
  bool join_touched(const std::vector<WarpCandidate>& c);
  void clear_touched();

  uint32_t active_size_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> active_;
  size_t rr_ = 0;  // position in active_ where the next search starts (mod size)
  int32_t head_ = -1, tail_ = -1;
  uint64_t seq_ = 0;
  uint64_t stamp_ = 0;
  // pick_incremental(): the list (ascending warp order), whose candidates
  // are found on demand (sorted_: since the last pick(), whose list may be
  // any other); the warps reported or hooked since the last regroup; and
  // whether every pending warp was known not eligible then.
  const std::vector<WarpCandidate>* list_ = nullptr;
  const OfferBits* bits_ = nullptr;  // during pick_incremental() only
  bool sorted_ = false;
  std::vector<uint32_t> touched_;
  bool pending_idle_ = false;
};

}  // namespace simt::sm
