// Every parameter of the simulated GPU in one place: the SM's blocks, the
// L2, the crossbar, DRAM and the per-SM occupancy limits. bind() gives each
// its dotted name in the ParamRegistry (configs/*.toml, --set, --<name>);
// finalize() derives the values that must agree (e.g. the dispatcher's warp
// size is the SM's) and validates everything, naming the option at fault.
#pragma once

#include <cstdint>
#include <string>

#include "gpu/core_factory.h"
#include "gpu/cta_dispatcher.h"
#include "mem/cache.h"
#include "mem/cache_module.h"
#include "mem/crossbar.h"
#include "mem/dram.h"
#include "sm/sm.h"

namespace simt::config { class ParamRegistry; }

namespace simt::gpu {

struct MachineConfig {
  uint32_t num_sms = 1;       // gpu.num_sms
  SmLimits limits;            // sm.max_threads, sm.registers, sm.shared_bytes, sm.reg_alloc_unit
  sm::SmParams sm;            // sm.*, fetch.*, decode.*, sp.*, sfu.*, ops.*, ldst.*, shmem.*, l1i.*, l1d.*
  TechniqueParams technique;  // sm.reconvergence, sm.likely_convergence, tbc.*, dwf.*
  mem::CacheParams l2;        // l2.* (one partition; there is one per DRAM channel)
  mem::CachePortParams l2_port;
  mem::CrossbarParams xbar;   // xbar.*
  mem::DramParams dram;       // dram.*
  // func.*: functional semantics both modes share (the executor's choices where PTX leaves a value undefined).
  std::string shfl_undefined = "zero";  // func.shfl_undefined: source | zero | self (docs/ptx-support.md)

  MachineConfig();
  // Binds every parameter; finalize() then asks `r` which ones the user gave.
  void bind(config::ParamRegistry& r);
  // Derives the values that follow others, then validates (throws
  // simt::input_error). A derived value the user gave must agree with what
  // it follows; sm.max_warps follows sm.max_threads / sm.warp_size unless given.
  void finalize();

 private:
  const config::ParamRegistry* registry_ = nullptr;  // set by bind(); null: nothing was given
};

// docs/parameters.md: every parameter of the built-in machine with its
// default, range and meaning (`simtlab params --markdown` prints it; a test
// keeps the committed page equal to it).
std::string parameter_reference_markdown();

}  // namespace simt::gpu
