// The L1 fetch arbiter of Variable Warp Sizing (seed 000 §4.6, Figure 6
// block 11), as a plain class: each cycle it grants the shared L1 I-cache's
// ports (vws.l1i_ports; 0 = as many as asked) to the fetch schedulers that
// ask. The gang fetch scheduler goes first (a gang fetch serves the most
// lanes); the ports left go to the slices' warp fetch schedulers in round
// robin, starting after the last slice served, so every slice that keeps
// asking gets its turn.
#pragma once

#include <cstdint>

namespace simt::vws {

class L1FetchArbiter {
 public:
  struct Grant {
    uint32_t gangs = 0;  // gang fetches granted
    uint8_t slices = 0;  // bit k = slice k's fetch granted
  };

  // `ports` 0 = unlimited; `slices` 1..8.
  L1FetchArbiter(uint32_t ports, uint32_t slices);

  // One cycle: `gang_requests` fetches from the gang fetch scheduler, and
  // one from each slice in `slice_requests`.
  Grant arbitrate(uint32_t gang_requests, uint8_t slice_requests);

  uint32_t ports() const { return ports_; }

 private:
  uint32_t ports_, slices_;
  uint32_t next_ = 0;  // the slice that goes first among the slices next time
};

}  // namespace simt::vws
