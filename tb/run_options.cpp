#include "run_options.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <utility>

#include "run_outputs.h"
#include "util/error.h"

namespace simt::tb {

void Machine::load(const RunOptions& o) {
  for (const auto& f : o.configs) registry.load_toml_file(f);
  if (o.warp_size) registry.set("sm.warp_size", std::to_string(o.warp_size), "--warp-size");
  registry.apply_cli();
  try {
    config->finalize();
  } catch (const Error& e) {
    // A combination refused: name the files or flags that set its options.
    if (e.code() != ExitCode::BadInput) throw;
    throw input_error(registry.name_sources(e.what()));
  }
}

namespace {

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

}  // namespace

void add_run_options(CLI::App& cmd, RunOptions& o, config::ParamRegistry& reg) {
  cmd.add_option("--mode", o.mode, "timing: the cycle-level SM model; functional: results only, fast")
      ->check(CLI::IsMember({"timing", "functional"}))->capture_default_str();
  cmd.add_option("--config", o.configs, "Machine file (TOML); repeat to overlay: later files win")
      ->check(CLI::ExistingFile);
  cmd.add_option("--warp-size", o.warp_size,
                 "Threads per warp, 4 to 64 (same as --sm.warp_size); the warp slots follow unless --sm.max_warps is set")
      ->check(CLI::Range(4u, 64u));
  cmd.add_option("--grouping", o.grouping, "Functional mode: how threads form warps: static or random (for testing)")
      ->check(CLI::IsMember({"static", "random"}))->capture_default_str();
  cmd.add_option("--seed", o.seed, "Seed of the random grouping")->capture_default_str();
  cmd.add_option("--max-warp-instructions", o.max_warp_instructions,
                 "Runaway guard, both modes: a CTA that issues more warp instructions than this stops the run "
                 "(exit 3, naming the warps' PCs); raise it for very long kernels, 0 = no limit")
      ->capture_default_str();
  cmd.add_option("--max-cycles", o.max_cycles,
                 "Runaway guard, timing mode: a launch that runs longer than this many cycles stops the run "
                 "(exit 3, naming the warps' PCs); raise it for very long kernels, 0 = no limit")
      ->capture_default_str();
  cmd.add_option("--max-spin-cycles", o.max_spin_cycles,
                 "Runaway guard, timing mode: a launch in which for this many cycles no thread stores, runs an "
                 "atomic, exits or reaches a barrier while its threads re-read the same addresses of a few lines is a spin-wait "
                 "that cannot end (exit 3, naming the warps' PCs); raise it for kernels that wait that long, "
                 "0 = off")
      ->capture_default_str();
  cmd.add_option("--max-device-memory", o.max_device_memory,
                 "Bytes of device memory the run may touch (pages are allocated on first touch); more is exit 5. "
                 "0 = 3/4 of the host's physical memory")
      ->capture_default_str();
  cmd.add_option("--call-stack", o.call_stack,
                 "Bytes per thread for the frames that recursive device functions save (each level saves the "
                 "function's registers, 8 bytes each, and its local frame); deeper recursion stops the run (exit 3)")
      ->check(CLI::Range(1024u, 1u << 30))
      ->capture_default_str();
  cmd.add_option("--stats", o.stats_file, "Write the run's statistics (JSON, docs/stats.md) here; the folder must exist");
  cmd.add_option("--csv", o.csv_file, "Append one row per run to this CSV file (for sweeps)");
  cmd.add_option("--vcd", o.vcd, "Write a VCD waveform to exactly this file (timing mode)");
  cmd.add_option("--vcd-signals", o.vcd_signals, "Signals to record: comma-separated globs")->capture_default_str();
  cmd.add_option("--vcd-window", o.vcd_window, "Cycles to record: START:END (END may be empty)")
      ->capture_default_str();
  cmd.add_option("--trace-warps", o.trace_warps,
                 "Timing mode: write one line per issued warp instruction and per scheduler stall to this file");
  cmd.add_option("--trace-filter", o.trace_filter,
                 "Restrict --trace-warps: comma-separated warps=N|N-M, sm=N|N-M, cycles=START:END; a bare value "
                 "adds to the previous key (e.g. warps=0-3,8,sm=0,cycles=1000:2000)");
  cmd.add_flag("--quiet", o.quiet, "No progress lines on stderr during long runs");
  for (const char* name : {"--seed", "--max-warp-instructions", "--max-cycles"})
    if (CLI::Option* opt = cmd.get_option_no_throw(name)) opt->check(kUnsigned64);
  reg.bind_cli(cmd);
}

void add_exec_options(CLI::App& cmd, RunOptions& o) {
  cmd.add_option("--launches", o.launches,
                 "Run only these kernel launches in timing mode and the others functionally: 1-based numbers in "
                 "program order, ranges and lists (3-5,9; 7- is 7 to the end); needs --mode timing");
  cmd.add_option("--save-ptx", o.save_ptx,
                 "Write the PTX of each fatbin the program registers into this folder (made if missing) as "
                 "PROGRAM.N.ptx (PROGRAM.N.U.ptx per unit of -rdc code), for `simtlab inspect`");
}

void refuse_unused_options(const CLI::App& cmd, const RunOptions& o) {
  const std::pair<const char*, const std::string*> files[] = {
      {"--stats", &o.stats_file}, {"--csv", &o.csv_file}, {"--vcd", &o.vcd}, {"--trace-warps", &o.trace_warps}};
  for (const auto& [name, value] : files)
    if (cmd.count(name) && value->empty()) throw input_error(std::string(name) + ": empty path; give a name");
  for (const char* name : {"--vcd-window", "--vcd-signals"})
    if (cmd.count(name) && o.vcd.empty()) throw input_error(std::string(name) + ": give --vcd FILE too");
}

std::string machine_name(const RunOptions& o) {
  if (o.configs.empty()) return "built-in vws-baseline";
  std::string s;
  for (const auto& f : o.configs) s += (s.empty() ? "" : " + ") + f;
  return s;
}

OutputPaths output_paths(const RunOptions& o) { return {o.stats_file, o.csv_file, o.vcd, o.trace_warps, {}}; }

runtime::DeviceOptions device_options(const RunOptions& o, const Machine& m, const RunOutputs& outs) {
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

}  // namespace simt::tb
