// The options of one simulated run, shared by `simtlab run`, `simtlab exec`
// and simtlab's CUDA runtime library (which reads them from the
// environment, tb/library_options.h): the mode, the machine (config files,
// --set and the per-parameter flags), the runaway guards and the outputs.
// `run` adds its own --workload/--manifest/--size/--out-dir on top.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "runtime/device.h"

namespace CLI { class App; }

namespace simt::tb {

class RunOutputs;
struct OutputPaths;

struct RunOptions {
  std::string workload, manifest, size = "small", out_dir = ".";  // `run` only
  std::string mode = "timing";
  std::vector<std::string> configs;
  uint32_t warp_size = 0;  // 0 = the machine's sm.warp_size
  std::string grouping = "static";
  uint64_t seed = 1;
  uint64_t max_warp_instructions = runtime::kDefaultMaxWarpInstructions;
  uint64_t max_cycles = runtime::kDefaultMaxCycles;
  uint64_t max_spin_cycles = runtime::kDefaultMaxSpinCycles;
  uint64_t max_device_memory = 0;
  uint32_t call_stack = func::kDefaultCallStackBytes;
  std::string stats_file, csv_file;
  std::string vcd, vcd_signals = "*", vcd_window = "0:";
  std::string trace_warps, trace_filter;
  bool quiet = false;
  bool allow_outside_out_dir = false;  // `run` only
  std::string launches;  // --launches (exec and the library): "" = every launch in --mode
  std::string save_ptx;  // --save-ptx (exec and the library): the folder for the program's PTX, "" = none
};

// The machine and every parameter bound to its name; configs and flags are
// applied by load().
struct Machine {
  config::ParamRegistry registry;
  std::shared_ptr<gpu::MachineConfig> config = std::make_shared<gpu::MachineConfig>();
  Machine() { config->bind(registry); }
  // Config files, --warp-size, then --set and the per-parameter flags in
  // command-line order (the registry must be bound to the parsed app).
  void load(const RunOptions& o);
};

// Adds to `cmd` every option of a run except what belongs to `run` alone
// (--workload, --manifest, --size, --out-dir, --allow-outside-out-dir):
// --mode, --config, --warp-size, --grouping, --seed, the --max-* guards,
// --call-stack, --stats, --csv, --vcd*, --trace-*, --quiet, then --set and
// one flag per machine parameter (bound to `reg`).
void add_run_options(CLI::App& cmd, RunOptions& o, config::ParamRegistry& reg);
// --launches A-B,C and --save-ptx DIR: exec and the library only.
void add_exec_options(CLI::App& cmd, RunOptions& o);

// Options that CLI11 takes but the run would ignore or misread: an empty
// output file name (taken as "not asked for"), --vcd-window/--vcd-signals
// without --vcd. Throws simt::Error(BadInput) with a one-line reason.
void refuse_unused_options(const CLI::App& cmd, const RunOptions& o);

// The machine in one phrase, for the run summary.
std::string machine_name(const RunOptions& o);

// --stats, --csv, --vcd and --trace-warps.
OutputPaths output_paths(const RunOptions& o);

// The device a run of `o` on `m` needs; throws BadInput for options that do
// not fit together (--vcd or --trace-warps in functional mode, a bad
// --vcd-window or --trace-filter).
runtime::DeviceOptions device_options(const RunOptions& o, const Machine& m, const RunOutputs& outs);

}  // namespace simt::tb
