#include "gpu/cta_dispatch_unit.h"

#include "util/cycle.h"

namespace simt::gpu {

CtaDispatchUnit::CtaDispatchUnit(sc_core::sc_module_name name, uint32_t num_sms, const SmLimits& limits,
                                 stats::Registry& stats)
    : sc_core::sc_module(name),
      dispatcher_(num_sms, limits),
      pending_(num_sms),
      launched_(stats.counter("dispatcher.ctas_launched", "CTAs handed to SMs")),
      refused_(stats.counter("dispatcher.launch_refusals", "cycles an SM refused a CTA it had room for")) {
  for (uint32_t i = 0; i < num_sms; ++i) {
    launch_.push_back(std::make_unique<LaunchSocket>(("launch_" + std::to_string(i)).c_str()));
    done_.push_back(std::make_unique<DoneSocket>(("done_" + std::to_string(i)).c_str(), this, &CtaDispatchUnit::on_done));
  }
  attach_to_clock(false);
}

void CtaDispatchUnit::start_kernel(std::shared_ptr<const sm::KernelContext> kernel, const CtaFootprint& cta) {
  dispatcher_.start_kernel(kernel->geom.ctas(), cta);  // throws if a CTA can never fit
  kernel_ = std::move(kernel);
  for (auto& p : pending_) p.reset();
  wake_now();
}

func::Dim3 CtaDispatchUnit::ctaid_of(uint64_t index) const {
  const func::Dim3& g = kernel_->geom.grid;
  return {{static_cast<uint32_t>(index % g[0]), static_cast<uint32_t>((index / g[0]) % g[1]),
           static_cast<uint32_t>(index / (uint64_t{g[0]} * g[1]))}};
}

void CtaDispatchUnit::on_cycle(uint64_t now) {
  size_t kept = 0;
  for (const auto& [sm, cycle] : done_q_) {
    if (cycle < now) {
      dispatcher_.cta_done(sm);
      ++ctas_done_;
    } else {
      done_q_[kept++] = {sm, cycle};
    }
  }
  done_q_.resize(kept);
  if (!done_q_.empty()) wake_next();
  if (!kernel_ || dispatcher_.all_dispatched()) {
    bool any_pending = false;
    for (const auto& p : pending_) any_pending = any_pending || p.has_value();
    if (!any_pending) return;  // sleep until a completion or a new kernel
  }
  // One CTA per SM per cycle, as far as limits allow.
  bool progress = false;  // a CTA went out or waits for an SM to take it
  for (uint32_t sm = 0; sm < pending_.size(); ++sm) {
    if (!pending_[sm]) pending_[sm] = dispatcher_.try_dispatch(sm);
    if (!pending_[sm]) continue;
    progress = true;
    sm::CtaLaunch l;
    l.kernel = kernel_;
    l.cta_index = *pending_[sm];
    l.ctaid = ctaid_of(l.cta_index);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    (*launch_[sm])->b_transport(l, t);
    if (l.accepted) {
      pending_[sm].reset();
      ++launched_;
    } else {
      ++refused_;
    }
  }
  // Every SM full: try_dispatch only changes its answer when a CTA finishes
  // (on_done) or a kernel starts, and both wake this block.
  if (progress) wake_next();
}

void CtaDispatchUnit::on_done(sm::CtaDone& d, sc_core::sc_time&) {
  done_q_.push_back({d.sm, util::now_cycle()});
  d.accepted = true;
  wake_next();
}

}  // namespace simt::gpu
