// A loosely-timed GPU device's way to a platform memory that has timing
// (runtime::GpuDevice, Options::lt_memory_timing): the storage of the
// device's func::GlobalMemory, every access a TLM-2.0 transaction on
// `socket`. During a launch (between begin() and end(), in the device's
// thread) an access is a b_transport, which may wait(), and the delays the
// memory annotates add up in delay(); outside a launch (the copy of module
// variables at the start of simulation) it is a transport_dbg. No DMI: the
// point is the memory's timing. An access the memory answers with an error
// throws simt::Error (kernel fault) naming the address and the answer. So
// does a b_transport that returns with the status still
// TLM_INCOMPLETE_RESPONSE (the target never set it), unless the port
// tolerates that: then it counts as OK, with one warning.
// Counters: <stats_name>.{b_transports,incomplete_responses}.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "func/global_memory.h"
#include "stats/stats.h"

namespace simt::runtime {

class TimedMemoryPort : public sc_core::sc_module, public func::GlobalMemory::Storage {
 public:
  tlm_utils::simple_initiator_socket<TimedMemoryPort> socket;

  // `tolerate_incomplete`: take a b_transport left at TLM_INCOMPLETE_RESPONSE
  // as OK (GpuDevice::Options::tolerate_incomplete_response).
  TimedMemoryPort(sc_core::sc_module_name name, stats::Registry& stats, const std::string& stats_name,
                  bool tolerate_incomplete);

  void begin() { in_launch_ = true; }
  void end() { in_launch_ = false; }
  // The annotated delay of the b_transports since the last take.
  sc_core::sc_time take_delay() {
    const sc_core::sc_time d = delay_;
    delay_ = sc_core::SC_ZERO_TIME;
    return d;
  }

  // func::GlobalMemory::Storage
  uint8_t* direct_page(uint64_t) override { return nullptr; }
  void read(uint64_t addr, void* dst, uint64_t size) override;
  void write(uint64_t addr, const void* src, uint64_t size) override;

 private:
  void transport(tlm::tlm_command cmd, uint64_t addr, void* data, uint64_t size);

  bool in_launch_ = false;
  const bool tolerate_incomplete_;
  sc_core::sc_time delay_ = sc_core::SC_ZERO_TIME;
  stats::Counter& b_transports_;
  stats::Counter& incomplete_;
};

}  // namespace simt::runtime
