// The statistics document of one run (`simtlab run --stats FILE.json`) and
// its one-line CSV form (`--csv FILE`): the effective configuration, the
// headline numbers (cycles, instructions, IPC, SIMD efficiency, issue
// breakdown, fetches per cycle), derived rates (cache hit rates, DRAM
// bandwidth utilisation, achieved occupancy), every block's counters with a
// description of each, the simulator version, and speed. docs/stats.md
// describes the document.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/device.h"

namespace simt::runtime {

struct RunInfo {
  std::string what;                      // "workload bfs (small)" or the manifest path
  std::string mode;                      // "functional" | "timing"
  std::vector<std::string> config_files;  // --config files (baseline, then overlays), in order
  // Every command-line parameter assignment, "key=value", in command-line
  // order: --set KEY=VALUE and the per-parameter flags (--l1d.size 32768).
  std::vector<std::string> sets;
  std::string machine;                   // "built-in vws-baseline" or the config files
  bool verified = true;                  // workload runs: the CPU reference agreed
  uint32_t warp_size = 32;
};

nlohmann::json run_report(const Device& dev, const RunInfo& info, const nlohmann::json& config);

// The columns of the CSV row (a stable subset of the report): first what ran
// (run, mode, config_files, sets, warp_size, simulator), so that two rows of
// a sweep differing only in a --set differ in their leading columns, then
// the headline numbers. Lists (config_files, sets) are joined with ';'.
const std::vector<std::string>& csv_columns();
nlohmann::json csv_row(const nlohmann::json& report);

// A whole application's CSV (simtlab exec --csv): one row per launch, the
// run's leading columns, then launch (its number from 1), kernel, grid and
// block ("XxYxZ"), launch_mode, and the launch's own numbers.
const std::vector<std::string>& launch_csv_columns();
std::vector<nlohmann::json> launch_csv_rows(const nlohmann::json& report);

}  // namespace simt::runtime
