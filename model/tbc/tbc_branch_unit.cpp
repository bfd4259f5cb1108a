#include "tbc/tbc_branch_unit.h"

#include <algorithm>
#include <stdexcept>

#include "stats/stats.h"
#include "tbc/thread_compactor.h"
#include "util/error.h"

namespace simt::tbc {

using func::ThreadMask;
using sm::SlotState;
using sm::WarpSlot;

// Counters point at local ones until register_stats() binds the registry's.
struct TbcBranchUnit::Counters {
  stats::Counter local[9];
  stats::Counter* compaction_events = &local[0];
  stats::Counter* static_warps = &local[1];
  stats::Counter* generated_warps = &local[2];
  stats::Counter* pushes = &local[3];
  stats::Counter* pops = &local[4];
  stats::Counter* empty_pops = &local[5];
  stats::Counter* likely_merges = &local[6];
  stats::Counter* sync_waits = &local[7];
  stats::Counter* max_depth = &local[8];
};

namespace {

bool warp_synchronous(ptx::Op op) {
  return op == ptx::Op::Vote || op == ptx::Op::Shfl || op == ptx::Op::Match || op == ptx::Op::Redux ||
         op == ptx::Op::BarWarp;
}

// Threads of 32-thread PTX warp g (the executor's grouping for warp-level ops).
uint32_t group_bits(const ThreadMask& m, uint32_t g) {
  return static_cast<uint32_t>(m.word(g / 2) >> (32 * (g & 1)));
}

}  // namespace

TbcBranchUnit::TbcBranchUnit(uint32_t slots, uint32_t warp_size, Scope scope, bool compact, bool likely)
    : BranchUnit(slots, warp_size),
      scope_(scope),
      compact_(compact),
      likely_(likely),
      warp_stacks_(slots),
      st_(std::make_unique<Counters>()) {
  if (warp_size < 1 || warp_size > kMaxWarpSize)
    throw std::invalid_argument("tbc branch unit: warp size " + std::to_string(warp_size) + " outside 1.." +
                                std::to_string(kMaxWarpSize));
  cta_stacks_ = scope == Scope::Cta;
}

TbcBranchUnit::~TbcBranchUnit() = default;

const char* TbcBranchUnit::name() const {
  if (scope_ == Scope::Warp) return likely_ ? "pdom-lcp" : "pdom-block";
  return compact_ ? "tbc" : "tbc-static";
}

void TbcBranchUnit::register_stats(stats::Registry& r, const std::string& prefix) {
  Counters& c = *st_;
  c.compaction_events = &r.counter(prefix + ".compaction_events", "block-wide masks sent to the compactor with compaction on");
  c.static_warps = &r.counter(prefix + ".static_warps", "warps the dispatched masks occupy as static warps");
  c.generated_warps = &r.counter(prefix + ".generated_warps", "warps dispatched from block-wide masks");
  c.pushes = &r.counter(prefix + ".stack_pushes", "reconvergence stack entries pushed");
  c.pops = &r.counter(prefix + ".stack_pops", "reconvergence stack entries popped");
  c.empty_pops = &r.counter(prefix + ".empty_pops", "entries popped because no thread took that side");
  c.likely_merges = &r.counter(prefix + ".likely_merges", "entries merged at a likely-convergence point");
  c.sync_waits = &r.counter(prefix + ".sync_waits", "warps that parked at a branch or (likely) reconvergence point");
  c.max_depth = &r.counter(prefix + ".max_stack_depth", "deepest reconvergence stack");
}

uint32_t TbcBranchUnit::take_max_depth() {
  const uint32_t d = max_depth_;
  max_depth_ = 0;
  return d;
}

const BlockStack* TbcBranchUnit::cta_stack(uint32_t cta) const {
  return cta < ctas_.size() ? ctas_[cta].stack.get() : nullptr;
}

const BlockStack* TbcBranchUnit::warp_stack(uint32_t s) const {
  return s < warp_stacks_.size() ? warp_stacks_[s].get() : nullptr;
}

BlockStack& TbcBranchUnit::stack_of(uint32_t s) {
  BlockStack* st = scope_ == Scope::Cta ? ctas_[slots_[s].cta].stack.get() : warp_stacks_[s].get();
  if (!st) throw std::logic_error(std::string(name()) + ": slot " + std::to_string(s) + " has no stack");
  return *st;
}

std::string TbcBranchUnit::where(uint32_t s, uint32_t pc) const {
  const uint32_t cta = slots_[s].cta;
  const ptx::Program* p = cta < ctas_.size() ? ctas_[cta].k.prog : nullptr;
  return "kernel '" + (p ? p->kernel : std::string("?")) + "' CTA " + std::to_string(cta) + " pc " +
         std::to_string(pc) + ": ";
}

// ---------------------------------------------------------------- CTA start

void TbcBranchUnit::start_cta(uint32_t cta, const sm::BranchKernel& k, const ThreadMask& threads,
                              const std::vector<uint32_t>& warp_slots) {
  if (!k.prog || !k.cfg) throw std::logic_error(std::string(name()) + ": start_cta without a kernel");
  const uint32_t n = threads.count();
  if (warp_slots.size() != (n + warp_size_ - 1) / warp_size_)
    throw std::logic_error(std::string(name()) + ": CTA of " + std::to_string(n) + " threads given " +
                           std::to_string(warp_slots.size()) + " warp slots");
  if (cta >= ctas_.size()) ctas_.resize(cta + 1);
  Cta& c = ctas_[cta];
  if (c.live) throw std::logic_error(std::string(name()) + ": CTA slot " + std::to_string(cta) + " is running");
  c.live = true;
  c.k = k;
  c.slots = warp_slots;
  c.threads = n;
  c.running = static_cast<uint32_t>(warp_slots.size());
  if (scope_ == Scope::Cta) c.stack = std::make_unique<BlockStack>(warp_size_, threads, 0, compact_);
  for (uint32_t i = 0; i < warp_slots.size(); ++i) {
    const uint32_t s = warp_slots[i];
    if (s >= num_slots() || slots_[s].state != SlotState::Free)
      throw std::logic_error(std::string(name()) + ": warp slot " + std::to_string(s) + " is not free");
    // All threads are active at launch: the static warps are the compacted warps.
    const ThreadMask w = threads & ThreadMask::range(i * warp_size_, warp_size_);
    slots_[s].cta = cta;
    if (scope_ == Scope::Warp) warp_stacks_[s] = std::make_unique<BlockStack>(warp_size_, w, 0, true);
    place(s, 0, w, w);
  }
  if (warp_slots.empty()) {  // no thread: nothing will ever run
    c.live = false;
    c.stack.reset();
  }
}

// ---------------------------------------------------------------- execution

void TbcBranchUnit::executed(uint32_t s, const ptx::Instr& in, const func::StepResult& r,
                             const ThreadMask& exited) {
  if (s >= num_slots() || slots_[s].state != SlotState::Running)
    throw std::logic_error(std::string(name()) + ": executed() on slot " + std::to_string(s) + " that is not running");
  const WarpSlot& w = slots_[s];
  const uint32_t pc = w.pc;
  const ThreadMask live = w.mask.minus(exited);
  if (scope_ == Scope::Cta && compact_ && warp_synchronous(in.op)) check_warp_sync(s, in, live);
  switch (r.control) {
    case func::Control::Next:
    case func::Control::Barrier:
      move_to(s, pc + 1, false, live);
      break;
    case func::Control::Branch:
      branch(s, r, live);
      break;
    case func::Control::Exit:
      exit(s, exited);
      break;
    case func::Control::Call:
    case func::Control::Ret:
      throw kernel_fault(where(s, pc) + "call or return under the " + name() + " branch unit");
    case func::Control::Fault:
      break;  // the issue stage reports it
  }
}

void TbcBranchUnit::check_warp_sync(uint32_t s, const ptx::Instr& in, const ThreadMask& live) {
  // Every thread of the entry that belongs to a 32-thread PTX warp this warp
  // touches must run with it, or the warp-level operation sees a partial warp.
  const ThreadMask entry = stack_of(s).executing().mask;
  for (uint32_t g = 0; g < func::kMaxCtaThreads / 32; ++g) {
    const uint32_t mine = group_bits(live, g);
    if (mine && (group_bits(entry, g) & ~mine))
      throw kernel_fault(where(s, slots_[s].pc) + "warp-synchronous '" + ptx::op_name(in.op) +
                         "' ran in a compacted warp that splits a 32-thread warp; run it with "
                         "tbc.compaction = false (seed 001 §3.2)");
  }
}

void TbcBranchUnit::move_to(uint32_t s, uint32_t pc, bool jump, const ThreadMask& live) {
  BlockStack& st = stack_of(s);
  if (st.is_reconv_point(pc)) {
    park(s, true);
    handle(s, run(s, [&] { return st.arrive_reconv(pc, live); }));
  } else if (st.is_likely_point(pc)) {
    park(s, true);
    handle(s, run(s, [&] { return st.arrive_likely(pc, live); }));
  } else {
    slots_[s].pc = pc;
    if (jump) touch(s);
  }
}

void TbcBranchUnit::branch(uint32_t s, const func::StepResult& r, const ThreadMask& live) {
  const uint32_t pc = slots_[s].pc;
  const ptx::BranchInfo* b = ctas_[slots_[s].cta].k.cfg->branch(pc);
  if (!b) throw kernel_fault(where(s, pc) + "a branch outcome at an instruction that is not a bra");
  const ThreadMask taken = r.taken & live;
  const bool split = taken.any() && live.minus(taken).any();
  if (!split && (b->uniform || scope_ == Scope::Warp)) {
    // No synchronisation: bra.uni (seed 001 §3.1), or a per-warp stack that
    // pushes only on divergence, as PDOM does.
    if (taken.any())
      move_to(s, r.target, r.target != pc + 1, live);
    else
      move_to(s, pc + 1, false, live);
    return;
  }
  if (b->uniform && scope_ == Scope::Cta)
    throw kernel_fault(where(s, pc) + "bra.uni diverged inside a compacted warp");
  BlockStack& st = stack_of(s);
  uint32_t rpc = b->reconv_pc;
  if (rpc == ptx::kNoPc) rpc = st.executing().rpc;  // reconverges where the enclosing entry does
  const uint32_t lpc = likely_ ? b->likely_pc : kNoPc;
  park(s, true);
  handle(s, run(s, [&] { return st.arrive_branch(pc, taken, live, rpc, lpc, r.target, pc + 1); }));
}

void TbcBranchUnit::exit(uint32_t s, const ThreadMask& exited) {
  BlockStack& st = stack_of(s);
  const WarpSlot& w = slots_[s];
  st.exit_threads(w.mask & exited);
  const ThreadMask live = w.mask.minus(exited);
  if (live.any()) {
    move_to(s, w.pc + 1, false, live);  // a partial exit: the others go on
    return;
  }
  const ThreadMask threads = w.mask;
  park(s, false);
  handle(s, run(s, [&] { return st.arrive_exit(threads); }));
}

// ---------------------------------------------------------------- slots

void TbcBranchUnit::park(uint32_t s, bool sync_wait) {
  slots_[s].state = SlotState::Waiting;
  touch(s);
  if (sync_wait && scope_ == Scope::Cta) ++*st_->sync_waits;
}

void TbcBranchUnit::place(uint32_t s, uint32_t pc, const ThreadMask& mask, const ThreadMask& scope) {
  WarpSlot& w = slots_[s];
  w.state = SlotState::Running;
  w.pc = pc;
  w.mask = mask;
  w.scope = scope;
  w.depth = stack_of(s).depth();
  touch(s);
  max_depth_ = std::max(max_depth_, w.depth);
  st_->max_depth->value = std::max<uint64_t>(st_->max_depth->value, w.depth);
}

void TbcBranchUnit::retire(uint32_t s) {
  slots_[s].state = SlotState::Retired;
  touch(s);
}

template <class F>
Dispatch TbcBranchUnit::run(uint32_t s, F&& op) {
  BlockStack& st = stack_of(s);
  const BlockStackStats before = st.stats();
  Dispatch d;
  try {
    d = op();
  } catch (const SyncConflict& e) {
    throw kernel_fault(where(s, slots_[s].pc) + e.what());
  }
  const BlockStackStats& after = st.stats();
  *st_->pushes += after.pushes - before.pushes;
  *st_->pops += after.pops - before.pops;
  *st_->empty_pops += after.empty_pops - before.empty_pops;
  *st_->likely_merges += after.likely_merges - before.likely_merges;
  const uint32_t peak = st.take_peak();
  max_depth_ = std::max(max_depth_, peak);
  st_->max_depth->value = std::max<uint64_t>(st_->max_depth->value, peak);
  return d;
}

void TbcBranchUnit::handle(uint32_t s, const Dispatch& d) {
  if (!d.valid) return;
  const uint32_t cta = slots_[s].cta;
  Cta& c = ctas_[cta];
  if (d.warps == 0) {
    // Every thread exited: the CTA's (Cta) or the warp's (Warp) slots are done.
    if (scope_ == Scope::Warp) {
      retire(s);
      warp_stacks_[s].reset();
      if (--c.running == 0) c.live = false;
      return;
    }
    for (uint32_t slot : c.slots) retire(slot);
    c.live = false;
    c.stack.reset();
    return;
  }
  *st_->generated_warps += d.warps;
  if (scope_ == Scope::Warp) {
    *st_->static_warps += d.warps;
    place(s, d.pc, d.mask, slots_[s].scope);
    return;
  }
  *st_->static_warps += ThreadCompactor::count_warps(d.mask, c.threads, warp_size_, false);
  if (compact_) ++*st_->compaction_events;
  sm::CompactRequest q;
  q.cta = cta;
  q.pc = d.pc;
  q.mask = d.mask;
  q.threads = c.threads;
  q.warp_size = warp_size_;
  q.compact = compact_;
  requests_.push_back(q);
}

// ---------------------------------------------------------------- compactor side

const sm::CompactRequest* TbcBranchUnit::peek_request() const {
  return requests_.empty() ? nullptr : &requests_.front();
}

void TbcBranchUnit::pop_request() {
  if (requests_.empty()) throw std::logic_error(std::string(name()) + ": pop_request() with no request");
  requests_.pop_front();
}

void TbcBranchUnit::warp_generated(const sm::GeneratedWarp& g) {
  const std::string me = std::string(name()) + ": generated warp " + std::to_string(g.index) + " of CTA " +
                         std::to_string(g.cta);
  if (scope_ != Scope::Cta) throw std::logic_error(me + ": this scope uses no compactor");
  if (g.cta >= ctas_.size() || !ctas_[g.cta].live) throw std::logic_error(me + ": the CTA is not running");
  const Cta& c = ctas_[g.cta];
  if (g.index >= c.slots.size()) throw std::logic_error(me + ": more warps than the CTA has slots");
  const StackEntry& e = c.stack->executing();
  // Warps generated earlier may already have reached the next branch, which
  // moved the executing entry's PC to the reconvergence point: only check
  // the PC while no branch is synchronising.
  const bool pc_ok = c.stack->sync_pending() || g.pc == e.pc;
  if (!pc_ok || g.mask.none() || g.mask.minus(e.mask).any())
    throw std::logic_error(me + ": does not belong to the executing stack entry");
  const uint32_t s = c.slots[g.index];
  if (slots_[s].state != SlotState::Waiting) throw std::logic_error(me + ": its slot is not waiting");
  place(s, g.pc, g.mask, g.mask);
}

// ---------------------------------------------------------------- barriers

uint32_t TbcBranchUnit::barrier_weight(uint32_t s, const ThreadMask& exited) const {
  // Warp scope counts whole static warps, like PDOM.
  const WarpSlot& w = slots_[s];
  return (scope_ == Scope::Warp ? w.scope : w.mask).minus(exited).count();
}

uint32_t TbcBranchUnit::barrier_participants(uint32_t cta, const ThreadMask& exited, uint32_t cta_live) const {
  if (scope_ == Scope::Warp || cta >= ctas_.size() || !ctas_[cta].stack) return cta_live;
  // Threads waiting in other entries never reach this barrier instance.
  return ctas_[cta].stack->executing().mask.minus(exited).count();
}

}  // namespace simt::tbc
