// IssueUnit's observability: VCD signals, the --trace-warps log (issues and
// per-scheduler stall reasons) and the sampled time series. Kept apart from
// the per-cycle logic; everything here runs only when its output is on.
#include <algorithm>

#include "sm/issue_unit.h"
#include "trace/waveform.h"

namespace simt::sm {

void IssueUnit::make_signals(trace::Waveform& wf) {
  const std::string pre = stats_name_ + ".issue.";
  bool any = false;
  for (uint32_t s = 0; s < p_.schedulers; ++s) {
    const std::string k = pre + "s" + std::to_string(s);
    sig_warp_.push_back(wf.signal<int32_t>(k + "_warp", -1));
    sig_mask_.push_back(wf.signal<uint64_t>(k + "_mask", 0));
    any = any || sig_warp_.back() || sig_mask_.back();
  }
  for (uint32_t w = 0; w < p_.max_warps; ++w) {
    const std::string k = pre + "w" + std::to_string(w);
    sig_pc_.push_back(wf.maybe_signal(k + "_pc"));
    sig_depth_.push_back(wf.signal<uint32_t>(k + "_depth", 0));
    any = any || sig_pc_.back() || sig_depth_.back();
  }
  // Block-wide stacks (TBC): depth and top-of-stack PC per CTA slot.
  const bool per_cta = branch_->cta_stacks();
  for (uint32_t c = 0; per_cta && c < p_.max_ctas; ++c) {
    const std::string k = pre + "cta" + std::to_string(c);
    sig_cta_depth_.push_back(wf.signal<uint32_t>(k + "_stack_depth", 0));
    sig_cta_pc_.push_back(wf.maybe_signal(k + "_tos_pc"));
    any = any || sig_cta_depth_.back() || sig_cta_pc_.back();
  }
  if (!any) return;  // nothing of this unit is wanted: no per-cycle trace work
  wf_ = &wf;
  tracing_ = true;
}

void IssueUnit::write_signals(uint64_t now) {
  if (!wf_ || !wf_->in_window(now)) return;
  for (uint32_t s = 0; s < p_.schedulers; ++s) {
    const int32_t w = trace_.issued_warp[s];
    if (sig_warp_[s]) sig_warp_[s]->write(w);
    if (sig_mask_[s]) sig_mask_[s]->write(w >= 0 ? trace_.active_mask[s] : 0);
  }
  for (uint32_t w = 0; w < p_.max_warps; ++w) {
    if (sig_pc_[w]) sig_pc_[w]->set_or_undefined(trace_.pc[w], ptx::kNoPc);
    if (sig_depth_[w]) sig_depth_[w]->write(trace_.stack_depth[w]);
  }
  for (size_t c = 0; c < sig_cta_pc_.size(); ++c) {
    if (sig_cta_depth_[c]) sig_cta_depth_[c]->write(trace_.cta_depth[c]);
    if (sig_cta_pc_[c]) sig_cta_pc_[c]->set_or_undefined(trace_.cta_pc[c], ptx::kNoPc);
  }
  for (size_t s = 0; s < sig_issued_by_.size(); ++s)
    if (sig_issued_by_[s]) sig_issued_by_[s]->write(trace_.issued_by[s]);
  if (lockstep_signals_) lockstep_->write_signals();
}

trace::StallReason IssueUnit::stall_reason(uint32_t s) const {
  // The reason of the warp closest to issuing: ready-but-held, then a busy
  // pipe, a short scoreboard wait, a memory wait, an empty I-buffer, a barrier.
  bool any = false, ready = false, pipe = false, sb = false, mem = false, ibuf = false;
  for (uint32_t w = s; w < p_.max_warps; w += p_.schedulers) {
    const Warp& wp = warps_[w];
    if (!running(w)) continue;
    any = true;
    if (wp.barrier >= 0) continue;  // a barrier: the reason when no warp has a better one
    const WarpSlot& ws = branch_->slot(w);
    const ptx::Instr* in = next_instr(w);
    if (!in) {
      ibuf = true;
      continue;
    }
    const ptx::DefUse& du = ctas_[ws.cta].info->du[ws.pc];
    if (hazard(ws, du) != Hazard::None || (warp_sb_ && wp.inflight > 0)) {
      (waits_on_long(ws, du) || (warp_sb_ && wp.long_pending > 0) ? mem : sb) = true;
      continue;
    }
    if (!pipe_free(s, pipe_of(in->cls)))
      pipe = true;
    else
      ready = true;
  }
  using R = trace::StallReason;
  return !any ? R::Idle : ready ? R::NotPicked : pipe ? R::PipeBusy : sb ? R::Scoreboard : mem ? R::Memory
         : ibuf ? R::IbufferEmpty : R::Barrier;
}

void IssueUnit::trace_stall(uint32_t s, uint64_t now) {
  last_reason_[s] = stall_reason(s);
  wt_->stall(sm_id_, s, now, now, last_reason_[s]);
}

void IssueUnit::trace_issue(uint32_t s, uint32_t wi, uint32_t pc, uint64_t bits, uint64_t now) {
  const Warp& w = warps_[wi];
  const ptx::Program& prog = prog_of(w);
  static const std::string kNoText = "?";
  wt_->issue(now, sm_id_, s, wi, pc, bits, pc < prog.text.size() ? prog.text[pc] : kNoText);
}

void IssueUnit::sample_until(uint64_t now) {
  if (!ser_ipc_) return;
  // Boundary b closes the interval [b - I, b); every cycle before `now` is
  // accounted, and nothing issues while the unit sleeps, so the samples of
  // intervals slept through are exact.
  while (next_sample_ <= now) {
    const uint64_t instr = st_thread_instr_.value;
    ser_ipc_->sample(static_cast<double>(instr - instr_at_sample_) / static_cast<double>(p_.sample_interval));
    ser_warps_->sample(live_warps_);
    if (lockstep_) lockstep_->sample();
    instr_at_sample_ = instr;
    next_sample_ += p_.sample_interval;
  }
}

}  // namespace simt::sm
