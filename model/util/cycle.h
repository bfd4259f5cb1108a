// The one clock of the timing model: one core cycle is kCycle of simulated
// time. Blocks count in cycles; these convert to and from sc_time.
#pragma once

#include <cstdint>

#include <systemc>

namespace simt::util {

inline const sc_core::sc_time& cycle_time() {
  static const sc_core::sc_time t(1, sc_core::SC_NS);
  return t;
}
inline uint64_t now_cycle() { return sc_core::sc_time_stamp().value() / cycle_time().value(); }
inline sc_core::sc_time cycles(uint64_t n) { return cycle_time() * static_cast<double>(n); }

// The start of the next cycle, as one event shared by every block: a block
// that is busy next cycle re-arms with next_trigger(util::next_cycle())
// rather than a timeout of its own, so SystemC's timed queue holds one entry
// per cycle instead of one per busy block (the queue's heap was the largest
// cost of the kernel). Idle blocks wait on their own wake events and cost
// nothing. The event is never destroyed: it must outlive every process.
inline const sc_core::sc_event& next_cycle() {
  struct Ticker {
    sc_core::sc_event event{sc_core::sc_gen_unique_name("simt_next_cycle")};
    uint64_t armed_for = 0;  // the cycle `event` is notified for
  };
  static Ticker* const t = new Ticker;
  // now_cycle() rounds down: a caller between edges (the waveform's clock
  // runs at half cycles) still gets the next cycle's start.
  const uint64_t next = now_cycle() + 1;
  if (t->armed_for != next) {
    t->event.notify(cycles(next) - sc_core::sc_time_stamp());
    t->armed_for = next;
  }
  return t->event;
}

}  // namespace simt::util
