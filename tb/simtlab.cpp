// simtlab: the command line.
//   simtlab run --workload NAME [--size small|medium|large] [--mode timing|functional]
//               [--config FILE]... [--set key=value]... [--<parameter> VALUE]...
//               [--stats FILE.json] [--csv FILE] [--vcd FILE ...]
//               [--trace-warps FILE [--trace-filter SPEC]] [--quiet]
//   simtlab run --manifest FILE.json --out-dir DIR [--allow-outside-out-dir]
//   simtlab exec [run options] [--launches A-B,C] [--save-ptx DIR] -- PROGRAM [ARGS...]
//   simtlab inspect FILE.ptx [--kernel NAME] [--vgiw [--if-convert-limit N] | --load]
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
#include <optional>
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
#include "exec_command.h"
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

using tb::Machine;
using tb::RunOptions;
using tb::machine_name;
using tb::output_paths;

// The options only `run` has; refuse_unused_options() checked the others.
void refuse_unused_run_options(const CLI::App& run, const RunOptions& o) {
  if (run.count("--out-dir") && o.out_dir.empty()) throw input_error("--out-dir: empty path; give a name");
  if (o.allow_outside_out_dir && o.manifest.empty())
    throw input_error("--allow-outside-out-dir: only a manifest's outputs go to --out-dir; give --manifest FILE");
}

// Runs `body` on a device built for `o`; the waveform and warp trace are put
// under their final names after the device is gone, also after a kernel
// fault (they show what led to it). Other errors discard them.
template <class Body>
int with_device(const RunOptions& o, Machine& m, tb::RunOutputs& outs, Body body) {
  int rc = 0;
  std::unique_ptr<Error> fault;
  {
    const runtime::DeviceOptions opts = tb::device_options(o, m, outs);
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
    tb::write_outputs(o, dev, m, std::string("workload ") + w->name + " (" + workloads::size_name(size) + ")", r.ok,
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
    tb::write_outputs(o, dev, m, "manifest " + o.manifest, true, outs);
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

int inspect(const std::string& file, const std::string& kernel, bool vgiw, bool load,
            const vgiw::CompilerOptions& vgiw_options) {
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
      std::cout << vgiw::vgiw_report(vgiw::Compilation(p, vgiw_options)) << "\n";
      continue;
    }
    ptx::Cfg cfg(p);
    ptx::share_register_slots(p, cfg);  // as the device loads it: the report gives the rows
    std::cout << ptx::inspect_report(p, cfg) << "\n";
  }
  return 0;
}

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

class ExecHelp : public CLI::Formatter {
 public:
  std::string make_description(const CLI::App* app) const override {
    return CLI::Formatter::make_description(app) +
           "The program comes after --: simtlab exec [options] -- PROGRAM [ARGS...]\n"
           "PROGRAM must be built with `nvcc -cudart shared` (CUDA 13); its output and exit code are its own.\n"
           "Examples:\n"
           "  simtlab exec --mode functional -- ./vectorAdd\n"
           "  simtlab exec --config configs/fermi-gtx480.toml --stats app.json -- ./app input.txt\n"
           "  simtlab exec --launches 3-5,9 --trace-warps app.trace -- ./app\n"
           "The options are those of `simtlab run` (docs/cli.md).\n\n";
  }
};

// `simtlab exec [options] -- PROGRAM [ARGS...]` as given: the option tokens
// go to the program's CUDA library as they are, so they are split off at the
// first "--" before CLI11 parses the options.
struct ExecWords {
  bool exec = false, separated = false;  // argv[1] is "exec"; a "--" follows it
  int option_end = 0;                    // argv index of the "--" (argc without one)
  std::vector<std::string> tokens, program;
};

ExecWords split_exec(int argc, char* argv[]) {
  ExecWords w;
  w.option_end = argc;
  if (argc < 2 || std::string(argv[1]) != "exec") return w;
  w.exec = true;
  for (int i = 2; i < argc; ++i) {
    if (std::string(argv[i]) != "--") continue;
    w.separated = true;
    w.option_end = i;
    w.program.assign(argv + i + 1, argv + argc);
    break;
  }
  w.tokens.assign(argv + 2, argv + w.option_end);
  return w;
}

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
  // Each of `run` and `exec` has a machine and a flag per parameter: about
  // 15 M instructions (5 ms) to register. Only the subcommand named in
  // argv[1] gets them (`run` also for `params` and the top-level help).
  const ExecWords exec_words = split_exec(argc, argv);
  RunOptions ro;
  std::optional<Machine> run_machine, exec_machine;
  if (!exec_words.exec) run_machine.emplace();
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
  if (run_machine) tb::add_run_options(*run, ro, run_machine->registry);

  RunOptions eo;
  if (exec_words.exec) exec_machine.emplace();
  auto* exec = app.add_subcommand("exec", "Run a CUDA program (built with `nvcc -cudart shared`) with its kernels "
                                          "on simtlab: exec [options] -- PROGRAM [ARGS...]");
  exec->formatter(std::make_shared<ExecHelp>());
  if (exec_machine) {
    tb::add_run_options(*exec, eo, exec_machine->registry);
    tb::add_exec_options(*exec, eo);
  }
  // Without "--" the program's words would be taken for options: let them
  // through so the error below says what is missing.
  if (exec_words.exec && !exec_words.separated) exec->allow_extras();

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
  vgiw::CompilerOptions inspect_vgiw_options;
  insp->add_option("--if-convert-limit", inspect_vgiw_options.if_convert_limit,
                   "With --vgiw: the compiler's if-conversion limit (vgiw.if_convert_limit; 0 = nvcc's blocks as "
                   "they are)")
      ->check(CLI::Range(0, 4096))
      ->needs("--vgiw");

  auto* list = app.add_subcommand("list", "List the built-in workloads");

  bool params_markdown = false;
  auto* params = app.add_subcommand("params", "List every machine parameter: name, default, meaning, range");
  params->add_flag("--markdown", params_markdown, "Print docs/parameters.md (a Markdown table)");

  try {
    app.parse(exec_words.option_end, argv);
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
      tb::refuse_unused_options(*run, ro);
      refuse_unused_run_options(*run, ro);
      run_machine->load(ro);
      return ro.workload.empty() ? run_manifest(ro, *run_machine) : run_workload(ro, *run_machine);
    }
    if (*exec) {
      if (!exec_words.separated)
        throw input_error("exec: put -- before the program: simtlab exec [options] -- PROGRAM [ARGS...]");
      tb::exec_command(*exec, eo, *exec_machine, exec_words.tokens, exec_words.program);
    }
    if (*insp) return inspect(ptx_file, kernel, inspect_vgiw, load_kernels, inspect_vgiw_options);
    if (*params) {
      std::cout << (params_markdown ? gpu::parameter_reference_markdown() : run_machine->registry.help_text());
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
