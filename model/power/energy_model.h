// The energy model (SPEC §7): per-event dynamic energy and per-cycle
// leakage, applied to a run's counters after the run, for every timing run
// of every core type (the run report's `energy` section). Relative
// comparisons between techniques only: the defaults are published 45 nm
// figures and stated estimates (docs/power.md lists each one's source),
// never a claim of silicon accuracy.
//
// Dynamic (pJ per event): fetch, decode, instruction-cache access,
// register operand read / write, INT / FP / SFU operation per thread,
// shared-memory word, L1D access, L2 access, DRAM byte; for the VGIW core
// also LVC and CVT accesses and token hops on the grid's interconnect.
// Leakage (pJ per cycle): each lane's INT and FP pipelines (a gated lane
// leaks energy.gated_leak_share of it), and the rest of each SM
// (energy.sm_leakage, 0 = not counted). Gating overhead: BET cycles of a
// lane's leakage per gating event (the definition of the break-even time).
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

namespace simt::config { class ParamRegistry; }
namespace simt::stats { class Registry; }

namespace simt::power {

struct EnergyParams {
  // Dynamic, pJ per event.
  double fetch = 1.0, decode = 1.0, icache = 20.0;
  double rf_read = 5.0, rf_write = 5.0;
  double int_op = 0.1, fp_op = 4.6, sfu_op = 18.4;
  double shared_word = 10.0, l1d_access = 320.0, l2_access = 1600.0, dram_byte = 250.0;
  // The VGIW core (seed 002): live value cache word, control vector table
  // word, one token-cycle on the grid's interconnect.
  double lvc_access = 20.0, cvt_access = 5.0, token_hop = 1.0;
  // Leakage, pJ per cycle.
  double int_lane_leakage = 0.05, fp_lane_leakage = 2.3;
  double gated_leak_share = 0.05;
  double sm_leakage = 0.0;

  void bind(config::ParamRegistry& r);
  void validate() const;
  // The values a run used, from its effective configuration (defaults for
  // names it lacks).
  static EnergyParams from_config(const nlohmann::json& config);
};

// The `energy` section: dynamic energy by component, leakage by unit, the
// gating overhead, totals (pJ), from a run's counters and configuration.
nlohmann::json energy_report(const stats::Registry& counters, const nlohmann::json& config, uint64_t cycles);

}  // namespace simt::power
