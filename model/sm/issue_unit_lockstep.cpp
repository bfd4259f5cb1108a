// IssueUnit in slices mode (issue_unit.h, sm/lockstep_unit.h): groups of
// warps on several slices issued in lock step, and the LDST access that
// combines the memory instructions of one cycle.
#include <algorithm>

#include "sm/issue_unit.h"
#include "sm/pipeline_unit.h"
#include "trace/waveform.h"
#include "util/error.h"

namespace simt::sm {

// The unit's window on the issue stage's per-warp state.
class IssueUnit::View : public LockstepView {
 public:
  explicit View(IssueUnit& u) : u_(u) {}
  bool running(uint32_t s) const override { return u_.running(s); }
  uint32_t pc(uint32_t s) const override { return u_.branch_->slot(s).pc; }
  bool eligible(uint32_t s) const override { return fresh(s).eligible; }
  bool ready(uint32_t s) const override { return u_.ready_now(s); }
  bool unblocked(uint32_t s) const override {
    const Candidate& k = fresh(s);
    return k.eligible && k.hazard == Hazard::None;
  }
  uint32_t pipe(uint32_t s) const override { return static_cast<uint32_t>(fresh(s).pipe); }
  uint64_t free_slices(uint32_t pipe) const override {
    uint64_t m = 0;
    for (uint32_t s = 0; s < u_.p_.schedulers; ++s)
      if (u_.pipe_free(s, static_cast<PipeKind>(pipe)) && !u_.slot_debt_[s]) m |= uint64_t{1} << s;
    return m;
  }
  const util::BitSet& touched() const override { return u_.touched_; }
  bool at_barrier(uint32_t s) const override { return u_.warps_[s].barrier >= 0; }
  bool waits_on_memory(uint32_t s) const override {
    const Candidate& k = fresh(s);
    return k.eligible && k.hazard != Hazard::None && k.offer.long_wait;
  }
  const util::BitSet& maybe_sync() const override { return u_.maybe_sync_; }
  bool at_reconvergence(uint32_t s) const override {
    const ptx::Cfg* cfg = u_.ctas_[u_.warps_[s].cta].info->kernel->cfg;
    return cfg && cfg->sync_point(u_.branch_->slot(s).pc);
  }
  bool sync_point(uint32_t s, uint32_t& lanes) const override {
    const Candidate& k = fresh(s);
    lanes = k.sync_lanes;
    return k.eligible && k.sync;
  }

 private:
  const Candidate& fresh(uint32_t s) const {
    if (u_.cand_[s].stale) u_.refresh(s);
    return u_.cand_[s];
  }
  IssueUnit& u_;
};

void IssueUnit::set_lockstep(std::unique_ptr<LockstepUnit> u) {
  if (!u || u->slices() != p_.schedulers || p_.schedulers > 64 || p_.warp_size * p_.schedulers != 32 ||
      p_.max_warps % p_.schedulers != 0)
    throw std::invalid_argument(std::string(name()) + ": slices mode needs a unit with sm.schedulers slices, "
                                "warp_size * schedulers = 32 and max_warps a multiple of the slices");
  lockstep_ = std::move(u);
  view_ = std::make_unique<View>(*this);
  maybe_sync_ = util::BitSet(p_.max_warps);
  touched_ = util::BitSet(p_.max_warps);
  solo_ = util::BitSet(p_.max_warps);
  claimed_.assign(p_.schedulers, 0);
  // As mark_stale() keeps it: stale warps of kernels with warp-synchronous
  // instructions (an empty slot never is one).
  for (uint32_t w = 0; w < p_.max_warps; ++w)
    if (cand_[w].stale && warps_[w].may_sync) maybe_sync_.set(w);
  // Registered here, so that machines without slices keep their stats keys.
  st_group_issues_ = &reg_.counter(stats_name_ + ".group_issues",
                                   "groups of warps issued in lock step (one fetch and decode each)");
  st_group_warps_ = &reg_.counter(stats_name_ + ".group_warp_instructions",
                                  "warp instructions issued as members of a group");
  st_combined_ = &reg_.counter(stats_name_ + ".combined_accesses",
                               "LDST accesses holding the memory instructions of several slices");
  lockstep_->register_stats(reg_, stats_name_ + ".ganging");
  if (p_.sample_interval) lockstep_->register_series(reg_, stats_name_ + ".ganging", p_.sample_interval);
  // VCD: per slice, whether its lanes went to a group or to its own warp;
  // and the unit's own signals (the gang table).
  trace_.issued_by.assign(p_.schedulers, 0);
  if (waveform_ && waveform_->enabled()) {
    bool any = false;
    for (uint32_t s = 0; s < p_.schedulers; ++s) {
      sig_issued_by_.push_back(
          waveform_->signal<uint32_t>(stats_name_ + ".issue.s" + std::to_string(s) + "_issued_by", 0));
      any = any || sig_issued_by_.back();
    }
    lockstep_signals_ = lockstep_->make_signals(*waveform_, stats_name_ + ".ganging");
    if (any || lockstep_signals_) {
      wf_ = waveform_;
      tracing_ = true;
    }
  }
}

bool IssueUnit::ready_now(uint32_t wi) {
  Candidate& k = cand_[wi];
  if (k.stale) refresh(wi);
  // A slice that owes an issue slot (a split warp's second half, power.split)
  // takes no group this cycle: its own scheduler pays the slot.
  const uint32_t s = wi % p_.schedulers;
  return k.eligible && k.hazard == Hazard::None && pipe_free(s, k.pipe) && !slot_debt_[s];
}

void IssueUnit::apply_lockstep_changes() {
  for (const LockstepChange& ch : lockstep_->take_changed()) {
    const uint32_t wi = ch.slot;
    Warp& w = warps_[wi];
    note_solo(wi);
    if (!w.live) continue;
    mark_stale(wi);
    if (!running(wi)) continue;
    if (ch.refetch) {
      ibuf_.flush(wi);  // joined a group: its buffer is not the group's
    } else {
      // Left a group, or its group shrank: it keeps what it holds (members
      // hold the same entries), but its fetches in flight went to the old
      // group's front end and could return out of order with new ones:
      // drop them, and fetch on after what it holds.
      ibuf_.retag(wi);
    }
    w.credits = 0;
    w.fetch_pc = ibuf_.next_pc(wi, branch_->slot(wi).pc);
    if (!ideal_fetch_) want_credit_.set(wi);
  }
}

void IssueUnit::issue_groups(uint64_t now) {
  slices_taken_ = 0;
  if (live_ctas_ == 0) return;
  const std::vector<LockstepGroup>& groups = lockstep_->pick(*view_, now);
  touched_.clear();
  if (const std::vector<uint8_t>* claimed = lockstep_->claimed_pipes())
    for (uint32_t s = 0; s < p_.schedulers; ++s)
      if ((*claimed)[s] != claimed_[s]) {  // the slice's ready warps change
        claimed_[s] = (*claimed)[s];
        views_[s].dirty = true;
      }
  apply_lockstep_changes();  // memory-divergence splits, reformation
  for (const LockstepGroup& g : groups) {
    for (uint32_t m : g.slots) slices_taken_ |= uint64_t{1} << (m % p_.schedulers);
    execute_group(g, now);
  }
}

void IssueUnit::execute_group(const LockstepGroup& g, uint64_t now) {
  const uint32_t lead = g.slots.front();
  const WarpSlot& ws0 = branch_->slot(lead);
  const uint32_t pc = ws0.pc, ci = ws0.cta;
  Cta& c = ctas_[ci];
  func::CtaState& cta = *c.state;
  for (uint32_t m : g.slots)
    if (!ready_now(m) || branch_->slot(m).pc != pc || branch_->slot(m).cta != ci)
      throw std::logic_error(std::string(name()) + ": the " + lockstep_->name() + " unit picked warp " +
                             std::to_string(m) + " (pc " + std::to_string(branch_->slot(m).pc) + ", " +
                             (ready_now(m) ? "ready" : "not ready") + ") with warp " + std::to_string(lead) +
                             " (pc " + std::to_string(pc) + "); they cannot issue together");
  const KernelContext& k = *c.info->kernel;
  const ptx::Instr& in = k.prog->code[pc];

  // One instruction over all members' threads: warp-wide PTX (shfl, vote)
  // sees the whole group.
  // Slices mode: a member's threads are its static warp's (warp_size <= 16,
  // aligned), so they sit in one word of a thread mask: group_words_[i] is
  // member i's first thread, and per-member mask work is that one word, not
  // the whole CTA's.
  PartRun& q = parts_[0];
  q.cta = ci;
  q.mask.clear();
  group_words_.clear();
  for (uint32_t m : g.slots) {
    const WarpSlot& ws = branch_->slot(m);
    const uint32_t first = ws.scope.first();
    const uint32_t wd = first / 64;
    group_words_.push_back(first);
#ifndef NDEBUG
    func::ThreadMask one;
    one.set_word(wd, ws.mask.word(wd));
    if (one != ws.mask) throw std::logic_error(std::string(name()) + ": a slice warp's threads span two mask words");
#endif
    q.mask.set_word(wd, q.mask.word(wd) | (ws.mask.word(wd) & ~cta.exited().word(wd)));
  }
  guard_threads(q, in, cta);
  cta.clock = now;
  k.exec->step(cta, k.env, pc, q.mask, q.r);
  if (q.r.control == func::Control::Fault) fault(c, pc, q.r.fault);
  c.issued += g.slots.size();
  if (c.issued > k.max_warp_instructions && k.max_warp_instructions) runaway_instructions(ci);
  const func::StepResult& r = q.r;
  if (k.spin && tells_spin_watch(r)) note_spin(k, c, r, pc, now);

  issued_this_cycle_ = true;
  last_progress_ = now;
  ++*st_group_issues_;
  *st_group_warps_ += g.slots.size();
  const PipeKind pk = pipe_of(in.cls);
  const ptx::DefUse& du = c.info->du[pc];
  const bool long_latency = in.cls == ptx::InstrClass::Ldst && du.defs.size() > 0;
  size_t next_access = 0;  // accesses are in thread order, members in slice (= thread) order
  const uint64_t lane_mask = (uint64_t{1} << p_.warp_size) - 1;  // warp_size <= 16 here
  for (size_t i = 0; i < g.slots.size(); ++i) {
    const uint32_t m = g.slots[i];
    const uint32_t s = m % p_.schedulers;
    Warp& w = warps_[m];
    const WarpSlot& ws = branch_->slot(m);
    const uint32_t first = group_words_[i], wd = first / 64;
    const uint64_t live_word = ws.mask.word(wd) & q.mask.word(wd);
    const uint64_t active_word = ws.mask.word(wd) & q.active.word(wd);
    const uint32_t lanes = static_cast<uint32_t>(__builtin_popcountll(live_word));
    if (!ideal_fetch_) {
      ibuf_.pop(m);
      want_credit_.set(m);
    }
    policies_[s]->on_issue(m, in.cls, now);
    ++st_warp_instr_;
    st_thread_instr_ += lanes;
    count_energy_events(in, du, lanes);
    st_active_lanes_ += lanes;
    ++*sched_stats_[s].issued;
    count_bin(s, kBinIssued + (lanes ? (lanes - 1) / lane_bin_width_ : 0), 1);
    const uint64_t lane_bits = (live_word >> (first % 64)) & lane_mask;
    if (tracing_) {
      trace_.issued_warp[s] = static_cast<int32_t>(m);
      trace_.active_mask[s] = lane_bits;
      trace_.issued_by[s] = 2;
    }
    if (wt_) trace_issue(s, m, pc, lane_bits, now);
    if (pk == PipeKind::None) continue;
    Latch& l = latches_[s][static_cast<size_t>(pk)];
    IssuePacket& p = l.push();
    views_[s].dirty = true;
    p.warp = m;
    p.pc = pc;
    p.instr = &in;
    p.active.clear();
    p.active.set_word(wd, active_word);
    p.lanes = (active_word >> (first % 64)) & lane_mask;
    p.active_lanes = static_cast<uint32_t>(__builtin_popcountll(active_word));
    p.warp_width = p_.warp_size;
    p.issue_cycle = now;
    p.long_latency = long_latency;
    p.cta_slot = ci;
    p.cta_threads = cta.threads();
    p.local_bytes = cta.local_bytes();
    p.is_load = r.is_load;
    p.is_store = r.is_store;
    p.is_atomic = r.is_atomic;
    p.other_parts.clear();
    p.riders.clear();
    p.accesses.clear();
    if (pk == PipeKind::Ldst)
      while (next_access < r.accesses.size() && ws.scope.test(r.accesses[next_access].tid))
        p.accesses.push_back(r.accesses[next_access++]);
    p.ticket = tickets_.alloc();
    Reservation& res = tickets_[p.ticket];
    res.warp = m;
    res.cta = ci;
    res.threads.clear();
    res.threads.set_word(wd, live_word);
    res.du = &du;
    res.long_latency = long_latency;
    res.others.clear();
    res.words = Scoreboard::Words::one(wd);
    sb_.reserve(ci, res.threads, du, long_latency, res.words);
    mark_stale_overlapping(ci, res.threads, m);
    ++c.inflight;
    if (long_latency) {
      ++w.long_pending;
      policies_[s]->on_long_latency(m);
    }
    ++w.inflight;
  }
  if (pk == PipeKind::Ldst && next_access != r.accesses.size())
    throw std::logic_error(std::string(name()) + ": a group's memory accesses are not in its members' thread order");

  // Barriers: the group arrives once, with every member's weight.
  if (r.control == func::Control::Barrier) {
    if (r.bar_id >= kNumBarriers) {
      func::Fault f;
      f.tid = q.mask.first();
      f.message = "barrier id " + std::to_string(r.bar_id) + " out of range (0-15)";
      fault(c, pc, f);
    }
    uint32_t weight = 0;
    for (uint32_t m : g.slots) weight += branch_->barrier_weight(m, cta.exited());
    c.barriers.arrive(r, weight);
    if (!r.bar_arrive)
      for (uint32_t m : g.slots) {
        warps_[m].barrier = static_cast<int>(r.bar_id);
        warps_[m].barrier_pc = pc;
        branch_->set_blocked(m, true);
        ++st_barrier_waits_;
        policies_[m % p_.schedulers]->on_long_latency(m);
      }
    release_barriers(c);
  } else if (r.control == func::Control::Exit && r.taken.any()) {
    release_barriers(c);
  }

  // Each member's reconvergence stack moves on with its own threads.
  func::StepResult& mr = member_step_;
  mr.control = r.control;
  mr.target = r.target;
  mr.stay = r.stay;
  mr.bar_id = r.bar_id;
  mr.bar_count = r.bar_count;
  mr.bar_arrive = r.bar_arrive;
  mr.taken.clear();
  for (size_t i = 0; i < g.slots.size(); ++i) {
    const uint32_t wd = group_words_[i] / 64;
    mr.taken.set_word(wd, r.taken.word(wd) & branch_->slot(g.slots[i]).scope.word(wd));
    branch_->executed(g.slots[i], in, mr, cta.exited());
    mr.taken.set_word(wd, 0);
  }
  if (!released_.empty()) {
    branch_->barrier_released(ci, released_);
    released_.clear();
    released_cta_.clear();
  }
  note_depth();
  if (r.sleep_ns)
    for (uint32_t m : g.slots) start_sleep(m, r.sleep_ns, now);
  for (uint32_t m : g.slots) {
    resync(m);
    if (running(m) && branch_->slot(m).pc >= k.prog->code.size()) past_end(warps_[m], branch_->slot(m).pc);
  }
  lockstep_->moved(g.slots, *view_);
  apply_lockstep_changes();
}

bool IssueUnit::drain_combined_ldst(uint64_t now) {
  constexpr size_t kLdst = static_cast<size_t>(PipeKind::Ldst);
  // The oldest latched memory instructions whose operands are read, one per
  // slice, of one kind (loads, stores or atomics: the coalescer serves one
  // kind per access).
  combined_from_.clear();
  bool any = false;
  uint64_t oldest = ~uint64_t{0};
  for (uint32_t s = 0; s < p_.schedulers; ++s) {
    const Latch& l = latches_[s][kLdst];
    if (l.empty()) continue;
    any = true;
    const IssuePacket& p = latches_[s][kLdst].ring[l.head];
    const uint64_t operands_read = p.issue_cycle + p_.operand_read_cycles;
    if (now < operands_read) {
      latch_wait_until_ = std::min(latch_wait_until_, operands_read);
      continue;
    }
    oldest = std::min(oldest, p.issue_cycle);
  }
  if (oldest == ~uint64_t{0}) return any;
  const IssuePacket* first = nullptr;
  for (uint32_t s = 0; s < p_.schedulers; ++s) {
    Latch& l = latches_[s][kLdst];
    if (l.empty()) continue;
    const IssuePacket& p = l.front();
    if (p.issue_cycle != oldest) continue;
    if (first && (p.is_store != first->is_store || p.is_atomic != first->is_atomic)) continue;
    if (!first) first = &p;
    combined_from_.push_back(s);
  }
  IssuePacket& c = combined_;
  c = *first;
  for (size_t i = 1; i < combined_from_.size(); ++i) {
    const IssuePacket& p = latches_[combined_from_[i]][kLdst].front();
    c.riders.push_back(
        IssuePacket::Rider{p.warp, p.ticket, p.instr, p.long_latency, static_cast<uint32_t>(c.accesses.size())});
    // Its CTA's part of the access (local-memory layout, bank grouping).
    uint8_t part = 0;
    if (p.cta_slot != c.cta_slot) {
      size_t k = 0;
      while (k < c.other_parts.size() && c.other_parts[k].cta_slot != p.cta_slot) ++k;
      if (k == c.other_parts.size()) c.other_parts.push_back(IssuePacket::Part{p.cta_slot, p.cta_threads, p.local_bytes});
      part = static_cast<uint8_t>(k + 1);
    }
    for (func::MemAccess a : p.accesses) {
      a.part = part;
      c.accesses.push_back(a);
    }
    c.is_load = c.is_load || p.is_load;
    c.active_lanes += p.active_lanes;
  }
  c.accepted = false;
  c.retry_at = 0;
  c.refusals = nullptr;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  to_ldst->b_transport(c, t);
  if (!c.accepted) {
    ++st_latch_stalls_;
    latch_wait_until_ = std::min(latch_wait_until_, now + 1);
    return true;
  }
  if (combined_from_.size() > 1) ++*st_combined_;
  for (uint32_t s : combined_from_) {
    latches_[s][kLdst].pop();
    views_[s].dirty = true;
  }
  latch_wait_until_ = now + 1;
  return true;
}

}  // namespace simt::sm
