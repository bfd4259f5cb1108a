#include "vws/vws_area.h"

namespace simt::vws {

namespace {

constexpr double kLatchUm2 = 2.1, kLatchFactor = 1.5;  // NanGate 45 nm latch scaled to 40 nm
constexpr double kFlopUm2 = 3.6, kFlopFactor = 3.0;    // flip-flop; 3x for associative lookup
constexpr double kControlMm2 = 0.16;                   // 1% of a 16 mm^2 Fermi SM, per slice
constexpr double kL1PortMm2 = 0.108;                   // dual- vs single-ported 64 KB L1I (CACTI)

uint32_t bits_for(uint32_t n) {
  uint32_t b = 0;
  while ((1u << b) < n) ++b;
  return b;
}

AreaItem storage(const std::string& name, uint64_t bits, double cell, double factor, uint32_t copies) {
  AreaItem a;
  a.name = name;
  a.bits = bits;
  a.cell_um2 = cell;
  a.factor = factor;
  a.copies = copies;
  a.mm2 = static_cast<double>(bits) * cell * factor * copies * 1e-6;
  return a;
}

}  // namespace

AreaEstimate estimate_area(const AreaInputs& in) {
  AreaEstimate e;
  if (in.l0i_bytes)
    e.items.push_back(storage("l0_icache", uint64_t{in.l0i_bytes} * 8, kLatchUm2, kLatchFactor, in.slices));
  e.items.push_back(storage("decoded_ibuffers", uint64_t{in.warps_per_slice} * in.ibuffer_entries * 128, kLatchUm2,
                            kLatchFactor, in.slices));
  if (in.ganging) {
    const uint32_t entries = in.gang_sets * 4;
    const uint64_t entry_bits = bits_for(entries) + in.slices + 32 + 1 + in.slices;
    e.items.push_back(storage("gang_table", entries * entry_bits, kLatchUm2, kLatchFactor, 1));
  }
  e.items.push_back(storage("scoreboards", (uint64_t{1800} * in.warps_per_slice + 31) / 32, kFlopUm2, kFlopFactor,
                            in.slices));
  if (in.l1i_ports > 1) {
    AreaItem p;
    p.name = "l1i_extra_ports";
    p.copies = in.l1i_ports - 1;
    p.mm2 = kL1PortMm2 * p.copies;
    e.items.push_back(p);
  }
  AreaItem c;
  c.name = "slice_control";
  c.copies = in.slices;
  c.mm2 = kControlMm2 * in.slices;
  e.items.push_back(c);
  for (const AreaItem& a : e.items) e.total_mm2 += a.mm2;
  return e;
}

}  // namespace simt::vws
