// The issue stage's schedulers (issue_unit.h): each cycle a scheduler offers
// its policy the warps whose next instruction is buffered, with their hazards;
// the per-warp candidates are cached until something they depend on changes.
#include <algorithm>

#include "sm/issue_unit.h"

namespace simt::sm {

void IssueUnit::mark_stale_overlapping(uint32_t ci, const func::ThreadMask& threads, uint32_t owner) {
  if (branch_->static_scopes()) return mark_stale(owner);  // no other scope holds these threads
  uint32_t lo, hi;
  threads.word_range(lo, hi);
  auto overlaps = [&](const func::ThreadMask& scope) {
    for (uint32_t i = lo; i < hi; ++i)
      if (scope.word(i) & threads.word(i)) return true;
    return false;
  };
  for_each_slot_of(ci, [&](uint32_t wi) {
    if (cand_[wi].stale) return;
    const WarpSlot& ws = branch_->slot(wi);
    bool hit = ws.cta == ci && overlaps(ws.scope);
    for (size_t k = 0; !hit && k < ws.others.size(); ++k) hit = ws.others[k].cta == ci && overlaps(ws.others[k].mask);
    if (hit) mark_stale(wi);
  });
}

Hazard IssueUnit::other_parts_hazard(const WarpSlot& ws, const ptx::DefUse& du) const {
  Hazard h = Hazard::None;
  for (size_t k = 0; h == Hazard::None && k < ws.others.size(); ++k) h = sb_.check(ws.others[k].cta, ws.others[k].mask, du);
  return h;
}

bool IssueUnit::other_parts_wait_on_long(const WarpSlot& ws, const ptx::DefUse& du) const {
  bool w = false;
  for (size_t k = 0; !w && k < ws.others.size(); ++k) w = sb_.waits_on_long(ws.others[k].cta, ws.others[k].mask, du);
  return w;
}

void IssueUnit::note_sync(uint32_t w, const ptx::Instr* in, const WarpSlot& ws) {
  Candidate& k = cand_[w];
  k.sync = in && warp_synchronous(in->op);
  if (k.sync) {
    k.sync_lanes = sync_lanes(*in, ws);
    maybe_sync_.set(w);
  } else {
    maybe_sync_.reset(w);
  }
}

inline void IssueUnit::set_entry_ready(SchedView& v, WarpCandidate& c, uint8_t meta, uint32_t free_pipes) {
  c.ready = (meta & kMetaNoHazard) && ((free_pipes >> (meta & kMetaPipe)) & 1);
  c.ready ? v.ready.set(c.warp) : v.ready.reset(c.warp);
  if (!ideal_fetch_) ibuf_.set_ready(c.warp, c.ready);
}

void IssueUnit::update_entry(uint32_t s, uint32_t w, uint32_t free_pipes) {
  SchedView& v = views_[s];
  Candidate& k = cand_[w];
  const bool live = sched_live_[s].test(w);
  if (live && k.stale) refresh(w);
  auto at = std::lower_bound(v.cands.begin(), v.cands.end(), w,
                             [](const WarpCandidate& c, uint32_t x) { return c.warp < x; });
  const size_t i = static_cast<size_t>(at - v.cands.begin());
  const bool present = at != v.cands.end() && at->warp == w;
  if (present) {  // take the old entry out of the counts
    if (v.meta[i] & kMetaNoHazard) --v.clear[v.meta[i] & kMetaPipe];
    v.long_waits -= at->long_wait;
  }
  IssuePolicy& policy = *policies_[s];
  if (!live || !k.eligible) {
    if (present) {
      v.cands.erase(at);
      v.meta.erase(v.meta.begin() + static_cast<long>(i));
      v.listed.reset(w);
      v.ready.reset(w);
      v.long_wait.reset(w);
      policy.on_offer_changed(w, true);
    }
    return;
  }
  const bool clear = k.hazard == Hazard::None;
  const uint8_t meta = static_cast<uint8_t>((clear ? kMetaNoHazard : 0) | static_cast<uint8_t>(k.pipe));
  WarpCandidate* c;
  if (present) {
    if (at->long_wait != k.offer.long_wait) policy.on_offer_changed(w, false);
    *at = k.offer;
    v.meta[i] = meta;
    c = &*at;
  } else {
    c = &*v.cands.insert(at, k.offer);
    v.meta.insert(v.meta.begin() + static_cast<long>(i), meta);
    policy.on_offer_changed(w, true);
  }
  if (clear) ++v.clear[static_cast<size_t>(k.pipe)];
  v.long_waits += c->long_wait;
  v.listed.set(w);
  c->long_wait ? v.long_wait.set(w) : v.long_wait.reset(w);
  set_entry_ready(v, *c, meta, free_pipes);
}

void IssueUnit::refresh_ready(uint32_t s, uint32_t free_pipes, bool ranks) {
  SchedView& v = views_[s];
  for (size_t i = 0; i < v.cands.size(); ++i) {
    WarpCandidate& c = v.cands[i];
    if (ranks) c.priority = branch_->priority(c.warp);
    set_entry_ready(v, c, v.meta[i], free_pipes);
  }
}

// Slices mode: the list is rebuilt at every look, as the warps the lock-step
// unit holds (its groups) are its to issue and change without notice; the
// slice looks only at the others.
void IssueUnit::look_slices(uint32_t s, uint32_t free_pipes, const util::BitSet* held, bool ranks) {
  SchedView& v = views_[s];
  v.cands.clear();
  v.changed.clear();
  v.long_waits = 0;
  auto look = [&](uint32_t w) {
    const Candidate& k = cand_[w];
    if (k.stale) refresh(w);
    if (!k.eligible) return;
    // Warps that must meet are the unit's to issue too.
    if (k.sync || (held && held->test(w))) return;
    const bool free = (free_pipes >> static_cast<uint32_t>(k.pipe)) & 1;
    v.cands.push_back(k.offer);
    WarpCandidate& c = v.cands.back();
    c.ready = k.hazard == Hazard::None && free;
    if (ranks) c.priority = branch_->priority(w);
    v.pipe_blocked = v.pipe_blocked || (k.hazard == Hazard::None && !free);
    v.long_waits += c.long_wait;
    if (!ideal_fetch_) ibuf_.set_ready(w, c.ready);
  };
#ifndef NDEBUG
  sched_live_[s].for_each([&](uint32_t w) {
    if (solo_.test(w) == lockstep_->holds(w))
      throw std::logic_error(std::string(name()) + ": warp " + std::to_string(w) + " is " +
                             (solo_.test(w) ? "" : "not ") + "listed as its slice's own, wrongly");
  });
#endif
  sched_live_[s].for_each_and(solo_, look);
}

template <bool Slices>
void IssueUnit::schedule_in(uint32_t s, uint64_t now) {
  if (live_ctas_ == 0) return;
  if (slot_debt_[s]) {  // a split warp's second half-warp takes this issue slot
    --slot_debt_[s];
    return count_bin(s, kBinStall, 1);
  }
  SchedView& v = views_[s];
  std::vector<WarpCandidate>& cands = v.cands;
  const bool ranks = branch_->ranks_warps();  // priorities move every cycle: no reuse
  // Warps the lock-step unit holds back change without notice: no reuse either.
  const util::BitSet* held = Slices ? lockstep_->held_back() : nullptr;
  if (v.dirty || ranks || held) {
    v.dirty = false;
    v.pipe_blocked = false;
    // Which pipes may take an instruction now, once for all warps: bit k for
    // PipeKind k. Slices mode: a pipe the lock-step unit claims for a waiting
    // group is not the slice's to fill.
    uint32_t free_pipes = 0;
    for (uint32_t k = 0; k <= static_cast<uint32_t>(PipeKind::None); ++k)
      if (pipe_free(s, static_cast<PipeKind>(k)) && !(Slices && ((claimed_[s] >> k) & 1))) free_pipes |= 1u << k;
    if (Slices) {
      look_slices(s, free_pipes, held, ranks);
    } else {
      // Entries redone here get their `ready` for these pipes; the others
      // keep theirs unless a pipe came free or filled since the last look.
      v.changed.for_each([&](uint32_t w) { update_entry(s, w, free_pipes); });
      v.changed.clear();
      if (free_pipes != v.free_pipes || ranks) refresh_ready(s, free_pipes, ranks);
      v.free_pipes = free_pipes;
      for (uint32_t k = 0; k < v.clear.size(); ++k)
        v.pipe_blocked = v.pipe_blocked || (v.clear[k] && !((free_pipes >> k) & 1));
    }
  }
  if (cands.empty()) {
    if (wt_) trace_stall(s, now);
    return count_bin(s, kBinIdle, 1);
  }
  // Slices mode rebuilds the list at every look: the policy sees it afresh.
  const int pick = Slices ? policies_[s]->pick(cands, now)
                          : policies_[s]->pick_incremental(cands, {v.listed, v.ready, v.long_wait}, now);
  if (pick < 0) {
    if (wt_) trace_stall(s, now);
    // Seed 001 §6.1: "Stall" = held up by the downstream pipeline; otherwise
    // no warp is ready: "W0 Mem" if warps are held back by pending memory
    // accesses, "W0 Idle" otherwise (e.g. waiting on an ALU result).
    if (v.pipe_blocked) return count_bin(s, kBinStall, 1);
    return count_bin(s, v.long_waits ? kBinMem : kBinIdle, 1);
  }
  if (!cands[pick].ready)
    throw std::logic_error(std::string(name()) + ": the " + policies_[s]->name() + " policy picked a warp that is not ready");
  execute(s, cands[pick].warp, now);
}

template void IssueUnit::schedule_in<false>(uint32_t, uint64_t);
template void IssueUnit::schedule_in<true>(uint32_t, uint64_t);

uint64_t IssueUnit::lanes_of(const func::ThreadMask& m) const {
  uint64_t bits = 0;
  for (uint32_t i = 0; i < func::ThreadMask::kWords; ++i) bits |= lanes_of_word(m.word(i), i);
  return bits;
}

uint64_t IssueUnit::lanes_of_word(uint64_t bits, uint32_t word) const {
  const uint32_t ws = p_.warp_size;
  uint64_t lanes = 0;
  if ((ws & (ws - 1)) == 0) {  // chunks of ws bits never straddle a word
    const uint64_t chunk = ws == 64 ? ~uint64_t{0} : (uint64_t{1} << ws) - 1;
    for (uint64_t w = bits; w; w = ws == 64 ? 0 : w >> ws) lanes |= w & chunk;
    return lanes;
  }
  for (uint64_t m = bits; m; m &= m - 1)
    lanes |= uint64_t{1} << ((word * 64 + static_cast<uint32_t>(__builtin_ctzll(m))) % ws);
  return lanes;
}

const ptx::Instr* IssueUnit::next_instr(uint32_t w) const {
  const uint32_t pc = branch_->slot(w).pc;
  if (ideal_fetch_) {
    const ptx::Program& prog = prog_of(warps_[w]);
    return pc < prog.code.size() ? &prog.code[pc] : nullptr;
  }
  const InstructionBuffer::Entry* e = ibuf_.front(w);
  return e && e->pc == pc ? e->instr : nullptr;
}

bool IssueUnit::pipe_free(uint32_t s, PipeKind k) const {
  if (k == PipeKind::None) return true;  // branches and barriers resolve here
  if (!p_.unified_pipe) return !latches_[s][static_cast<size_t>(k)].full();
  uint32_t held = 0;  // one port: every pipe kind's latched instructions share it
  for (const Latch& l : latches_[s]) held += l.count;
  return held < latches_[s][0].ring.size();
}

void IssueUnit::refresh(uint32_t w) {
  Candidate& k = cand_[w];
  k.stale = false;
  const Warp& wp = warps_[w];
  const WarpSlot& ws = branch_->slot(w);
  const bool waits = !running(w) || wp.barrier >= 0 || wp.asleep;
  const ptx::Instr* in = waits ? nullptr : next_instr(w);
  k.eligible = in != nullptr;
  // Slices mode: only kernels with warp-synchronous instructions have any
  // (a new warp of another kernel in this slot cleared the bit).
  if (lockstep_ && wp.may_sync) note_sync(w, in, ws);
  else k.sync = false;
  if (!k.eligible) {
    if (!waits && ideal_fetch_) past_end(wp, ws.pc);  // fell through the last instruction
    return;
  }
  const ptx::DefUse& du = ctas_[ws.cta].info->du[ws.pc];
  const Scoreboard::Words words = scope_words(w, ws);
  k.hazard = hazard(ws, du, words);
  bool long_wait = k.hazard != Hazard::None && waits_on_long(ws, du, words);
  if (warp_sb_ && wp.inflight > 0) {  // seed 001's scoreboard: one instruction of a warp at a time
    if (k.hazard == Hazard::None) k.hazard = Hazard::Raw;
    long_wait = long_wait || wp.long_pending > 0;
  }
  k.pipe = pipe_of(in->cls);
  WarpCandidate& c = k.offer;
  c.warp = w;
  c.cls = in->cls;
  c.age = wp.age;
  c.long_wait = long_wait;
  c.block = wp.cta;
  c.block_age = ctas_[wp.cta].age;
  if (pc_priority_) c.priority = ws.pc;
  if (threads_priority_) {  // active threads that have not exited
    const func::ThreadMask& exited = ctas_[ws.cta].state->exited();
    // A static warp's threads stay in its one word; otherwise look at all.
    uint32_t lo = 0, hi = func::ThreadMask::kWords;
    if (wp.word != kAnyWord) lo = wp.word, hi = wp.word + 1;
    uint32_t n = 0;
    for (uint32_t i = lo; i < hi; ++i) n += static_cast<uint32_t>(__builtin_popcountll(ws.mask.word(i) & ~exited.word(i)));
    c.priority = n;
  }
}

// nanosleep: the warp is not offered to its scheduler until `ns` of
// simulated time at sm.clock_mhz has passed (rounded up to whole cycles).
// The slot sleeps, whichever threads the branch unit later puts in it.
void IssueUnit::start_sleep(uint32_t wi, uint32_t ns, uint64_t now) {
  const uint64_t cycles = (uint64_t{ns} * p_.clock_mhz + 999) / 1000;
  if (cycles == 0) return;
  Warp& w = warps_[wi];
  w.asleep = true;
  w.wake_at = now + 1 + cycles;  // it would have been offered again at now + 1
  asleep_.set(wi);
  next_wake_ = std::min(next_wake_, w.wake_at);
  st_sleep_cycles_ += cycles;
  mark_stale(wi);
}

void IssueUnit::wake_sleepers(uint64_t now) {
  next_wake_ = ~uint64_t{0};
  asleep_.for_each([&](uint32_t wi) {
    Warp& w = warps_[wi];
    if (w.wake_at > now) {
      next_wake_ = std::min(next_wake_, w.wake_at);
      return;
    }
    w.asleep = false;
    asleep_.reset(wi);
    mark_stale(wi);
  });
  last_progress_ = now;  // the watchdog counts from the last wake-up too
}

}  // namespace simt::sm
