#include "power/energy_model.h"

#include <string>

#include "config/param_registry.h"
#include "stats/stats.h"
#include "util/error.h"

namespace simt::power {

namespace {

struct Entry {
  const char* name;
  double EnergyParams::*field;
  const char* doc;
};

const Entry kEntries[] = {
    {"fetch", &EnergyParams::fetch, "pJ per instruction fetch (fetch logic; the I-cache read is icache)"},
    {"decode", &EnergyParams::decode, "pJ per instruction decoded"},
    {"icache", &EnergyParams::icache, "pJ per L1I / L0I access"},
    {"rf_read", &EnergyParams::rf_read, "pJ per register operand read by one thread"},
    {"rf_write", &EnergyParams::rf_write, "pJ per register operand written by one thread"},
    {"int_op", &EnergyParams::int_op, "pJ per INT operation of one thread"},
    {"fp_op", &EnergyParams::fp_op, "pJ per FP operation of one thread"},
    {"sfu_op", &EnergyParams::sfu_op, "pJ per SFU operation of one thread"},
    {"shared_word", &EnergyParams::shared_word, "pJ per shared-memory word accessed"},
    {"l1d_access", &EnergyParams::l1d_access, "pJ per L1D access of a line (VGIW: per line's worth of bytes)"},
    {"l2_access", &EnergyParams::l2_access, "pJ per L2 access (a line)"},
    {"dram_byte", &EnergyParams::dram_byte, "pJ per DRAM byte moved"},
    {"lvc_access", &EnergyParams::lvc_access, "pJ per VGIW live value cache access (a word)"},
    {"cvt_access", &EnergyParams::cvt_access, "pJ per VGIW control vector table access (a 64-bit word)"},
    {"token_hop", &EnergyParams::token_hop, "pJ per cycle a token spends on the VGIW grid's interconnect"},
    {"int_lane_leakage", &EnergyParams::int_lane_leakage, "pJ per cycle one lane's INT pipeline leaks"},
    {"fp_lane_leakage", &EnergyParams::fp_lane_leakage, "pJ per cycle one lane's FP pipeline leaks"},
    {"gated_leak_share", &EnergyParams::gated_leak_share, "share of its leakage a gated lane still leaks"},
    {"sm_leakage", &EnergyParams::sm_leakage, "pJ per cycle each SM leaks outside its lanes (0 = not counted)"},
};

double num(const nlohmann::json& config, const std::string& key, double dflt) {
  auto it = config.find(key);
  return it != config.end() && it->is_number() ? it->get<double>() : dflt;
}

}  // namespace

void EnergyParams::bind(config::ParamRegistry& r) {
  for (const Entry& e : kEntries) r.add(std::string("energy.") + e.name, this->*e.field, e.doc, 0.0, 1e12);
}

void EnergyParams::validate() const {
  for (const Entry& e : kEntries)
    if (!(this->*e.field >= 0.0)) throw input_error(std::string("option energy.") + e.name + ": must be >= 0");
  if (gated_leak_share > 1.0) throw input_error("option energy.gated_leak_share: must be 0..1");
}

EnergyParams EnergyParams::from_config(const nlohmann::json& config) {
  EnergyParams p;
  for (const Entry& e : kEntries) p.*e.field = num(config, std::string("energy.") + e.name, p.*e.field);
  return p;
}

nlohmann::json energy_report(const stats::Registry& reg, const nlohmann::json& config, uint64_t cycles) {
  const EnergyParams e = EnergyParams::from_config(config);
  // Every SM's counters; "sm*.*." adds the VWS SM's gang and slice front ends.
  auto sum = [&](const std::string& glob) { return static_cast<double>(reg.sum(glob)); };
  const double fetches = sum("sm*.fetch.fetches") + sum("sm*.*.fetch.fetches");
  const double decodes = sum("sm*.decode.decoded") + sum("sm*.*.decode.decoded");
  const double icache = sum("sm*.l1i.accesses") + sum("sm*.*.l0i.accesses");
  nlohmann::json dyn;
  dyn["fetch"] = fetches * e.fetch;
  dyn["decode"] = decodes * e.decode;
  dyn["icache"] = icache * e.icache;
  dyn["register_file"] = sum("sm*.rf_reads") * e.rf_read + sum("sm*.rf_writes") * e.rf_write;
  dyn["int"] = sum("sm*.int_thread_instructions") * e.int_op;
  dyn["fp"] = sum("sm*.fp_thread_instructions") * e.fp_op;
  dyn["sfu"] = sum("sm*.sfu_thread_instructions") * e.sfu_op;
  const bool vgiw = config.contains("gpu.core") && config["gpu.core"] == "vgiw";
  // VGIW's shared-memory accesses: a word per thread access.
  dyn["shared_memory"] = (sum("sm*.shmem.words") + sum("sm*.grid.shared_accesses")) * e.shared_word;
  // The SIMT SM's L1 reads or writes a line per (coalesced) request. VGIW's
  // L1 has word-interleaved banks and an access only drives the banks of the
  // bytes it touches: its price is that share of a line's.
  dyn["l1d"] = vgiw ? sum("sm*.l1d.bytes") / num(config, "l1d.line", 128) * e.l1d_access
                    : sum("sm*.l1d.accesses") * e.l1d_access;
  // Texture cache (sm*.l1t) accesses are not priced (no energy.* entry); its
  // misses are, as L2 accesses and DRAM bytes.
  dyn["l2"] = sum("l2.*.accesses") * e.l2_access;
  dyn["dram"] = sum("dram.bytes") * e.dram_byte;
  // The VGIW core (zero elsewhere).
  dyn["lvc"] = sum("sm*.lvc.accesses") * e.lvc_access;
  dyn["cvt"] = (sum("sm*.cvt.reads") + sum("sm*.cvt.writes")) * e.cvt_access;
  dyn["interconnect"] = sum("sm*.grid.token_hops") * e.token_hop;
  double dynamic = 0;
  for (const auto& [k, v] : dyn.items()) dynamic += v.get<double>();

  // Lane leakage: from the lane power counters when gating ran, else every
  // lane leaks every cycle.
  const double sms = num(config, "gpu.num_sms", 1);
  const bool vws = config.contains("gpu.core") && config["gpu.core"] == "vws";
  // The VGIW grid's combined FPU/ALU units leak as a SIMT lane's INT and FP pipelines do.
  const double lanes_per_sm = vws    ? 32.0
                              : vgiw ? num(config, "vgiw.units.fp_alu", 32)
                                     : num(config, "sp.lanes", 32) * num(config, "sp.units", 1);
  const double bet = num(config, "power.bet", 14);
  nlohmann::json leak, overhead;
  double leakage = 0, gating = 0;
  for (const char* type : {"int", "fp"}) {
    const double per = std::string(type) == "int" ? e.int_lane_leakage : e.fp_lane_leakage;
    const std::string pre = std::string("sm*.power.") + type + ".";
    const double lane_cycles = sum(pre + "lane_cycles");
    double l;
    double g = 0;
    if (lane_cycles > 0) {
      const double gated = sum(pre + "gated_uncompensated_cycles") + sum(pre + "gated_compensated_cycles");
      l = (lane_cycles - gated) * per + gated * per * e.gated_leak_share;
      g = sum(pre + "gating_events") * bet * per;
    } else {
      l = sms * lanes_per_sm * static_cast<double>(cycles) * per;
    }
    leak[std::string(type) + "_lanes"] = l;
    overhead[type] = g;
    leakage += l;
    gating += g;
  }
  leak["sm_other"] = sms * static_cast<double>(cycles) * e.sm_leakage;
  leakage += leak["sm_other"].get<double>();

  nlohmann::json out;
  // VWS (seed 000 Figure 6): while slices execute a gang, their own front
  // ends and issue schedulers are off; the gang front end fetched, decoded
  // and read the I-cache once for all members. What the members' front ends
  // would have spent had each fetched its own copy is saved: it is already
  // absent from the dynamic energy above, reported here to show its size.
  if (vws) {
    const double skipped = sum("sm*.group_warp_instructions") - sum("sm*.group_issues");
    out["saved"] = {{"slice_front_ends", skipped * (e.fetch + e.decode + e.icache)},
                    {"slice_front_end_instructions", skipped}};
  }
  out["unit"] = "pJ";
  out["dynamic"] = dyn;
  out["leakage"] = leak;
  out["gating_overhead"] = overhead;
  out["dynamic_total"] = dynamic;
  out["leakage_total"] = leakage;
  out["gating_overhead_total"] = gating;
  out["total"] = dynamic + leakage + gating;
  // Energy-delay product, pJ x cycles: what the combinations study ranks by
  // (docs/combinations.md), so that a design that saves energy by running
  // longer is not mistaken for a better one.
  out["edp"] = (dynamic + leakage + gating) * static_cast<double>(cycles);
  return out;
}

}  // namespace simt::power
