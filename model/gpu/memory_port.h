// The GPU's side of global memory for functional accesses: a TLM-2.0
// initiator socket and the adapter that makes whatever target is bound to
// it the storage of func::GlobalMemory (docs/virtual-platform.md).
//
// From the start of simulation on (start_of_simulation(), when every socket
// is bound), a served GlobalMemory keeps its bytes in the target: its current
// contents are copied there, and every later access goes
//   - through a DMI pointer, asked once per 64 KiB page (one grant covering
//     several pages serves them all) and cached until the target calls
//     invalidate_direct_mem_ptr() over it: no TLM call on the hot path;
//   - or, for a page the target refuses DMI for (or grants only part of, or
//     read-only), through transport_dbg, one call per access: correct but
//     much slower. A refusal is remembered until an invalidation covers the
//     page.
// b_transport is never used here: it may wait(), and functional accesses
// happen inside SC_METHODs and outside simulation. A target that offers
// neither DMI nor debug transport at an address is refused with simt::Error.
// Counters: <stats_name>.{dmi_grants,dmi_refusals,dmi_invalidations,
// debug_reads,debug_writes}.
#pragma once

#include <cstdint>
#include <string>
#include <map>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "func/global_memory.h"
#include "stats/stats.h"

namespace simt::gpu {

class MemoryPort : public sc_core::sc_module, public func::GlobalMemory::Storage {
 public:
  tlm_utils::simple_initiator_socket<MemoryPort> socket;

  MemoryPort(sc_core::sc_module_name name, stats::Registry& stats, const std::string& stats_name);

  // Makes `mem` keep its bytes behind the socket from the start of
  // simulation (at once if it has already started). One memory, for the
  // life of this port: `mem` must not be used after the port is destroyed.
  void serve(func::GlobalMemory& mem);

  // GlobalMemory::Storage
  uint8_t* direct_page(uint64_t page_no) override;
  void read(uint64_t addr, void* dst, uint64_t size) override;
  void write(uint64_t addr, const void* src, uint64_t size) override;

 private:
  void start_of_simulation() override;
  void attach();
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t size);

  func::GlobalMemory* mem_ = nullptr;
  bool attached_ = false;
  std::map<uint64_t, tlm::tlm_dmi> grants_;  // live read/write grants by start address
  tlm::tlm_generic_payload gp_;       // reused for DMI requests and debug transport
  stats::Counter& dmi_grants_;
  stats::Counter& dmi_refusals_;
  stats::Counter& dmi_invalidations_;
  stats::Counter& debug_reads_;
  stats::Counter& debug_writes_;
};

}  // namespace simt::gpu
