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
  if (w.state == SlotState::Running) kernels_[ctas_[w.cta].kernel].at_pc[w.pc] -= w.mask.count();
}

void DwfBranchUnit::count(uint32_t s) {
  const sm::WarpSlot& w = slots_[s];
  if (w.state == SlotState::Running) kernels_[ctas_[w.cta].kernel].at_pc[w.pc] += w.mask.count();
}

void DwfBranchUnit::put(uint32_t s, uint32_t pc, const ThreadMask& m) {
  uncount(s);
  sm::WarpSlot& w = slots_[s];
  w.state = SlotState::Running;
  w.pc = pc;
  w.mask = m;
  w.scope = m;
  w.depth = 1;
  count(s);
}

void DwfBranchUnit::add(uint32_t s, const ThreadMask& m) {
  uncount(s);
  sm::WarpSlot& w = slots_[s];
  w.mask |= m;
  w.scope = w.mask;
  count(s);
}

void DwfBranchUnit::vacate(uint32_t s) {
  uncount(s);
  sm::WarpSlot& w = slots_[s];
  w.state = SlotState::Waiting;
  w.mask.clear();
  w.scope.clear();
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

ThreadMask DwfBranchUnit::sync_members(const Cta& c, uint32_t group, uint32_t pc) const {
  const uint64_t live = c.threads.minus(c.exited).word(group / 2);
  uint64_t bits = ((group & 1) ? live >> 32 : live) & 0xffffffffull;
  bits &= kernels_[c.kernel].facts.members[pc];
  ThreadMask m;
  m.set_word(group / 2, (group & 1) ? bits << 32 : bits);
  return m;
}

uint32_t DwfBranchUnit::waiting_slot(const Cta& c, uint32_t prefer) const {
  if (prefer != kNoSlot && slots_[prefer].state == SlotState::Waiting) return prefer;
  for (uint32_t t : c.slots)
    if (slots_[t].state == SlotState::Waiting) return t;
  return kNoSlot;
}

bool DwfBranchUnit::can_merge_into(const Cta& c, const ThreadMask& warp) const {
  // DWF-WB: a coherent static warp takes no one in (diverged threads only
  // regroup among themselves).
  return !wb_ || c.warps[warp.first() / warp_size_].diverged;
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
  // At a warp-synchronous PC a 32-thread group joins a warp only as a whole.
  const bool whole_groups = kernels_[c.kernel].facts.kind[pc] == PcKind::WarpSync;
  auto joiners = [&](const ThreadMask& warp) {
    const uint64_t used = lanes(warp);
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
  auto try_slot = [&](uint32_t t) {
    const sm::WarpSlot& w = slots_[t];
    if (g.none() || w.state != SlotState::Running || w.blocked || w.pc != pc || !can_merge_into(c, w.mask)) return;
    const ThreadMask take = joiners(w.mask);
    if (take.none()) return;
    add(t, take);
    g = g.minus(take);
    *st_merges_ += take.count();
    c.lut[pc] = t;
  };
  // DWF's warp LUT: the warp that last received threads at this PC first.
  const uint32_t first = c.lut[pc];
  if (first != kNoSlot) try_slot(first);
  for (uint32_t t : c.slots)
    if (t != first) try_slot(t);
  for (PoolWarp& e : c.overflow) {
    if (g.none()) break;
    if (e.pc != pc || !can_merge_into(c, e.mask)) continue;
    const ThreadMask take = joiners(e.mask);
    e.mask |= take;
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
    put(s, pc, g);
    c.lut[pc] = s;
    return;
  }
  c.overflow.push_back(PoolWarp{pc, g});
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
  const uint32_t s = waiting_slot(c, c.slots[m.first() / warp_size_]);
  if (s != kNoSlot) {
    put(s, rel.pc, m);
    c.lut[rel.pc] = s;
    return;
  }
  c.overflow.push_back(PoolWarp{rel.pc, m});
  ++*st_overflow_;
}

void DwfBranchUnit::fill_from_overflow(Cta& c) {
  while (!c.overflow.empty()) {
    const PoolWarp& e = c.overflow.front();
    const uint32_t s = waiting_slot(c, c.slots[e.mask.first() / warp_size_]);
    if (s == kNoSlot) return;
    put(s, e.pc, e.mask);
    c.lut[e.pc] = s;
    c.overflow.pop_front();
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
    for (uint32_t t : c.slots) {
      const sm::WarpSlot& w = slots_[t];
      if (t != blocking_slot && w.state == SlotState::Running && !w.blocked) return;
    }
    release_gathered(c);
  }
}

}  // namespace simt::tbc
