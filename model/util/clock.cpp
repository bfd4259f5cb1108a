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

Clock::Clock()
    : event_(sc_core::sc_gen_unique_name("simt_clock_tick")), idle_(sc_core::sc_gen_unique_name("simt_clock_idle")) {
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
  const size_t words = (blocks_.size() + 63) / 64;
  for (auto& bits : due_) bits.resize(words, 0);
  if (words != words_) {  // widen every bucket, keeping its bits
    std::vector<uint64_t> wider(kWheel * words, 0);
    for (size_t b = 0; b < kWheel; ++b)
      for (size_t w = 0; w < words_; ++w) wider[b * words + w] = wheel_[b * words_ + w];
    wheel_.swap(wider);
    words_ = words;
  }
  if (run_at_start) mark_due(0, c.order_);
}

void Clock::detach(Clocked& c) {
  blocks_[c.order_] = nullptr;
  drop_deadline(c);
  // Out of the wheel too: a bucket left with only a detached block would be
  // a cycle stepped for nothing (and would move the clock's time).
  const size_t w = c.order_ / 64;
  const uint64_t bit = uint64_t{1} << (c.order_ % 64);
  for (size_t b = 0; b < kWheel; ++b) {
    uint64_t* bucket = &wheel_[b * words_];
    if (!(bucket[w] & bit)) continue;
    bucket[w] &= ~bit;
    bool any = false;
    for (size_t k = 0; k < words_; ++k) any = any || bucket[k];
    if (!any) wheel_busy_[b / 64] &= ~(uint64_t{1} << (b % 64));
  }
  c.clock_ = nullptr;
  for (auto* list : {&again_, &again_running_}) list->erase(std::remove(list->begin(), list->end(), &c), list->end());
}


void Clock::wake_at(Clocked& c, uint64_t cycle) {
  const uint64_t now = now_cycle();
  if (cycle <= now + 1) return wake_next(c);
  if (cycle - now < kWheel) {
    // Unambiguous: the bucket's earlier cycles have been taken by now.
    const size_t b = cycle % kWheel;
    wheel_[b * words_ + c.order_ / 64] |= uint64_t{1} << (c.order_ % 64);
    wheel_busy_[b / 64] |= uint64_t{1} << (b % 64);
  } else {
    later_.emplace(cycle, c.order_);
  }
  arm(cycle);
}

void Clock::take_bucket(uint64_t now) {
  const size_t b = now % kWheel;
  const uint64_t busy = uint64_t{1} << (b % 64);
  if (!(wheel_busy_[b / 64] & busy)) return;
  wheel_busy_[b / 64] &= ~busy;
  uint64_t* bucket = &wheel_[b * words_];
  std::vector<uint64_t>& due = due_[now & 1];
  for (size_t w = 0; w < words_; ++w) {
    due[w] |= bucket[w];
    bucket[w] = 0;
  }
  any_due_[now & 1] = true;
}

uint64_t Clock::next_in_wheel(uint64_t now) const {
  // The first busy bucket after now's, going round once.
  const size_t start = (now + 1) % kWheel;
  for (size_t d = 0; d < kWheel;) {
    const size_t b = (start + d) % kWheel;
    const uint64_t bits = wheel_busy_[b / 64] >> (b % 64);
    if (bits) {
      const size_t found = d + static_cast<size_t>(__builtin_ctzll(bits));
      if (found < kWheel) return now + 1 + found;
      return Clocked::kNever;
    }
    d += 64 - b % 64;  // to the next word
  }
  return Clocked::kNever;
}

void Clock::sleep_until(Clocked& c, uint64_t cycle) {
  if (cycle <= now_cycle() + 1) return wake_next(c);
  if (cycle >= c.deadline_) return;  // an earlier deadline stands
  set_deadline(c, cycle);
  arm(cycle);
}

// ---- the deadline heap (deadlines_[0] is the earliest)

void Clock::set_deadline(Clocked& c, uint64_t cycle) {
  // Only ever moves earlier (sleep_until keeps the earliest).
  c.deadline_ = cycle;
  if (c.deadline_pos_ == ~0u) {
    c.deadline_pos_ = static_cast<uint32_t>(deadlines_.size());
    deadlines_.push_back(&c);
  }
  deadline_up(c.deadline_pos_);
}

void Clock::drop_deadline(Clocked& c) {
  c.deadline_ = Clocked::kNever;
  const uint32_t i = c.deadline_pos_;
  if (i == ~0u) return;
  c.deadline_pos_ = ~0u;
  const uint32_t last = static_cast<uint32_t>(deadlines_.size() - 1);
  if (i != last) {
    deadlines_[i] = deadlines_[last];
    deadlines_[i]->deadline_pos_ = i;
  }
  deadlines_.pop_back();
  if (i < deadlines_.size()) {
    deadline_up(i);
    deadline_down(deadlines_[i]->deadline_pos_);
  }
}

void Clock::deadline_swap(uint32_t i, uint32_t j) {
  std::swap(deadlines_[i], deadlines_[j]);
  deadlines_[i]->deadline_pos_ = i;
  deadlines_[j]->deadline_pos_ = j;
}

void Clock::deadline_up(uint32_t i) {
  while (i > 0) {
    const uint32_t parent = (i - 1) / 2;
    if (deadlines_[parent]->deadline_ <= deadlines_[i]->deadline_) return;
    deadline_swap(i, parent);
    i = parent;
  }
}

void Clock::deadline_down(uint32_t i) {
  const size_t n = deadlines_.size();
  for (;;) {
    const size_t l = 2 * size_t{i} + 1, r = l + 1;
    size_t m = i;
    if (l < n && deadlines_[l]->deadline_ < deadlines_[m]->deadline_) m = l;
    if (r < n && deadlines_[r]->deadline_ < deadlines_[m]->deadline_) m = r;
    if (m == i) return;
    deadline_swap(i, static_cast<uint32_t>(m));
    i = static_cast<uint32_t>(m);
  }
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
  if (halted_) return;
  for (;;) {
    take_bucket(now);
    while (!later_.empty() && later_.top().first <= now) {
      const uint32_t order = later_.top().second;
      later_.pop();
      if (blocks_[order]) mark_due(now, order);  // else detached
    }
    while (!deadlines_.empty() && deadlines_[0]->deadline_ <= now) {
      Clocked& c = *deadlines_[0];
      mark_due(now, c.order_);
      drop_deadline(c);  // its run would cancel it anyway
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
      if (now * cycle_time().value() > sc_core::sc_time_stamp().value())
        arm(now);
      else if (again_.empty())
        idle_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    if (!may_run_ahead_to(next)) return arm(next);
    now = next;
  }
}

uint64_t Clock::next_due(uint64_t now) {
  if (any_due_[(now + 1) & 1]) return now + 1;
  // Only later wakes: the earliest that still counts.
  while (!later_.empty() && !blocks_[later_.top().second]) later_.pop();  // detached
  uint64_t next = later_.empty() ? Clocked::kNever : later_.top().first;
  if (!deadlines_.empty()) next = std::min(next, deadlines_[0]->deadline_);
  return std::min(next, next_in_wheel(now));
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
        if (c->deadline_ != Clocked::kNever) drop_deadline(*c);  // its run cancels its deadline
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
