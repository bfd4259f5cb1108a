// An arbiter in front of a multi-ported cache's input ports
// (CachePortParams::up_ports > 1), bound to CacheModule::arbiter. The cache
// asks it in the cycle its requests are visible, so arbitration costs no
// cycle: like a port arbiter whose grant lines drive the cache's input muxes
// (seed 000's L1 fetch arbiter is one). Without an arbiter the cache serves
// its input ports in round robin.
#pragma once

#include <cstdint>

#include <systemc>

namespace simt::mem {

class InputArbiterIf : public virtual sc_core::sc_interface {
 public:
  // `asking`: bit k = input port k has a visible request. Writes the ports
  // granted this cycle to `order` (the cache serves one request of each, in
  // that order, until it stalls) and returns how many; at most 32.
  virtual uint32_t grant(uint32_t asking, uint8_t* order) = 0;
  // After the cycle's lookups: the ports whose request the cache took.
  virtual void served(uint32_t asking, uint32_t taken) = 0;
};

}  // namespace simt::mem
