#include "gpu/machine_config.h"

#include "config/param_registry.h"
#include "util/error.h"

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
  r.add("gpu.num_sms", num_sms, "streaming multiprocessors", 1, 1024);
  r.add("sm.max_threads", limits.max_threads, "resident threads per SM", 1, 65536);
  r.add("sm.registers", limits.registers, "32-bit registers per SM", 1, 1u << 24);
  r.add("sm.shared_bytes", limits.shared_bytes, "shared memory per SM in bytes", 0, 1u << 30);
  r.add("sm.reg_alloc_unit", limits.reg_alloc_unit, "registers are allocated per warp in multiples of this", 1,
        4096);
  sm.bind(r);
  l2.bind(r, "l2");
  l2_port.bind(r, "l2");
  xbar.bind(r, "xbar");
  dram.bind(r, "dram");
  r.add_choice("func.shfl_undefined", shfl_undefined, {"source", "zero", "self"},
               "value shfl.sync reads from a lane that is inactive or not in membermask (undefined in PTX)");
}

void MachineConfig::finalize() {
  // One value, several users: the SM's warp size and CTA slots bound the
  // dispatcher; the crossbar routes exactly as DRAM maps channels; the LDST
  // unit coalesces at the L1D's line size.
  limits.warp_size = sm.issue.warp_size;
  limits.max_ctas = sm.issue.max_ctas;
  xbar.partitions = dram.channels;
  xbar.interleave = dram.interleave;
  sm.ldst.line = sm.l1d.line;
  const uint64_t warp_threads = uint64_t{sm.issue.max_warps} * sm.issue.warp_size;
  if (warp_threads < limits.max_threads)
    throw input_error("option sm.max_warps: " + std::to_string(sm.issue.max_warps) + " warps of " +
                      std::to_string(sm.issue.warp_size) + " threads cannot hold sm.max_threads = " +
                      std::to_string(limits.max_threads));
  if (l2.line > dram.interleave)
    throw input_error("option l2.line: " + std::to_string(l2.line) + " must not exceed dram.interleave (" +
                      std::to_string(dram.interleave) + ")");
  limits.validate("sm");
  sm.validate();
  l2.validate("l2");
  l2_port.validate("l2");
  xbar.validate("xbar");
  xbar.check_matches(dram, "xbar");
  dram.validate("dram");
}

}  // namespace simt::gpu
