// The clock of the timing model: one SystemC method that, once per cycle,
// runs the per-cycle step of every block due in that cycle, in a fixed order
// (the order the blocks attached, i.e. construction order: SM 0's issue
// stage before SM 1's).
//
// Why: blocks see what other blocks send them only from the next cycle on
// (every socket stamps its input), so their order within a cycle cannot
// change results, with one exception the hardware has too: SMs that touch
// the same global word in the same cycle race, and the winner must not
// depend on how SystemC happens to order its processes. And speed: one
// timed notification per cycle for all busy blocks instead of one per block.
//
// A block stays a sc_module with its sockets; it only hands its cycle
// method to the clock. After each step it says when it must run again:
// wake_next (busy next cycle), wake_at (something becomes visible then),
// sleep_until (a deadline an earlier run cancels), or nothing (asleep until
// a socket handler or a memory port wakes it). An idle block costs nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include <systemc>

#include "util/cycle.h"

namespace simt::util {

class Clock;

// A block the clock runs. on_cycle(now) is its step for cycle `now`; the
// protected calls say when it runs next (see Clock).
class Clocked {
 public:
  Clocked() = default;
  Clocked(const Clocked&) = delete;
  Clocked& operator=(const Clocked&) = delete;
  virtual ~Clocked();  // leaves the clock
  virtual void on_cycle(uint64_t now) = 0;

 protected:
  // The block's side of the Clock calls below, for itself.
  void attach_to_clock(bool run_at_start);
  void wake_next();
  void wake_at(uint64_t cycle);
  void sleep_until(uint64_t cycle);
  void wake_now();

 private:
  friend class Clock;
  static constexpr uint64_t kNever = ~uint64_t{0};
  Clock* clock_ = nullptr;  // set by attach
  uint32_t order_ = 0;             // position in the clock's fixed order
  uint64_t deadline_ = kNever;     // its sleep_until deadline, if any
  uint32_t deadline_pos_ = ~0u;    // its place in the clock's deadline heap
};

class Clock {
 public:
  // The one clock of this process's simulation (SystemC has one kernel per
  // process). Created on first use, never destroyed.
  static Clock& get();

  // Adds `c` to the fixed order; with `run_at_start` it runs once in cycle 0
  // (like a SystemC method without dont_initialize).
  void attach(Clocked& c, bool run_at_start);
  void detach(Clocked& c);
  // `c` runs in the next cycle (callable from anywhere: its own step, a
  // socket handler, another process). Inline: the busiest call of all.
  void wake_next(Clocked& c) {
    mark_due(now_cycle() + 1, c.order_);
    if (!stepping_) arm(now_cycle() + 1);  // run() arms once after a step
  }
  // `c` runs in `cycle` (> now), whatever else happens: an event such as a
  // memory response that becomes visible then.
  void wake_at(Clocked& c, uint64_t cycle);
  // `c` runs in `cycle` unless it runs earlier, which cancels this: the
  // deadline of a block going to sleep (a watchdog, a VCD window opening).
  void sleep_until(Clocked& c, uint64_t cycle);
  // `c` runs once more in this cycle, after the blocks due now (in a delta
  // cycle when the clock is not stepping): a block that must show in this
  // cycle's waveform what another block just handed it.
  void wake_now(Clocked& c);

  // Lets the clock step the cycles up to `last_cycle` back to back in one
  // SystemC activation, without a timed notification per cycle, as long as
  // no other SystemC process has anything to do before the next cycle (it
  // hands control back to SystemC as soon as one does, and after sc_stop()).
  // Only for an owner that knows every process of the simulation follows
  // the clock's cycle (util::now_cycle()), not SystemC's time stamp, which
  // lags while the clock runs ahead: the GPU runner without a waveform.
  // 0 (the default) turns it off: one activation per cycle.
  void set_run_ahead(uint64_t last_cycle) { run_ahead_until_ = last_cycle; }

  // Idle: no block is due or scheduled to run (every block asleep until a
  // socket wakes it). idle_event() is notified (a delta cycle later) each
  // time the clock goes idle: a GPU inside someone else's platform, which
  // never runs out of events, learns from it that a kernel has drained.
  bool idle() const { return !stepping_ && armed_for_ == Clocked::kNever && again_.empty(); }
  const sc_core::sc_event& idle_event() const { return idle_; }
  // Stops stepping blocks for good (after a fault, when the simulation goes
  // on without the GPU): wakes are still taken, nothing runs.
  void halt() { halted_ = true; }
  bool halted() const { return halted_; }

  // Steps run so far, and SystemC activations of the clock (for tests and
  // the benchmark's notes; not model statistics).
  uint64_t steps() const { return steps_; }
  uint64_t activations() const { return activations_; }

 private:
  Clock();
  void run();
  void step(uint64_t now);  // runs the blocks due now
  void arm(uint64_t cycle);
  uint64_t next_due(uint64_t now);  // after stepping `now`; kNever when none
  bool may_run_ahead_to(uint64_t cycle) const;
  uint64_t run_ahead_until_ = 0;

  sc_core::sc_event event_;
  sc_core::sc_event idle_;
  bool halted_ = false;
  uint64_t armed_for_ = Clocked::kNever;  // cycle of event_'s pending notification
  std::vector<Clocked*> blocks_;  // by order; null once detached
  // The blocks due in two consecutive cycles, indexed by cycle & 1: one bit
  // per block, so a cycle's blocks run in order without sorting and a block
  // woken twice runs once.
  std::vector<uint64_t> due_[2];
  bool any_due_[2] = {false, false};
  void mark_due(uint64_t cycle, uint32_t order) {
    due_[cycle & 1][order / 64] |= uint64_t{1} << (order % 64);
    any_due_[cycle & 1] = true;
  }
  std::vector<Clocked*> again_, again_running_;  // wake_now
  bool stepping_ = false;
  // wake_at less than kWheel cycles ahead: a ring of per-cycle bit sets
  // (bucket cycle % kWheel, words_ words each), with a bit per bucket that
  // holds any, so a wake costs a bit and a cycle takes its bucket whole.
  static constexpr uint32_t kWheel = 1024;
  std::vector<uint64_t> wheel_;
  uint64_t wheel_busy_[kWheel / 64] = {};
  size_t words_ = 0;
  void take_bucket(uint64_t now);
  uint64_t next_in_wheel(uint64_t now) const;  // kNever when empty
  // wake_at farther ahead, earliest first: (cycle, order).
  std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>,
                      std::greater<>>
      later_;
  // sleep_until deadlines, at most one per block (a new one replaces it, a
  // run cancels it): a min-heap of blocks by deadline that knows where each
  // block sits, so nothing cancelled is left behind to pop.
  std::vector<Clocked*> deadlines_;
  void set_deadline(Clocked& c, uint64_t cycle);
  void drop_deadline(Clocked& c);
  void deadline_swap(uint32_t i, uint32_t j);
  void deadline_up(uint32_t i);
  void deadline_down(uint32_t i);
  uint64_t steps_ = 0;
  uint64_t activations_ = 0;
};

inline void Clocked::attach_to_clock(bool run_at_start) { Clock::get().attach(*this, run_at_start); }
inline void Clocked::wake_next() { clock_->wake_next(*this); }
inline void Clocked::wake_at(uint64_t cycle) { clock_->wake_at(*this, cycle); }
inline void Clocked::sleep_until(uint64_t cycle) { clock_->sleep_until(*this, cycle); }
inline void Clocked::wake_now() { clock_->wake_now(*this); }

}  // namespace simt::util
