// simtlab: the command line.
//   simtlab run --workload NAME [--size small|medium|large] [--mode timing|functional]
//               [--config FILE]... [--set key=value]... [--<parameter> VALUE]...
//               [--stats FILE.json] [--csv FILE] [--vcd FILE ...]
//               [--trace-warps FILE [--trace-filter SPEC]] [--quiet]
//   simtlab run --manifest FILE.json --out-dir DIR [--allow-outside-out-dir]
//   simtlab inspect FILE.ptx [--kernel NAME] [--vgiw | --load]
//   simtlab list
//   simtlab params [--markdown]
//   simtlab --version
// Exit codes (docs/exit-codes.md, util/error.h): 0 ok, 1 a workload failed
// verification, 2 bad input (options, PTX, manifest, an output path that
// cannot be written), 3 the kernel faulted, 4 writing an output failed,
// 5 out of host memory, 6 internal error, 128 + N stopped by signal N
// (130 for Ctrl-C).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "ptx/cfg.h"
#include "ptx/inspect.h"
#include "vgiw/compiler.h"
#include "vgiw/vgiw_report.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "ptx/register_slots.h"
#include "runtime/device.h"
#include "runtime/manifest.h"
#include "run_outputs.h"
#include "runtime/run_report.h"
#include "simt_version.h"
#include "stats/stats.h"
#include "util/huge_pages.h"
#include "util/error.h"
#include "util/output_file.h"
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
  uint64_t max_spin_cycles = runtime::kDefaultMaxSpinCycles;
  uint64_t max_device_memory = 0;
  uint32_t call_stack = func::kDefaultCallStackBytes;
  std::string stats_file, csv_file;
  std::string vcd, vcd_signals = "*", vcd_window = "0:";
  std::string trace_warps, trace_filter;
  bool quiet = false;
  bool allow_outside_out_dir = false;
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

// The machine in one phrase, for the run summary.
std::string machine_name(const RunOptions& o) {
  if (o.configs.empty()) return "built-in vws-baseline";
  std::string s;
  for (const auto& f : o.configs) s += (s.empty() ? "" : " + ") + f;
  return s;
}

tb::OutputPaths output_paths(const RunOptions& o) { return {o.stats_file, o.csv_file, o.vcd, o.trace_warps, {}}; }

// Options that CLI11 takes but the run would ignore or misread: an empty
// file name (taken as "not asked for"), a setting of an output not asked
// for. Each is exit 2 with a one-line reason.
void refuse_unused_options(const CLI::App& run, const RunOptions& o) {
  const std::pair<const char*, const std::string*> files[] = {
      {"--stats", &o.stats_file}, {"--csv", &o.csv_file}, {"--vcd", &o.vcd},
      {"--trace-warps", &o.trace_warps}, {"--out-dir", &o.out_dir}};
  for (const auto& [name, value] : files)
    if (run.count(name) && value->empty()) throw input_error(std::string(name) + ": empty path; give a name");
  for (const char* name : {"--vcd-window", "--vcd-signals"})
    if (run.count(name) && o.vcd.empty()) throw input_error(std::string(name) + ": give --vcd FILE too");
  if (o.allow_outside_out_dir && o.manifest.empty())
    throw input_error("--allow-outside-out-dir: only a manifest's outputs go to --out-dir; give --manifest FILE");
}

runtime::DeviceOptions device_options(const RunOptions& o, const Machine& m, const tb::RunOutputs& outs) {
  runtime::DeviceOptions d;
  d.mode = o.mode == "functional" ? runtime::Mode::Functional : runtime::Mode::Timing;
  d.machine = m.config;
  d.warp_size = m.config->sm.issue.warp_size;
  d.grouping = o.grouping == "random" ? runtime::Grouping::Random : runtime::Grouping::Static;
  d.grouping_seed = o.seed;
  d.max_warp_instructions = o.max_warp_instructions;
  d.max_cycles = o.max_cycles;
  d.max_spin_cycles = o.max_spin_cycles;
  d.max_device_memory = o.max_device_memory;
  d.call_stack_bytes = o.call_stack;
  if (!o.vcd.empty()) {
    if (d.mode != runtime::Mode::Timing) throw input_error("--vcd: waveforms need --mode timing");
    d.waveform.path = outs.vcd_write_path();
    d.waveform.globs = trace::WaveformOptions::parse_globs(o.vcd_signals);
    trace::WaveformOptions::parse_window(o.vcd_window, &d.waveform.start, &d.waveform.end);
  }
  if (!o.trace_warps.empty()) {
    if (d.mode != runtime::Mode::Timing) throw input_error("--trace-warps: the warp trace needs --mode timing");
    d.warp_trace_path = outs.trace_write_path();
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
                   bool verified, tb::RunOutputs& outs) {
  if (o.stats_file.empty() && o.csv_file.empty()) return;
  runtime::RunInfo info;
  info.what = what;
  info.mode = o.mode;
  info.config_files = o.configs;
  for (const auto& [key, value] : m.registry.cli_assignments()) info.sets.push_back(key + "=" + value);
  info.machine = machine_name(o);
  info.verified = verified;
  info.warp_size = m.config->sm.issue.warp_size;
  nlohmann::json report = runtime::run_report(dev, info, m.registry.to_json());
  outs.write_report(report, runtime::csv_columns(), runtime::csv_row(report));
}

// Runs `body` on a device built for `o`; the waveform and warp trace are put
// under their final names after the device is gone, also after a kernel
// fault (they show what led to it). Other errors discard them.
template <class Body>
int with_device(const RunOptions& o, Machine& m, tb::RunOutputs& outs, Body body) {
  int rc = 0;
  std::unique_ptr<Error> fault;
  {
    const runtime::DeviceOptions opts = device_options(o, m, outs);
    runtime::Device dev(opts);
    // No --vcd-window: the whole run is recorded; warn once if that gets large.
    if (!opts.waveform.path.empty() && opts.waveform.start == 0 && opts.waveform.end == UINT64_MAX)
      dev.progress().watch_waveform(opts.waveform.path);
    try {
      rc = body(dev);
    } catch (const Error& e) {
      if (e.code() != ExitCode::KernelFault) throw;
      fault = std::make_unique<Error>(e);
    }
  }
  outs.finish_traces();
  if (fault) throw *fault;
  return rc;
}

void print_totals(const runtime::LaunchStats& t, bool timing, const std::string& machine) {
  if (timing) std::printf("  machine: %s\n", machine.c_str());
  double tips = t.wall_seconds > 0 ? t.thread_instructions / t.wall_seconds : 0;
  std::printf("  CTAs %llu, warp instructions %llu, thread instructions %llu\n",
              static_cast<unsigned long long>(t.ctas), static_cast<unsigned long long>(t.warp_instructions),
              static_cast<unsigned long long>(t.thread_instructions));
  if (timing && t.cycles)
    std::printf("  cycles %llu, IPC %.2f (thread instructions per cycle)\n", static_cast<unsigned long long>(t.cycles),
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
  tb::RunOutputs outs(output_paths(o), stats::csv_header(runtime::csv_columns()));
  return with_device(o, m, outs, [&](runtime::Device& dev) {
    workloads::Result r = w->run(dev, size);
    std::printf("simtlab: workload %s (%s), size %s, warp size %u, %s mode: %s\n", w->name,
                workloads::class_name(w->cls), workloads::size_name(size), m.config->sm.issue.warp_size,
                o.mode.c_str(), r.ok ? "PASSED" : "FAILED");
    std::printf("  %s\n", r.message.c_str());
    print_totals(dev.totals(), o.mode == "timing", machine_name(o));
    write_outputs(o, dev, m, std::string("workload ") + w->name + " (" + workloads::size_name(size) + ")", r.ok,
                  outs);
    return r.ok ? 0 : static_cast<int>(ExitCode::Failure);
  });
}

int run_manifest(const RunOptions& o, Machine& m) {
  runtime::Manifest man = runtime::Manifest::load(o.manifest);
  // --out-dir is created (with its parents) first, so other outputs may go
  // into it (--out-dir new --vcd new/t.vcd).
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec || !std::filesystem::is_directory(o.out_dir))
    throw input_error("--out-dir " + o.out_dir + ": cannot create the folder" + (ec ? ": " + ec.message() : ""));
  // The manifest's outputs are checked (inside --out-dir) and claimed, so
  // no other output of the run may write the same file.
  runtime::ManifestRunOptions mo;
  mo.allow_outside_out_dir = o.allow_outside_out_dir;
  tb::OutputPaths paths = output_paths(o);
  const std::vector<std::string> targets = runtime::output_targets(man, o.out_dir, mo);
  for (size_t i = 0; i < targets.size(); ++i)
    paths.manifest_outputs.push_back({man.file + ": outputs[" + std::to_string(i) + "].path", targets[i]});
  tb::RunOutputs outs(paths, stats::csv_header(runtime::csv_columns()));
  return with_device(o, m, outs, [&](runtime::Device& dev) {
    runtime::ManifestRun run = runtime::run_manifest(man, dev, o.out_dir, mo);
    std::printf("simtlab: manifest %s: %zu launch(es) done\n", o.manifest.c_str(), run.launches.size());
    for (const auto& f : run.written) std::printf("  wrote %s\n", f.c_str());
    print_totals(dev.totals(), o.mode == "timing", machine_name(o));
    write_outputs(o, dev, m, "manifest " + o.manifest, true, outs);
    return 0;
  });
}

// `inspect --load`: loads the module on a functional device and links and
// checks each kernel as its first launch would (Device::program: link, CFG,
// the executor's per-instruction support check), printing `ok <kernel>` or
// `refused <kernel>: <reason>` per kernel. A module that fails to load
// (e.g. a bad address initialiser) refuses every kernel with its reason.
// Returns 0 when every kernel loads, 2 when one is refused, 6 when one hit an
// internal error (also printed, as `error <kernel>: ...`).
int inspect_load(const std::string& file, const std::vector<std::string>& entries) {
  runtime::Device dev;
  runtime::Module* mod = nullptr;
  std::string module_refusal;
  try {
    mod = &dev.load_ptx_file(file);
  } catch (const Error& e) {
    if (e.code() != ExitCode::BadInput) throw;
    module_refusal = e.what();
  }
  int rc = 0;
  for (const auto& e : entries) {
    if (!mod) {
      std::cout << "refused " << e << ": " << module_refusal << "\n";
      rc = std::max(rc, static_cast<int>(ExitCode::BadInput));
      continue;
    }
    try {
      dev.program(*mod, e);
      std::cout << "ok " << e << "\n";
    } catch (const Error& err) {
      if (err.code() == ExitCode::BadInput) {
        std::cout << "refused " << e << ": " << err.what() << "\n";
        rc = std::max(rc, static_cast<int>(ExitCode::BadInput));
      } else if (err.code() == ExitCode::HostResources) {
        throw;
      } else {
        std::cout << "error " << e << ": " << err.what() << "\n";
        rc = std::max(rc, static_cast<int>(ExitCode::Internal));
      }
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& ex) {
      std::cout << "error " << e << ": internal error: " << ex.what() << "\n";
      rc = std::max(rc, static_cast<int>(ExitCode::Internal));
    }
  }
  std::cout.flush();
  return rc;
}

int inspect(const std::string& file, const std::string& kernel, bool vgiw, bool load) {
  ptx::Module m = ptx::parse_file(file);
  std::vector<std::string> entries = ptx::kernel_names(m);
  if (!kernel.empty()) entries = {kernel};
  if (load) return inspect_load(file, entries);
  // Addresses of globals do not matter for the report; give each a distinct one.
  ptx::SymbolAddresses addrs(m.globals.size());
  for (size_t i = 0; i < addrs.size(); ++i) addrs[i] = 0x1000 * (i + 1);
  for (const auto& e : entries) {
    ptx::Program p = ptx::link(m, e, addrs);
    if (vgiw) {
      std::cout << vgiw::vgiw_report(vgiw::Compilation(p)) << "\n";
      continue;
    }
    ptx::Cfg cfg(p);
    ptx::share_register_slots(p, cfg);  // as the device loads it: the report gives the rows
    std::cout << ptx::inspect_report(p, cfg) << "\n";
  }
  return 0;
}

// CLI11 reads unsigned options with strtoull, which wraps "-1" and clamps
// numbers past 2^64 without a word: check the text first.
const CLI::Validator kUnsigned64(
    [](std::string& text) -> std::string {
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        return "'" + text + "' is not a non-negative integer";
      const std::string max = std::to_string(UINT64_MAX);
      const std::string digits = text.substr(std::min(text.find_first_not_of('0'), text.size() - 1));
      if (digits.size() > max.size() || (digits.size() == max.size() && digits > max))
        return text + " is too large (at most " + max + ")";
      return "";
    },
    "");

// `run --help` starts with a few examples.
class RunHelp : public CLI::Formatter {
 public:
  std::string make_description(const CLI::App* app) const override {
    return CLI::Formatter::make_description(app) +
           "Examples:\n"
           "  simtlab run --workload bfs --size small --mode functional\n"
           "  simtlab run --workload matmul --config configs/fermi-gtx480.toml --stats run.json\n"
           "  simtlab run --workload saxpy --set l1d.size=32768 --sm.policy lrr --csv sweep.csv\n"
           "  simtlab run --manifest m.json --out-dir out --vcd out/run.vcd --vcd-window 1000:2000\n"
           "Machine parameters come last, one group per block; `--set KEY=VALUE` sets any of them.\n\n";
  }
};

}  // namespace

// The model prints results, not SystemC's banner: set before SystemC's own
// main() starts (static initialisation).
static const int kQuietSystemC = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);

namespace {

// SystemC's informational reports ("tracing timescale unit set", "Simulation
// stopped by user") are not for simtlab's users; warnings and errors still show.
void quiet_systemc_info() { sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING); }

}  // namespace

// SystemC's own main() calls this.
int sc_main(int argc, char* argv[]) {
  util::back_heap_with_huge_pages();  // before the model allocates: see util/huge_pages.h
  quiet_systemc_info();
  util::install_interrupt_cleanup();
  CLI::App app{"simtlab: a SystemC/TLM-2.0 model of a GPU streaming multiprocessor"};
  app.set_version_flag("--version", std::string("simtlab ") + simt::kVersion, "Print the version and exit");
  app.require_subcommand(1);
  RunOptions ro;
  Machine machine;
  auto* run = app.add_subcommand("run", "Run a built-in workload (verified against its CPU reference) or a JSON manifest");
  run->formatter(std::make_shared<RunHelp>());
  auto* wopt = run->add_option("--workload", ro.workload, "Built-in workload name (see `simtlab list`)");
  auto* mopt = run->add_option("--manifest", ro.manifest, "JSON manifest describing PTX, buffers, launches, outputs")
                   ->check(CLI::ExistingFile);
  wopt->excludes(mopt);
  run->add_option("--size", ro.size, "Workload size: small, medium or large")->capture_default_str();
  run->add_option("--out-dir", ro.out_dir, "Where a manifest's outputs are written (created if missing)")->capture_default_str();
  run->add_flag("--allow-outside-out-dir", ro.allow_outside_out_dir,
                "Let the manifest write outputs outside --out-dir (absolute paths, \"..\", symlinks out of it); "
                "only for a manifest you trust");
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
  run->add_option("--max-spin-cycles", ro.max_spin_cycles,
                  "Runaway guard, timing mode: a launch in which for this many cycles no thread stores, runs an "
                  "atomic, exits or reaches a barrier while its loads re-read the same few lines is a spin-wait "
                  "that cannot end (exit 3, naming the warps' PCs); raise it for kernels that wait that long, "
                  "0 = off")
      ->capture_default_str();
  run->add_option("--max-device-memory", ro.max_device_memory,
                  "Bytes of device memory the run may touch (pages are allocated on first touch); more is exit 5. "
                  "0 = 3/4 of the host's physical memory")
      ->capture_default_str();
  run->add_option("--call-stack", ro.call_stack,
                  "Bytes per thread for the frames that recursive device functions save (each level saves the "
                  "function's registers, 8 bytes each, and its local frame); deeper recursion stops the run (exit 3)")
      ->check(CLI::Range(1024u, 1u << 30))
      ->capture_default_str();
  run->add_option("--stats", ro.stats_file, "Write the run's statistics (JSON, docs/stats.md) here; the folder must exist");
  run->add_option("--csv", ro.csv_file, "Append one row per run to this CSV file (for sweeps)");
  run->add_option("--vcd", ro.vcd, "Write a VCD waveform to exactly this file (timing mode)");
  run->add_option("--vcd-signals", ro.vcd_signals, "Signals to record: comma-separated globs")->capture_default_str();
  run->add_option("--vcd-window", ro.vcd_window, "Cycles to record: START:END (END may be empty)")
      ->capture_default_str();
  run->add_option("--trace-warps", ro.trace_warps,
                  "Timing mode: write one line per issued warp instruction and per scheduler stall to this file");
  run->add_option("--trace-filter", ro.trace_filter,
                  "Restrict --trace-warps: comma-separated warps=N|N-M, sm=N|N-M, cycles=START:END; a bare value "
                  "adds to the previous key (e.g. warps=0-3,8,sm=0,cycles=1000:2000)");
  run->add_flag("--quiet", ro.quiet, "No progress lines on stderr during long runs");
  for (const char* name : {"--seed", "--max-warp-instructions", "--max-cycles"})
    if (CLI::Option* opt = run->get_option_no_throw(name)) opt->check(kUnsigned64);
  machine.registry.bind_cli(*run);

  std::string ptx_file, kernel;
  auto* insp = app.add_subcommand("inspect", "Print each kernel's blocks, branches (reconvergence and likely-convergence points) and instruction mix");
  insp->add_option("file", ptx_file, "PTX file")->required()->check(CLI::ExistingFile);
  insp->add_option("--kernel", kernel, "Only this kernel");
  bool inspect_vgiw = false;
  insp->add_flag("--vgiw", inspect_vgiw,
                 "Print the VGIW compiler's view instead: blocks in schedule order, successors, live value IDs, "
                 "each block's dataflow graph by unit type and its replicas on the grid");
  bool load_kernels = false;
  auto* load_flag = insp->add_flag(
      "--load", load_kernels,
      "Instead of the report, load the module and link and check every kernel as a launch would; print "
      "`ok KERNEL` or `refused KERNEL: REASON` per kernel; exit 2 if any is refused");
  load_flag->excludes("--vgiw");

  auto* list = app.add_subcommand("list", "List the built-in workloads");

  bool params_markdown = false;
  auto* params = app.add_subcommand("params", "List every machine parameter: name, default, meaning, range");
  params->add_flag("--markdown", params_markdown, "Print docs/parameters.md (a Markdown table)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
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
      refuse_unused_options(*run, ro);
      machine.load(ro);
      return ro.workload.empty() ? run_manifest(ro, machine) : run_workload(ro, machine);
    }
    if (*insp) return inspect(ptx_file, kernel, inspect_vgiw, load_kernels);
    if (*params) {
      std::cout << (params_markdown ? gpu::parameter_reference_markdown() : machine.registry.help_text());
      return 0;
    }
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
    std::fflush(stdout);
    std::cerr << "simtlab: error: out of host memory\n";
    return static_cast<int>(ExitCode::HostResources);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::cerr << "simtlab: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::Internal);
  }
  return 0;
}
