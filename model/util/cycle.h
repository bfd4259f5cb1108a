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
namespace detail {
// Kept by util::Clock: the cycle it is stepping (while `clock_stepping`) or
// stepped last. The clock may step several cycles in one SystemC activation
// (Clock::set_run_ahead), so SystemC's time can lag behind it.
inline uint64_t clock_cycle = 0;
inline bool clock_stepping = false;
}  // namespace detail

// The current cycle: the clock's while it steps (the blocks ask many times
// per cycle), else SystemC's time in cycles, or the cycle the clock last
// stepped if that is later. The last conversion is kept with the time stamp
// it came from (no division per call).
inline uint64_t now_cycle() {
  if (detail::clock_stepping) return detail::clock_cycle;
  struct Last {
    uint64_t stamp = ~uint64_t{0};
    uint64_t cycle = 0;
  };
  static Last last;
  const uint64_t stamp = sc_core::sc_time_stamp().value();
  if (stamp != last.stamp) {
    last.stamp = stamp;
    last.cycle = stamp / cycle_time().value();
  }
  return last.cycle > detail::clock_cycle ? last.cycle : detail::clock_cycle;
}
inline sc_core::sc_time cycles(uint64_t n) { return cycle_time() * static_cast<double>(n); }
// From SystemC's now to the start of cycle `c` (zero if it has begun): what
// a block notifies a SystemC event with for "in cycle c", which stays right
// while the clock runs ahead of SystemC's time.
inline sc_core::sc_time until_cycle(uint64_t c) {
  const uint64_t at = c * cycle_time().value(), stamp = sc_core::sc_time_stamp().value();
  return sc_core::sc_time::from_value(at > stamp ? at - stamp : 0);
}

}  // namespace simt::util
