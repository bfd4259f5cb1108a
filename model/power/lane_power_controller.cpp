// sc_spawn needs this before the first <systemc>.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "power/lane_power_controller.h"

#include <algorithm>
#include <stdexcept>

#include "trace/waveform.h"
#include "util/cycle.h"

namespace simt::power {

namespace {
const char* const kType[2] = {"int", "fp"};
}

LanePowerController::Counters LanePowerController::counters(stats::Registry& reg, const std::string& p) {
  Counters c;
  c.busy = &reg.counter(p + ".busy_cycles", "lane-cycles ON with work in the pipeline");
  c.idle = &reg.counter(p + ".idle_cycles", "lane-cycles ON and empty (idle detect, or idle periods not gated)");
  c.gated_uncomp = &reg.counter(p + ".gated_uncompensated_cycles",
                                "lane-cycles gated within power.bet cycles of the gating (not yet paid back)");
  c.gated_comp = &reg.counter(p + ".gated_compensated_cycles", "lane-cycles gated beyond power.bet cycles");
  c.waking = &reg.counter(p + ".waking_cycles", "lane-cycles waking up");
  c.events = &reg.counter(p + ".gating_events", "times a lane gated");
  c.delayed = &reg.counter(p + ".delayed_issues", "lane wake-ups that made an issue wait");
  c.lane_cycles = &reg.counter(p + ".lane_cycles", "lanes x cycles: what leaks without gating");
  return c;
}

LanePowerController::LanePowerController(sc_core::sc_module_name name, const PowerParams& p, uint32_t lanes,
                                         stats::Registry& reg, const std::string& stats_name,
                                         const std::string& sm_stats_name, trace::Waveform* waveform,
                                         uint64_t series_interval)
    : sc_core::sc_module(name),
      in("in", this, &LanePowerController::on_request),
      timing_(GateTiming::from(p)),
      lanes_(lanes),
      dsize_(p.domain_lanes(lanes)),
      domains_((lanes + dsize_ - 1) / dsize_) {
  p.validate();
  if (lanes < 1 || lanes > 64) throw std::logic_error("lane power controller: lanes must be 1..64");
  // Domains made only of lanes 2 and 3 of 4-lane clusters: those folding idles.
  if (lanes % 4 == 0)
    for (uint32_t d = 0; d < domains_; ++d) {
      bool upper = true;
      for (uint32_t l = d * dsize_; l < d * dsize_ + lanes_in(d); ++l) upper = upper && l % 4 >= 2;
      if (upper) upper_domains_ |= uint64_t{1} << d;
    }
  for (int fp = 0; fp < 2; ++fp) {
    gates_[fp].assign(domains_, LaneGate(timing_));
    on_until_[fp].assign(domains_, 0);
    const std::string u = stats_name + "." + kType[fp], s = sm_stats_name + "." + kType[fp];
    unit_[fp] = counters(reg, u);
    sm_[fp] = counters(reg, s);
    auto hist = [&](const std::string& what, const std::string& doc) {
      return &reg.histogram(u + "." + what + "_by_lane", 0, 1, lanes, doc + ", per lane (bin = lane)");
    };
    by_lane_[fp].busy = hist("busy_cycles", "cycles ON with work");
    by_lane_[fp].idle = hist("idle_cycles", "cycles ON and empty");
    by_lane_[fp].gated_uncomp = hist("gated_uncompensated_cycles", "cycles gated within BET");
    by_lane_[fp].gated_comp = hist("gated_compensated_cycles", "cycles gated beyond BET");
    by_lane_[fp].waking = hist("waking_cycles", "cycles waking");
    by_lane_[fp].events = hist("gating_events", "gatings");
    if (series_interval) {
      for (uint32_t l = 0; l < lanes; ++l)
        series_[fp].push_back(&reg.series(u + ".lane" + std::to_string(l) + "_gated", series_interval,
                                          "cycles this lane was gated in each interval"));
      gated_at_sample_[fp].assign(domains_, 0);
    }
    sig_[fp].assign(lanes, nullptr);
    if (waveform && waveform->enabled())
      for (uint32_t l = 0; l < lanes; ++l) {
        sig_[fp][l] = waveform->signal<uint8_t>(u + ".lane" + std::to_string(l) + "_state", 0);
        if (sig_[fp][l]) wf_ = waveform;
      }
  }
  if (series_interval) {
    interval_ = series_interval;
    next_sample_ = series_interval;
  }
  if (wf_) {
    sc_core::sc_spawn_options o;
    o.spawn_method();
    o.dont_initialize();
    o.set_sensitivity(&wf_->clock()->posedge_event());
    sc_core::sc_spawn([this] { write_states(); }, "lane_states", &o);
  }
}

void LanePowerController::write_states() {
  const uint64_t now = util::now_cycle();
  if (!wf_->in_window(now)) return;
  flush_all();
  for (int fp = 0; fp < 2; ++fp)
    for (uint32_t d = 0; d < domains_; ++d) {
      const uint8_t code = static_cast<uint8_t>(gates_[fp][d].state(now));
      for (uint32_t l = d * dsize_; l < d * dsize_ + lanes_in(d); ++l)
        if (sig_[fp][l]) sig_[fp][l]->write(code);
    }
}

uint32_t LanePowerController::lanes_in(uint32_t d) const { return std::min(dsize_, lanes_ - d * dsize_); }

uint64_t LanePowerController::domains_of(uint64_t lanes) const {
  if (dsize_ == 1) return lanes;
  uint64_t d = 0;
  const uint64_t group = dsize_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << dsize_) - 1;
  for (uint32_t i = 0; i < domains_; ++i)
    if ((lanes >> (i * dsize_)) & group) d |= uint64_t{1} << i;
  return d;
}

void LanePowerController::take_samples(uint64_t now) {
  flush_all();
  for (; next_sample_ <= now; next_sample_ += interval_)
    for (int fp = 0; fp < 2; ++fp)
      for (uint32_t d = 0; d < domains_; ++d) {
        const uint64_t gated = gates_[fp][d].totals(next_sample_).gated();
        const double in_interval = static_cast<double>(gated - gated_at_sample_[fp][d]);
        gated_at_sample_[fp][d] = gated;
        for (uint32_t l = d * dsize_; l < d * dsize_ + lanes_in(d); ++l) series_[fp][l]->sample(in_interval);
      }
}

void LanePowerController::flush(int fp, uint64_t doms) {
  Batch& b = batch_[fp];
  for (uint64_t m = b.domains & doms; m; m &= m - 1) gates_[fp][__builtin_ctzll(m)].extend(b.drain);
  b.domains &= ~doms;
  if (!b.domains) b.drain = 0;
}

void LanePowerController::use(int fp, uint64_t doms, uint64_t in, uint64_t drain) {
  Batch& b = batch_[fp];
  if (b.domains && b.drain <= in) flush(fp, b.domains);  // the batch drained: its domains may idle now
  flush(fp, b.domains & ~doms);                            // the batch keeps only domains this use has
  // The batch's domains are busy at `in` (their drain >= b.drain > in): only
  // the shared drain moves. The others take the use one by one, and join
  // when this use's drain is the batch's latest.
  known_[fp].used(doms);
  std::vector<LaneGate>& g = gates_[fp];
  const uint64_t rest = doms & ~b.domains;
  for (uint64_t m = rest; m; m &= m - 1) g[__builtin_ctzll(m)].use(in, drain);
  if (drain >= b.drain) {
    b.drain = drain;
    b.domains |= rest;
  }
}

void LanePowerController::on_request(sm::LaneUseRequest& r, sc_core::sc_time&) {
  if (!r.pass_lanes && r.passes) throw std::logic_error(std::string(name()) + ": a lane request without its lanes");
  const int fp = r.fp ? 1 : 0;
  uint64_t all = 0;
  for (uint32_t k = 0; k < r.passes; ++k) all |= r.pass_lanes[k];
  const uint64_t doms = domains_of(all);
  Known& known = known_[fp];
  const bool wake = r.kind == sm::LaneUseRequest::Wake;
  r.changed = false;
  r.until_woken = false;
  if (!wake && (doms & known.gated)) {  // refused at once: nothing changes
    r.accepted = false;
    r.ready_at = r.now + 1;
    r.until_woken = true;
    return;
  }
  sample_until(r.now);  // boundaries passed since the last request, before anything changes
  std::vector<LaneGate>& g = gates_[fp];
  Batch& b = batch_[fp];
  if (b.domains && b.drain <= r.now) flush(fp, b.domains);
  if (wake) {
    flush(fp, doms);
    known.woken(doms);
    r.ready_at = r.now;
    bool changed = false;
    for (uint64_t m = doms; m; m &= m - 1) {
      const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(m));
      on_until_[fp][i] = 0;
      r.ready_at = std::max(r.ready_at, g[i].wake(r.now, &changed));
    }
    for (uint64_t m = doms; m; m &= m - 1) changed = g[__builtin_ctzll(m)].hold(r.ready_at) || changed;
    r.accepted = true;
    r.changed = changed;
    return;
  }
  // The batch's domains are busy, so ON; the others are asked, up to the
  // first that is not ON (the Wake that follows a refusal tells when).
  // (A gated domain with no wake-up delay is ready at once.)
  bool on = true;
  std::vector<uint64_t>& on_until = on_until_[fp];
  for (uint64_t m = doms & ~b.domains; on && m; m &= m - 1) {
    const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(m));
    if (r.now < on_until[i]) continue;
    const LaneGate& d = g[i];
    if (d.on_at(r.now)) {
      on_until[i] = d.off_at();
      continue;
    }
    on = d.ready_at(r.now) == r.now;
    if (!on && timing_.wakeup > 0 && d.gated_at(r.now)) {
      known.gated |= m & -m;
      r.until_woken = true;
    }
  }
  r.accepted = on;
  r.ready_at = on ? r.now : r.now + 1;
  if (!on) return;
  r.changed = true;
  for (uint32_t k = 0; k < r.passes; ++k) {
    const uint64_t in = r.now + uint64_t{k} * r.ii;
    use(fp, domains_of(r.pass_lanes[k]), in, in + r.latency);
  }
  // Eager gating: folding leaves the high pair of every cluster idle.
  if (r.folded && timing_.eager) {
    const uint64_t ask = upper_domains_ & ~known.asked_early;
    flush(fp, ask);
    for (uint64_t m = ask; m; m &= m - 1) {
      on_until_[fp][__builtin_ctzll(m)] = 0;
      if (g[__builtin_ctzll(m)].gate_early(r.now)) known.asked_early |= m & -m;
    }
  }
}

LaneState LanePowerController::state(bool fp, uint32_t lane, uint64_t now) const {
  const uint32_t d = lane / dsize_;
  LaneGate g = gates_[fp ? 1 : 0].at(d);
  const Batch& b = batch_[fp ? 1 : 0];
  if (b.domains >> d & 1) g.extend(b.drain);
  return g.state(now);
}

void LanePowerController::settle_stats(uint64_t now) {
  sample_until(now);
  flush_all();
  for (int fp = 0; fp < 2; ++fp) {
    GateTotals sum;
    ByLane& h = by_lane_[fp];
    for (uint32_t d = 0; d < domains_; ++d) {
      const GateTotals t = gates_[fp][d].totals(now);
      for (uint32_t l = d * dsize_; l < d * dsize_ + lanes_in(d); ++l) {
        sum += t;
        h.busy->bins[l] = t.busy;
        h.idle->bins[l] = t.idle;
        h.gated_uncomp->bins[l] = t.gated_uncomp;
        h.gated_comp->bins[l] = t.gated_comp;
        h.waking->bins[l] = t.waking;
        h.events->bins[l] = t.events;
      }
    }
    // Unit counters hold the totals; the SM's sums take this unit's change
    // (modular arithmetic: an ideal-mode idle period may move from idle to
    // gated between two settles).
    const GateTotals& old = reported_[fp];
    auto put = [](stats::Counter* unit, stats::Counter* sm, uint64_t now_v, uint64_t old_v) {
      unit->value = now_v;
      sm->value += now_v - old_v;
    };
    put(unit_[fp].busy, sm_[fp].busy, sum.busy, old.busy);
    put(unit_[fp].idle, sm_[fp].idle, sum.idle, old.idle);
    put(unit_[fp].gated_uncomp, sm_[fp].gated_uncomp, sum.gated_uncomp, old.gated_uncomp);
    put(unit_[fp].gated_comp, sm_[fp].gated_comp, sum.gated_comp, old.gated_comp);
    put(unit_[fp].waking, sm_[fp].waking, sum.waking, old.waking);
    put(unit_[fp].events, sm_[fp].events, sum.events, old.events);
    put(unit_[fp].delayed, sm_[fp].delayed, sum.delayed, old.delayed);
    put(unit_[fp].lane_cycles, sm_[fp].lane_cycles, sum.cycles(), old.cycles());
    reported_[fp] = sum;
  }
}

}  // namespace simt::power
