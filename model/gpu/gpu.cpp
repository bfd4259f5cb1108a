#include "gpu/gpu.h"

#include "gpu/core_factory.h"

#include <algorithm>
#include <stdexcept>

#include "trace/progress.h"
#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::gpu {

Gpu::Gpu(sc_core::sc_module_name name, const MachineConfig& cfg, stats::Registry& stats,
         trace::Waveform* waveform, trace::WarpTrace* warp_trace, trace::Progress* progress)
    : sc_core::sc_module(name),
      memory_socket("memory"),
      cfg_(cfg),
      stats_(stats),
      waveform_(waveform),
      progress_(progress),
      dispatcher_("dispatcher", cfg.num_sms, cfg.limits, stats),
      xbar_("xbar", cfg.xbar, (has_texture_cache(cfg) ? 3 : 2) * cfg.num_sms, stats, "xbar", waveform),
      dram_("dram", cfg.dram, stats, "dram", waveform),
      memory_port_("memory_port", stats, "memory_port") {
  memory_port_.socket.bind(memory_socket);  // hierarchical: the port's socket is the GPU's
  // Crossbar sources, k per SM: k*i is SM i's L1I, k*i+1 its L1D and, on
  // cores with a texture cache (k = 3), k*i+2 its L1T. Round robin grants
  // the first contender at or after the last winner's successor, so L1T
  // ports that never send leave every other grant as with k = 2.
  const uint32_t k = xbar_.num_sources() / cfg.num_sms;
  for (uint32_t i = 0; i < cfg.num_sms; ++i) {
    auto s = make_core(cfg_, stats, i, waveform, warp_trace);
    dispatcher_.launch(i).bind(s->launch_socket());
    s->done_socket().bind(dispatcher_.done(i));
    s->instruction_port().socket.bind(xbar_.source_port(k * i).socket);
    s->data_port().socket.bind(xbar_.source_port(k * i + 1).socket);
    mem::MemRequester* tex = s->texture_port();
    if ((tex != nullptr) != (k == 3))
      throw std::logic_error("gpu: core " + std::to_string(i) + " disagrees with has_texture_cache()");
    if (tex) tex->socket.bind(xbar_.source_port(k * i + 2).socket);
    sms_.push_back(std::move(s));
  }
  for (uint32_t p = 0; p < cfg.dram.channels; ++p) {
    mem::CachePortParams pp = cfg.l2_port;
    pp.source = p;
    auto l2 = std::make_unique<mem::CacheModule>(("l2_" + std::to_string(p)).c_str(), cfg.l2, pp, stats,
                                                 "l2." + std::to_string(p), waveform);
    l2->index_within_partition(cfg.dram.interleave, cfg.dram.channels);
    xbar_.partition_port(p).socket.bind(l2->up.socket);
    l2->down.socket.bind(dram_.channel_port(p).socket);
    l2_.push_back(std::move(l2));
  }
}

uint64_t Gpu::run_kernel(std::shared_ptr<const sm::KernelContext> kernel, const CtaFootprint& cta) {
  start_kernel(std::move(kernel), cta);
  simulate_kernel();
  return finish_kernel();
}

void Gpu::start_kernel(std::shared_ptr<const sm::KernelContext> kernel, const CtaFootprint& cta) {
  // A kernel a core cannot run is refused here, outside the simulation (sm/core.h). Every core is
  // built from the same machine config, so one answers for all.
  sms_.front()->check_kernel(kernel);
  kernel_start_ = util::now_cycle();
  kernel_ctas_ = kernel->geom.ctas();
  ctas_before_ = dispatcher_.ctas_done();
  dispatcher_.start_kernel(std::move(kernel), cta);
  if (waveform_) waveform_->kick();
}

void Gpu::simulate_kernel() { simulate(ctas_before_, kernel_ctas_); }  // returns when every block is idle

uint64_t Gpu::finish_kernel() {
  const uint64_t start = kernel_start_;
  for (const auto& s : sms_) s->rethrow_fault();
  // Units that went idle early still get their time series up to the end.
  for (const auto& s : sms_) s->sample_until(util::now_cycle());
  if (!dispatcher_.kernel_finished())
    throw kernel_fault("the timing simulation stopped with " + std::to_string(dispatcher_.ctas_done()) +
                       " CTAs done and the kernel unfinished (every block idle: a deadlock)");
  return util::now_cycle() - start;
}

uint32_t Gpu::take_max_stack_depth() {
  uint32_t depth = 0;
  for (const auto& s : sms_) depth = std::max(depth, s->take_max_stack_depth());
  return depth;
}

}  // namespace simt::gpu

namespace simt::gpu {

// Runs until every block is idle. With progress lines on, in slices of at
// least 64K cycles that stop at their last event (SC_EXIT_ON_STARVATION),
// so the end time is the same as one sc_start(); the wall clock is checked
// between slices.
void Gpu::simulate(uint64_t ctas_before, uint64_t ctas_total) {
  // Every process of this netlist follows the clock's cycle, so the clock may
  // run ahead of SystemC's time stamp; a waveform needs SystemC to see every
  // cycle (its signals change in update phases).
  const bool run_ahead = !(waveform_ && waveform_->enabled());
  util::Clock& clock = util::Clock::get();
  struct RunAhead {  // off again after this run, also when it throws
    util::Clock& c;
    ~RunAhead() { c.set_run_ahead(0); }
  } off{clock};
  if (!progress_ || !progress_->enabled()) {
    clock.set_run_ahead(run_ahead ? ~uint64_t{0} : 0);
    sc_core::sc_start();
    return;
  }
  constexpr uint64_t kSlice = 65536;
  for (;;) {
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED || !sc_core::sc_pending_activity()) return;
    // A slice ends at its last event, not at its end time; when the next
    // event lies beyond a whole slice (everything asleep), reach exactly it.
    const sc_core::sc_time slice = std::max(util::cycles(kSlice), sc_core::sc_time_to_pending_activity());
    // The clock stops running ahead at the slice's end, so the wall clock
    // is checked between slices.
    clock.set_run_ahead(run_ahead ? util::now_cycle() + slice.value() / util::cycle_time().value() : 0);
    sc_core::sc_start(slice, sc_core::SC_EXIT_ON_STARVATION);
    if (progress_->due())
      progress_->report(dispatcher_.ctas_done() - ctas_before, ctas_total, util::now_cycle(),
                        stats_.sum("sm*.thread_instructions"));
  }
}

}  // namespace simt::gpu
