#include "power/lane_gate.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace simt::power {

const char* state_name(LaneState s) {
  switch (s) {
    case LaneState::On: return "on";
    case LaneState::IdleDetect: return "idle_detect";
    case LaneState::GatedUncompensated: return "gated_uncompensated";
    case LaneState::GatedCompensated: return "gated_compensated";
    case LaneState::Waking: return "waking";
  }
  return "?";
}

GateTotals& GateTotals::operator+=(const GateTotals& o) {
  busy += o.busy;
  idle += o.idle;
  gated_uncomp += o.gated_uncomp;
  gated_comp += o.gated_comp;
  waking += o.waking;
  events += o.events;
  delayed += o.delayed;
  return *this;
}

GateTiming GateTiming::from(const PowerParams& p) {
  GateTiming t;
  t.mode = p.mode();
  t.idle_detect = p.idle_detect;
  t.bet = p.bet;
  t.wakeup = p.wakeup;
  t.eager = p.eager;
  t.blackout = p.blackout;
  return t;
}

void LaneGate::classify_idle(uint64_t s, uint64_t e, GateTotals& to) const {
  if (e <= s) return;
  const uint64_t len = e - s;
  uint64_t gated = 0;
  switch (t_.mode) {
    case Gating::None: break;
    case Gating::Ideal: gated = len >= t_.bet ? len : 0; break;
    case Gating::Conventional: gated = e > gate_at(s) ? e - gate_at(s) : 0; break;
  }
  to.idle += len - gated;
  if (gated == 0) return;
  ++to.events;
  const uint64_t uncomp = std::min<uint64_t>(gated, t_.bet);
  to.gated_uncomp += uncomp;
  to.gated_comp += gated - uncomp;
}

uint64_t LaneGate::ready_at(uint64_t now) const {
  if (t_.mode != Gating::Conventional) return now;
  if (now < acc_) return acc_;  // waking
  const uint64_t gate = gate_at(std::max(acc_, drain_));
  if (now < gate || (t_.wakeup == 0 && !t_.blackout)) return now;
  const uint64_t start = t_.blackout ? std::max(now, gate + t_.bet) : now;
  return start + t_.wakeup;
}

uint64_t LaneGate::wake(uint64_t now, bool* started) {
  const uint64_t ready = ready_at(now);
  if (ready <= now || now < acc_) return ready;  // ON, or already waking
  if (started) *started = true;
  const uint64_t start = ready - t_.wakeup;
  done_.busy += drain_ > acc_ ? drain_ - acc_ : 0;
  classify_idle(std::max(acc_, drain_), start, done_);
  done_.waking += t_.wakeup;
  ++done_.delayed;
  acc_ = drain_ = ready;  // ON and empty from `ready`: idle detection starts again
  refresh();
  return ready;
}

void LaneGate::start_busy(uint64_t in, uint64_t drain) {
  if (in < acc_)
    throw std::logic_error("lane power: a pass enters a domain at cycle " + std::to_string(in) +
                           " before it is ON (" + std::to_string(acc_) + ")");
  done_.busy += drain_ > acc_ ? drain_ - acc_ : 0;
  classify_idle(std::max(acc_, drain_), in, done_);
  acc_ = in;
  drain_ = std::max(in, drain);
  refresh();
}

LaneState LaneGate::state(uint64_t now) const {
  if (now < acc_)  // woken: gated until the wake-up starts (blackout), then waking
    return now + t_.wakeup >= acc_ ? LaneState::Waking : LaneState::GatedUncompensated;
  if (now < drain_) return LaneState::On;
  if (t_.mode != Gating::Conventional) return LaneState::IdleDetect;  // never gated in advance
  const uint64_t gate = gate_at(std::max(acc_, drain_));
  if (now < gate) return LaneState::IdleDetect;
  return now - gate < t_.bet ? LaneState::GatedUncompensated : LaneState::GatedCompensated;
}

GateTotals LaneGate::totals(uint64_t now) const {
  GateTotals t = done_;
  if (now < acc_) {  // mid wake-up: what wake() committed reaches past now
    const uint64_t ahead = acc_ - now;
    const uint64_t waking = std::min<uint64_t>(ahead, t_.wakeup);
    t.waking -= waking;
    t.gated_uncomp -= ahead - waking;  // blackout: still gated, within BET
    return t;
  }
  t.busy += std::min(drain_, now) > acc_ ? std::min(drain_, now) - acc_ : 0;
  classify_idle(std::max(acc_, drain_), now, t);
  return t;
}

}  // namespace simt::power
