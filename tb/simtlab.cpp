// simtlab: the command line.
//   simtlab run --workload NAME [--size small|medium|large]
//   simtlab run --manifest FILE.json --out-dir DIR
//   simtlab inspect FILE.ptx [--kernel NAME]
//   simtlab list
// Exit codes: 0 ok, 1 a workload failed verification, 2 bad input
// (options, PTX, manifest), 3 the kernel faulted (bad address, barrier
// deadlock, trap).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "ptx/cfg.h"
#include "ptx/inspect.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "runtime/device.h"
#include "runtime/manifest.h"
#include "util/error.h"
#include "workload.h"

namespace {

using namespace simt;

struct RunOptions {
  std::string workload, manifest, size = "small", out_dir = ".";
  uint32_t warp_size = 32;
  std::string grouping = "static";
  uint64_t seed = 1;
  uint64_t max_warp_instructions = 0;
};

runtime::DeviceOptions device_options(const RunOptions& o) {
  runtime::DeviceOptions d;
  d.warp_size = o.warp_size;
  d.grouping = o.grouping == "random" ? runtime::Grouping::Random : runtime::Grouping::Static;
  d.grouping_seed = o.seed;
  d.max_warp_instructions = o.max_warp_instructions;
  d.validate();
  return d;
}

void print_totals(const runtime::LaunchStats& t) {
  double tips = t.wall_seconds > 0 ? t.thread_instructions / t.wall_seconds : 0;
  std::printf("  CTAs %llu, warp instructions %llu, thread instructions %llu\n",
              static_cast<unsigned long long>(t.ctas), static_cast<unsigned long long>(t.warp_instructions),
              static_cast<unsigned long long>(t.thread_instructions));
  std::printf("  wall %.3f s, %.2f M thread instructions/s (functional)\n", t.wall_seconds, tips / 1e6);
}

int run_workload(const RunOptions& o) {
  const workloads::Workload* w = workloads::find(o.workload);
  if (!w) {
    std::string names;
    for (const auto& x : workloads::all()) names += std::string(names.empty() ? "" : ", ") + x.name;
    throw input_error("--workload: unknown workload '" + o.workload + "' (available: " + names + ")");
  }
  workloads::Size size;
  if (!workloads::parse_size(o.size, &size))
    throw input_error("--size: '" + o.size + "' is not one of small, medium, large");
  runtime::Device dev(device_options(o));
  workloads::Result r = w->run(dev, size);
  std::printf("simtlab: workload %s (%s), size %s, warp size %u: %s\n", w->name,
              workloads::class_name(w->cls), workloads::size_name(size), o.warp_size,
              r.ok ? "PASSED" : "FAILED");
  std::printf("  %s\n", r.message.c_str());
  print_totals(dev.totals());
  return r.ok ? 0 : static_cast<int>(ExitCode::Failure);
}

int run_manifest(const RunOptions& o) {
  runtime::Manifest m = runtime::Manifest::load(o.manifest);
  runtime::Device dev(device_options(o));
  runtime::ManifestRun run = runtime::run_manifest(m, dev, o.out_dir);
  std::printf("simtlab: manifest %s: %zu launch(es) done\n", o.manifest.c_str(), run.launches.size());
  for (const auto& f : run.written) std::printf("  wrote %s\n", f.c_str());
  print_totals(dev.totals());
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

int main(int argc, char** argv) {
  CLI::App app{"simtlab: a SystemC/TLM-2.0 model of a GPU streaming multiprocessor"};
  app.require_subcommand(1);
  RunOptions ro;
  auto* run = app.add_subcommand("run", "Run a built-in workload (verified against its CPU reference) or a JSON manifest");
  auto* wopt = run->add_option("--workload", ro.workload, "Built-in workload name (see `simtlab list`)");
  auto* mopt = run->add_option("--manifest", ro.manifest, "JSON manifest describing PTX, buffers, launches, outputs")
                   ->check(CLI::ExistingFile);
  wopt->excludes(mopt);
  run->add_option("--size", ro.size, "Workload size: small, medium or large")->capture_default_str();
  run->add_option("--out-dir", ro.out_dir, "Where a manifest's outputs are written")->capture_default_str();
  run->add_option("--warp-size", ro.warp_size, "Threads per warp (4 to 64)")->capture_default_str();
  run->add_option("--grouping", ro.grouping, "How threads form warps: static or random (for testing)")
      ->check(CLI::IsMember({"static", "random"}))->capture_default_str();
  run->add_option("--seed", ro.seed, "Seed of the random grouping")->capture_default_str();
  run->add_option("--max-warp-instructions", ro.max_warp_instructions,
                  "Stop a runaway kernel after this many warp instructions per CTA (0 = no limit)")
      ->capture_default_str();

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
      return ro.workload.empty() ? run_manifest(ro) : run_workload(ro);
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
    return static_cast<int>(ExitCode::Failure);
  } catch (const std::exception& e) {
    std::cerr << "simtlab: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::Failure);
  }
  return 0;
}
