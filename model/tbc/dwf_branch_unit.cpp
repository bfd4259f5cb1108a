// DWF branch unit: the protocol with the issue stage (CTA start, executed
// instructions, exits, retirement, statistics). The warp pool itself
// (merging, parking, releases) is in dwf_warp_pool.cpp.
#include "tbc/dwf_branch_unit.h"

#include <algorithm>
#include <stdexcept>

#include "util/error.h"

namespace simt::tbc {

using func::Control;
using func::ThreadMask;
using sm::SlotState;

namespace {
constexpr uint32_t kNoSlot = UINT32_MAX;
}  // namespace

DwfBranchUnit::DwfBranchUnit(uint32_t slots, uint32_t warp_size, bool warp_barrier, uint32_t extra_slots, Pool pool)
    : BranchUnit(slots, warp_size), wb_(warp_barrier), sm_pool_(pool == Pool::Sm), owner_(slots, 0) {
  ranks_warps_ = true;
  extra_slots_ = extra_slots;
  mixes_ctas_ = sm_pool_;
  if (warp_size < 1 || warp_size > 64) throw std::invalid_argument("DwfBranchUnit: warp size must be 1 to 64");
  st_merges_ = &own_[0];
  st_new_warps_ = &own_[1];
  st_overflow_ = &own_[2];
  st_wb_waits_ = &own_[3];
  st_sync_regroups_ = &own_[4];
  st_barrier_regroups_ = &own_[5];
  st_cross_cta_ = &own_[6];
}

void DwfBranchUnit::register_stats(stats::Registry& r, const std::string& prefix) {
  auto bind = [&](stats::Counter*& p, const char* name, const char* doc) {
    stats::Counter& c = r.counter(prefix + "." + name, doc);
    if (&c == p) return;
    c.value += p->value;  // keep what was counted before registration
    p = &c;
  };
  bind(st_merges_, "dwf_merges", "threads that joined an existing warp at a branch target");
  bind(st_new_warps_, "dwf_new_warps", "warps formed at branches because no warp at the PC had the lanes free");
  bind(st_overflow_, "dwf_overflow_events", "warps that found no free slot and waited in the overflow list");
  bind(st_wb_waits_, "warp_barrier_waits", "DWF-WB: static warps that waited at a warp barrier");
  bind(st_sync_regroups_, "warp_sync_regroups",
       "32-thread groups parked and regrouped for a warp-synchronous instruction");
  bind(st_barrier_regroups_, "dwf_barrier_regroups",
       "warps a CTA barrier released that dissolved and rejoined the warp pool");
  if (sm_pool_)
    bind(st_cross_cta_, "dwf_cross_cta_merges",
         "dwf.pool = sm: threads that joined a warp holding threads of another CTA");
}

DwfBranchUnit::Counts DwfBranchUnit::counts() const {
  Counts c;
  c.merges = st_merges_->value;
  c.new_warps = st_new_warps_->value;
  c.overflow_events = st_overflow_->value;
  c.warp_barrier_waits = st_wb_waits_->value;
  c.warp_sync_regroups = st_sync_regroups_->value;
  c.cross_cta_merges = st_cross_cta_->value;
  return c;
}

uint32_t DwfBranchUnit::take_max_depth() {
  const uint32_t d = max_depth_;
  max_depth_ = 0;
  return d;
}

uint32_t DwfBranchUnit::priority(uint32_t s) const {
  const sm::WarpSlot& w = slots_[s];
  if (w.state != SlotState::Running || w.cta >= ctas_.size() || !ctas_[w.cta].active) return 0;
  const std::vector<uint32_t>& at = kernels_[ctas_[w.cta].kernel].at_pc;
  return w.pc < at.size() ? at[w.pc] : 0;
}

std::string DwfBranchUnit::describe_cta(uint32_t cta) const {
  if (cta >= ctas_.size() || !ctas_[cta].active) return {};
  const Cta& c = ctas_[cta];
  uint32_t overflow = 0, at_barrier = 0, at_sync = 0, gathered = 0, elsewhere = 0;
  auto live = [&](const ThreadMask& m) { return m.minus(c.exited).count(); };
  for (const PoolWarp& e : sm_pool_ ? sm_overflow_ : c.overflow) {
    if (e.cta == cta) overflow += live(e.mask);
    for (const sm::WarpPart& q : e.others) overflow += q.cta == cta ? live(q.mask) : 0;
  }
  for (const StaticWarp& w : c.warps) at_barrier += live(w.arrived);
  for (const Parked& p : c.syncs) at_sync += live(p.mask);
  for (const Parked& p : c.gathered) gathered += live(p.mask);
  for (uint32_t t : slots_of(c)) {
    const sm::WarpSlot& w = slots_[t];
    if (w.state != SlotState::Running) continue;
    for (const sm::WarpPart& q : w.others) elsewhere += q.cta == cta ? live(q.mask) : 0;
    if (w.cta == cta && std::find(c.slots.begin(), c.slots.end(), t) == c.slots.end()) elsewhere += live(w.mask);
  }
  std::string s;
  auto add = [&](uint32_t n, const char* what) {
    if (n) s += "; " + std::to_string(n) + " threads " + what;
  };
  add(overflow, "wait for a warp slot (DWF overflow list)");
  add(at_barrier, "wait at DWF-WB warp barriers");
  add(at_sync, "wait for their 32-thread group at warp-synchronous instructions");
  add(gathered, "are gathered at a CTA barrier until no warp of the CTA can issue");
  add(elsewhere, "run in warps of other CTAs' slots (dwf.pool = sm)");
  return s;
}

size_t DwfBranchUnit::overflow_warps(uint32_t cta) const {
  if (!sm_pool_) return ctas_.at(cta).overflow.size();
  size_t n = 0;
  for (const PoolWarp& e : sm_overflow_) {
    bool has = e.cta == cta;
    for (const sm::WarpPart& q : e.others) has = has || q.cta == cta;
    n += has;
  }
  return n;
}

ThreadMask DwfBranchUnit::waiting_threads(uint32_t cta) const {
  const Cta& c = ctas_.at(cta);
  ThreadMask m;
  for (const StaticWarp& w : c.warps) m |= w.arrived;
  for (const Parked& p : c.syncs) m |= p.mask;
  for (const Parked& p : c.gathered) m |= p.mask;
  return m;
}

std::string DwfBranchUnit::where(const Cta& c, uint32_t pc) const {
  const ptx::Program& prog = *kernels_[c.kernel].facts.prog;
  std::string s = "kernel '" + prog.kernel + "' CTA slot " + std::to_string(&c - ctas_.data()) + " PC " +
                  std::to_string(pc);
  if (pc < prog.code.size()) s += " (line " + std::to_string(prog.code[pc].line) + ")";
  return s;
}

// ---------------------------------------------------------------- CTA start

// DWF-WB keeps a coherent static warp as one warp; a 32-thread group
// straddling two static warps would split it at a warp-sync instruction.
void DwfBranchUnit::refuse_warp_sync(const DwfKernelFacts& f) const {
  if (wb_ && f.has_warp_sync && warp_size_ % 32 != 0)
    throw input_error("kernel '" + f.prog->kernel + "': the dwf-wb branch unit runs warp-synchronous instructions "
                      "only with a warp size that is a multiple of 32 (warp size " + std::to_string(warp_size_) + ")");
}

// What start_cta would refuse (analyse_dwf_kernel: calls, warp-synchronous
// instructions at narrow warps), before the launch starts.
void DwfBranchUnit::check_kernel(const sm::BranchKernel& k) const {
  refuse_warp_sync(analyse_dwf_kernel(*k.prog, *k.cfg, warp_size_, name()));
}

uint32_t DwfBranchUnit::kernel_entry(const sm::BranchKernel& k) {
  for (uint32_t i = 0; i < kernels_.size(); ++i)
    if (kernels_[i].ctas > 0 && kernels_[i].facts.prog == k.prog) return i;
  // Analyse before touching any state, so a refused kernel leaves none.
  DwfKernelFacts f = analyse_dwf_kernel(*k.prog, *k.cfg, warp_size_, name());
  uint32_t i = 0;
  while (i < kernels_.size() && kernels_[i].ctas > 0) ++i;
  if (i == kernels_.size()) kernels_.emplace_back();
  Kernel& e = kernels_[i];
  e.facts = std::move(f);
  e.at_pc.assign(k.prog->code.size(), 0);
  e.lut.assign(k.prog->code.size(), kNoSlot);
  e.ctas = 0;
  return i;
}

void DwfBranchUnit::start_cta(uint32_t cta, const sm::BranchKernel& k, const ThreadMask& threads,
                              const std::vector<uint32_t>& warp_slots) {
  if (!k.prog || !k.cfg || k.prog->code.empty()) throw std::logic_error("DwfBranchUnit: start_cta without a kernel");
  const uint32_t n = threads.count();
  if (n == 0 || threads != ThreadMask::range(0, n))
    throw std::logic_error("DwfBranchUnit: a CTA's threads must be 0..n-1");
  const uint32_t nwarps = (n + warp_size_ - 1) / warp_size_;
  if (warp_slots.size() < nwarps) throw std::logic_error("DwfBranchUnit: fewer slots than static warps");
  for (uint32_t s : warp_slots)
    if (s >= num_slots() || slots_[s].state != SlotState::Free)
      throw std::logic_error("DwfBranchUnit: start_cta got a slot that is not free");
  if (cta >= ctas_.size()) ctas_.resize(cta + 1);
  if (ctas_[cta].active) throw std::logic_error("DwfBranchUnit: CTA slot started twice");
  const uint32_t ki = kernel_entry(k);
  refuse_warp_sync(kernels_[ki].facts);

  Cta& c = ctas_[cta];
  c = Cta{};
  c.active = true;
  c.kernel = ki;
  c.n = n;
  c.threads = threads;
  c.slots = warp_slots;
  for (uint32_t i = 0; i < nwarps; ++i)
    c.static_mask.push_back(ThreadMask::range(i * warp_size_, std::min(warp_size_, n - i * warp_size_)));
  c.warps.assign(nwarps, StaticWarp{});
  c.lut.assign(k.prog->code.size(), kNoSlot);
  ++kernels_[ki].ctas;
  if (sm_pool_) {
    for (uint32_t s : warp_slots) owner_[s] = cta;
    pool_slots_.insert(pool_slots_.end(), warp_slots.begin(), warp_slots.end());
    std::sort(pool_slots_.begin(), pool_slots_.end());
  }

  // Extra slots beyond the static warps (if the issue stage ever grants
  // them) start empty and hold formed warps later.
  for (uint32_t s : warp_slots) {
    sm::WarpSlot& w = slots_[s];
    w.state = SlotState::Waiting;
    w.cta = cta;
    w.pc = 0;
    w.mask.clear();
    w.scope.clear();
    w.depth = 0;
    w.blocked = false;
    touch(s);
  }
  for (uint32_t i = 0; i < nwarps; ++i) {
    const uint32_t s = warp_slots[i];
    put(s, cta, 0, c.static_mask[i]);
    const ThreadMask keep = arrive(c, 0, c.static_mask[i]);  // pc 0 may be a barrier or warp-sync
    if (keep == c.static_mask[i]) continue;
    if (keep.none()) vacate(s);
    else put(s, cta, 0, keep);
  }
  settle(c, kNoSlot);
  max_depth_ = 1;
}

// ---------------------------------------------------------------- execution

void DwfBranchUnit::executed(uint32_t s, const ptx::Instr&, const func::StepResult& r,
                             const ThreadMask& exited) {
  if (s >= num_slots() || slots_[s].state != SlotState::Running || slots_[s].cta >= ctas_.size() ||
      !ctas_[slots_[s].cta].active)
    throw std::logic_error("DwfBranchUnit: executed() for a slot without a running warp");
  Cta& c = ctas_[slots_[s].cta];
  const DwfKernelFacts& f = kernels_[c.kernel].facts;
  const uint32_t pc = slots_[s].pc;
  const uint32_t code_size = static_cast<uint32_t>(f.kind.size());
  max_depth_ = 1;
  if (f.kind[pc] == PcKind::WarpSync) check_warp_sync(c, slots_[s].mask, pc);

  snapshot(c);

  c.exited = exited & c.threads;
  const ThreadMask live = slots_[s].mask.minus(c.exited);
  const bool someone_exited = live != slots_[s].mask;
  uint32_t blocking = kNoSlot;
  switch (r.control) {
    case Control::Next:
    case Control::Exit:
      advance(s, live, pc + 1);
      break;
    case Control::Barrier:
      // The issue stage now counts this slot's threads at the barrier and
      // blocks it: the warp stays as it is (see the header).
      if (live.none()) {
        vacate(s);
        break;
      }
      if (pc + 1 >= code_size)
        throw kernel_fault(where(c, pc) + ": control runs past the end of the program");
      put(s, slots_[s].cta, pc + 1, live);
      if (!r.bar_arrive) blocking = s;
      break;
    case Control::Branch:
      if (r.target >= code_size)
        throw kernel_fault(where(c, pc) + ": branch target PC " + std::to_string(r.target) +
                           " is past the end of the program");
      branch(s, live, pc, r);
      break;
    case Control::Call:
    case Control::Ret:
      throw kernel_fault(where(c, pc) + ": the " + std::string(name()) + " branch unit cannot follow calls and returns");
    case Control::Fault:
      throw kernel_fault(where(c, pc) + ": " + r.fault.message);
  }
  if (someone_exited) recheck_after_exit(c);
  settle(c, blocking);
  if (c.threads.minus(c.exited).none()) retire(c);
  touch_changed(c, s, pc + 1);
}

void DwfBranchUnit::barrier_released(uint32_t cta, const std::vector<uint32_t>& released) {
  if (cta >= ctas_.size() || !ctas_[cta].active) return;
  Cta& c = ctas_[cta];
  snapshot(c);
  // Fung et al. regroup after a barrier as after a branch: each released
  // warp dissolves and its threads join the pool at the PC after the
  // barrier (where a warp barrier, a warp-synchronous instruction or the
  // next CTA barrier is checked as on any arrival).
  // All released warps dissolve first, so none merges into another that
  // dissolves after it.
  regroup_.clear();
  for (uint32_t s : released) {
    const sm::WarpSlot& w = slots_[s];
    if (w.cta != cta || w.state != SlotState::Running || w.blocked) continue;
    regroup_.push_back(Regroup{s, w.pc, w.mask.minus(c.exited)});
    vacate(s);
    ++*st_barrier_regroups_;
  }
  fill_from_overflow(c);
  regrouping_ = true;
  for (const Regroup& r : regroup_) {
    const ThreadMask g = r.mask.any() ? arrive(c, r.pc, r.mask) : r.mask;
    if (g.any()) merge(c, g, r.pc, r.slot);
  }
  regrouping_ = false;
  settle(c, kNoSlot);
  touch_changed(c, kNoSlot, 0);
}

void DwfBranchUnit::snapshot(const Cta& c) {
  // What the slots looked like, to bump the versions of those that changed.
  snap_slots_ = slots_of(c);  // a copy: a CTA retiring meanwhile shrinks the SM pool's list
  snap_state_.clear();
  snap_pc_.clear();
  for (uint32_t t : snap_slots_) {
    snap_state_.push_back(slots_[t].state);
    snap_pc_.push_back(slots_[t].pc);
  }
}

void DwfBranchUnit::touch_changed(const Cta&, uint32_t advanced, uint32_t next_pc) {
  for (size_t i = 0; i < snap_slots_.size(); ++i) {
    const uint32_t t = snap_slots_[i];
    const sm::WarpSlot& w = slots_[t];
    // Slot `advanced` moving on to next_pc is the one plain advance.
    const uint32_t expect_pc = t == advanced ? next_pc : snap_pc_[i];
    const bool same = w.state == snap_state_[i] && (w.state != SlotState::Running || w.pc == expect_pc);
    if (!same) touch(t);
  }
}

void DwfBranchUnit::advance(uint32_t s, const ThreadMask& live, uint32_t next) {
  if (live.none()) {
    vacate(s);
    return;
  }
  const uint32_t ci = slots_[s].cta;
  const ThreadMask keep = arrive(ctas_[ci], next, live);  // checks `next` first
  if (keep.none()) vacate(s);
  else put(s, ci, next, keep);
}

void DwfBranchUnit::branch(uint32_t s, const ThreadMask& live, uint32_t pc, const func::StepResult& r) {
  Cta& c = ctas_[slots_[s].cta];
  if (live.none()) {
    vacate(s);
    return;
  }
  const ThreadMask taken = live & r.taken;
  const ThreadMask fall = live.minus(taken);
  if (wb_) {
    const uint32_t x = live.first() / warp_size_;
    StaticWarp& sw = c.warps[x];
    if (!sw.diverged) {
      if (live.minus(c.static_mask[x]).any())
        throw std::logic_error("DwfBranchUnit: a coherent warp holds threads of another static warp");
      if (taken.none() || fall.none()) {  // no divergence: the static warp just jumps
        const uint32_t to = taken.any() ? r.target : pc + 1;
        if (overflow_of(c).empty()) {
          advance(s, live, to);
          return;
        }
        // Warps wait for a slot: this one yields its slot to the oldest, as
        // a dissolving DWF warp does, and goes on as one warp.
        vacate(s);
        fill_from_overflow(c);
        c.pending.push_back(Release{to, live, false});
        return;
      }
      // Top-level divergence: the static warp waits for itself at the IPDOM.
      const ptx::Cfg& cfg = *kernels_[c.kernel].facts.cfg;
      const ptx::BranchInfo* bi = cfg.branch(pc);
      sw.diverged = true;
      sw.barrier = bi ? bi->reconv_pc : cfg.reconv_pc(pc);
      sw.arrived.clear();
      if (sw.barrier != ptx::kNoPc) ++*st_wb_waits_;
    }
  }
  // The warp dissolves: its slot is free for the oldest overflow warp, then
  // each outcome joins the pool at its PC.
  vacate(s);
  fill_from_overflow(c);
  join_outcomes(c, taken, fall, pc, r.target, s);
}

void DwfBranchUnit::join_outcomes(Cta& c, const ThreadMask& taken, const ThreadMask& fall, uint32_t pc,
                                  uint32_t target, uint32_t prefer) {
  if (taken.any()) {
    const ThreadMask g = arrive(c, target, taken);
    if (g.any()) merge(c, g, target, prefer);
  }
  if (fall.any()) {
    const ThreadMask g = arrive(c, pc + 1, fall);
    if (g.any()) merge(c, g, pc + 1, prefer);
  }
}

void DwfBranchUnit::check_warp_sync(const Cta& c, const ThreadMask& m, uint32_t pc) const {
  for (uint32_t i = 0; i < ThreadMask::kWords; ++i) {
    const uint64_t w = m.word(i);
    for (uint32_t half = 0; half < 2; ++half) {
      if (!((w >> (32 * half)) & 0xffffffffu)) continue;
      const uint32_t g = 2 * i + half;
      const ThreadMask missing = sync_members(c, g, pc).minus(m);
      if (missing.any())
        throw std::logic_error(where(c, pc) + ": DwfBranchUnit: a warp executes a warp-synchronous instruction "
                               "without thread " + std::to_string(missing.first()) + " of its 32-thread group");
    }
  }
}

void DwfBranchUnit::recheck_after_exit(Cta& c) {
  // Exited threads count as arrived at warp barriers and warp-sync points.
  if (wb_)
    for (uint32_t x = 0; x < c.warps.size(); ++x)
      if (c.warps[x].barrier != ptx::kNoPc) try_release_barrier(c, x);
  for (size_t i = 0; i < c.syncs.size();)
    if (!try_release_sync(c, i)) ++i;
}

void DwfBranchUnit::retire(Cta& c) {
  const uint32_t ci = cta_index(c);
  bool waiting = !c.syncs.empty() || !c.gathered.empty() || !c.pending.empty() || overflow_warps(ci) > 0;
  for (uint32_t t : slots_of(c)) {
    const sm::WarpSlot& w = slots_[t];
    if (w.state != SlotState::Running) continue;
    waiting = waiting || (w.cta == ci && w.mask.minus(c.exited).any());
    for (const sm::WarpPart& q : w.others) waiting = waiting || (q.cta == ci && q.mask.minus(c.exited).any());
  }
  if (waiting) throw std::logic_error("DwfBranchUnit: a finished CTA still has waiting threads");
  if (sm_pool_) evict_foreign_warps(c);
  for (uint32_t t : c.slots) {
    uncount(t);
    sm::WarpSlot& w = slots_[t];
    w.state = SlotState::Retired;
    w.mask.clear();
    w.scope.clear();
    w.others.clear();
    w.depth = 0;
    w.blocked = false;
    if (sm_pool_) touch(t);
  }
  if (sm_pool_)
    pool_slots_.erase(std::remove_if(pool_slots_.begin(), pool_slots_.end(),
                                     [&](uint32_t t) { return owner_[t] == ci; }),
                      pool_slots_.end());
  --kernels_[c.kernel].ctas;
  c.active = false;  // c.slots stays for executed()'s version bumps
}

void DwfBranchUnit::evict_foreign_warps(const Cta& c) {
  // SM pool: the CTA's slots leave with it; warps of other CTAs in them move
  // to another free slot of their kernel or wait in the overflow list (a
  // refetch; in the hardware the warp's pool entry would not move).
  const uint32_t ci = cta_index(c);
  for (uint32_t t : c.slots) {
    sm::WarpSlot& w = slots_[t];
    if (w.state != SlotState::Running) continue;
    if (w.blocked) throw std::logic_error("DwfBranchUnit: a warp blocked at a barrier in another CTA's slot");
    PoolWarp e;
    e.pc = w.pc;
    e.cta = w.cta;
    e.mask = w.mask;
    e.others = w.others;
    vacate(t);
    touch(t);
    Cta& owner = ctas_[e.cta];
    const uint32_t s = waiting_slot(owner, kNoSlot, false, ci);  // never a slot that is leaving too
    if (s == kNoSlot) {
      sm_overflow_.push_back(std::move(e));
      ++*st_overflow_;
      continue;
    }
    const uint32_t pc = e.pc;
    put(s, std::move(e));
    lut_of(owner, pc) = s;
    touch(s);
  }
}

// A warp with threads of several CTAs (SM pool) executed: each part moves
// on as a single-CTA warp would, and they stay together where they can.
void DwfBranchUnit::executed_parts(uint32_t s, const ptx::Instr&, const std::vector<sm::PartStep>& parts) {
  if (!sm_pool_ || s >= num_slots() || slots_[s].state != SlotState::Running || parts.size() != 1 + slots_[s].others.size())
    throw std::logic_error("DwfBranchUnit: executed_parts() for a slot without a running warp of those parts");
  const uint32_t pc = slots_[s].pc;
  const DwfKernelFacts& f = kernels_[ctas_[slots_[s].cta].kernel].facts;
  const uint32_t code_size = static_cast<uint32_t>(f.kind.size());
  max_depth_ = 1;
  lives_.clear();
  bool someone_exited = false;
  for (size_t k = 0; k < parts.size(); ++k) {
    Cta& c = ctas_[parts[k].cta];
    const ThreadMask& m = k == 0 ? slots_[s].mask : slots_[s].others[k - 1].mask;
    if (!c.active || parts[k].cta != (k == 0 ? slots_[s].cta : slots_[s].others[k - 1].cta))
      throw std::logic_error("DwfBranchUnit: executed_parts() parts do not match the slot");
    if (f.kind[pc] == PcKind::WarpSync) check_warp_sync(c, m, pc);
    c.exited = *parts[k].exited & c.threads;
    lives_.push_back(Live{parts[k].cta, m.minus(c.exited), parts[k].r});
    someone_exited = someone_exited || lives_.back().mask != m;
  }
  Cta& first = ctas_[lives_[0].cta];
  snapshot(first);
  const func::StepResult& r = *lives_[0].r;
  if (r.control == Control::Barrier && !r.bar_arrive)
    throw std::logic_error("DwfBranchUnit: a warp of several CTAs reached a waiting CTA barrier");
  switch (r.control) {
    case Control::Next:
    case Control::Exit:
    case Control::Barrier: {  // bar.arrive: the issue stage counted each part at its CTA's barrier
      // Each part's live threads arrive at pc + 1 in their CTA (arrive()
      // refuses a PC past the end); those that go on stay one warp.
      PoolWarp keep;
      keep.pc = pc + 1;
      bool any = false;
      for (const Live& l : lives_) {
        const ThreadMask m = l.mask.any() ? arrive(ctas_[l.cta], pc + 1, l.mask) : l.mask;
        if (m.none()) continue;
        if (!any) keep.cta = l.cta, keep.mask = m;
        else keep.others.push_back(sm::WarpPart{l.cta, m});
        any = true;
      }
      if (any) put(s, std::move(keep));
      else vacate(s);
      break;
    }
    case Control::Branch:
      if (r.target >= code_size)
        throw kernel_fault(where(first, pc) + ": branch target PC " + std::to_string(r.target) +
                           " is past the end of the program");
      // The warp dissolves; each part's outcomes join the pool.
      vacate(s);
      fill_from_overflow(first);
      for (const Live& l : lives_) {
        Cta& c = ctas_[l.cta];
        if (wb_ && l.mask.any() && !c.warps[l.mask.first() / warp_size_].diverged)
          throw std::logic_error("DwfBranchUnit: a coherent static warp in a warp of several CTAs");
        const ThreadMask taken = l.mask & l.r->taken;
        join_outcomes(c, taken, l.mask.minus(taken), pc, r.target, s);
      }
      break;
    case Control::Call:
    case Control::Ret:
      throw kernel_fault(where(first, pc) + ": the " + std::string(name()) + " branch unit cannot follow calls and returns");
    case Control::Fault:
      throw kernel_fault(where(first, pc) + ": " + r.fault.message);
  }
  for (const Live& l : lives_) {
    Cta& c = ctas_[l.cta];
    if (someone_exited) recheck_after_exit(c);
    settle(c, kNoSlot);
  }
  for (const Live& l : lives_) {
    Cta& c = ctas_[l.cta];
    if (c.active && c.threads.minus(c.exited).none()) retire(c);
  }
  touch_changed(first, s, pc + 1);
}

}  // namespace simt::tbc
