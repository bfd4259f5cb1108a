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
// The current cycle. Blocks ask for it many times per cycle, so the last
// answer is kept with the time stamp it came from (no division per call).
inline uint64_t now_cycle() {
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
  return last.cycle;
}
inline sc_core::sc_time cycles(uint64_t n) { return cycle_time() * static_cast<double>(n); }

}  // namespace simt::util
