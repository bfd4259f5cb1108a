#include "runtime/run_report.h"

#include <algorithm>
#include <map>

#include "power/energy_model.h"
#include "simt_version.h"
#include "stats/stats.h"
#include "vws/vws_area.h"

namespace simt::runtime {

namespace {

// Sums the per-SM histograms "sm<N>.<suffix>" (not the per-scheduler ones).
nlohmann::json sum_sm_histograms(const nlohmann::json& hists, const std::string& suffix) {
  std::vector<uint64_t> bins;
  nlohmann::json labels = nlohmann::json::array();
  for (auto it = hists.begin(); it != hists.end(); ++it) {
    const std::string& name = it.key();
    const std::string tail = "." + suffix;
    if (name.rfind("sm", 0) != 0 || name.size() <= tail.size() ||
        name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
      continue;
    if (name.find('.') != name.size() - tail.size()) continue;  // sm0.sched1.issue_breakdown: skip
    const auto& b = it.value()["bins"];
    if (bins.size() < b.size()) bins.resize(b.size(), 0);
    for (size_t i = 0; i < b.size(); ++i) bins[i] += b[i].get<uint64_t>();
    if (labels.empty() && it.value().contains("labels")) labels = it.value()["labels"];
  }
  // An array keeps the bins in order (W0-idle, W0-mem, stall, W1-4 ... W29-32).
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < bins.size(); ++i)
    out.push_back({{"bin", i < labels.size() ? labels[i].get<std::string>() : std::to_string(i)},
                   {"cycles", bins[i]}});
  return out;
}

// True for "sm<digits>.<rest>"; `rest` receives what follows the SM's dot.
bool sm_counter(const std::string& name, std::string& rest) {
  if (name.rfind("sm", 0) != 0) return false;
  size_t i = 2;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
  if (i == 2 || i >= name.size() || name[i] != '.') return false;
  rest = name.substr(i + 1);
  return true;
}

// Deepest reconvergence stack any SM reported (a maximum, so never summed).
uint64_t max_sm_counter(const nlohmann::json& counters, const std::string& suffix) {
  uint64_t m = 0;
  std::string rest;
  for (auto it = counters.begin(); it != counters.end(); ++it)
    if (sm_counter(it.key(), rest) && rest == suffix) m = std::max(m, it.value().get<uint64_t>());
  return m;
}

// The branch units' counters "sm<i>.branch.<name>", summed over SMs by name;
// names holding "max_" are maxima and take the largest value instead.
nlohmann::json branch_counters(const nlohmann::json& counters) {
  std::map<std::string, uint64_t> by_name;
  std::string rest;
  const std::string pre = "branch.";
  for (auto it = counters.begin(); it != counters.end(); ++it) {
    if (!sm_counter(it.key(), rest) || rest.rfind(pre, 0) != 0) continue;
    const std::string name = rest.substr(pre.size());
    const uint64_t v = it.value().get<uint64_t>();
    uint64_t& slot = by_name[name];
    slot = name.find("max_") != std::string::npos ? std::max(slot, v) : slot + v;
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, v] : by_name) out[name] = v;
  return out;
}

// One record per kernel launch, in launch order.
nlohmann::json kernel_records(const Device& dev, bool timing) {
  nlohmann::json out = nlohmann::json::array();
  for (const LaunchStats& l : dev.launches()) {
    nlohmann::json k;
    k["kernel"] = l.kernel;
    k["grid"] = {l.grid[0], l.grid[1], l.grid[2]};
    k["block"] = {l.block[0], l.block[1], l.block[2]};
    k["dynamic_shared_bytes"] = l.dynamic_shared_bytes;
    k["mode"] = l.timed ? "timing" : "functional";
    if (timing) k["cycles"] = l.cycles;
    k["warp_instructions"] = l.warp_instructions;
    k["thread_instructions"] = l.thread_instructions;
    k["ctas"] = l.ctas;
    k["max_stack_depth"] = l.max_stack_depth;
    k["shfl_undefined_reads"] = l.shfl_undefined_reads;
    k["wall_seconds"] = l.wall_seconds;
    if (l.timed)
      k["occupancy"] = {{"ctas_per_sm", l.ctas_per_sm}, {"limited_by", l.occupancy_limited_by},
                        {"threads_per_cta", l.threads_per_cta}, {"regs_per_thread", l.regs_per_thread},
                        {"shared_bytes_per_cta", l.shared_bytes_per_cta}};
    out.push_back(std::move(k));
  }
  return out;
}

double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

// Every cache's hit rate: each "<cache>.hits" counter with its "<cache>.accesses".
nlohmann::json hit_rates(const nlohmann::json& counters) {
  nlohmann::json out = nlohmann::json::object();
  const std::string tail = ".hits";
  for (auto it = counters.begin(); it != counters.end(); ++it) {
    const std::string& name = it.key();
    if (name.size() <= tail.size() || name.compare(name.size() - tail.size(), tail.size(), tail) != 0) continue;
    const std::string cache = name.substr(0, name.size() - tail.size());
    auto acc = counters.find(cache + ".accesses");
    if (acc == counters.end()) continue;
    out[cache] = ratio(it.value().get<double>(), acc.value().get<double>());
  }
  return out;
}

uint64_t config_uint(const nlohmann::json& config, const char* key, uint64_t dflt) {
  auto it = config.find(key);
  return it != config.end() && it->is_number_unsigned() ? it->get<uint64_t>() : dflt;
}

std::string config_str(const nlohmann::json& config, const char* key) {
  auto it = config.find(key);
  return it != config.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Seed 000's measures of a VWS SM (gpu.core = vws), over all SMs: the front
// end per cycle (fetches by the gang and slice front ends, L1I reads, L0
// hits), the L1D per thousand thread instructions, the gangs, and the area
// of the configured structures (vws/vws_area.h).
// power.gating: every SM's lane power totals per pipeline type (int, fp),
// and seed 003's net saving as a share of what the lanes leak without gating.
nlohmann::json power_report(const stats::Registry& reg, const nlohmann::json& config) {
  const uint64_t bet = config_uint(config, "power.bet", 14);
  nlohmann::json out;
  out["gating"] = config_str(config, "power.gating");
  out["domain"] = config_str(config, "power.domain");
  out["wakeup_stall_cycles"] = reg.sum("sm*.sp.wakeup_stall_cycles") + reg.sum("sm*.slice*.sp.wakeup_stall_cycles");
  // VGIW: grid cycles token sets waited for a waking FP-ALU.
  if (config_str(config, "gpu.core") == "vgiw") out["grid_wakeup_stall_cycles"] = reg.sum("sm*.grid.wakeup_stall_cycles");
  for (const char* type : {"int", "fp"}) {
    const std::string pre = std::string("sm*.power.") + type + ".";
    auto get = [&](const char* what) { return reg.sum(pre + what); };
    nlohmann::json t;
    for (const char* what : {"busy_cycles", "idle_cycles", "gated_uncompensated_cycles", "gated_compensated_cycles",
                             "waking_cycles", "gating_events", "delayed_issues", "lane_cycles"})
      t[what] = get(what);
    const uint64_t lane_cycles = get("lane_cycles");
    const uint64_t gated = get("gated_uncompensated_cycles") + get("gated_compensated_cycles");
    const uint64_t events = get("gating_events");
    const int64_t net = static_cast<int64_t>(gated) - static_cast<int64_t>(events * bet);
    t["net_saved_cycles"] = net;
    const double lc = lane_cycles > 0 ? static_cast<double>(lane_cycles) : 1.0;
    t["net_saving_share"] = static_cast<double>(net) / lc;
    t["gating_overhead_share"] = static_cast<double>(events * bet) / lc;
    t["gated_share"] = static_cast<double>(gated) / lc;
    out[type] = t;
  }
  return out;
}

nlohmann::json vws_report(const stats::Registry& reg, const nlohmann::json& config, double cycles,
                          double thread_instr) {
  auto per_cycle = [&](const char* glob) { return ratio(static_cast<double>(reg.sum(glob)), cycles); };
  auto pki = [&](const char* glob) { return ratio(1000.0 * static_cast<double>(reg.sum(glob)), thread_instr); };
  nlohmann::json v;
  v["fetches_per_cycle"] = per_cycle("sm*.*.fetch.fetches");  // slices' and gangs' (one per gang)
  v["gang_fetches_per_cycle"] = per_cycle("sm*.gang*.fetch.fetches");
  v["decodes_per_cycle"] = per_cycle("sm*.*.decode.decoded");
  v["l1i_reads_per_cycle"] = per_cycle("sm*.l1i.accesses");
  v["l0i_reads_per_cycle"] = per_cycle("sm*.*.l0i.accesses");
  v["l0i_hit_rate"] = ratio(static_cast<double>(reg.sum("sm*.*.l0i.hits")),
                            static_cast<double>(reg.sum("sm*.*.l0i.accesses")));
  v["l1d_hits_pki"] = pki("sm*.l1d.hits");
  v["l1d_misses_pki"] = pki("sm*.l1d.misses");
  v["l1d_mshr_merges_pki"] = pki("sm*.l1d.mshr_merges");
  const double groups = static_cast<double>(reg.sum("sm*.group_issues"));
  v["gang_issues"] = reg.sum("sm*.group_issues");
  v["mean_gang_size"] = ratio(static_cast<double>(reg.sum("sm*.group_warp_instructions")), groups);
  v["control_splits"] = reg.sum("sm*.ganging.control_splits");
  v["memory_splits"] = reg.sum("sm*.ganging.memory_splits");
  v["reforms"] = reg.sum("sm*.ganging.reforms");
  v["meets"] = reg.sum("sm*.ganging.meets");
  vws::AreaInputs in;
  const uint32_t warp = static_cast<uint32_t>(config_uint(config, "sm.warp_size", 4));
  in.slices = warp ? 32 / warp : 8;
  in.warps_per_slice = static_cast<uint32_t>(config_uint(config, "sm.max_warps", 256)) / std::max(1u, in.slices);
  in.ibuffer_entries = static_cast<uint32_t>(config_uint(config, "sm.ibuffer.entries", 2));
  in.l0i_bytes = static_cast<uint32_t>(config_uint(config, "vws.l0i_size", 256));
  in.l1i_ports = static_cast<uint32_t>(config_uint(config, "vws.l1i_ports", 2));
  if (in.l1i_ports == 0) in.l1i_ports = in.slices + 1;
  in.gang_sets = in.warps_per_slice;
  auto g = config.find("vws.ganging");
  in.ganging = g == config.end() || !g->is_boolean() || g->get<bool>();
  const vws::AreaEstimate a = vws::estimate_area(in);
  nlohmann::json items = nlohmann::json::array();
  for (const vws::AreaItem& i : a.items)
    items.push_back({{"name", i.name}, {"bits", i.bits}, {"cell_um2", i.cell_um2}, {"factor", i.factor},
                     {"copies", i.copies}, {"mm2", i.mm2}});
  v["area"] = {{"items", items}, {"total_mm2", a.total_mm2}, {"percent_of_sm", a.percent_of_sm()}};
  return v;
}

// Mean of every sample of the per-SM "sm<N>.active_warps" series (null when
// stats.interval is 0: nothing was sampled).
nlohmann::json mean_active_warps(const nlohmann::json& series) {
  double sum = 0;
  uint64_t n = 0;
  std::string rest;
  for (auto it = series.begin(); it != series.end(); ++it) {
    if (!sm_counter(it.key(), rest) || rest != "active_warps") continue;
    for (const auto& v : it.value()["values"]) {
      sum += v.get<double>();
      ++n;
    }
  }
  return n ? nlohmann::json(sum / n) : nlohmann::json(nullptr);
}

// What each top-level number of the document means (the blocks' own
// counters carry theirs in "descriptions" too).
const std::map<std::string, std::string>& field_descriptions() {
  static const std::map<std::string, std::string> d = {
      {"simulator", "simtlab version that wrote this file"},
      {"run", "what ran: a built-in workload and size, or a manifest"},
      {"mode", "timing (cycle-level model) or functional (results only)"},
      {"machine", "the machine: its config files, or the built-in vws-baseline"},
      {"config_files", "--config files (machine baseline, then overlays), in the order applied"},
      {"sets",
       "command-line parameter assignments (--set KEY=VALUE and --KEY VALUE flags) as KEY=VALUE, in command-line "
       "order, applied after config_files"},
      {"warp_size", "threads per warp of the run (sm.warp_size)"},
      {"verified", "the workload's results matched its CPU reference (manifests: true)"},
      {"config", "every machine parameter's effective value"},
      {"warp_instructions", "warp instructions executed (issued with at least one active thread)"},
      {"thread_instructions", "sum over executed warp instructions of their active threads"},
      {"ctas", "CTAs (thread blocks) run"},
      {"max_stack_depth", "deepest reconvergence stack of any warp"},
      {"kernels",
       "one record per kernel launch, in launch order: its kernel, grid, block, dynamic shared bytes, mode "
       "(timing or functional) and its share of the totals"},
      {"kernels.occupancy",
       "timing mode: CTAs of the launch that fit on one SM (ctas_per_sm), the first limit that stops one more "
       "(limited_by: max_ctas, threads, registers or shared_bytes), and what one CTA takes (threads, registers per "
       "thread from the kernel's peak live registers, shared bytes)"},
      {"memory_checksum", "checksum of device memory at the end (equal for runs leaving equal memory)"},
      {"wall_seconds", "host wall-clock time of the launches"},
      {"cycles", "simulated core cycles (timing mode)"},
      {"ipc", "thread instructions per cycle, over all SMs"},
      {"simd_efficiency", "active lanes / (warp instructions x warp size)"},
      {"issue_breakdown", "cycles by issue outcome, summed over SMs (W1-4 = issued with 1-4 active lanes, ...)"},
      {"fetches_per_cycle", "instruction fetches per cycle, over all SMs"},
      {"shfl_undefined_reads",
       "shfl.sync reads of a lane that was inactive or outside the membermask (undefined in PTX; value set by "
       "func.shfl_undefined)"},
      {"memory_pipeline_stalls", "cycles the LDST unit's memory pipeline stalled, summed over SMs"},
      {"traffic", "bytes each level was asked for by the level above"},
      {"branch", "branch-unit counters summed over SMs (max_* are maxima)"},
      {"derived", "rates computed from the counters (see the entries)"},
      {"vws",
       "gpu.core = vws: fetches and decodes per cycle (gang and slice front ends), L1I and L0 reads per cycle, L0 hit "
       "rate, L1D hits / misses / MSHR merges per 1000 thread instructions, gangs issued and their mean size, gang "
       "splits, reforms and meets, and the area of the VWS structures by seed 000 Table 2's method (docs/vws.md)"},
      {"power",
       "power.gating: lane power totals of every SM's SP units per pipeline type (int, fp) in lane-cycles; "
       "net_saved_cycles = gated - gating_events x power.bet (seed 003's metric); net_saving_share = that / "
       "lane_cycles, the share of the no-gating leakage saved; wakeup_stall_cycles = issue attempts refused while "
       "lanes woke (docs/power.md)"},
      {"energy",
       "relative energy in pJ from the run's counters (docs/power.md, energy.*): dynamic by component, leakage of the "
       "lanes' INT and FP pipelines (gated lanes leak energy.gated_leak_share) and of the rest of the SMs, gating "
       "overhead (BET cycles of a lane's leakage per gating); never a silicon-accurate figure"},
      {"derived.hit_rate", "per cache: hits / accesses"},
      {"derived.dram_bandwidth_utilisation",
       "DRAM bytes / (cycles x dram.channels x dram.bytes_per_cycle): share of peak DRAM bandwidth used"},
      {"derived.achieved_occupancy",
       "mean resident warps per SM / sm.max_warps, from the sampled sm*.active_warps series (null when stats.interval = 0)"},
      {"derived.mean_resident_ctas",
       "CTAs an SM holds, averaged over the cycles it holds at least one (sm*.resident_cta_cycles / sm*.cycles)"},
      {"derived.mean_resident_warps", "warp slots an SM's resident CTAs hold, averaged the same way"},
      {"counters", "every block's counters by hierarchical name"},
      {"histograms", "every block's histograms: lo, width, bins, labels"},
      {"series", "values sampled every stats.interval cycles"},
      {"descriptions", "what each entry of this document and each counter, histogram and series means"},
      {"speed",
       "simulation speed on the host; startup_seconds: host time from process start to the first launch (PTX load, "
       "link, analyses, input set-up)"},
  };
  return d;
}

}  // namespace

nlohmann::json run_report(const Device& dev, const RunInfo& info, const nlohmann::json& config) {
  const LaunchStats& t = dev.totals();
  nlohmann::json descriptions(field_descriptions());
  nlohmann::json r;
  r["simulator"] = std::string("simtlab ") + kVersion;
  r["run"] = info.what;
  r["mode"] = info.mode;
  r["machine"] = info.machine.empty() ? "built-in vws-baseline" : info.machine;
  r["config_files"] = info.config_files;
  r["sets"] = info.sets;
  r["warp_size"] = info.warp_size;
  r["verified"] = info.verified;
  r["config"] = config;
  r["warp_instructions"] = t.warp_instructions;
  r["thread_instructions"] = t.thread_instructions;
  r["ctas"] = t.ctas;
  r["max_stack_depth"] = t.max_stack_depth;
  // shfl.sync reads of an inactive / non-member lane: the kernel relies on undefined behaviour.
  r["shfl_undefined_reads"] = t.shfl_undefined_reads;
  r["kernels"] = kernel_records(dev, dev.timing_stats() != nullptr);
  // Equal for two runs that leave device memory identical (e.g. timing vs functional).
  r["memory_checksum"] = dev.memory().checksum();
  r["wall_seconds"] = t.wall_seconds;
  const double wall = t.wall_seconds > 0 ? t.wall_seconds : 1e-9;
  nlohmann::json speed;
  speed["thread_instructions_per_second"] = t.thread_instructions / wall;
  speed["warp_instructions_per_second"] = t.warp_instructions / wall;
  // Process start to the first launch (PTX load, link, analyses, input set-up).
  if (dev.startup_seconds() >= 0) speed["startup_seconds"] = dev.startup_seconds();
  if (const stats::Registry* reg = dev.timing_stats()) {
    const double cycles = static_cast<double>(t.cycles);
    r["cycles"] = t.cycles;
    r["ipc"] = cycles > 0 ? t.thread_instructions / cycles : 0.0;
    const double lanes = static_cast<double>(reg->sum("sm*.active_lanes"));
    const double slots = static_cast<double>(reg->sum("sm*.warp_instructions")) * info.warp_size;
    r["simd_efficiency"] = slots > 0 ? lanes / slots : 0.0;
    nlohmann::json all = reg->to_json();
    r["issue_breakdown"] = sum_sm_histograms(all["histograms"], "issue_breakdown");
    // Every fetch unit: the SIMT SM's, or the VWS SM's gang and slice front ends.
    const double fetches = static_cast<double>(reg->sum("sm*.fetch.fetches") + reg->sum("sm*.*.fetch.fetches"));
    r["fetches_per_cycle"] = cycles > 0 ? fetches / cycles : 0.0;
    if (config_str(config, "gpu.core") == "vws") r["vws"] = vws_report(*reg, config, cycles, t.thread_instructions);
    const std::string gating = config_str(config, "power.gating");
    if (!gating.empty() && gating != "none") r["power"] = power_report(*reg, config);
    r["energy"] = power::energy_report(*reg, config, t.cycles);
    r["memory_pipeline_stalls"] = reg->sum("sm*.ldst.mem_pipeline_stall_cycles");
    // Bytes each level was asked for by the level above it; l2_bytes is the
    // traffic leaving the cores (seed 001 §6.3, Fig. 16).
    r["traffic"] = {{"l1d_bytes", reg->sum("sm*.l1d.bytes")},
                    {"l2_bytes", reg->sum("l2.*.bytes")},
                    {"dram_bytes", reg->sum("dram.bytes")}};
    r["max_stack_depth"] = std::max<uint64_t>(t.max_stack_depth, max_sm_counter(all["counters"], "max_stack_depth"));
    r["branch"] = branch_counters(all["counters"]);
    nlohmann::json derived;
    derived["hit_rate"] = hit_rates(all["counters"]);
    const double peak = cycles * config_uint(config, "dram.channels", 1) * config_uint(config, "dram.bytes_per_cycle", 1);
    derived["dram_bandwidth_utilisation"] = ratio(static_cast<double>(reg->sum("dram.bytes")), peak);
    nlohmann::json warps = mean_active_warps(all["series"]);
    const double max_warps = static_cast<double>(config_uint(config, "sm.max_warps", 0));
    derived["achieved_occupancy"] =
        warps.is_null() || max_warps <= 0 ? nlohmann::json(nullptr) : nlohmann::json(warps.get<double>() / max_warps);
    // Occupancy over the cycles an SM holds work (seed 001 compares at several CTAs per SM).
    const double busy = static_cast<double>(reg->sum("sm*.cycles"));
    derived["mean_resident_ctas"] = ratio(static_cast<double>(reg->sum("sm*.resident_cta_cycles")), busy);
    derived["mean_resident_warps"] = ratio(static_cast<double>(reg->sum("sm*.resident_warp_cycles")), busy);
    r["derived"] = derived;
    r["counters"] = all["counters"];
    r["histograms"] = all["histograms"];
    r["series"] = all["series"];
    descriptions.update(all["docs"]);
    speed["simulated_cycles_per_second"] = cycles / wall;
  }
  r["speed"] = speed;
  r["descriptions"] = descriptions;
  return r;
}

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> cols = {
      "run", "mode", "config_files", "sets", "warp_size", "simulator", "verified", "cycles",
      "thread_instructions", "warp_instructions", "ipc", "simd_efficiency", "wall_seconds"};
  return cols;
}

const std::vector<std::string>& launch_csv_columns() {
  static const std::vector<std::string> cols = {
      "run", "mode", "config_files", "sets", "warp_size", "simulator", "launch", "kernel", "grid", "block",
      "launch_mode", "cycles", "thread_instructions", "warp_instructions", "ipc", "simd_efficiency", "wall_seconds"};
  return cols;
}

std::vector<nlohmann::json> launch_csv_rows(const nlohmann::json& report) {
  const nlohmann::json head = csv_row(report);  // the run's columns, lists joined
  auto shape = [](const nlohmann::json& d) {
    return std::to_string(d[0].get<uint64_t>()) + "x" + std::to_string(d[1].get<uint64_t>()) + "x" +
           std::to_string(d[2].get<uint64_t>());
  };
  std::vector<nlohmann::json> rows;
  const nlohmann::json& kernels = report["kernels"];
  for (size_t i = 0; i < kernels.size(); ++i) {
    const nlohmann::json& k = kernels[i];
    nlohmann::json row;
    for (const char* c : {"run", "mode", "config_files", "sets", "warp_size", "simulator"}) row[c] = head[c];
    row["launch"] = i + 1;
    row["kernel"] = k["kernel"];
    row["grid"] = shape(k["grid"]);
    row["block"] = shape(k["block"]);
    row["launch_mode"] = k["mode"];
    const uint64_t cycles = k.value("cycles", uint64_t{0});
    const uint64_t ti = k["thread_instructions"].get<uint64_t>(), wi = k["warp_instructions"].get<uint64_t>();
    const uint64_t warp = report["warp_size"].get<uint64_t>();
    row["cycles"] = cycles;
    row["thread_instructions"] = ti;
    row["warp_instructions"] = wi;
    row["ipc"] = ratio(static_cast<double>(ti), static_cast<double>(cycles));
    row["simd_efficiency"] = ratio(static_cast<double>(ti), static_cast<double>(wi) * static_cast<double>(warp));
    row["wall_seconds"] = k.value("wall_seconds", 0.0);
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::json csv_row(const nlohmann::json& report) {
  nlohmann::json row;
  for (const auto& c : csv_columns()) {
    if (!report.contains(c)) {
      row[c] = "";
    } else if (report[c].is_array()) {  // config_files, sets
      std::string joined;
      for (const auto& f : report[c]) joined += (joined.empty() ? "" : ";") + f.get<std::string>();
      row[c] = joined;
    } else {  // verified stays a bool: the CSV writer prints true / false
      row[c] = report[c];
    }
  }
  return row;
}

}  // namespace simt::runtime
