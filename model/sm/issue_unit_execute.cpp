// IssueUnit's execute step (issue_unit.h): the picked warp's instruction
// runs in the functional executor over each of its CTA parts, its packet
// enters the operand-read latch of its pipe with the register reservations
// the write-back returns, CTA barriers are settled, and the branch unit moves
// the warp on. Kept apart from the per-cycle loop (issue_unit.cpp) and from
// slices mode's groups (issue_unit_lockstep.cpp).
#include <algorithm>

#include "sm/issue_unit.h"

namespace simt::sm {

// The executor runs part `q` (its threads and guard set) of CTA slot `c` at
// `pc`; a fault or a runaway kernel ends the run here.
inline void IssueUnit::step_part(PartRun& q, Cta& c, uint32_t pc, uint64_t now) {
  const KernelContext& kc = *c.info->kernel;
  c.state->clock = now;
  kc.exec->step(*c.state, kc.env, pc, q.mask, q.r);
  if (q.r.control == func::Control::Fault) fault(c, pc, q.r.fault);
  if (++c.issued > kc.max_warp_instructions && kc.max_warp_instructions) runaway_instructions(q.cta);
}

// Runs `in` on every CTA part of the warp in `ws` (one part unless the
// branch unit mixes CTAs): parts_[k] gets the part's live and active threads
// and the executor's result; the totals are over all parts.
template <bool Mixed>
inline IssueUnit::PartTotals IssueUnit::run_parts(const WarpSlot& ws, const ptx::Instr& in, uint64_t now,
                                                  uint32_t word) {
  if (!Mixed && word != kAnyWord) return run_word(ws, in, now, word);
  const size_t n = Mixed ? 1 + ws.others.size() : 1;
  if (Mixed && parts_.size() < n) parts_.resize(n);
  PartTotals t;
  for (size_t k = 0; k < n; ++k) {
    PartRun& q = parts_[k];
    q.cta = k == 0 ? ws.cta : ws.others[k - 1].cta;
    Cta& c = ctas_[q.cta];
    func::CtaState& cta = *c.state;
    q.mask = (k == 0 ? ws.mask : ws.others[k - 1].mask).minus(cta.exited());
    guard_threads(q, in, cta);
    step_part(q, c, ws.pc, now);
    t.lanes += q.mask.count();
    t.active_bits |= lanes_of(q.active);
    if (tracing_ || wt_) t.mask_bits |= lanes_of(q.mask);
  }
  return t;
}

// run_parts() for a warp whose threads all sit in word `word` of the CTA's
// thread mask: the same results, with one-word mask work instead of the
// whole mask's (a narrow warp pays as much for that as a wide one).
IssueUnit::PartTotals IssueUnit::run_word(const WarpSlot& ws, const ptx::Instr& in, uint64_t now, uint32_t word) {
  PartRun& q = parts_[0];
  q.cta = ws.cta;
  Cta& c = ctas_[q.cta];
  func::CtaState& cta = *c.state;
  const uint64_t live = ws.mask.word(word) & ~cta.exited().word(word);
  q.mask.clear();
  q.mask.set_word(word, live);
  q.active.clear();
  uint64_t active = live;
  if (in.guard.kind == ptx::Operand::Kind::Reg) {
    const uint64_t* row = cta.reg_row(in.guard.reg);
    active = 0;
    for (uint64_t m = live; m; m &= m - 1) {
      const uint32_t b = static_cast<uint32_t>(__builtin_ctzll(m));
      if (((row[word * 64 + b] & 1) != 0) != in.guard.neg) active |= uint64_t{1} << b;
    }
  }
  q.active.set_word(word, active);
  step_part(q, c, ws.pc, now);
  PartTotals t;
  t.lanes = static_cast<uint32_t>(__builtin_popcountll(live));
  t.active_bits = lanes_of_word(active, word);
  if (tracing_ || wt_) t.mask_bits = lanes_of_word(live, word);
  return t;
}

// Register reservations of the packet's instruction, one per CTA part; the
// write-back returns them by ticket.
template <bool Mixed>
inline void IssueUnit::reserve_parts(uint32_t wi, const ptx::DefUse& du, bool long_latency, IssuePacket& p) {
  const size_t n = Mixed ? 1 + branch_->slot(wi).others.size() : 1;
  p.ticket = tickets_.alloc();
  Reservation& res = tickets_[p.ticket];
  res.warp = wi;
  res.cta = parts_[0].cta;
  res.threads = parts_[0].mask;
  res.du = &du;
  res.long_latency = long_latency;
  res.others.clear();
  // Part 0's threads are the slot's own (a subset of its scope).
  res.words = scope_words(wi, branch_->slot(wi));
  for (size_t k = 0; k < n; ++k) {
    const PartRun& q = parts_[k];
    if (k > 0) res.others.push_back(WarpPart{q.cta, q.mask});
    sb_.reserve(q.cta, q.mask, du, long_latency, k == 0 ? res.words : Scoreboard::Words::of(q.mask));
    mark_stale_overlapping(q.cta, q.mask, wi);
    ++ctas_[q.cta].inflight;
  }
}

void IssueUnit::execute(uint32_t s, uint32_t wi, uint64_t now) {
  if (branch_->slot(wi).others.empty()) execute_warp<false>(s, wi, now);
  else execute_warp<true>(s, wi, now);
}

template <bool Mixed>
void IssueUnit::execute_warp(uint32_t s, uint32_t wi, uint64_t now) {
  Warp& w = warps_[wi];
  const WarpSlot& ws = branch_->slot(wi);
  const uint32_t pc = ws.pc;
  const size_t nparts = Mixed ? 1 + ws.others.size() : 1;
  Cta& c = ctas_[ws.cta];
  const KernelContext& k = *c.info->kernel;
  const ptx::Instr& in = k.prog->code[pc];
  const PartTotals totals = run_parts<Mixed>(ws, in, now, w.word);
  const uint32_t lanes = totals.lanes;
  const func::StepResult& r = parts_[0].r;
  if (k.spin)
    for (size_t i = 0; i < nparts; ++i)
      if (tells_spin_watch(parts_[i].r)) note_spin(k, ctas_[parts_[i].cta], parts_[i].r, pc, now);
  if (in.op == ptx::Op::Nanosleep) {  // the longest request of any CTA part
    uint32_t ns = 0;
    for (size_t i = 0; i < nparts; ++i) ns = std::max(ns, parts_[i].r.sleep_ns);
    start_sleep(wi, ns, now);
  }

  if (!ideal_fetch_) {
    ibuf_.pop(wi);
    want_credit_.set(wi);
  }
  policies_[s]->on_issue(wi, in.cls, now);
  issued_this_cycle_ = true;
  last_progress_ = now;
  ++st_warp_instr_;
  st_thread_instr_ += lanes;
  st_active_lanes_ += lanes;
  count_energy_events(in, c.info->du[pc], lanes);
  ++*sched_stats_[s].issued;
  count_bin(s, kBinIssued + (lanes ? (lanes - 1) / lane_bin_width_ : 0), 1);
  if (tracing_) {
    trace_.issued_warp[s] = static_cast<int32_t>(wi);
    trace_.active_mask[s] = totals.mask_bits;
    if (lockstep_) trace_.issued_by[s] = 1;
  }
  if (wt_) trace_issue(s, wi, pc, totals.mask_bits, now);

  // The packet for the pipe: the latch holds it until the pipe accepts.
  const PipeKind pk = pipe_of(in.cls);
  if (pk != PipeKind::None) {
    const ptx::DefUse& du = c.info->du[pc];
    const bool long_latency = in.cls == ptx::InstrClass::Ldst && du.defs.size() > 0;
    Latch& l = latches_[s][static_cast<size_t>(pk)];
    IssuePacket& p = l.push();
    views_[s].dirty = true;  // the latch may be full now
    p.warp = wi;
    p.pc = pc;
    p.instr = &in;
    p.active = parts_[0].active;
    p.lanes = totals.active_bits;
    p.active_lanes = w.word != kAnyWord  // (counted only for pipe instructions)
                         ? static_cast<uint32_t>(__builtin_popcountll(parts_[0].active.word(w.word)))
                         : parts_[0].active.count();
    p.warp_width = p_.warp_size;
    p.issue_cycle = now;
    p.long_latency = long_latency;
    p.cta_slot = ws.cta;
    p.cta_threads = c.state->threads();
    p.local_bytes = c.state->local_bytes();
    p.is_load = r.is_load;
    p.is_store = r.is_store;
    p.is_atomic = r.is_atomic;
    p.other_parts.clear();
    p.riders.clear();
    if (pk == PipeKind::Ldst)
      p.accesses.assign(r.accesses.begin(), r.accesses.end());
    else
      p.accesses.clear();
    for (size_t i = 1; i < nparts; ++i) {
      const PartRun& q = parts_[i];
      const func::CtaState& st = *ctas_[q.cta].state;
      p.other_parts.push_back(IssuePacket::Part{q.cta, st.threads(), st.local_bytes()});
      p.active_lanes += q.active.count();
      p.is_load = p.is_load || q.r.is_load;
      p.is_store = p.is_store || q.r.is_store;
      p.is_atomic = p.is_atomic || q.r.is_atomic;
      if (pk != PipeKind::Ldst) continue;
      for (func::MemAccess a : q.r.accesses) {
        a.part = static_cast<uint8_t>(i);
        p.accesses.push_back(a);
      }
    }
    reserve_parts<Mixed>(wi, du, long_latency, p);
    if (long_latency) {
      ++w.long_pending;
      policies_[s]->on_long_latency(wi);
    }
    ++w.inflight;
  }

  // Barriers are ours; where the warp goes next is the branch unit's
  // business. Arrivals and exits count against the threads of the entry
  // the warp ran in, so barriers are settled before the branch unit moves
  // the warp on: under TBC the warp may complete its stack entry there,
  // which pops it and starts dispatching the next (a bar.sync just before
  // a join would otherwise be judged against the merged entry's threads
  // and stay closed while its warps' slots are refilled).
  if (r.control == func::Control::Barrier) {
    for (size_t i = 0; i < nparts; ++i) {
      const PartRun& q = parts_[i];
      if (q.r.bar_id >= kNumBarriers) {
        func::Fault f;
        f.tid = q.mask.first();
        f.message = "barrier id " + std::to_string(q.r.bar_id) + " out of range (0-15)";
        fault(ctas_[q.cta], pc, f);
      }
    }
    if (nparts == 1) {
      c.barriers.arrive(r, branch_->barrier_weight(wi, c.state->exited()));
      if (!r.bar_arrive) {
        w.barrier = static_cast<int>(r.bar_id);
        w.barrier_pc = pc;
        branch_->set_blocked(wi, true);
        ++st_barrier_waits_;
        // A warp waiting at a barrier is out of the running like one waiting
        // on memory: a two-level policy must make room in its active set for
        // the warps the barrier waits for.
        policies_[wi % p_.schedulers]->on_long_latency(wi);
      }
      release_barriers(c);
    } else {
      // A warp of several CTAs (DWF's SM pool) only passes a bar.arrive
      // (DWF gathers threads at a waiting barrier per CTA): each part
      // arrives at its own CTA's barrier with its live threads.
      for (size_t i = 0; i < nparts; ++i) {
        const PartRun& q = parts_[i];
        if (!q.r.bar_arrive)
          throw std::logic_error(std::string(name()) + ": the " + branch_->name() +
                                 " branch unit let a warp with threads of several CTAs wait at a CTA barrier");
        ctas_[q.cta].barriers.arrive(q.r, q.mask.count());
        release_barriers(ctas_[q.cta]);
      }
    }
  } else {
    for (size_t i = 0; i < nparts; ++i)
      if (parts_[i].r.control == func::Control::Exit && parts_[i].r.taken.any()) release_barriers(ctas_[parts_[i].cta]);
  }
  const uint32_t cta = ws.cta;  // executed() may move another CTA's warp into the slot
  if (nparts == 1) {
    branch_->executed(wi, in, r, c.state->exited());
  } else {
    part_steps_.clear();
    for (size_t i = 0; i < nparts; ++i)
      part_steps_.push_back(PartStep{parts_[i].cta, &parts_[i].r, &ctas_[parts_[i].cta].state->exited()});
    branch_->executed_parts(wi, in, part_steps_);
  }
  if (!released_.empty()) {
    const uint32_t first = released_cta_[0];
    if (std::all_of(released_cta_.begin(), released_cta_.end(), [&](uint32_t x) { return x == first; })) {
      branch_->barrier_released(first, released_);
    } else {  // a warp with threads of several CTAs completed barriers of more than one
      std::vector<uint32_t> ctas = released_cta_;
      std::sort(ctas.begin(), ctas.end());
      ctas.erase(std::unique(ctas.begin(), ctas.end()), ctas.end());
      for (uint32_t rc : ctas) {
        std::vector<uint32_t> slots;
        for (size_t i = 0; i < released_.size(); ++i)
          if (released_cta_[i] == rc) slots.push_back(released_[i]);
        branch_->barrier_released(rc, slots);
      }
    }
    released_.clear();
    released_cta_.clear();
  }
  note_depth();
  // The I-buffer holds pc+1, pc+2, ...: anything else (a jump, divergence,
  // a reconvergence pop, a parked or regrouped warp) refetches.
  if (branch_->changes_one_slot())
    resync(wi);  // also marks its candidate stale (the I-buffer popped)
  else
    resync_cta(cta);
  // Control fell through the kernel's last instruction (no ret or exit): a
  // fault, as in functional mode, not an I-buffer that never fills.
  if (running(wi) && branch_->slot(wi).pc >= k.prog->code.size()) past_end(w, branch_->slot(wi).pc);
}

}  // namespace simt::sm
