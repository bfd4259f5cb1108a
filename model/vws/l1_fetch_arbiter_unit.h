// The L1 fetch arbiter of the VWS SM as a block (seed 000 §4.6, Figure 6
// block 11). The slices' front ends (behind their L0s) and the gang front
// end's fetch pipes each have their own input port on the shared L1
// I-cache; this block drives the L1I's input muxes: each cycle it grants
// vws.l1i_ports of the asking ports (0 = all) with vws/l1_fetch_arbiter.h,
// gangs first, then the slices in round robin. The L1I asks it through its
// `arbiter` port in the cycle the requests are visible, so arbitration adds
// no cycle to a fetch (the paper gives the arbiter no pipeline stage). A
// request not granted waits in its input port, so its front end stalls.
//
// L1I input ports: k < slices = slice k; slices + j = gang pipe j.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "mem/input_arbiter.h"
#include "stats/stats.h"
#include "vws/l1_fetch_arbiter.h"

namespace simt::vws {

class L1FetchArbiterUnit : public sc_core::sc_module, public mem::InputArbiterIf {
 public:
  L1FetchArbiterUnit(sc_core::sc_module_name name, uint32_t slices, uint32_t gang_pipes, uint32_t ports,
                     stats::Registry& st, const std::string& stats_name);
  // Bind to the L1I's `arbiter` port.
  sc_core::sc_export<mem::InputArbiterIf> grants;

  uint32_t inputs() const { return slices_ + gang_pipes_; }  // the L1I's input ports
  uint32_t ports() const { return ports_; }                  // L1 ports: grants a cycle

  // mem::InputArbiterIf.
  uint32_t grant(uint32_t asking, uint8_t* order) override;
  void served(uint32_t asking, uint32_t taken) override;

 private:
  uint32_t slices_, gang_pipes_, ports_;
  uint32_t gang_rr_ = 0;  // the gang pipe served first next time
  L1FetchArbiter arb_;
  stats::Counter& gang_fetches_;
  stats::Counter& slice_fetches_;
  stats::Counter& waits_;
};

}  // namespace simt::vws
