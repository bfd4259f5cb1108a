// The GPU's CTA dispatcher as a block: hands the CTAs of the running kernel
// to the SMs over packet sockets as each SM's limits allow (CtaDispatcher
// decides), and takes their completions back. The host side starts a
// kernel with start_kernel(); the kernel is finished when every CTA is done.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "gpu/cta_dispatcher.h"
#include "sm/packets.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "util/packet_socket.h"

namespace simt::gpu {

class CtaDispatchUnit : public sc_core::sc_module, private util::Clocked {
 public:
  using LaunchSocket = util::PacketInitiator<CtaDispatchUnit, sm::CtaLaunch>;
  using DoneSocket = util::PacketTarget<CtaDispatchUnit, sm::CtaDone>;

  CtaDispatchUnit(sc_core::sc_module_name name, uint32_t num_sms, const SmLimits& limits,
                  stats::Registry& stats);

  LaunchSocket& launch(uint32_t sm) { return *launch_[sm]; }
  DoneSocket& done(uint32_t sm) { return *done_[sm]; }

  // Starts dispatching `kernel`'s CTAs (call between sc_start runs). Throws
  // simt::Error(BadInput) if one CTA can never fit on an SM.
  void start_kernel(std::shared_ptr<const sm::KernelContext> kernel, const CtaFootprint& cta);
  bool kernel_finished() const { return !kernel_ || (done_q_.empty() && dispatcher_.finished()); }
  uint64_t ctas_done() const { return ctas_done_; }
  uint32_t occupancy() const { return dispatcher_.max_resident_per_sm(); }

 private:
  void on_cycle(uint64_t now) override;  // run by util::Clock
  void on_done(sm::CtaDone& d, sc_core::sc_time&);
  func::Dim3 ctaid_of(uint64_t index) const;

  std::vector<std::unique_ptr<LaunchSocket>> launch_;
  std::vector<std::unique_ptr<DoneSocket>> done_;
  CtaDispatcher dispatcher_;
  std::shared_ptr<const sm::KernelContext> kernel_;
  std::vector<std::optional<uint64_t>> pending_;  // reserved for an SM, not yet accepted
  // Completions as they arrive (SM, cycle): their resources return at the
  // next cycle's tick, so dispatch never depends on SystemC's process order.
  std::vector<std::pair<uint32_t, uint64_t>> done_q_;
  uint64_t ctas_done_ = 0;
  stats::Counter& launched_;
  stats::Counter& refused_;
};

}  // namespace simt::gpu
