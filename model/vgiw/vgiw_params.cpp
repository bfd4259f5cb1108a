#include "vgiw/vgiw_params.h"

#include "config/param_registry.h"
#include "util/error.h"

namespace simt::vgiw {

VgiwParams::VgiwParams() {
  lvc.size = 65536;
  lvc.line = 128;
  lvc.assoc = 4;
  lvc.write_policy = "write-validate";  // live values are written before they are read: no fills
  lvc_port.ports = 16;     // one lookup per LVU a cycle (banked)
  lvc_port.in_queue = 16;
}

void VgiwParams::bind(config::ParamRegistry& r) {
  const char* doc[kUnitTypes] = {"combined FPU/ALU units (pipelined)", "special compute units (non-pipelined ops)",
                                 "load/store units on the perimeter", "live value load/store units",
                                 "split/join units", "control vector units (thread initiators/terminators)"};
  for (size_t u = 0; u < kUnitTypes; ++u)
    r.add(std::string("vgiw.units.") + unit_name(static_cast<Unit>(u)), units.n[u],
          std::string("MT-CGRF ") + doc[u], 0, 4096);
  r.add("vgiw.tracks", tracks, "producers one switch-to-switch link of the grid carries (placement and routing)", 1,
        64);
  r.add("vgiw.if_convert_limit", if_convert_limit,
        "if-conversion in the compiler pass: triangles and diamonds of forward branches whose arms hold at most "
        "this many instructions once predicated (guards and added and.pred/mov.pred) become one block of "
        "predicated code; 0 = none (nvcc's blocks as they are)", 0, 4096);
  r.add("vgiw.grid_clock", grid_clock,
        "MT-CGRF cycles per core cycle: the grid's units, interconnect, initiators and terminators run this many "
        "times faster than the core clock (Table 1: 1.4 GHz against the Fermi SM's 0.7); operation latencies "
        "keep their time, a hop is one grid cycle; the memory ports and the BBS run at the core clock", 1, 8);
  r.add("vgiw.reconfig_cycles", reconfig_cycles,
        "grid cycles to reconfigure the grid for another block (reset and configuration tokens, twice)", 0,
        1u << 20);
  r.add("vgiw.cvt_bytes", cvt_bytes,
        "control vector table bytes; resident threads = 8 x bytes / blocks of the kernel, rounded down to whole "
        "CTAs and to as many as keep their live values within the LVC (at least one CTA)", 64,
        1u << 26);
  r.add("vgiw.cvt_banks", cvt_banks, "control vector table banks (one read and one write a cycle each)", 1, 64);
  r.add("vgiw.channels", channels, "token-buffer entries per unit: threads in flight per graph replica", 1, 4096);
  r.add("vgiw.ldst_reservations", ldst_reservations, "memory operations in flight per load/store unit", 1, 4096);
  r.add("vgiw.l1_banks", l1_banks,
        "banks of the L1 (4-byte words interleaved); each takes one request a cycle from the load/store units", 1,
        64);
  r.add("vgiw.lvc_entry_bytes", lvc_entry_bytes, "bytes per <live value ID, thread> entry of the live value matrix",
        1, 64);
  lvc.bind(r, "lvc");
  lvc_port.bind(r, "lvc");
}

void VgiwParams::validate() const {
  if (units[Unit::Cvu] < 2) throw input_error("option vgiw.units.cvu: a graph needs 2 (initiator, terminator)");
  if (units[Unit::Ldst] < 1 || units[Unit::Ldst] > 64)
    throw input_error("option vgiw.units.ldst: must be 1..64 (each has its own L1 port)");
  if (units[Unit::Lvu] < 1 || units[Unit::Lvu] > 64)
    throw input_error("option vgiw.units.lvu: must be 1..64 (each has its own LVC port)");
  if (units[Unit::FpAlu] + units[Unit::Scu] + units[Unit::Sju] + units[Unit::Cvu] == 0)
    throw input_error("option vgiw.units.*: the grid has no compute units");
  lvc.validate("lvc");
  lvc_port.validate("lvc");
}

}  // namespace simt::vgiw
