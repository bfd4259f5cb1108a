// sc_spawn needs this before the first <systemc>.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "util/clock.h"

#include <algorithm>

#include "util/cycle.h"

namespace simt::util {

Clocked::~Clocked() {
  if (clock_) clock_->detach(*this);
}


Clock& Clock::get() {
  static Clock* const clock = new Clock;
  return *clock;
}

Clock::Clock() : event_(sc_core::sc_gen_unique_name("simt_clock_tick")) {
  sc_core::sc_spawn_options opt;
  opt.spawn_method();
  opt.set_sensitivity(&event_);
  // No dont_initialize: the method runs once at the start (cycle 0) for the
  // blocks attached with run_at_start.
  sc_core::sc_spawn([this] { run(); }, sc_core::sc_gen_unique_name("simt_clock"), &opt);
}

void Clock::attach(Clocked& c, bool run_at_start) {
  c.order_ = static_cast<uint32_t>(blocks_.size());
  c.clock_ = this;
  blocks_.push_back(&c);
  for (auto& bits : due_) bits.resize((blocks_.size() + 63) / 64, 0);
  if (run_at_start) mark_due(0, c.order_);
}

void Clock::detach(Clocked& c) {
  blocks_[c.order_] = nullptr;
  c.clock_ = nullptr;
  for (auto* list : {&again_, &again_running_}) list->erase(std::remove(list->begin(), list->end(), &c), list->end());
}

void Clock::mark_due(uint64_t cycle, uint32_t order) {
  due_[cycle & 1][order / 64] |= uint64_t{1} << (order % 64);
  any_due_[cycle & 1] = true;
}

void Clock::wake_next(Clocked& c) {
  const uint64_t next = now_cycle() + 1;
  mark_due(next, c.order_);
  arm(next);
}

void Clock::wake_at(Clocked& c, uint64_t cycle) {
  if (cycle <= now_cycle() + 1) return wake_next(c);
  later_.emplace(cycle, uint64_t{c.order_} * 2 + 1);
  arm(cycle);
}

void Clock::sleep_until(Clocked& c, uint64_t cycle) {
  if (cycle <= now_cycle() + 1) return wake_next(c);
  if (cycle >= c.deadline_) return;  // an earlier deadline stands
  c.deadline_ = cycle;
  later_.emplace(cycle, uint64_t{c.order_} * 2);
  arm(cycle);
}

bool Clock::valid(const std::pair<uint64_t, uint64_t>& e) const {
  const Clocked* c = blocks_[e.second / 2];
  return c && ((e.second & 1) || c->deadline_ == e.first);
}

void Clock::wake_now(Clocked& c) {
  again_.push_back(&c);
  if (stepping_) return;  // run() takes it before it returns
  event_.notify(sc_core::SC_ZERO_TIME);  // replaces a later pending notification
  armed_for_ = now_cycle();
}

void Clock::arm(uint64_t cycle) {
  // While stepping, run() arms once at its end: notifying here for a later
  // cycle first and an earlier one next would leave a cancelled entry in
  // SystemC's timed queue every cycle.
  if (stepping_ || cycle >= armed_for_) return;  // sc_event keeps the earliest pending notification
  // In time-resolution units: no floating point on this per-cycle path.
  const uint64_t at = cycle * cycle_time().value();
  event_.notify(sc_core::sc_time::from_value(at - sc_core::sc_time_stamp().value()));
  armed_for_ = cycle;
}

void Clock::run() {
  ++activations_;
  uint64_t now = now_cycle();
  if (armed_for_ <= now) armed_for_ = Clocked::kNever;  // this notification has fired
  for (;;) {
    while (!later_.empty() && later_.top().first <= now) {
      const auto e = later_.top();
      later_.pop();
      if (valid(e)) mark_due(now, static_cast<uint32_t>(e.second / 2));  // else a deadline cancelled by an earlier run
    }
    struct Stepping {  // cleared even when a block's step throws
      bool& flag;
      explicit Stepping(bool& f) : flag(f) { flag = detail::clock_stepping = true; }
      ~Stepping() { flag = detail::clock_stepping = false; }
    };
    {
      detail::clock_cycle = now;
      const Stepping guard(stepping_);
      step(now);
    }
    const uint64_t next = next_due(now);
    if (next == Clocked::kNever) {
      // Asleep until a socket or a memory port wakes a block. Having run
      // ahead, bring SystemC's time to this cycle (an activation with
      // nothing due), so that what happens next is timed from here.
      if (now * cycle_time().value() > sc_core::sc_time_stamp().value()) arm(now);
      return;
    }
    if (!may_run_ahead_to(next)) return arm(next);
    now = next;
  }
}

uint64_t Clock::next_due(uint64_t now) {
  if (any_due_[(now + 1) & 1]) return now + 1;
  // Only later wakes: the earliest that still counts.
  while (!later_.empty()) {
    if (valid(later_.top())) return later_.top().first;
    later_.pop();
  }
  return Clocked::kNever;
}

bool Clock::may_run_ahead_to(uint64_t cycle) const {
  if (cycle > run_ahead_until_) return false;
  const sc_core::sc_simcontext* sim = sc_core::sc_get_curr_simcontext();
  if (sim->sim_status() != sc_core::SC_SIM_OK) return false;  // sc_stop(): SystemC takes over
  // Another process runs before `cycle` (or with it): SystemC must order it.
  if (sc_core::sc_pending_activity_at_current_time(sim)) return false;
  const uint64_t at = cycle * cycle_time().value();
  return sc_core::sc_time_to_pending_activity(sim).value() > at - sc_core::sc_time_stamp().value();
}

void Clock::step(uint64_t now) {
  // Wakes during the step go to the other cycle's bits (now + 1) or to later_.
  std::vector<uint64_t>& bits = due_[now & 1];
  if (any_due_[now & 1]) {
    any_due_[now & 1] = false;
    for (size_t i = 0; i < bits.size(); ++i) {
      for (uint64_t w = bits[i]; w; w &= w - 1) {
        Clocked* c = blocks_[i * 64 + static_cast<size_t>(__builtin_ctzll(w))];
        if (!c) continue;  // detached
        c->deadline_ = Clocked::kNever;
        ++steps_;
        c->on_cycle(now);
      }
      bits[i] = 0;
    }
  }
  while (!again_.empty()) {
    again_running_.swap(again_);
    for (Clocked* c : again_running_) {
      ++steps_;
      c->on_cycle(now);
    }
    again_running_.clear();
  }
}

}  // namespace simt::util
