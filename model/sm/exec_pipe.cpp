#include "sm/exec_pipe.h"

#include <algorithm>
#include <stdexcept>

#include "trace/waveform.h"
#include "util/cycle.h"

namespace simt::sm {

ExecPipe::ExecPipe(sc_core::sc_module_name name, const PipeParams& p, const OpLatencyTable& ops,
                   stats::Registry& reg, const std::string& stats_name, trace::Waveform* waveform)
    : sc_core::sc_module(name),
      in("in", this, &ExecPipe::on_issue),
      writeback("writeback"),
      power("power", p.units),
      unit_(p, ops, reg, stats_name),
      lane_activity_(p.units, 0),
      structural_stalls_(reg.counter(stats_name + ".structural_stalls",
                                     "issue attempts refused because every unit was busy")),
      wb_stall_cycles_(reg.counter(stats_name + ".writeback_stall_cycles",
                                   "cycles a due write-back was refused by issue")),
      reg_(reg),
      stats_name_(stats_name) {
  waveform_ = waveform;
  if (waveform && waveform->enabled()) {
    bool any = false;
    for (uint32_t u = 0; u < p.units; ++u) {
      sig_lanes_.push_back(waveform->signal<uint64_t>(stats_name + ".u" + std::to_string(u) + "_lanes", 0));
      any = any || sig_lanes_.back();
    }
    if (any) {
      wf_ = waveform;
      tracing_ = true;
    }
  }
  attach_to_clock(false);
}

void ExecPipe::set_lane_policy(std::unique_ptr<LaneMapPolicy> p) {
  lane_policy_ = std::move(p);
  if (!waveform_ || !waveform_->enabled() || !sig_map_.empty()) return;
  for (uint32_t u = 0; u < unit_.units(); ++u) {
    sig_map_.push_back(waveform_->signal<uint8_t>(stats_name_ + ".u" + std::to_string(u) + "_map", 0));
    if (sig_map_.back()) {
      wf_ = waveform_;
      tracing_ = true;
    }
  }
}

void ExecPipe::set_tracing(bool on) {
  tracing_ = on;
  if (!on) std::fill(lane_activity_.begin(), lane_activity_.end(), 0);
}

void ExecPipe::end_of_elaboration() {
  gated_ = power.size() > 0 && power[0].size() > 0;
  for (size_t u = 0; u < power.size(); ++u)
    if ((power[u].size() > 0) != gated_)
      throw std::logic_error("exec pipe " + std::string(name()) + ": bind a lane power controller to every unit or none");
  pass_lanes_.assign(max_lane_passes(64, unit_.lanes()), 0);
  unit_epoch_.assign(unit_.units(), 1);
  power_if_.clear();
  if (gated_)
    for (size_t u = 0; u < power.size(); ++u) power_if_.push_back(power[u].operator->());
  if (gated_)
    wakeup_stalls_ = &reg_.counter(stats_name_ + ".wakeup_stall_cycles",
                                   "issue attempts refused while the lanes they need wake up (power gating)");
}

ExecPipe::RefusalMemo* ExecPipe::find_memo(const IssuePacket& p, LaneMap map) {
  for (RefusalMemo& m : memos_)
    if (m.matches(p, map)) return &m;
  return nullptr;
}

ExecPipe::RefusalMemo& ExecPipe::new_memo(const IssuePacket& p, LaneMap map) {
  RefusalMemo* m = nullptr;
  for (RefusalMemo& e : memos_)
    if (e.packet == &p) m = &e;  // the latch's packet holds a new offer now
  if (!m) {
    m = &memos_[next_memo_];
    next_memo_ = (next_memo_ + 1) % memos_.size();
  }
  m->packet = &p;
  m->instr = p.instr;
  m->ticket = p.ticket;
  m->issue_cycle = p.issue_cycle;
  m->map = map;
  m->woken = PipelineUnit::kAnyUnit;
  m->wake_epoch = m->ready = 0;
  m->units.assign(unit_.units(), UnitMemo{});
  return *m;
}

uint32_t ExecPipe::power_unit(IssuePacket& p, uint64_t now, LaneMap map, OpTiming t) {
  RefusalMemo* m = find_memo(p, map);  // made at the first refusal
  auto memo = [&]() -> RefusalMemo& {
    if (!m) m = &new_memo(p, map);
    return *m;
  };
  LaneUseRequest r;
  bool described = false;
  auto request = [&](uint32_t u, LaneUseRequest::Kind kind) {
    if (!described) {  // only when some controller is asked (memo answers need no lanes)
      described = true;
      r.fp = p.instr->cls == ptx::InstrClass::Fp;
      r.now = now;
      r.passes = map_lanes(map, p.lanes, p.warp_width, unit_.lanes(), pass_lanes_.data());
      r.ii = t.ii;
      r.latency = t.latency + (lane_policy_ ? lane_policy_->extra_latency() : 0);
      r.pass_lanes = pass_lanes_.data();
      r.folded = folds(map);
    }
    r.kind = kind;
    r.accepted = false;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    power_if_[u]->b_transport(r, zero);
  };
  auto known = [&](uint32_t u) {  // a memo answer that still holds
    if (!m) return false;
    const UnitMemo& um = m->units[u];
    return um.epoch == unit_epoch_[u] && now < um.until;
  };
  uint32_t first_free = PipelineUnit::kAnyUnit;
  for (uint32_t u = 0; u < unit_.units(); ++u) {
    if (!unit_.unit_free(u, now)) continue;
    if (first_free == PipelineUnit::kAnyUnit) first_free = u;
    if (known(u)) {
#ifndef NDEBUG
      request(u, LaneUseRequest::TryUse);
      if (r.accepted || r.changed) memo_broken(u, now);
#endif
      continue;
    }
    request(u, LaneUseRequest::TryUse);
    if (r.accepted) {
      ++unit_epoch_[u];
      mapped_passes_ = r.passes;
      return u;
    }
    memo().units[u] = UnitMemo{unit_epoch_[u], r.until_woken ? ~uint64_t{0} : now + 1};
  }
  RefusalMemo& mm = memo();
  uint64_t ready = mm.ready;
  if (mm.woken == first_free && mm.wake_epoch == unit_epoch_[first_free] && now < mm.ready) {
#ifndef NDEBUG
    request(first_free, LaneUseRequest::Wake);
    if (r.ready_at != ready || r.changed) memo_broken(first_free, now);
#endif
  } else {
    request(first_free, LaneUseRequest::Wake);
    if (r.changed) ++unit_epoch_[first_free];
    ready = r.ready_at;
    mm.woken = first_free;
    mm.wake_epoch = unit_epoch_[first_free];
    mm.ready = ready;
    mm.units[first_free] = UnitMemo{unit_epoch_[first_free], ready};  // refuses until its lanes are ON
  }
  p.retry_at = std::max(ready, now + 1);
  p.refusals = wakeup_stalls_;
  return PipelineUnit::kAnyUnit;
}

void ExecPipe::memo_broken(uint32_t u, uint64_t now) const {
  throw std::logic_error("exec pipe " + std::string(name()) + ": at cycle " + std::to_string(now) +
                         ", unit " + std::to_string(u) + "'s lane controller answered differently from the refusal memo");
}

void ExecPipe::on_issue(IssuePacket& p, sc_core::sc_time&) {
  if (!p.instr) throw std::logic_error("exec pipe " + std::string(name()) + ": issue packet without an instruction");
  uint64_t now = util::now_cycle();
  if (!unit_.can_accept(now)) {
    ++structural_stalls_;
    p.retry_at = unit_.next_free(now);  // only an accept changes it, and only issue offers
    p.refusals = &structural_stalls_;
    return;
  }
  // SP instructions may move to other lanes (power techniques).
  const ptx::InstrClass cls = p.instr->cls;
  const bool sp = cls == ptx::InstrClass::Int || cls == ptx::InstrClass::Fp;
  const LaneMap map = lane_policy_ && sp ? lane_policy_->choose(cls, now) : LaneMap::Home;
  const uint32_t extra = lane_policy_ && sp ? lane_policy_->extra_latency() : 0;
  const OpTiming t = unit_.timing_for(*p.instr);
  uint32_t unit = PipelineUnit::kAnyUnit;
  if (gated_) {
    unit = power_unit(p, now, map, t);
    if (unit == PipelineUnit::kAnyUnit) {
      ++*wakeup_stalls_;
      return;
    }
  }
  // Lane bits come with the packet: threads keep their home lane (t % W)
  // in every warp formation (static, compacted, dynamic), unless the lane
  // map moves them.
  uint64_t done = unit_.accept(now, p.lanes, p.warp_width, t, unit, map, extra, gated_ ? mapped_passes_ : 0);
  p.accepted = true;
  // A warp split into two half-warps is issued twice (seed 003 §3.2).
  if ((map == LaneMap::Half || map == LaneMap::CompactHalf) && unit_.last_passes() > unit_.passes(p.warp_width))
    p.extra_issue_slots = 1;

  Pending w;
  w.due = done;
  w.seq = seq_++;
  w.wb.warp = p.warp;
  w.wb.instr = p.instr;
  w.wb.long_latency = p.long_latency;
  w.wb.ticket = p.ticket;
  wb_.push(w);
  busy_until_ = std::max(busy_until_, now + uint64_t(unit_.last_passes()) * t.ii);
  if (lane_policy_ && sp) lane_policy_->on_accept(cls, map, unit_.passes(p.warp_width) * t.ii, now);

  if (tracing_) {
    // Run again in this cycle so the signals show this issue whether or
    // not the pipe already ran in this cycle.
    refresh_lanes(now);
    wake_now();
  } else {
    wake_at(done);
  }
}

void ExecPipe::refresh_lanes(uint64_t now) {
  bool changed = false;
  for (uint32_t u = 0; u < unit_.units(); ++u) {
    uint64_t a = unit_.lane_activity(u, now);
    if (a != lane_activity_[u]) {
      lane_activity_[u] = a;
      changed = true;
    }
  }
  if (changed) lane_event_.notify(util::until_cycle(now));
}

void ExecPipe::write_lane_signals(uint64_t now) {
  // Only from this block's own process (a signal has one writer), every
  // busy cycle inside the window (rewriting a value records nothing).
  if (!wf_ || !wf_->in_window(now)) return;
  for (size_t u = 0; u < sig_lanes_.size(); ++u)
    if (sig_lanes_[u]) sig_lanes_[u]->write(lane_activity_[u]);
  for (size_t u = 0; u < sig_map_.size(); ++u)
    if (sig_map_[u]) sig_map_[u]->write(static_cast<uint8_t>(unit_.map_at(static_cast<uint32_t>(u), now)));
}

void ExecPipe::on_cycle(uint64_t now) {
  ++activations_;
  if (now == last_tick_) {  // run again in this cycle (tracing): show the new issue
    if (tracing_) {
      refresh_lanes(now);
      write_lane_signals(now);
    }
    wake_next();
    return;
  }
  last_tick_ = now;

  bool refused = false;
  while (!wb_.empty() && wb_.top().due <= now) {
    WritebackPacket wb = wb_.top().wb;
    wb.accepted = false;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    writeback->b_transport(wb, t);
    if (!wb.accepted) {
      refused = true;
      break;
    }
    wb_.pop();
  }
  if (refused) ++wb_stall_cycles_;
  if (tracing_) {
    refresh_lanes(now);
    write_lane_signals(now);
  }

  // Every cycle while a write-back is overdue or lanes are traced busy;
  // otherwise sleep until the next completion or the next issue.
  bool lanes_busy = tracing_ && now < busy_until_;
  if (refused || lanes_busy)
    wake_next();  // tracing: an issue later in this cycle runs it again (on_issue)
  else if (!wb_.empty())
    wake_at(wb_.top().due);
  // else asleep until the next issue
}

}  // namespace simt::sm
