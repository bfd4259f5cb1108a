// DWF branch unit: the warp pool of one CTA. Threads arriving at a PC are
// first checked against the points where they must wait (warp barrier,
// warp-synchronous instruction, CTA barrier); the rest join warps waiting at
// that PC lane by lane, or form a new warp in a free slot or the overflow
// list. Releases of waiting threads are queued and placed by settle(), so
// placing one never re-enters the structure being walked.
#include <stdexcept>

#include "tbc/dwf_branch_unit.h"
#include "util/error.h"

namespace simt::tbc {

using func::ThreadMask;
using sm::SlotState;

namespace {

constexpr uint32_t kNoSlot = UINT32_MAX;

// Threads of 32-thread group g (PTX warp g of the CTA).
ThreadMask group_mask(uint32_t g) {
  ThreadMask m;
  m.set_word(g / 2, (g & 1) ? 0xffffffff00000000ull : 0x00000000ffffffffull);
  return m;
}

// Calls f(g) for every 32-thread group holding a thread of m.
template <class F>
void for_each_group(const ThreadMask& m, F&& f) {
  for (uint32_t i = 0; i < ThreadMask::kWords; ++i) {
    const uint64_t w = m.word(i);
    if (w & 0xffffffffull) f(2 * i);
    if (w >> 32) f(2 * i + 1);
  }
}

}  // namespace

// ---------------------------------------------------------------- slot edits

void DwfBranchUnit::uncount(uint32_t s) {
  const sm::WarpSlot& w = slots_[s];
  if (w.state != SlotState::Running) return;
  uint32_t n = w.mask.count();
  for (const sm::WarpPart& q : w.others) n += q.mask.count();
  kernels_[ctas_[w.cta].kernel].at_pc[w.pc] -= n;
}

void DwfBranchUnit::count(uint32_t s) {
  const sm::WarpSlot& w = slots_[s];
  if (w.state != SlotState::Running) return;
  uint32_t n = w.mask.count();
  for (const sm::WarpPart& q : w.others) n += q.mask.count();
  kernels_[ctas_[w.cta].kernel].at_pc[w.pc] += n;
}

void DwfBranchUnit::put(uint32_t s, uint32_t cta, uint32_t pc, const ThreadMask& m) {
  uncount(s);
  sm::WarpSlot& w = slots_[s];
  w.state = SlotState::Running;
  w.cta = cta;
  w.pc = pc;
  w.mask = m;
  w.scope = m;
  w.others.clear();
  w.depth = 1;
  count(s);
}

void DwfBranchUnit::put(uint32_t s, PoolWarp&& e) {
  put(s, e.cta, e.pc, e.mask);
  uncount(s);
  slots_[s].others = std::move(e.others);
  count(s);
}

ThreadMask* DwfBranchUnit::part_of(uint32_t cta, uint32_t& own_cta, ThreadMask& own,
                                   std::vector<sm::WarpPart>& others) {
  if (own_cta == cta) return &own;
  for (sm::WarpPart& q : others)
    if (q.cta == cta) return &q.mask;
  return nullptr;
}

void DwfBranchUnit::add(uint32_t s, uint32_t cta, const ThreadMask& m) {
  uncount(s);
  sm::WarpSlot& w = slots_[s];
  if (ThreadMask* part = part_of(cta, w.cta, w.mask, w.others)) *part |= m;
  else w.others.push_back(sm::WarpPart{cta, m});
  w.scope = w.mask;
  count(s);
}

void DwfBranchUnit::vacate(uint32_t s) {
  uncount(s);
  sm::WarpSlot& w = slots_[s];
  w.state = SlotState::Waiting;
  w.mask.clear();
  w.scope.clear();
  w.others.clear();
  w.depth = 0;
}

// ---------------------------------------------------------------- helpers

uint64_t DwfBranchUnit::lanes(const ThreadMask& m) const {
  uint64_t l = 0;
  if (warp_size_ == 64) {
    for (uint32_t i = 0; i < ThreadMask::kWords; ++i) l |= m.word(i);
  } else if (warp_size_ == 32) {
    for (uint32_t i = 0; i < ThreadMask::kWords; ++i) l |= (m.word(i) | (m.word(i) >> 32)) & 0xffffffffull;
  } else {
    m.for_each([&](uint32_t t) { l |= uint64_t{1} << (t % warp_size_); });
  }
  return l;
}

uint64_t DwfBranchUnit::lanes(const ThreadMask& m, const std::vector<sm::WarpPart>& others) const {
  uint64_t l = lanes(m);
  for (const sm::WarpPart& q : others) l |= lanes(q.mask);
  return l;
}

ThreadMask DwfBranchUnit::sync_members(const Cta& c, uint32_t group, uint32_t pc) const {
  const uint64_t live = c.threads.minus(c.exited).word(group / 2);
  uint64_t bits = ((group & 1) ? live >> 32 : live) & 0xffffffffull;
  bits &= kernels_[c.kernel].facts.members[pc];
  ThreadMask m;
  m.set_word(group / 2, (group & 1) ? bits << 32 : bits);
  return m;
}

uint32_t DwfBranchUnit::waiting_slot(const Cta& c, uint32_t prefer, bool own_only, uint32_t leaving) const {
  // SM pool: a slot another CTA reserved serves only CTAs of its kernel (the
  // issue stage fetches the reserving CTA's program for it).
  auto usable = [&](uint32_t t) {
    return slots_[t].state == SlotState::Waiting &&
           (!sm_pool_ || (ctas_[owner_[t]].kernel == c.kernel && owner_[t] != leaving));
  };
  if (prefer != kNoSlot && usable(prefer) && (!own_only || !sm_pool_ || owner_[prefer] == cta_index(c)))
    return prefer;
  for (uint32_t t : c.slots)
    if (slots_[t].state == SlotState::Waiting) return t;
  if (!sm_pool_ || own_only) return kNoSlot;
  for (uint32_t t : pool_slots_)
    if (usable(t)) return t;
  return kNoSlot;
}

bool DwfBranchUnit::can_merge_into(uint32_t cta, const ThreadMask& warp) const {
  // DWF-WB: a coherent static warp takes no one in (diverged threads only
  // regroup among themselves).
  return !wb_ || ctas_[cta].warps[warp.first() / warp_size_].diverged;
}

// ---------------------------------------------------------------- arrival

ThreadMask DwfBranchUnit::arrive(Cta& c, uint32_t pc, ThreadMask m) {
  const DwfKernelFacts& f = kernels_[c.kernel].facts;
  if (pc >= f.kind.size())
    throw kernel_fault("kernel '" + f.prog->kernel + "' CTA slot " + std::to_string(&c - ctas_.data()) +
                       ": control reached PC " + std::to_string(pc) + " past the end of the program");
  if (wb_) {
    for (uint32_t x = 0; x < c.warps.size() && m.any(); ++x) {
      StaticWarp& sw = c.warps[x];
      if (sw.barrier != pc) continue;
      const ThreadMask sub = m & c.static_mask[x];
      if (sub.none()) continue;
      sw.arrived |= sub;
      m = m.minus(sub);
      try_release_barrier(c, x);
    }
  }
  if (m.none()) return m;
  switch (f.kind[pc]) {
    case PcKind::WarpSync: {
      const ThreadMask in = m;
      for_each_group(in, [&](uint32_t g) {
        const ThreadMask sub = in & group_mask(g);
        size_t i = 0;
        while (i < c.syncs.size() && !(c.syncs[i].group == g && c.syncs[i].pc == pc)) ++i;
        const bool complete = sync_members(c, g, pc).minus(sub).none();
        if (i == c.syncs.size() && complete) return;  // the whole group is here: go on
        if (i == c.syncs.size()) c.syncs.push_back(Parked{g, pc, sub});
        else c.syncs[i].mask |= sub;
        m = m.minus(sub);
        try_release_sync(c, i);
      });
      break;
    }
    case PcKind::CtaBarrier: {
      size_t i = 0;
      while (i < c.gathered.size() && c.gathered[i].pc != pc) ++i;
      if (i == c.gathered.size()) c.gathered.push_back(Parked{0, pc, m});
      else c.gathered[i].mask |= m;
      m.clear();
      break;
    }
    case PcKind::Plain:
      break;
  }
  return m;
}

// ---------------------------------------------------------------- merging

void DwfBranchUnit::merge(Cta& c, ThreadMask g, uint32_t pc, uint32_t prefer) {
  const uint32_t ci = cta_index(c);
  // At a warp-synchronous PC a 32-thread group joins a warp only as a whole.
  const bool whole_groups = kernels_[c.kernel].facts.kind[pc] == PcKind::WarpSync;
  auto joiners = [&](uint64_t used) {
    ThreadMask take;
    if (whole_groups) {
      for_each_group(g, [&](uint32_t q) {
        const ThreadMask sub = g & group_mask(q);
        if (!(lanes(sub) & used)) take |= sub;
      });
    } else {
      g.for_each([&](uint32_t t) {
        if (!((used >> (t % warp_size_)) & 1)) take.set(t);
      });
    }
    return take;
  };
  uint32_t& lut = lut_of(c, pc);
  auto try_slot = [&](uint32_t t) {
    const sm::WarpSlot& w = slots_[t];
    if (g.none() || w.state != SlotState::Running || w.blocked || w.pc != pc) return;
    if (sm_pool_ && ctas_[w.cta].kernel != c.kernel) return;
    if (!can_merge_into(w.cta, w.mask)) return;
    const ThreadMask take = joiners(lanes(w.mask, w.others));
    if (take.none()) return;
    if (w.cta != ci || !w.others.empty()) *st_cross_cta_ += take.count();
    add(t, ci, take);
    g = g.minus(take);
    *st_merges_ += take.count();
    lut = t;
  };
  // DWF's warp LUT: the warp that last received threads at this PC first.
  const uint32_t first = lut;
  if (first != kNoSlot) try_slot(first);
  for (uint32_t t : slots_of(c))
    if (t != first) try_slot(t);
  for (PoolWarp& e : overflow_of(c)) {
    if (g.none()) break;
    if (e.pc != pc || (sm_pool_ && ctas_[e.cta].kernel != c.kernel) || !can_merge_into(e.cta, e.mask)) continue;
    const ThreadMask take = joiners(lanes(e.mask, e.others));
    if (take.none()) continue;
    if (e.cta != ci || !e.others.empty()) *st_cross_cta_ += take.count();
    if (ThreadMask* part = part_of(ci, e.cta, e.mask, e.others)) *part |= take;
    else e.others.push_back(sm::WarpPart{ci, take});
    g = g.minus(take);
    *st_merges_ += take.count();
  }
  if (g.any()) new_warp(c, g, pc, prefer);
}

void DwfBranchUnit::new_warp(Cta& c, const ThreadMask& g, uint32_t pc, uint32_t prefer) {
  if (static_cast<uint32_t>(__builtin_popcountll(lanes(g))) != g.count())
    throw std::logic_error("DwfBranchUnit: a new warp would hold two threads of one lane");
  if (!regrouping_) ++*st_new_warps_;
  const uint32_t s = waiting_slot(c, prefer);
  if (s != kNoSlot) {
    put(s, cta_index(c), pc, g);
    lut_of(c, pc) = s;
    return;
  }
  PoolWarp e;
  e.pc = pc;
  e.cta = cta_index(c);
  e.mask = g;
  overflow_of(c).push_back(std::move(e));
  ++*st_overflow_;
}

// ---------------------------------------------------------------- releases

void DwfBranchUnit::try_release_barrier(Cta& c, uint32_t x) {
  StaticWarp& sw = c.warps[x];
  if (c.static_mask[x].minus(c.exited).minus(sw.arrived).any()) return;
  if (sw.arrived.any()) c.pending.push_back(Release{sw.barrier, sw.arrived, false});
  sw = StaticWarp{};  // coherent again
}

bool DwfBranchUnit::try_release_sync(Cta& c, size_t i) {
  const Parked& p = c.syncs[i];
  if (sync_members(c, p.group, p.pc).minus(p.mask).any()) return false;
  c.pending.push_back(Release{p.pc, p.mask, false});
  ++*st_sync_regroups_;
  c.syncs.erase(c.syncs.begin() + static_cast<std::ptrdiff_t>(i));
  return true;
}

void DwfBranchUnit::place_release(Cta& c, const Release& rel) {
  const ThreadMask m = rel.checked ? rel.mask : arrive(c, rel.pc, rel.mask);
  if (m.none()) return;
  // Threads gathered at a CTA barrier execute it next and block in their
  // slot: they take only their CTA's slots (SM pool), so a CTA that
  // finishes never holds another's blocked warp.
  const bool own_only = rel.checked;
  const uint32_t s = waiting_slot(c, home_slot(c, m), own_only);
  if (s != kNoSlot) {
    put(s, cta_index(c), rel.pc, m);
    lut_of(c, rel.pc) = s;
    return;
  }
  PoolWarp e;
  e.pc = rel.pc;
  e.cta = cta_index(c);
  e.mask = m;
  e.own_slots = own_only;
  overflow_of(c).push_back(std::move(e));
  ++*st_overflow_;
}

void DwfBranchUnit::fill_from_overflow(Cta& c) {
  std::deque<PoolWarp>& q = overflow_of(c);
  if (!sm_pool_) {  // oldest first; the rest waits behind one that finds no slot
    while (!q.empty()) {
      const uint32_t s = waiting_slot(c, home_slot(c, q.front().mask));
      if (s == kNoSlot) return;
      const uint32_t pc = q.front().pc;
      put(s, std::move(q.front()));
      lut_of(c, pc) = s;
      q.pop_front();
    }
    return;
  }
  // SM pool: oldest first, each to a slot its CTAs may use.
  for (auto it = q.begin(); it != q.end();) {
    Cta& owner = ctas_[it->cta];
    const uint32_t s = waiting_slot(owner, home_slot(owner, it->mask), it->own_slots);
    if (s == kNoSlot) {
      ++it;
      continue;
    }
    const uint32_t pc = it->pc;
    put(s, std::move(*it));
    lut_of(owner, pc) = s;
    it = q.erase(it);
  }
}

void DwfBranchUnit::release_gathered(Cta& c) {
  std::vector<Parked> gathered;
  gathered.swap(c.gathered);
  for (const Parked& p : gathered)
    for (uint32_t x = 0; x < c.static_mask.size(); ++x) {
      const ThreadMask sub = p.mask & c.static_mask[x];
      if (sub.none()) continue;
      // DWF-WB: the whole static warp is together again and its barrier is
      // right after this one, where it will not be checked: it is restored.
      StaticWarp& sw = c.warps[x];
      if (wb_ && sw.barrier == p.pc + 1 && c.static_mask[x].minus(c.exited).minus(sub).none()) sw = StaticWarp{};
      c.pending.push_back(Release{p.pc, sub, true});
    }
}

bool DwfBranchUnit::can_issue(const Cta& c, uint32_t except_slot) const {
  const uint32_t ci = cta_index(c);
  for (uint32_t t : slots_of(c)) {
    const sm::WarpSlot& w = slots_[t];
    if (t == except_slot || w.state != SlotState::Running || w.blocked) continue;
    if (!sm_pool_ || w.cta == ci) return true;
    for (const sm::WarpPart& q : w.others)
      if (q.cta == ci) return true;
  }
  // SM pool: its threads in warps waiting for a slot will issue too (other
  // CTAs' warps may hold the slots they wait for; its own, once released
  // at the barrier, would not come free).
  if (sm_pool_)
    for (const PoolWarp& e : sm_overflow_) {
      if (e.cta == ci) return true;
      for (const sm::WarpPart& q : e.others)
        if (q.cta == ci) return true;
    }
  return false;
}

void DwfBranchUnit::settle(Cta& c, uint32_t blocking_slot) {
  for (;;) {
    for (size_t i = 0; i < c.pending.size(); ++i) {
      const Release rel = c.pending[i];  // placing may queue more
      place_release(c, rel);
    }
    c.pending.clear();
    fill_from_overflow(c);
    if (c.gathered.empty()) return;
    // Threads gathered at a CTA barrier wait until no warp of the CTA can
    // issue any more (normally: every live thread is there).
    if (can_issue(c, blocking_slot)) return;
    release_gathered(c);
  }
}

}  // namespace simt::tbc
