// The wires between the VWS SM's shared issue stage and its slices (seed
// 000 Figure 6): typed packets fan out to the slice a warp lives on (warp %
// slices; fetch credits for a gang go to a pipe of the gang front end, after
// the slices) and fan back in from the slices. Pure wiring: a packet passes
// through in the call that offers it, so the links add no cycle and the
// receiver's backpressure reaches the sender unchanged.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "sm/packets.h"
#include "util/packet_socket.h"

namespace simt::vws {

// Where a packet goes among the outputs: slice warp % slices; a gang's fetch
// credit to one of the `extra` gang fetch pipes after the slices, by the
// leader's row of the gang table (warp / slices), so gangs spread over them.
inline uint32_t route(const sm::FetchCredit& c, uint32_t slices, uint32_t extra) {
  return c.group && extra ? slices + (c.warp / slices) % extra : c.warp % slices;
}
inline uint32_t route(const sm::IssuePacket& p, uint32_t slices, uint32_t) { return p.warp % slices; }

template <class P>
class SliceFanout : public sc_core::sc_module {
 public:
  util::PacketTarget<SliceFanout, P> in;
  std::vector<std::unique_ptr<util::PacketInitiator<SliceFanout, P>>> out;

  // `outputs` = slices, plus the gang fetch pipes for fetch credits.
  SliceFanout(sc_core::sc_module_name name, uint32_t slices, uint32_t outputs)
      : sc_core::sc_module(name), in("in", this, &SliceFanout::forward), slices_(slices) {
    for (uint32_t k = 0; k < outputs; ++k)
      out.push_back(std::make_unique<util::PacketInitiator<SliceFanout, P>>(("out" + std::to_string(k)).c_str()));
  }

 private:
  void forward(P& p, sc_core::sc_time& t) {
    const uint32_t k = route(p, slices_, static_cast<uint32_t>(out.size()) - slices_);
    if (k >= out.size()) throw std::logic_error(std::string(name()) + ": no output " + std::to_string(k));
    (*out[k])->b_transport(p, t);
  }
  uint32_t slices_;
};

template <class P>
class SliceFanin : public sc_core::sc_module {
 public:
  std::vector<std::unique_ptr<util::PacketTarget<SliceFanin, P>>> in;
  util::PacketInitiator<SliceFanin, P> out;

  SliceFanin(sc_core::sc_module_name name, uint32_t inputs) : sc_core::sc_module(name), out("out") {
    for (uint32_t k = 0; k < inputs; ++k)
      in.push_back(std::make_unique<util::PacketTarget<SliceFanin, P>>(("in" + std::to_string(k)).c_str(), this,
                                                                        &SliceFanin::forward));
  }

 private:
  void forward(P& p, sc_core::sc_time& t) { out->b_transport(p, t); }
};

}  // namespace simt::vws
