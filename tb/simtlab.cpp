// simtlab: the command line.
//   simtlab run --workload NAME [--size small|medium|large] [--mode timing|functional]
//               [--config FILE]... [--set key=value]... [--<parameter> VALUE]...
//               [--stats FILE.json] [--csv FILE] [--vcd FILE ...]
//               [--trace-warps FILE [--trace-filter SPEC]] [--quiet]
//   simtlab run --manifest FILE.json --out-dir DIR
//   simtlab inspect FILE.ptx [--kernel NAME]
//   simtlab list
// Exit codes: 0 ok, 1 a workload failed verification, 2 bad input
// (options, PTX, manifest), 3 the kernel faulted (bad address, barrier
// deadlock, trap).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "ptx/cfg.h"
#include "ptx/inspect.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "runtime/device.h"
#include "runtime/manifest.h"
#include "runtime/run_report.h"
#include "stats/stats.h"
#include "util/error.h"
#include "workload.h"

namespace {

using namespace simt;

struct RunOptions {
  std::string workload, manifest, size = "small", out_dir = ".";
  std::string mode = "timing";
  std::vector<std::string> configs;
  uint32_t warp_size = 0;  // 0 = the machine's sm.warp_size
  std::string grouping = "static";
  uint64_t seed = 1;
  uint64_t max_warp_instructions = runtime::kDefaultMaxWarpInstructions;
  uint64_t max_cycles = runtime::kDefaultMaxCycles;
  uint64_t max_device_memory = 0;
  std::string stats_file, csv_file;
  std::string vcd, vcd_signals = "*", vcd_window = "0:";
  std::string trace_warps, trace_filter;
  bool quiet = false;
};

// The machine and every parameter bound to its name; configs and flags are
// applied by load().
struct Machine {
  config::ParamRegistry registry;
  std::shared_ptr<gpu::MachineConfig> config = std::make_shared<gpu::MachineConfig>();
  Machine() { config->bind(registry); }
  void load(const RunOptions& o) {
    for (const auto& f : o.configs) registry.load_toml_file(f);
    if (o.warp_size) registry.set("sm.warp_size", std::to_string(o.warp_size), "--warp-size");
    registry.apply_cli();
    config->finalize();
  }
};

runtime::DeviceOptions device_options(const RunOptions& o, const Machine& m) {
  runtime::DeviceOptions d;
  d.mode = o.mode == "functional" ? runtime::Mode::Functional : runtime::Mode::Timing;
  d.machine = m.config;
  d.warp_size = m.config->sm.issue.warp_size;
  d.grouping = o.grouping == "random" ? runtime::Grouping::Random : runtime::Grouping::Static;
  d.grouping_seed = o.seed;
  d.max_warp_instructions = o.max_warp_instructions;
  d.max_cycles = o.max_cycles;
  d.max_device_memory = o.max_device_memory;
  if (!o.vcd.empty()) {
    if (d.mode != runtime::Mode::Timing) throw input_error("--vcd: waveforms need --mode timing");
    d.waveform.path = o.vcd;
    d.waveform.globs = trace::WaveformOptions::parse_globs(o.vcd_signals);
    trace::WaveformOptions::parse_window(o.vcd_window, &d.waveform.start, &d.waveform.end);
  }
  if (!o.trace_warps.empty()) {
    if (d.mode != runtime::Mode::Timing) throw input_error("--trace-warps: the warp trace needs --mode timing");
    d.warp_trace_path = o.trace_warps;
    d.warp_trace_filter = trace::WarpTraceFilter::parse(o.trace_filter);
  } else if (!o.trace_filter.empty()) {
    throw input_error("--trace-filter: give --trace-warps FILE too");
  }
  d.progress = !o.quiet;
  d.validate();
  return d;
}

// Writes --stats / --csv for a finished run.
void write_outputs(const RunOptions& o, const runtime::Device& dev, const Machine& m, const std::string& what,
                   bool verified) {
  if (o.stats_file.empty() && o.csv_file.empty()) return;
  runtime::RunInfo info;
  info.what = what;
  info.mode = o.mode;
  info.config_files = o.configs;
  info.verified = verified;
  info.warp_size = m.config->sm.issue.warp_size;
  nlohmann::json report = runtime::run_report(dev, info, m.registry.to_json());
  if (!o.stats_file.empty()) stats::write_json_file(o.stats_file, report);
  if (!o.csv_file.empty()) stats::append_csv_row(o.csv_file, runtime::csv_columns(), runtime::csv_row(report));
}

void print_totals(const runtime::LaunchStats& t, bool timing) {
  double tips = t.wall_seconds > 0 ? t.thread_instructions / t.wall_seconds : 0;
  std::printf("  CTAs %llu, warp instructions %llu, thread instructions %llu\n",
              static_cast<unsigned long long>(t.ctas), static_cast<unsigned long long>(t.warp_instructions),
              static_cast<unsigned long long>(t.thread_instructions));
  if (timing && t.cycles)
    std::printf("  cycles %llu, IPC %.2f\n", static_cast<unsigned long long>(t.cycles),
                static_cast<double>(t.thread_instructions) / t.cycles);
  std::printf("  wall %.3f s, %.2f M thread instructions/s (%s)\n", t.wall_seconds, tips / 1e6,
              timing ? "timing" : "functional");
}

int run_workload(const RunOptions& o, Machine& m) {
  const workloads::Workload* w = workloads::find(o.workload);
  if (!w) {
    std::string names;
    for (const auto& x : workloads::all()) names += std::string(names.empty() ? "" : ", ") + x.name;
    throw input_error("--workload: unknown workload '" + o.workload + "' (available: " + names + ")");
  }
  workloads::Size size;
  if (!workloads::parse_size(o.size, &size))
    throw input_error("--size: '" + o.size + "' is not one of small, medium, large");
  runtime::Device dev(device_options(o, m));
  workloads::Result r = w->run(dev, size);
  std::printf("simtlab: workload %s (%s), size %s, warp size %u, %s mode: %s\n", w->name,
              workloads::class_name(w->cls), workloads::size_name(size), m.config->sm.issue.warp_size,
              o.mode.c_str(), r.ok ? "PASSED" : "FAILED");
  std::printf("  %s\n", r.message.c_str());
  print_totals(dev.totals(), o.mode == "timing");
  write_outputs(o, dev, m, std::string("workload ") + w->name + " (" + workloads::size_name(size) + ")", r.ok);
  return r.ok ? 0 : static_cast<int>(ExitCode::Failure);
}

int run_manifest(const RunOptions& o, Machine& m) {
  runtime::Manifest man = runtime::Manifest::load(o.manifest);
  runtime::Device dev(device_options(o, m));
  runtime::ManifestRun run = runtime::run_manifest(man, dev, o.out_dir);
  std::printf("simtlab: manifest %s: %zu launch(es) done\n", o.manifest.c_str(), run.launches.size());
  for (const auto& f : run.written) std::printf("  wrote %s\n", f.c_str());
  print_totals(dev.totals(), o.mode == "timing");
  write_outputs(o, dev, m, "manifest " + o.manifest, true);
  return 0;
}

int inspect(const std::string& file, const std::string& kernel) {
  ptx::Module m = ptx::parse_file(file);
  std::vector<std::string> entries = ptx::entry_names(m);
  if (!kernel.empty()) entries = {kernel};
  // Addresses of globals do not matter for the report; give each a distinct one.
  ptx::SymbolAddresses addrs(m.globals.size());
  for (size_t i = 0; i < addrs.size(); ++i) addrs[i] = 0x1000 * (i + 1);
  for (const auto& e : entries) {
    ptx::Program p = ptx::link(m, e, addrs);
    ptx::Cfg cfg(p);
    std::cout << ptx::inspect_report(p, cfg) << "\n";
  }
  return 0;
}

}  // namespace

// The model prints results, not SystemC's banner: set before SystemC's own
// main() starts (static initialisation).
static const int kQuietSystemC = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);

// SystemC's own main() calls this.
int sc_main(int argc, char* argv[]) {
  CLI::App app{"simtlab: a SystemC/TLM-2.0 model of a GPU streaming multiprocessor"};
  app.require_subcommand(1);
  RunOptions ro;
  Machine machine;
  auto* run = app.add_subcommand("run", "Run a built-in workload (verified against its CPU reference) or a JSON manifest");
  auto* wopt = run->add_option("--workload", ro.workload, "Built-in workload name (see `simtlab list`)");
  auto* mopt = run->add_option("--manifest", ro.manifest, "JSON manifest describing PTX, buffers, launches, outputs")
                   ->check(CLI::ExistingFile);
  wopt->excludes(mopt);
  run->add_option("--size", ro.size, "Workload size: small, medium or large")->capture_default_str();
  run->add_option("--out-dir", ro.out_dir, "Where a manifest's outputs are written")->capture_default_str();
  run->add_option("--mode", ro.mode, "timing: the cycle-level SM model; functional: results only, fast")
      ->check(CLI::IsMember({"timing", "functional"}))->capture_default_str();
  run->add_option("--config", ro.configs, "Machine file (TOML); repeat to overlay: later files win")
      ->check(CLI::ExistingFile);
  run->add_option("--warp-size", ro.warp_size,
                  "Threads per warp, 4 to 64 (same as --sm.warp_size); the warp slots follow unless --sm.max_warps is set")
      ->check(CLI::Range(4u, 64u));
  run->add_option("--grouping", ro.grouping, "Functional mode: how threads form warps: static or random (for testing)")
      ->check(CLI::IsMember({"static", "random"}))->capture_default_str();
  run->add_option("--seed", ro.seed, "Seed of the random grouping")->capture_default_str();
  run->add_option("--max-warp-instructions", ro.max_warp_instructions,
                  "Runaway guard, both modes: a CTA that issues more warp instructions than this stops the run "
                  "(exit 3, naming the warps' PCs); raise it for very long kernels, 0 = no limit")
      ->capture_default_str();
  run->add_option("--max-cycles", ro.max_cycles,
                  "Runaway guard, timing mode: a launch that runs longer than this many cycles stops the run "
                  "(exit 3, naming the warps' PCs); raise it for very long kernels, 0 = no limit")
      ->capture_default_str();
  run->add_option("--max-device-memory", ro.max_device_memory,
                  "Bytes of device memory the run may touch (pages are allocated on first touch); more is exit 5. "
                  "0 = 3/4 of the host's physical memory")
      ->capture_default_str();
  run->add_option("--stats", ro.stats_file, "Write the run's statistics (JSON) here");
  run->add_option("--csv", ro.csv_file, "Append one row per run to this CSV file (for sweeps)");
  run->add_option("--vcd", ro.vcd, "Write a VCD waveform (timing mode)");
  run->add_option("--vcd-signals", ro.vcd_signals, "Signals to record: comma-separated globs")->capture_default_str();
  run->add_option("--vcd-window", ro.vcd_window, "Cycles to record: START:END (END may be empty)")
      ->capture_default_str();
  run->add_option("--trace-warps", ro.trace_warps,
                  "Timing mode: write one line per issued warp instruction and per scheduler stall to this file");
  run->add_option("--trace-filter", ro.trace_filter,
                  "Restrict --trace-warps: comma-separated warps=N|N-M, sm=N|N-M, cycles=START:END; a bare value "
                  "adds to the previous key (e.g. warps=0-3,8,sm=0,cycles=1000:2000)");
  run->add_flag("--quiet", ro.quiet, "No progress lines on stderr during long runs");
  machine.registry.bind_cli(*run);

  std::string ptx_file, kernel;
  auto* insp = app.add_subcommand("inspect", "Print each kernel's blocks, branches (reconvergence and likely-convergence points) and instruction mix");
  insp->add_option("file", ptx_file, "PTX file")->required()->check(CLI::ExistingFile);
  insp->add_option("--kernel", kernel, "Only this kernel");

  auto* list = app.add_subcommand("list", "List the built-in workloads");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "simtlab: " << e.what() << "\n(run `simtlab --help` for usage)\n";
    return static_cast<int>(ExitCode::BadInput);
  }

  try {
    if (*run) {
      if (ro.workload.empty() == ro.manifest.empty())
        throw input_error("run: give exactly one of --workload NAME or --manifest FILE");
      machine.load(ro);
      return ro.workload.empty() ? run_manifest(ro, machine) : run_workload(ro, machine);
    }
    if (*insp) return inspect(ptx_file, kernel);
    if (*list) {
      for (const auto& w : workloads::all())
        std::printf("%-14s %-22s %s\n", w.name, workloads::class_name(w.cls), w.description);
      return 0;
    }
  } catch (const Error& e) {
    std::fflush(stdout);
    std::cerr << "simtlab: error: " << e.what() << "\n";
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    std::cerr << "simtlab: error: out of host memory\n";
    return static_cast<int>(ExitCode::HostResources);
  } catch (const std::exception& e) {
    std::cerr << "simtlab: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::Failure);
  }
  return 0;
}
