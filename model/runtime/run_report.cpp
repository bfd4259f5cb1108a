#include "runtime/run_report.h"

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
