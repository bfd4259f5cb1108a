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

  int pick(const std::vector<WarpCandidate>& c, uint64_t now) override;
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
  int candidate(uint32_t warp) const {
    const Slot& s = slots_[warp];
    return s.stamp == stamp_ ? s.cand : -1;
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
    int32_t prev = -1, next = -1;  // pending FIFO links
    int32_t cand = -1;             // index in the current candidate vector
    uint64_t stamp = 0;            // pick() call that set `cand`
  };
  Slot& slot(uint32_t warp, const char* what) {
    if (warp >= slots_.size() || !slots_[warp].present) never_added(warp, what);
    return slots_[warp];
  }
  [[noreturn]] static void never_added(uint32_t warp, const char* what);
  void push_pending(uint32_t warp);
  void unlink_pending(uint32_t warp);
  void leave_active(uint32_t warp);

  uint32_t active_size_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> active_;
  size_t rr_ = 0;  // position in active_ where the next search starts (mod size)
  int32_t head_ = -1, tail_ = -1;
  uint64_t stamp_ = 0;
};

}  // namespace simt::sm
