#include "tbc/thread_compactor_unit.h"

#include <stdexcept>

#include "config/param_registry.h"
#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::tbc {

void ThreadCompactorParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".compactor_queue", queue,
        "block-wide masks the thread compactor holds, the one being compacted included", 1, 1024);
}

void ThreadCompactorParams::validate(const std::string& prefix) const {
  if (queue < 1 || queue > 1024) throw input_error("option " + prefix + ".compactor_queue: must be 1..1024");
}

ThreadCompactorUnit::ThreadCompactorUnit(sc_core::sc_module_name name, const ThreadCompactorParams& p,
                                         stats::Registry& reg, const std::string& stats_name,
                                         trace::Waveform* waveform)
    : sc_core::sc_module(name),
      in("in", this, &ThreadCompactorUnit::on_request),
      out("out"),
      p_(p),
      requests_(reg.counter(stats_name + ".requests", "block-wide masks accepted for compaction")),
      warps_(reg.counter(stats_name + ".warps_generated", "compacted warps handed to the warp buffer")),
      busy_(reg.counter(stats_name + ".busy_cycles", "cycles a generated warp was offered (refused ones included)")) {
  p_.validate("tbc");
  if (waveform && waveform->enabled()) {
    sig_valid_ = waveform->signal<bool>(stats_name + ".out_valid", false);
    sig_cta_ = waveform->signal<uint32_t>(stats_name + ".out_cta", 0);
    sig_pc_ = waveform->maybe_signal(stats_name + ".out_pc");  // 'x' when no warp
    sig_mask_ = waveform->signal<uint64_t>(stats_name + ".out_mask", 0);
    if (sig_valid_ || sig_cta_ || sig_pc_ || sig_mask_) wf_ = waveform;
  }
  attach_to_clock(false);
}

void ThreadCompactorUnit::on_request(sm::CompactRequest& r, sc_core::sc_time&) {
  const uint64_t now = util::now_cycle();
  const size_t held = q_.size() + (popped_cycle_ == now ? 1 : 0);
  if (held >= p_.queue) return;  // full: the sender retries
  // A mask without threads would yield no warp and never leave the queue.
  if (ThreadCompactor::count_warps(r.mask, r.threads, r.warp_size, r.compact) == 0)
    throw std::logic_error(std::string(name()) + ": compaction request without a thread (CTA " +
                           std::to_string(r.cta) + ", pc " + std::to_string(r.pc) + ")");
  r.accepted = true;
  q_.push_back({r, now + 1});
  ++requests_;
  wake_next();
}

bool ThreadCompactorUnit::next_warp(uint64_t now) {
  if (!generating_) {
    if (q_.empty() || q_.front().ready_at > now) return false;
    const sm::CompactRequest& r = q_.front().req;
    gen_.set_compacting(r.compact);
    gen_.start(r.mask, r.threads, r.warp_size);
    generating_ = true;
    index_ = 0;
  }
  const sm::CompactRequest& r = q_.front().req;
  CompactedWarp cw;
  if (!gen_.next(cw)) throw std::logic_error(std::string(name()) + ": request ran out of warps");
  warp_ = sm::GeneratedWarp{};
  warp_.cta = r.cta;
  warp_.pc = r.pc;
  warp_.mask = cw.mask;
  warp_.index = index_++;
  warp_.last = !gen_.busy();
  have_warp_ = true;
  return true;
}

void ThreadCompactorUnit::show(uint64_t now, bool valid) {
  // Written only by this process; values outside the window are skipped.
  shown_ = valid;
  if (!wf_ || !wf_->in_window(now)) return;
  uint64_t lanes = 0;
  if (valid) {
    const uint32_t w = q_.front().req.warp_size;
    warp_.mask.for_each([&](uint32_t t) { lanes |= uint64_t{1} << (t % w); });
  }
  if (sig_valid_) sig_valid_->write(valid);
  if (sig_cta_) sig_cta_->write(valid ? warp_.cta : 0);
  if (sig_pc_) {
    if (valid)
      sig_pc_->set(warp_.pc);
    else
      sig_pc_->set_undefined();
  }
  if (sig_mask_) sig_mask_->write(lanes);
}

void ThreadCompactorUnit::on_cycle(uint64_t now) {
  ++activations_;

  bool sent = false;
  if (have_warp_ || next_warp(now)) {
    ++busy_;
    sm::GeneratedWarp g = warp_;
    g.accepted = false;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(g, t);
    if (g.accepted) {
      sent = true;
      have_warp_ = false;
      ++warps_;
      show(now, true);
      if (warp_.last) {
        q_.pop_front();
        popped_cycle_ = now;
        generating_ = false;
      }
    }
  }
  if (!sent && shown_) show(now, false);

  if (have_warp_ || generating_ || !q_.empty() || shown_) wake_next();
  // else asleep until a request arrives
}

}  // namespace simt::tbc
