#include "vws/l1_fetch_arbiter_unit.h"

#include <algorithm>
#include <bitset>

namespace simt::vws {

L1FetchArbiterUnit::L1FetchArbiterUnit(sc_core::sc_module_name name, uint32_t slices, uint32_t gang_pipes,
                                       uint32_t ports, stats::Registry& st, const std::string& n)
    : sc_core::sc_module(name),
      grants("grants"),
      slices_(slices),
      gang_pipes_(gang_pipes),
      ports_(ports == 0 ? slices + gang_pipes : ports),
      arb_(ports, slices),
      gang_fetches_(st.counter(n + ".gang_fetches", "L1I reads granted to the gang front end and taken by the L1I")),
      slice_fetches_(st.counter(n + ".slice_fetches", "L1I reads granted to the slices' front ends and taken by the L1I")),
      waits_(st.counter(n + ".waits", "cycles a front end's read waited for an L1I port, summed over front ends")) {
  grants.bind(*this);
}

uint32_t L1FetchArbiterUnit::grant(uint32_t asking, uint8_t* order) {
  const uint32_t slice_mask = (1u << slices_) - 1;
  const uint32_t gang_asks = static_cast<uint32_t>(std::bitset<32>(asking >> slices_).count());
  const L1FetchArbiter::Grant g = arb_.arbitrate(gang_asks, static_cast<uint8_t>(asking & slice_mask));
  uint32_t n = 0;
  // The granted gang fetches, over the gang pipes that ask, in round robin.
  for (uint32_t i = 0, left = g.gangs; i < gang_pipes_ && left > 0; ++i) {
    const uint32_t k = (gang_rr_ + i) % gang_pipes_;
    if (!((asking >> (slices_ + k)) & 1)) continue;
    order[n++] = static_cast<uint8_t>(slices_ + k);
    --left;
  }
  if (gang_asks) gang_rr_ = (gang_rr_ + 1) % gang_pipes_;
  for (uint32_t k = 0; k < slices_; ++k)
    if ((g.slices >> k) & 1) order[n++] = static_cast<uint8_t>(k);
  return n;
}

void L1FetchArbiterUnit::served(uint32_t asking, uint32_t taken) {
  const uint32_t slice_mask = (1u << slices_) - 1;
  slice_fetches_ += std::bitset<32>(taken & slice_mask).count();
  gang_fetches_ += std::bitset<32>(taken & ~slice_mask).count();
  waits_ += std::bitset<32>(asking & ~taken).count();
}

}  // namespace simt::vws
