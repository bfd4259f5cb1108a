#include "runtime/run_report.h"

#include <algorithm>
#include <map>

#include "stats/stats.h"

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
    if (timing) k["cycles"] = l.cycles;
    k["warp_instructions"] = l.warp_instructions;
    k["thread_instructions"] = l.thread_instructions;
    k["ctas"] = l.ctas;
    k["max_stack_depth"] = l.max_stack_depth;
    k["shfl_undefined_reads"] = l.shfl_undefined_reads;
    out.push_back(std::move(k));
  }
  return out;
}

}  // namespace

nlohmann::json run_report(const Device& dev, const RunInfo& info, const nlohmann::json& config) {
  const LaunchStats& t = dev.totals();
  nlohmann::json r;
  r["run"] = info.what;
  r["mode"] = info.mode;
  r["config_files"] = info.config_files;
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
  if (const stats::Registry* reg = dev.timing_stats()) {
    const double cycles = static_cast<double>(t.cycles);
    r["cycles"] = t.cycles;
    r["ipc"] = cycles > 0 ? t.thread_instructions / cycles : 0.0;
    const double lanes = static_cast<double>(reg->sum("sm*.active_lanes"));
    const double slots = static_cast<double>(reg->sum("sm*.warp_instructions")) * info.warp_size;
    r["simd_efficiency"] = slots > 0 ? lanes / slots : 0.0;
    nlohmann::json all = reg->to_json();
    r["issue_breakdown"] = sum_sm_histograms(all["histograms"], "issue_breakdown");
    r["fetches_per_cycle"] = cycles > 0 ? reg->sum("sm*.fetch.fetches") / cycles : 0.0;
    r["memory_pipeline_stalls"] = reg->sum("sm*.ldst.mem_pipeline_stall_cycles");
    // Bytes each level was asked for by the level above it; l2_bytes is the
    // traffic leaving the cores (seed 001 §6.3, Fig. 16).
    r["traffic"] = {{"l1d_bytes", reg->sum("sm*.l1d.bytes")},
                    {"l2_bytes", reg->sum("l2.*.bytes")},
                    {"dram_bytes", reg->sum("dram.bytes")}};
    r["max_stack_depth"] = std::max<uint64_t>(t.max_stack_depth, max_sm_counter(all["counters"], "max_stack_depth"));
    r["branch"] = branch_counters(all["counters"]);
    r["counters"] = all["counters"];
    r["histograms"] = all["histograms"];
    r["series"] = all["series"];
    speed["simulated_cycles_per_second"] = cycles / wall;
  }
  r["speed"] = speed;
  return r;
}

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> cols = {
      "run", "mode", "config_files", "verified", "cycles", "thread_instructions", "warp_instructions",
      "ipc", "simd_efficiency", "wall_seconds"};
  return cols;
}

nlohmann::json csv_row(const nlohmann::json& report) {
  nlohmann::json row;
  for (const auto& c : csv_columns()) {
    if (!report.contains(c)) {
      row[c] = "";
    } else if (c == "config_files") {
      std::string joined;
      for (const auto& f : report[c]) joined += (joined.empty() ? "" : ";") + f.get<std::string>();
      row[c] = joined;
    } else if (c == "verified") {
      row[c] = report[c].get<bool>() ? "yes" : "no";
    } else {
      row[c] = report[c];
    }
  }
  return row;
}

}  // namespace simt::runtime
