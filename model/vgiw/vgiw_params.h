// Parameters of the VGIW core (seed 002 §3, Table 1), bound under `vgiw.*`
// and `lvc.*`. The core also takes the SIMT SM's `l1d.*` (its banked L1),
// `sp.*` / `sfu.*` / `ops.*` (operation latencies of its units, as the SIMT
// SM's per-opcode table gives them) and `shmem.latency`.
#pragma once

#include <cstdint>

#include "mem/cache.h"
#include "mem/cache_module.h"
#include "vgiw/compiler.h"
#include "vgiw/dataflow_graph.h"

namespace simt::config { class ParamRegistry; }

namespace simt::vgiw {

struct VgiwParams {
  // vgiw.units.*: the MT-CGRF (Table 1).
  UnitCounts units = table1_grid();
  uint32_t tracks = 2;               // vgiw.tracks: producers one switch-to-switch link carries
  uint32_t if_convert_limit = kDefaultIfConvertLimit;  // vgiw.if_convert_limit: instructions per if-converted region
  uint32_t grid_clock = 2;           // vgiw.grid_clock: grid cycles per core cycle (Table 1: 1.4 against 0.7 GHz)
  uint32_t reconfig_cycles = 34;     // vgiw.reconfig_cycles: grid cycles; reset + configuration tokens, twice (§3.2)
  uint32_t cvt_bytes = 8192;         // vgiw.cvt_bytes: capacity; resident threads = bits / blocks (tiling)
  uint32_t cvt_banks = 8;            // vgiw.cvt_banks: 64-bit words, one read and one write per bank a cycle
  uint32_t channels = 128;           // vgiw.channels: token-buffer entries = threads in flight per replica
  uint32_t ldst_reservations = 128;  // vgiw.ldst_reservations: memory operations in flight per LDST unit (one per channel)
  uint32_t l1_banks = 32;            // vgiw.l1_banks: word-interleaved L1 banks, a request each a cycle
  uint32_t lvc_entry_bytes = 4;      // vgiw.lvc_entry_bytes: bytes per <live value, thread> entry (a word, §2)
  mem::CacheParams lvc;              // lvc.*: the live value cache (64 KB, backed by L2, write-validate)
  mem::CachePortParams lvc_port;     // lvc.ports etc.

  VgiwParams();
  void bind(config::ParamRegistry& r);
  void validate() const;  // throws simt::input_error naming the option
  // Core cycles a reconfiguration takes (vgiw.reconfig_cycles grid cycles, rounded up).
  uint32_t reconfig_core_cycles() const { return (reconfig_cycles + grid_clock - 1) / grid_clock; }
};

}  // namespace simt::vgiw
