// What the model's TLM-2.0 targets make of a generic payload's streaming
// width. The base protocol says a width equal to the data length means no
// streaming; many loosely-timed CPU models leave the field at 0, so 0 and
// any width of at least the data length both mean "no streaming" here. Only
// a smaller non-zero width asks for streaming (a FIFO at one address),
// which a memory or a register block refuses with TLM_BURST_ERROR_RESPONSE.
#pragma once

#include <tlm>

namespace simt::util {

inline bool asks_streaming(const tlm::tlm_generic_payload& gp) {
  const unsigned width = gp.get_streaming_width();
  return width != 0 && width < gp.get_data_length();
}

}  // namespace simt::util
