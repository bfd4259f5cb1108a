#include "gpu/gpu.h"

#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::gpu {

Gpu::Gpu(sc_core::sc_module_name name, const MachineConfig& cfg, stats::Registry& stats,
         trace::Waveform* waveform)
    : sc_core::sc_module(name),
      memory_socket("memory"),
      cfg_(cfg),
      waveform_(waveform),
      dispatcher_("dispatcher", cfg.num_sms, cfg.limits, stats),
      xbar_("xbar", cfg.xbar, 2 * cfg.num_sms, stats, "xbar"),
      dram_("dram", cfg.dram, stats, "dram"),
      memory_port_("memory_port", stats, "memory_port") {
  memory_port_.socket.bind(memory_socket);  // hierarchical: the port's socket is the GPU's
  // Crossbar sources: 2*i is SM i's L1I, 2*i+1 its L1D.
  for (uint32_t i = 0; i < cfg.num_sms; ++i) {
    auto s = std::make_unique<sm::Sm>(("sm" + std::to_string(i)).c_str(), cfg.sm, stats, i);
    dispatcher_.launch(i).bind(s->issue.launch);
    s->issue.done.bind(dispatcher_.done(i));
    s->l1i.down.socket.bind(xbar_.source_port(2 * i).socket);
    s->l1d.down.socket.bind(xbar_.source_port(2 * i + 1).socket);
    s->set_tracing(waveform && waveform->enabled());
    sms_.push_back(std::move(s));
  }
  for (uint32_t p = 0; p < cfg.dram.channels; ++p) {
    mem::CachePortParams pp = cfg.l2_port;
    pp.source = p;
    auto l2 = std::make_unique<mem::CacheModule>(("l2_" + std::to_string(p)).c_str(), cfg.l2, pp, stats,
                                                 "l2." + std::to_string(p));
    xbar_.partition_port(p).socket.bind(l2->up.socket);
    l2->down.socket.bind(dram_.channel_port(p).socket);
    l2_.push_back(std::move(l2));
  }
}

uint64_t Gpu::run_kernel(std::shared_ptr<const sm::KernelContext> kernel, const CtaFootprint& cta) {
  const uint64_t start = util::now_cycle();
  dispatcher_.start_kernel(std::move(kernel), cta);
  if (waveform_) waveform_->kick();
  sc_core::sc_start();  // returns when every block is idle
  for (const auto& s : sms_) s->issue.rethrow_fault();
  if (!dispatcher_.kernel_finished())
    throw kernel_fault("the timing simulation stopped with " + std::to_string(dispatcher_.ctas_done()) +
                       " CTAs done and the kernel unfinished (every block idle: a deadlock)");
  return util::now_cycle() - start;
}

}  // namespace simt::gpu
