// Everything the SM needs to run CTAs of one kernel launch: the linked
// program and its CFG facts, the functional executor, the launch geometry
// and parameter buffer, and where functional accesses go. Shared (read-only)
// by every SM while the kernel runs; it is data, not a hardware block.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "func/cta_state.h"
#include "func/executor.h"
#include "ptx/cfg.h"
#include "ptx/def_use.h"
#include "ptx/ir.h"
#include "sm/spin_watch.h"

namespace simt::sm {

struct KernelContext {
  const ptx::Program* prog = nullptr;
  // Lives exactly as long as *prog (null: the launch is all there is), so
  // per-kernel results (the VGIW compilation) can outlive one launch.
  std::shared_ptr<const void> program_owner;
  const ptx::Cfg* cfg = nullptr;
  const func::Executor* exec = nullptr;
  // Registers each PC reads and writes, decoded once for every SM (one copy
  // in the host's caches instead of one per SM); null: each SM decodes them.
  const std::vector<ptx::DefUse>* du = nullptr;
  func::LaunchGeometry geom;
  std::vector<uint8_t> params;      // kernel parameter buffer
  func::ExecEnv env;                // global memory + printf sink for the executor
  uint64_t code_base = 0;           // instruction address of PC 0 (for the I-cache)
  uint32_t instr_bytes = 8;         // bytes per instruction in the I-cache
  uint32_t regs_per_thread = 0;     // for occupancy
  uint64_t launch_id = 0;
  // Runaway limits (0 = none): warp instructions one CTA may issue, and the
  // cycle (absolute) by which the launch must have finished, max_cycles after its start.
  uint64_t max_warp_instructions = 0;
  uint64_t max_cycles = 0;
  uint64_t cycle_limit = 0;
  // Spin-wait detection for the launch, shared by every SM (null = off).
  std::shared_ptr<SpinWatch> spin;
};

}  // namespace simt::sm
