// IssueUnit's CTA slots: a launch takes warp and CTA slots when they are
// free, a CTA whose warp slots all retired and drained reports CtaDone and
// frees them, and CTA barriers release the warps waiting at them. Kept
// apart from the per-cycle issue path (issue_unit.cpp).
#include <algorithm>

#include "sm/issue_unit.h"
#include "util/error.h"

namespace simt::sm {

bool warp_synchronous(ptx::Op op) {
  switch (op) {
    case ptx::Op::Vote: case ptx::Op::Shfl: case ptx::Op::Match: case ptx::Op::Redux:
    case ptx::Op::BarWarp:
      return true;
    default:
      return false;
  }
}

uint32_t IssueUnit::sync_lanes(const ptx::Instr& in, const WarpSlot& ws) const {
  // The membermask operand, as its first live thread sees it (all lanes for
  // the forms without one).
  const int i = in.op == ptx::Op::Shfl ? 4 : in.op == ptx::Op::BarWarp ? 0 : 2;
  if (in.nops <= i) return 0xffffffffu;
  const ptx::Operand& o = in.ops[i];
  if (o.kind == ptx::Operand::Kind::Imm) return static_cast<uint32_t>(o.imm);
  if (o.kind != ptx::Operand::Kind::Reg) return 0xffffffffu;
  const func::CtaState& cta = *ctas_[ws.cta].state;
  const func::ThreadMask live = ws.mask.minus(cta.exited());
  return live.any() ? static_cast<uint32_t>(cta.reg_row(o.reg)[live.first()]) : 0xffffffffu;
}

void IssueUnit::free_finished() {
  // Ascending slot order, like a scan of every slot: CtaDone order is part
  // of the results.
  maybe_finished_.for_each([&](uint32_t i) {
    maybe_finished_.reset(i);
    Warp& w = warps_[i];
    if (!w.live || branch_->slot(i).state != SlotState::Retired || w.inflight > 0) return;
    w.live = false;
    w.asleep = false;
    asleep_.reset(i);
    mark_stale(i);
    sched_live_[i % p_.schedulers].reset(i);
    want_credit_.reset(i);
    branch_->release(i);
    w.version = branch_->slot(i).version;
    ibuf_.flush(i);  // also bumps the generation: fetches still in flight are dropped
    policies_[i % p_.schedulers]->on_warp_removed(i);
    if (lockstep_) lockstep_->retired(i);
    --live_warps_;
    Cta& c = ctas_[w.cta];
    // With CTAs mixed in warps, its threads may still be in flight from
    // other slots: the last write-back finishes it then.
    if (--c.warps_left == 0 && c.inflight == 0) finish_cta(w.cta);
  });
}

void IssueUnit::finish_cta(uint32_t ci) {
  Cta& c = ctas_[ci];
  CtaDone d;
  d.sm = sm_id_;
  d.cta_index = c.index;
  done_q_.push_back(d);
  --c.info->users;
  sb_.clear_cta(ci);
  c.live = false;
  c.state.reset();
  c.info = nullptr;
  c.slots.clear();
  --live_ctas_;
  ++st_ctas_done_;
}

IssueUnit::KernelInfo* IssueUnit::kernel_info(const std::shared_ptr<const KernelContext>& k) {
  for (auto& ki : kernels_)
    if (ki->kernel == k) return ki.get();
  // Forget kernels no resident CTA uses any more.
  kernels_.erase(std::remove_if(kernels_.begin(), kernels_.end(),
                                [](const std::unique_ptr<KernelInfo>& ki) { return ki->users == 0; }),
                 kernels_.end());
  if (!k || !k->prog || !k->exec || !k->cfg)
    throw std::logic_error(std::string(name()) + ": CTA launch without a complete kernel context");
  const ptx::Program& prog = *k->prog;
  check_kernel(*k);
  auto ki = std::make_unique<KernelInfo>();
  ki->kernel = k;
  if (!k->du) {
    ki->own_du.reserve(prog.code.size());
    for (const ptx::Instr& in : prog.code) ki->own_du.push_back(ptx::def_use(in));
  }
  ki->du = k->du ? k->du->data() : ki->own_du.data();
  for (const ptx::Instr& in : prog.code) ki->warp_sync = ki->warp_sync || warp_synchronous(in.op);
  kernels_.push_back(std::move(ki));
  return kernels_.back().get();
}

void IssueUnit::check_kernel(const KernelContext& k) const {
  const ptx::Program& prog = *k.prog;
  if (p_.warp_size < 32 && !lockstep_)  // slices mode: the warps of a PTX warp meet (sm/lockstep_unit.h)
    for (size_t pc = 0; pc < prog.code.size(); ++pc)
      if (warp_synchronous(prog.code[pc].op))
        throw input_error("kernel '" + prog.kernel + "' uses the warp-synchronous instruction '" +
                          (pc < prog.text.size() ? prog.text[pc] : ptx::op_name(prog.code[pc].op)) +
                          "' (line " + std::to_string(prog.code[pc].line) +
                          "), which the timing SM does not model with warps narrower than 32 threads "
                          "(warp_size " + std::to_string(p_.warp_size) +
                          "); use the functional runner or warp_size >= 32");
  branch_->check_kernel(BranchKernel{k.prog, k.cfg});
}

void IssueUnit::start_launches(uint64_t now) {
  while (launch_q_.ready(now)) {
    const CtaLaunch& l = launch_q_.q.front().second;
    const KernelContext& k = *l.kernel;
    const uint32_t threads = k.geom.threads_per_cta();
    const uint32_t need = (threads + p_.warp_size - 1) / p_.warp_size;
    if (threads == 0 || threads > func::kMaxCtaThreads || need > p_.max_warps)
      throw input_error(std::string(name()) + ": a CTA of " + std::to_string(threads) + " threads needs " +
                        std::to_string(need) + " warps of " + std::to_string(p_.warp_size) +
                        "; the SM has " + std::to_string(p_.max_warps) + " warp slots");
    // Extra slots (DWF) hold formed warps; they count like static ones.
    const uint32_t slots = need + std::min(branch_->extra_slots(), p_.max_warps - need);
    if (live_ctas_ == p_.max_ctas || p_.max_warps - live_warps_ < slots) return;  // waits for room
    if (lockstep_) {  // slices mode: room on every slice the CTA's warps go to
      const uint32_t n = p_.schedulers;
      for (uint32_t s = 0; s < n && s < slots; ++s) {
        uint32_t free = 0;
        for (uint32_t w = s; w < p_.max_warps; w += n) free += !warps_[w].live;
        if (free < slots / n + (s < slots % n)) return;
      }
      if (!lockstep_->has_room(slots)) return;
    }
    const uint32_t regs = std::max<uint32_t>(1, k.prog->num_regs());
    if (regs > sb_.regs()) {
      if (live_warps_ > 0) return;  // resize the scoreboard once the SM drains
      sb_.configure(p_.max_ctas, regs);
    }
    KernelInfo* info = kernel_info(l.kernel);
    uint32_t ci = 0;
    while (ctas_[ci].live) ++ci;
    Cta& c = ctas_[ci];
    c.live = true;
    c.info = info;
    ++info->users;
    c.index = l.cta_index;
    c.age = next_cta_age_++;
    c.state = std::make_unique<func::CtaState>(*k.prog, k.geom, l.ctaid, k.params);
    c.state->sm_id = sm_id_;
    c.state->warp_size = p_.warp_size;
    c.state->clock_mhz = p_.clock_mhz;
    c.barriers.reset();
    c.issued = 0;
    cycle_limit_ = k.cycle_limit;
    max_cycles_ = k.max_cycles;
    spin_ = k.spin;
    c.warps_left = slots;
    c.inflight = 0;
    c.slots.clear();
    uint32_t slot = 0;
    for (uint32_t i = 0; i < slots; ++i) {
      if (lockstep_) {  // static warp i on slice i % slices (its threads' lanes)
        slot = i % p_.schedulers;
        while (warps_[slot].live) slot += p_.schedulers;
      }
      while (warps_[slot].live) ++slot;
      Warp& w = warps_[slot];
      w = Warp{};
      w.live = true;
      w.cta = ci;
      w.may_sync = ctas_[ci].info->warp_sync;
      if (lockstep_ && !w.may_sync) maybe_sync_.reset(slot);  // a bit left by an earlier kernel's warp
      w.age = next_age_++;
      w.version = branch_->slot(slot).version;
      ibuf_.flush(slot);
      policies_[slot % p_.schedulers]->on_warp_added(slot, w.age);
      sched_live_[slot % p_.schedulers].set(slot);
      mark_stale(slot);
      c.slots.push_back(slot);
      ++live_warps_;
    }
    BranchKernel bk;
    bk.prog = k.prog;
    bk.cfg = k.cfg;
    branch_->start_cta(ci, bk, func::ThreadMask::range(0, threads), c.slots);
    if (branch_->static_scopes())
      for (uint32_t slot : c.slots) {
        const Scoreboard::Words w = Scoreboard::Words::of(branch_->slot(slot).scope);
        warps_[slot].word = w.hi == w.lo + 1 ? w.lo : kAnyWord;
      }
    if (lockstep_) {
      lockstep_->start_cta(ci, c.slots, *view_);
      for (uint32_t slot : c.slots) note_solo(slot);
    }
    resync_cta(ci);
    ++live_ctas_;
    ++st_ctas_launched_;
    if (live_warps_ == slots) last_progress_ = now;  // the watchdog counts from the first launch
    launch_q_.pop(now);
  }
}

bool IssueUnit::send_done() {
  while (!done_q_.empty()) {
    CtaDone d = done_q_.front();
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    done->b_transport(d, t);
    if (!d.accepted) return true;
    done_q_.pop_front();
  }
  return false;
}

void IssueUnit::release_barriers(Cta& c) {
  const uint32_t ci = static_cast<uint32_t>(&c - ctas_.data());
  const func::CtaState& cta = *c.state;
  const uint32_t live = cta.threads() - cta.exited().count();
  c.barriers.release(*c.state, [&](uint32_t id) {
    for_each_slot_of(ci, [&](uint32_t wi) {
      Warp& w = warps_[wi];
      if (!w.live || w.barrier != static_cast<int>(id) || branch_->slot(wi).cta != ci) return;
      w.barrier = -1;
      mark_stale(wi);
      branch_->set_blocked(wi, false);
      policies_[wi % p_.schedulers]->on_wakeup(wi);
      released_.push_back(wi);
      released_cta_.push_back(ci);
    });
  }, branch_->barrier_participants(ci, cta.exited(), live));
}

}  // namespace simt::sm
