#include "sm/decode_unit.h"

#include "config/param_registry.h"
#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::sm {

void DecodeParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".latency", latency, "cycles an instruction spends in decode", 1, 1000);
  r.add(prefix + ".width", width, "instructions decoded per cycle", 1, 64);
}

void DecodeParams::validate(const std::string& prefix) const {
  if (latency < 1 || latency > 1000) throw input_error("option " + prefix + ".latency: must be 1..1000");
  if (width < 1 || width > 64) throw input_error("option " + prefix + ".width: must be 1..64");
}

DecodeUnit::DecodeUnit(sc_core::sc_module_name name, const DecodeParams& p, stats::Registry& reg,
                       const std::string& stats_name, trace::Waveform* waveform)
    : sc_core::sc_module(name),
      in("in", this, &DecodeUnit::on_fetched),
      out("out"),
      p_(p),
      cap_(size_t(p.width) * (p.latency + 1)),
      decoded_(reg.counter(stats_name + ".decoded", "instructions passed to the I-buffers")),
      stall_cycles_(reg.counter(stats_name + ".stall_cycles", "cycles a decoded instruction was refused by issue")),
      refused_(reg.counter(stats_name + ".refused", "instructions from fetch refused (queue full or width used)")) {
  p_.validate(stats_name);
  if (waveform && waveform->enabled()) {
    sig_warp_ = waveform->signal<int32_t>(stats_name + ".warp", -1);
    sig_pc_ = waveform->maybe_signal(stats_name + ".pc");
    sig_queue_ = waveform->signal<uint32_t>(stats_name + ".queue", 0);
    if (sig_warp_ || sig_pc_ || sig_queue_) wf_ = waveform;
  }
  attach_to_clock(false);
}

void DecodeUnit::on_fetched(FetchedInstr& fi, sc_core::sc_time&) {
  uint64_t now = util::now_cycle();
  if (in_cycle_ != now) {
    in_cycle_ = now;
    in_count_ = 0;
  }
  const size_t held = q_.size() + (popped_cycle_ == now ? popped_ : 0);
  if (held >= cap_ || in_count_ >= p_.width) {
    ++refused_;
    return;
  }
  ++in_count_;
  fi.accepted = true;
  Slot s;
  s.fi = fi;
  s.ready_at = now + p_.latency;
  q_.push_back(s);
  // Traced: look next cycle already, so the queue depth is recorded as it grows.
  wake_at(now + (wf_ ? 1 : p_.latency));
}

void DecodeUnit::on_cycle(uint64_t now) {
  ++activations_;

  bool refused = false;
  FetchedInstr passed;  // the last one passed on (kept only when traced)
  passed.warp = UINT32_MAX;
  for (uint32_t n = 0; n < p_.width && !q_.empty() && q_.front().ready_at <= now; ++n) {
    FetchedInstr fi = q_.front().fi;
    fi.accepted = false;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(fi, t);
    if (!fi.accepted) {
      refused = true;
      break;
    }
    if (wf_) passed = q_.front().fi;
    q_.pop_front();
    if (popped_cycle_ != now) {
      popped_cycle_ = now;
      popped_ = 0;
    }
    ++popped_;
    ++decoded_;
  }
  if (refused) ++stall_cycles_;

  if (wf_) {
    uint64_t at = UINT64_MAX;  // when the waveform needs this method again
    if (!wf_->in_window(now))
      at = now < wf_->window_start() ? wf_->window_start() : UINT64_MAX;
    else if (write_signals(passed.warp != UINT32_MAX ? &passed : nullptr))
      at = now + 1;
    if (at != UINT64_MAX && (q_.empty() || q_.front().ready_at > at)) {
      sleep_until(at);
      return;
    }
  }
  if (q_.empty()) return;  // asleep until an instruction arrives
  sleep_until(std::max(q_.front().ready_at, now + 1));
}

bool DecodeUnit::write_signals(const FetchedInstr* passed) {
  if (sig_warp_) sig_warp_->write(passed ? static_cast<int32_t>(passed->warp) : -1);
  if (sig_pc_) {
    if (passed)
      sig_pc_->set(passed->pc);
    else
      sig_pc_->set_undefined();
  }
  if (sig_queue_) sig_queue_->write(static_cast<uint32_t>(q_.size()));
  // While instructions are held, look every cycle so the queue depth stays exact.
  return passed || !q_.empty();
}

}  // namespace simt::sm
