// The area of the VWS SM's added structures, by the method of seed 000's
// Table 2 (§6.7, 40 nm): storage is bits x cell area x an overhead factor
// (a latch of 2.1 um^2 x 1.5 for the L0 I-caches, decoded I-buffers and the
// gang table; a flip-flop of 3.6 um^2 x 3 for the scoreboards, whose lookup
// is associative), and each slice replicates 1% of a Fermi SM's 16 mm^2 of
// datapath control. The bit counts follow the configured machine:
//   L0 I-cache      vws.l0i_size x 8 per slice
//   I-buffers       warps per slice x sm.ibuffer.entries x 128 bits (the
//                   paper's 4 Kbits for 32 one-entry warps)
//   gang table      sets x 4 entries x (GangID + GangMask + 32-bit PC + valid
//                   + ReadyMask); only with vws.ganging
//   scoreboards     1800 bits per slice for 32 warps (the paper's), scaled by
//                   the slice's warps
//   L1I ports       the paper's CACTI figure, 0.108 mm^2 for the second port,
//                   extrapolated linearly past two (not a CACTI run)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simt::vws {

struct AreaItem {
  std::string name;
  uint64_t bits = 0;      // per copy (0: not a storage estimate)
  double cell_um2 = 0, factor = 0;
  uint32_t copies = 1;
  double mm2 = 0;         // all copies
};

struct AreaInputs {
  uint32_t slices = 8, warps_per_slice = 32, ibuffer_entries = 1, l0i_bytes = 256, l1i_ports = 2;
  uint32_t gang_sets = 32;
  bool ganging = true;
};

struct AreaEstimate {
  std::vector<AreaItem> items;
  double total_mm2 = 0;
  double sm_mm2 = 16.0;   // a Fermi SM
  double percent_of_sm() const { return 100.0 * total_mm2 / sm_mm2; }
};

AreaEstimate estimate_area(const AreaInputs& in);

}  // namespace simt::vws
