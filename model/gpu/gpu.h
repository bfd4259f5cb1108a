// The GPU netlist: N SMs, a crossbar, one L2 partition per DRAM channel,
// DRAM, and the CTA dispatcher (docs/timing-model.md). run_kernel() starts
// a kernel and simulates until it is done.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "gpu/cta_dispatch_unit.h"
#include "gpu/machine_config.h"
#include "gpu/memory_port.h"
#include "mem/cache_module.h"
#include "mem/crossbar.h"
#include "mem/dram_module.h"
#include "sm/core.h"
#include "stats/stats.h"

namespace simt::trace { class Waveform; class WarpTrace; class Progress; }

namespace simt::gpu {

class Gpu : public sc_core::sc_module {
 public:
  // Global memory for functional accesses (DMI, else debug transport): bind
  // it to a mem::BackingMemory or to a platform's own memory before the
  // first sc_start (docs/virtual-platform.md).
  tlm::tlm_initiator_socket<> memory_socket;

  // `cfg` must be finalized. `waveform` may be null (no VCD), `warp_trace`
  // null (no --trace-warps), `progress` null (no progress lines); all three
  // must outlive the Gpu.
  Gpu(sc_core::sc_module_name name, const MachineConfig& cfg, stats::Registry& stats,
      trace::Waveform* waveform, trace::WarpTrace* warp_trace = nullptr, trace::Progress* progress = nullptr);

  // Simulates `kernel` to completion; returns the cycles it took. Throws
  // simt::Error for a kernel fault, a deadlock, or a CTA that can never fit.
  // The same as start_kernel(), simulate_kernel(), finish_kernel().
  uint64_t run_kernel(std::shared_ptr<const sm::KernelContext> kernel, const CtaFootprint& cta);

  // The three steps, for a GPU inside a simulation someone else runs
  // (gpu::GpuDevice): start_kernel() hands the kernel to the CTA dispatcher
  // and returns (throws for a CTA that can never fit or a kernel the cores
  // cannot run, sm/core.h check_kernel); simulate_kernel()
  // runs sc_start() until every block is idle (the standalone runner);
  // finish_kernel(), once the GPU is idle (util::Clock::idle()), rethrows a
  // block's fault, reports a deadlock (idle with CTAs left), and returns the
  // cycles since start_kernel().
  void start_kernel(std::shared_ptr<const sm::KernelContext> kernel, const CtaFootprint& cta);
  void simulate_kernel();
  uint64_t finish_kernel();
  bool kernel_finished() const { return dispatcher_.kernel_finished(); }

  // From the start of simulation on, `mem` keeps its bytes in the memory
  // bound to memory_socket (its current contents are copied there).
  void serve_memory(func::GlobalMemory& mem) { memory_port_.serve(mem); }

  const MachineConfig& config() const { return cfg_; }
  uint32_t num_sms() const { return static_cast<uint32_t>(sms_.size()); }
  // SM k's netlist, for inspection (tests: its blocks' activations).
  const sm::Core& core(uint32_t k) const { return *sms_.at(k); }
  // The crossbar's source ports: 2 per SM, 3 with a texture cache (tests).
  uint32_t crossbar_sources() const { return xbar_.num_sources(); }
  // Deepest reconvergence stack on any SM since the last call (resets them):
  // the run report's per-kernel max_stack_depth.
  uint32_t take_max_stack_depth();

 private:
  // Runs the started kernel to the end; `ctas_before`: CTAs done by earlier kernels.
  void simulate(uint64_t ctas_before, uint64_t ctas_total);

  MachineConfig cfg_;
  stats::Registry& stats_;
  trace::Waveform* waveform_;
  trace::Progress* progress_;
  CtaDispatchUnit dispatcher_;
  std::vector<std::unique_ptr<sm::Core>> sms_;
  mem::Crossbar xbar_;
  std::vector<std::unique_ptr<mem::CacheModule>> l2_;
  mem::DramModule dram_;
  MemoryPort memory_port_;
  uint64_t kernel_start_ = 0;  // cycle of the last start_kernel()
  uint64_t kernel_ctas_ = 0, ctas_before_ = 0;
};

}  // namespace simt::gpu
