// The L1 fetch arbiter of the VWS SM as a block (seed 000 §4.6, Figure 6
// block 11): the gang front end and every slice's front end (behind its L0)
// ask it for instruction reads; each cycle it grants the L1 I-cache's
// vws.l1i_ports ports (0 = one per asker) with vws/l1_fetch_arbiter.h
// (gangs first, then the slices in round robin) and passes the granted
// requests to the L1I, one input port of the cache per L1 port. Responses
// go back to whoever asked. A request not granted waits at its input, so its
// front end stalls.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "mem/mem_port.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "vws/l1_fetch_arbiter.h"

namespace simt::vws {

class L1FetchArbiterUnit : public sc_core::sc_module, private util::Clocked {
 public:
  // slice(k) for k < slices, gang(k) for k < gang_pipes (the gang front
  // end's fetch pipes); l1i(k) for k < ports() to the L1I's input ports.
  L1FetchArbiterUnit(sc_core::sc_module_name name, uint32_t slices, uint32_t gang_pipes, uint32_t ports,
                     stats::Registry& st, const std::string& stats_name);
  mem::MemResponder& slice(uint32_t k) { return *in_.at(k); }
  mem::MemResponder& gang(uint32_t k) { return *in_.at(slices_ + k); }
  mem::MemRequester& l1i(uint32_t k) { return *out_.at(k); }
  uint32_t ports() const { return static_cast<uint32_t>(out_.size()); }
  uint64_t activations() const { return activations_; }

 private:
  struct Pending {
    bool used = false;
    uint32_t input = 0;
    mem::MemRequest req;  // as it arrived (its payload is answered)
  };
  void on_cycle(uint64_t now) override;
  bool pass(uint32_t input, uint64_t now);

  uint32_t slices_, gang_pipes_;
  uint32_t gang_rr_ = 0;  // the gang pipe served first next time
  L1FetchArbiter arb_;
  std::vector<std::unique_ptr<mem::MemResponder>> in_;
  std::vector<std::unique_ptr<mem::MemRequester>> out_;
  std::vector<Pending> pending_;  // by the id sent to the L1I
  std::vector<uint32_t> free_;
  uint32_t next_out_ = 0;
  uint64_t activations_ = 0;
  stats::Counter& gang_fetches_;
  stats::Counter& slice_fetches_;
  stats::Counter& waits_;
};

}  // namespace simt::vws
