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

}  // namespace simt::util
