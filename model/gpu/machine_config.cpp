#include "gpu/machine_config.h"

#include "config/param_registry.h"
#include "util/error.h"

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

namespace simt::gpu {

// The built-in machine is seed 000's single-SM baseline, the same as
// configs/vws-baseline.toml (a test keeps the two equal).
MachineConfig::MachineConfig() {
  num_sms = 1;
  limits.max_threads = 1024;
  limits.registers = 65536;
  limits.shared_bytes = 49152;
  sm.issue.max_warps = 32;
  sm.issue.max_ctas = 8;
  sm.issue.schedulers = 1;
  sm.issue.policy.policy = "gto";
  sm.sp.lanes = 32;
  sm.sp.units = 1;
  sm.sp.latency = 10;
  sm.sfu.lanes = 8;
  sm.sfu.latency = 20;
  sm.l1d.size = 65536;
  sm.l1d.line = 128;
  sm.l1d.assoc = 8;
  l2.size = 32768;
  l2.line = 128;
  l2.assoc = 8;
  l2.hit_latency = 10;
  l2.write_policy = "write-back";
  l2_port.atomics = "perform";  // global atomics are performed at the L2, as on Fermi
  dram.channels = 4;
  dram.bytes_per_cycle = 8;
}

void MachineConfig::bind(config::ParamRegistry& r) {
  registry_ = &r;
  r.add("gpu.num_sms", num_sms, "streaming multiprocessors", 1, 1024);
  r.add("sm.max_threads", limits.max_threads, "resident threads per SM", 1, 65536);
  r.add("sm.registers", limits.registers, "32-bit registers per SM", 1, 1u << 24);
  r.add("sm.shared_bytes", limits.shared_bytes, "shared memory per SM in bytes", 0, 1u << 30);
  r.add("sm.reg_alloc_unit", limits.reg_alloc_unit, "registers are allocated per warp in multiples of this", 1,
        4096);
  sm.bind(r);
  technique.bind(r);
  l2.bind(r, "l2");
  l2_port.bind(r, "l2");
  xbar.bind(r, "xbar");
  dram.bind(r, "dram");
  r.add_choice("func.shfl_undefined", shfl_undefined, {"source", "zero", "self"},
               "value shfl.sync reads from a lane that is inactive or not in membermask (undefined in PTX)");
}

namespace {
std::string num(uint64_t v) { return std::to_string(v); }
}  // namespace

void MachineConfig::finalize() {
  const auto given = [this](const char* name) { return registry_ && registry_->assigned(name); };
  // A value that follows another: honoured when the user gave the same
  // value, refused (naming what it follows) when they differ.
  const auto follow = [&](const char* name, uint32_t& field, uint32_t source, const char* source_name,
                          const char* why) {
    if (given(name) && field != source)
      throw input_error("option " + std::string(name) + ": " + num(field) + " differs from " + source_name +
                        " = " + num(source) + ", which it follows (" + why + "); set " + source_name +
                        " instead");
    field = source;
  };
  // The blocks whose values others follow are checked first, so an error
  // names the parameter the user set (l1d.line, not ldst.line).
  sm.l1d.validate("l1d");
  dram.validate("dram");
  // One value, several users: the SM's warp size and CTA slots bound the
  // dispatcher; the crossbar routes exactly as DRAM maps channels; the LDST
  // unit coalesces at the L1D's line size.
  limits.warp_size = sm.issue.warp_size;
  limits.max_ctas = sm.issue.max_ctas;
  follow("xbar.partitions", xbar.partitions, dram.channels, "dram.channels",
         "one crossbar port per DRAM channel");
  follow("xbar.interleave", xbar.interleave, dram.interleave, "dram.interleave",
         "the crossbar routes addresses as DRAM maps them to channels");
  follow("ldst.line", sm.ldst.line, sm.l1d.line, "l1d.line", "the LDST unit coalesces at the L1D's line size");
  // Warp slots: enough for sm.max_threads, unless the user (or, without a
  // registry, the code that filled this struct) chose a number.
  if (registry_ && !given("sm.max_warps") && sm.issue.warp_size) {
    const uint64_t slots = (uint64_t{limits.max_threads} + sm.issue.warp_size - 1) / sm.issue.warp_size;
    if (slots > 1024)
      throw input_error("option sm.max_threads: " + num(limits.max_threads) + " threads in warps of " +
                        num(sm.issue.warp_size) + " (sm.warp_size) need " + num(slots) +
                        " warp slots; sm.max_warps allows at most 1024");
    sm.issue.max_warps = static_cast<uint32_t>(std::max<uint64_t>(slots, 1));
  }
  // The deadlock watchdog must outwait the longest chain of latencies one
  // request may meet (a miss through L1, crossbar, L2 and DRAM and back):
  // unless the user set it, it is at least twice their sum, so a machine
  // with a latency of 1,000,000 cycles is not reported as deadlocked.
  if (registry_ && !given("sm.watchdog_cycles")) {
    uint64_t sum = 0;
    const nlohmann::json values = registry_->to_json();
    for (const auto& [name, value] : values.items())
      if (value.is_number_unsigned() && name.find("latency") != std::string::npos) sum += value.get<uint64_t>();
    sm.issue.watchdog_cycles = std::max<uint64_t>(sm.issue.watchdog_cycles, 2 * sum);
  }
  const uint64_t warp_threads = uint64_t{sm.issue.max_warps} * sm.issue.warp_size;
  if (warp_threads < limits.max_threads)
    throw input_error("option sm.max_warps: " + num(sm.issue.max_warps) + " warps of " +
                      num(sm.issue.warp_size) + " threads (sm.warp_size) cannot hold sm.max_threads = " +
                      num(limits.max_threads) + " (raise sm.max_warps to " +
                      num((uint64_t{limits.max_threads} + sm.issue.warp_size - 1) / sm.issue.warp_size) +
                      " or lower sm.max_threads)");
  if (l2.line > dram.interleave)
    throw input_error("option l2.line: " + std::to_string(l2.line) + " must not exceed dram.interleave (" +
                      std::to_string(dram.interleave) + ")");
  limits.validate("sm");
  sm.validate();
  technique.validate();
  l2.validate("l2");
  l2_port.validate("l2");
  xbar.validate("xbar");
  xbar.check_matches(dram, "xbar");
  dram.validate("dram");
}

std::string parameter_reference_markdown() {
  config::ParamRegistry r;
  MachineConfig m;
  m.bind(r);
  return "# Machine parameters\n\n"
         "Every parameter of the machine, as `--set name=value`, `--name value` or in a TOML machine file\n"
         "(see [configuration.md](configuration.md)). Defaults are the built-in machine's, which equals\n"
         "`configs/vws-baseline.toml`; the machine files in `configs/` change some of them. Values outside the\n"
         "range or choices are refused (exit 2) naming the parameter. Parameters whose meaning says \"follows\"\n"
         "are derived from others: `sm.max_warps` may be set to another value, the others only to the same one.\n\n"
         "This page is generated: `build/simtlab params --markdown > docs/parameters.md`.\n\n" +
         r.markdown_table();
}

}  // namespace simt::gpu
