// Our memory target: the TLM-2.0 memory the GPU's memory socket is bound to
// by default (docs/virtual-platform.md). Sparse: 64 KiB pages materialise,
// zero-filled, on first touch. It serves
//   - b_transport: reads and writes (byte enables honoured, no streaming),
//     annotated with a fixed latency (zero by default: in our machine the
//     DRAM module does the timing, this target only holds the bytes);
//   - DMI: one read/write grant per 64 KiB page; pages never move, so a
//     grant stays valid for the life of the module;
//   - transport_dbg: reads and writes of any length.
// Counters: <stats_name>.{reads,writes,dmi_grants,debug_bytes}.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "stats/stats.h"

namespace simt::mem {

class BackingMemory : public sc_core::sc_module {
 public:
  static constexpr uint64_t kPageBits = 16;
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;

  tlm_utils::simple_target_socket<BackingMemory> socket;

  BackingMemory(sc_core::sc_module_name name, stats::Registry& stats, const std::string& stats_name,
                sc_core::sc_time latency = sc_core::SC_ZERO_TIME);

  uint64_t pages() const { return pages_.size(); }  // materialised so far

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  uint8_t* page(uint64_t page_no);
  // Copies between the payload's buffer and our pages, page by page.
  void copy(uint64_t addr, uint8_t* data, uint64_t len, bool write, const uint8_t* be, uint32_t be_len);

  sc_core::sc_time latency_;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
  stats::Counter& reads_;
  stats::Counter& writes_;
  stats::Counter& dmi_grants_;
  stats::Counter& debug_bytes_;
};

}  // namespace simt::mem
