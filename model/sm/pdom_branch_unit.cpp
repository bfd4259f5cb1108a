#include "sm/pdom_branch_unit.h"

#include <algorithm>

#include "stats/stats.h"

namespace simt::sm {

PdomBranchUnit::PdomBranchUnit(uint32_t slots, uint32_t warp_size)
    : BranchUnit(slots, warp_size), stacks_(slots), cfg_(slots, nullptr) {
  changes_one_slot_ = true;
  static_scopes_ = true;
}

void PdomBranchUnit::register_stats(stats::Registry& r, const std::string& prefix) {
  st_max_depth_ = &r.counter(prefix + ".max_stack_depth", "deepest per-warp reconvergence stack");
  st_divergences_ = &r.counter(prefix + ".divergent_branches", "branches that split a warp");
}

uint32_t PdomBranchUnit::take_max_depth() {
  const uint32_t d = max_depth_;
  max_depth_ = 0;
  return d;
}

void PdomBranchUnit::start_cta(uint32_t cta, const BranchKernel& k, const func::ThreadMask& threads,
                               const std::vector<uint32_t>& warp_slots) {
  const uint32_t n = threads.count();
  for (uint32_t i = 0; i < warp_slots.size(); ++i) {
    const uint32_t s = warp_slots[i];
    WarpSlot& w = slots_[s];
    const uint32_t first = i * warp_size_;
    w.state = SlotState::Running;
    w.cta = cta;
    w.scope = func::ThreadMask::range(first, std::min(warp_size_, n - first));
    stacks_[s] = SimtStack{};  // its deepest-ever count starts again too
    stacks_[s].reset(0, w.scope);
    cfg_[s] = k.cfg;
    touch(s);
    sync(s);
  }
}

void PdomBranchUnit::sync(uint32_t s) {
  WarpSlot& w = slots_[s];
  const StackEntry& t = stacks_[s].top();
  w.pc = t.pc;
  w.mask = t.mask;
  w.depth = static_cast<uint32_t>(stacks_[s].depth());
  // Deepest including entries pushed and popped within this step (what the
  // functional runner reports too).
  const uint32_t peak = static_cast<uint32_t>(stacks_[s].max_depth());
  max_depth_ = std::max(max_depth_, peak);
  if (st_max_depth_ && peak > st_max_depth_->value) st_max_depth_->value = peak;
}

void PdomBranchUnit::executed(uint32_t s, const ptx::Instr&, const func::StepResult& r,
                              const func::ThreadMask& exited) {
  SimtStack& st = stacks_[s];
  const uint32_t pc = st.top().pc;
  switch (r.control) {
    case func::Control::Branch: {
      uint32_t rpc = cfg_[s]->reconv_pc(pc);
      if (rpc == ptx::kNoPc) rpc = st.top().rpc;  // reconverges where the enclosing entry does
      const func::ThreadMask live = st.top().mask.minus(exited);
      if (st_divergences_ && r.taken.any() && live.minus(r.taken).any()) ++*st_divergences_;
      st.branch(r.taken, r.target, pc + 1, rpc);
      break;
    }
    case func::Control::Call:
      st.call(r.target, pc + 1, r.taken, r.stay);
      break;
    case func::Control::Ret:
      st.ret(r.taken);
      break;
    default:  // Next, Exit, Barrier: the next instruction
      st.top().pc = pc + 1;
      break;
  }
  if (!st.settle(exited)) {
    slots_[s].state = SlotState::Retired;
    touch(s);
    return;
  }
  if (st.top().pc != pc + 1) touch(s);
  sync(s);
}

}  // namespace simt::sm
