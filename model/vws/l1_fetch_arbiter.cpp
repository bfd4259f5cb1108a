#include "vws/l1_fetch_arbiter.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace simt::vws {

L1FetchArbiter::L1FetchArbiter(uint32_t ports, uint32_t slices) : ports_(ports), slices_(slices) {
  if (slices < 1 || slices > 8)
    throw std::invalid_argument("L1 fetch arbiter: 1 to 8 slices, not " + std::to_string(slices));
}

L1FetchArbiter::Grant L1FetchArbiter::arbitrate(uint32_t gang_requests, uint8_t slice_requests) {
  Grant g;
  uint32_t left = ports_ == 0 ? ~uint32_t{0} : ports_;
  g.gangs = std::min(gang_requests, left);
  left -= g.gangs;
  slice_requests &= static_cast<uint8_t>((1u << slices_) - 1);
  const uint32_t first = next_;
  for (uint32_t i = 0; i < slices_ && left > 0; ++i) {
    const uint32_t k = (first + i) % slices_;
    if (!((slice_requests >> k) & 1)) continue;
    g.slices |= static_cast<uint8_t>(1u << k);
    --left;
    next_ = (k + 1) % slices_;  // the slice after the last one served goes first next time
  }
  return g;
}

}  // namespace simt::vws
