#include "runtime/functional_runner.h"

#include "func/thread_fault.h"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <utility>

#include "func/fast_path.h"
#include "util/error.h"
#include "util/rng.h"

namespace simt::runtime {

namespace {
constexpr uint32_t kNumBarriers = sm::CtaBarriers::kCount;
constexpr uint64_t kSlice = 512;  // instructions a warp runs before the next warp gets a turn

using func::dim3_text;

}  // namespace

FunctionalRunner::FunctionalRunner(const ptx::Program& prog, const ptx::Cfg& cfg,
                                   const func::Executor& exec, const DeviceOptions& opts)
    : prog_(prog), cfg_(cfg), exec_(exec), opts_(opts) {
  member_operand_.assign(prog.code.size(), -1);
  for (size_t pc = 0; pc < prog.code.size(); ++pc) {
    const ptx::Instr& in = prog.code[pc];
    switch (in.op) {
      case ptx::Op::Vote: case ptx::Op::Shfl: case ptx::Op::Match: case ptx::Op::Redux:
        if (in.nops > 0) member_operand_[pc] = static_cast<int8_t>(in.nops - 1);
        break;
      case ptx::Op::BarWarp:
        if (in.nops > 0) member_operand_[pc] = 0;
        break;
      default: break;
    }
  }
}

func::ThreadMask FunctionalRunner::sync_members(const func::CtaState& cta, uint32_t pc,
                                                const func::ThreadMask& mask) const {
  const ptx::Operand& o = prog_.code[pc].ops[member_operand_[pc]];
  uint64_t lanes = 0xffffffffu;
  if (o.kind == ptx::Operand::Kind::Imm) lanes = static_cast<uint32_t>(o.imm);
  else if (o.kind == ptx::Operand::Kind::Reg && mask.any()) lanes = static_cast<uint32_t>(cta.reg(o.reg, mask.first()));
  const func::ThreadMask live = cta.all_threads().minus(cta.exited());
  func::ThreadMask need;
  for (uint32_t i = 0; i < func::ThreadMask::kWords; ++i) {
    uint64_t w = mask.word(i);
    if (!w) continue;
    uint64_t m = ((w & 0xffffffffu) ? lanes : 0) | ((w >> 32) ? lanes << 32 : 0);
    need.set_word(i, m & live.word(i));
  }
  return need | mask;
}

void FunctionalRunner::release_syncs(func::CtaState& cta, const func::ExecEnv& env) {
  for (size_t i = 0; i < syncs_.size();) {
    const uint32_t pc = syncs_[i].first;
    WarpSync& s = syncs_[i].second;
    s.need &= cta.all_threads().minus(cta.exited());
    // A waiting warp's threads that are elsewhere on its stack cannot arrive
    // while it waits; as a PDOM GPU does, they are left out.
    for (uint32_t wi : s.warps) s.need = s.need.minus(warps_[wi].threads.minus(s.arrived));
    if (s.need.minus(s.arrived).any()) { ++i; continue; }
    exec_.step(cta, env, pc, s.arrived, step_);
    if (step_.control == func::Control::Fault) fault(cta, pc, step_.fault);
    for (uint32_t wi : s.warps) {
      warps_[wi].at_sync = false;
      warps_[wi].set_top_pc(pc + 1);
    }
    syncs_.erase(syncs_.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

void FunctionalRunner::form_warps(const func::CtaState& cta, uint64_t cta_index) {
  const uint32_t n = cta.threads();
  const uint32_t ws = opts_.warp_size;
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0u);
  if (opts_.grouping == Grouping::Random) {
    util::Rng rng(opts_.grouping_seed * 0x100000001b3ull + cta_index);
    for (uint32_t i = n; i > 1; --i) std::swap(order_[i - 1], order_[rng.next() % i]);
  }
  // Warps of the previous CTA are reset, not reallocated. Their stacks' max
  // depth carries over, which is harmless: run_warp already folded it into
  // the launch's maximum.
  warps_.resize((n + ws - 1) / ws);
  for (uint32_t first = 0, i = 0; first < n; first += ws, ++i) {
    Warp& w = warps_[i];
    w.threads.clear();
    for (uint32_t k = first; k < std::min(n, first + ws); ++k) w.threads.set(order_[k]);
    uint32_t lo = 0, hi = 0;
    w.threads.word_range(lo, hi);
    w.narrow = hi == lo + 1;
    if (w.narrow) {
      w.word = lo;
      w.wstack.clear();
      w.wstack.push_back({0, ptx::kNoPc, w.threads.word(lo)});
    } else {
      w.stack.reset(0, w.threads);
    }
    w.barrier = -1;
    w.at_sync = false;
    w.done = false;
  }
}

void FunctionalRunner::run_cta(func::CtaState& cta, const func::ExecEnv& launch_env, uint64_t cta_index,
                               RunnerStats& stats) {
  start_cta(cta, cta_index);
  // Nothing here reads the executor's list of memory accesses: skip building it.
  func::ExecEnv env = launch_env;
  env.record_accesses = false;
  while (!step_cta(cta, env, stats)) {
  }
}

void FunctionalRunner::start_cta(func::CtaState& cta, uint64_t cta_index) {
  cta.warp_size = opts_.warp_size;
  form_warps(cta, cta_index);
  barriers_.reset();
  syncs_.clear();
  executed_ = 0;
}

bool FunctionalRunner::step_cta(func::CtaState& cta, const func::ExecEnv& env, RunnerStats& stats) {
  const uint64_t limit = opts_.max_warp_instructions;
  bool all_done = true;
  for (Warp& w : warps_) {
    if (w.done) continue;
    all_done = false;
    if (!w.runnable()) continue;
    executed_ += w.narrow ? run_narrow(w, cta, env, kSlice, stats) : run_warp(w, cta, env, kSlice, stats);
    if (limit && executed_ > limit) runaway(cta, limit);
  }
  if (all_done) return true;
  release_barriers(cta);
  release_syncs(cta, env);
  if (std::all_of(warps_.begin(), warps_.end(), [](const Warp& w) { return w.done; })) return true;
  if (std::none_of(warps_.begin(), warps_.end(), [](const Warp& w) { return w.runnable(); })) deadlock(cta);
  return false;
}

bool FunctionalRunner::wait_sync(Warp& w, func::CtaState& cta, const func::ExecEnv& env, uint32_t pc,
                                 const func::ThreadMask& mask) {
  (void)env;
  // Members in other warps are waited for; this warp's own inactive
  // threads cannot come, so they are not.
  func::ThreadMask need = sync_members(cta, pc, mask).minus(w.threads.minus(mask));
  if (!need.minus(mask).any()) return false;
  auto it = std::find_if(syncs_.begin(), syncs_.end(), [&](const auto& p) { return p.first == pc; });
  if (it == syncs_.end()) it = syncs_.insert(syncs_.end(), {pc, WarpSync{}});
  it->second.arrived |= mask;
  it->second.need |= need;
  it->second.warps.push_back(static_cast<uint32_t>(&w - warps_.data()));
  w.at_sync = true;
  return true;
}

uint64_t FunctionalRunner::run_narrow(Warp& w, func::CtaState& cta, const func::ExecEnv& env, uint64_t budget,
                                      RunnerStats& stats) {
  uint64_t n = 0;
  std::vector<WordEntry>& st = w.wstack;
  const uint32_t wi = w.word;
  const func::FastProgram* fp = exec_.fast_program();
  const size_t ncode = prog_.code.size();
  func::StepResult& r = step_;
  func::ThreadMask& tm = word_mask_;  // all zero outside word wi between uses
  // As run_warp: the top entry and its live threads are reused until the
  // stack changes or threads exit.
  bool resettle = true;
  size_t top = 0;
  uint64_t mask = 0;
  uint32_t lanes = 0;
  // SimtStack::branch on the top entry.
  auto branch = [&](uint64_t taken, uint32_t target, uint32_t fallthrough, uint32_t rpc) {
    WordEntry& e = st[top];
    const uint64_t not_taken = e.mask & ~taken;
    if (!not_taken) { e.pc = target; return; }
    if (!taken) { e.pc = fallthrough; return; }
    if (rpc == e.rpc && st.size() > 1) st.pop_back();  // the sides replace it
    else e.pc = rpc;
    if (sm::side_needs_entry(fallthrough, target, rpc)) st.push_back({fallthrough, rpc, not_taken});
    if (sm::side_needs_entry(target, fallthrough, rpc)) st.push_back({target, rpc, taken});
    w.wmax_depth = std::max(w.wmax_depth, st.size());
    resettle = true;
  };
  while (n < budget) {
    if (resettle || st[top].pc == st[top].rpc) {
      // SimtStack::settle
      const uint64_t ex = cta.exited().word(wi);
      while (!st.empty() && (st.back().pc == st.back().rpc || !(st.back().mask & ~ex))) st.pop_back();
      if (st.empty()) { w.done = true; break; }
      top = st.size() - 1;
      mask = st[top].mask & ~ex;
      lanes = static_cast<uint32_t>(__builtin_popcountll(mask));
      resettle = false;
    }
    WordEntry* e = &st[top];
    const uint32_t pc = e->pc;
    if (pc >= ncode)
      throw kernel_fault("kernel '" + prog_.kernel + "' CTA " + dim3_text(cta.ctaid()) +
                         ": control reached PC " + std::to_string(pc) + " past the end of the program");
    if (member_operand_[pc] >= 0) {
      func::ThreadMask m;
      m.set_word(wi, mask);
      if (wait_sync(w, cta, env, pc, m)) {
        ++n;
        ++stats.warp_instructions;
        stats.thread_instructions += lanes;
        release_syncs(cta, env);
        return n;
      }
    }
    ++n;
    ++stats.warp_instructions;
    stats.thread_instructions += lanes;
    if (fp) {
      const func::FastInstr& f = fp->code[pc];
      if (f.run || f.branch || (f.mem && !env.record_accesses)) {
        const uint64_t active = f.guard != ptx::kNoReg
                                    ? func::guard_word(std::as_const(cta).reg_row(f.guard), wi, mask, f.guard_neg)
                                    : mask;
        if (f.branch) {
          uint32_t rpc = cfg_.reconv_pc(pc);
          if (rpc == ptx::kNoPc) rpc = e->rpc;
          branch(active, f.target, pc + 1, rpc);
          continue;
        }
        if (f.run) {
          f.run(f, cta, wi, active);
          e->pc = pc + 1;
          continue;
        }
        tm.set_word(wi, active);
        const bool ok = f.mem(f, cta, env, tm);
        tm.set_word(wi, 0);
        if (ok) {
          e->pc = pc + 1;
          continue;
        }
        // Some thread faults or needs the general path: step() runs it from scratch.
      }
    }
    tm.set_word(wi, mask);
    exec_.step(cta, env, pc, tm, r);
    tm.set_word(wi, 0);
    e = &st[top];
    switch (r.control) {
      case func::Control::Next:
        e->pc = pc + 1;
        break;
      case func::Control::Branch: {
        uint32_t rpc = cfg_.reconv_pc(pc);
        if (rpc == ptx::kNoPc) rpc = e->rpc;
        branch(r.taken.word(wi), r.target, pc + 1, rpc);
        break;
      }
      case func::Control::Call: {
        // SimtStack::call
        const uint64_t callers = r.taken.word(wi) & e->mask;
        const uint64_t rest = e->mask & ~callers;
        e->pc = pc + 1;
        if (r.stay && rest) st.push_back({pc, pc + 1, rest});
        st.push_back({r.target, (pc + 1) | ptx::kReturnTag, callers});
        w.wmax_depth = std::max(w.wmax_depth, st.size());
        resettle = true;
        break;
      }
      case func::Control::Ret:  // SimtStack::ret
        branch(r.taken.word(wi), e->rpc, pc + 1, e->rpc);
        resettle = true;
        break;
      case func::Control::Exit:
        e->pc = pc + 1;
        resettle = true;
        if (r.taken.any()) release_barriers(cta);
        break;
      case func::Control::Barrier: {
        e->pc = pc + 1;
        const uint32_t arriving =
            static_cast<uint32_t>(__builtin_popcountll(w.threads.word(wi) & ~cta.exited().word(wi)));
        if (barrier_step(w, cta, pc, r, wi * 64 + static_cast<uint32_t>(__builtin_ctzll(mask)), arriving)) {
          stats.max_stack_depth = std::max(stats.max_stack_depth, w.wmax_depth);
          return n;
        }
        break;
      }
      case func::Control::Fault:
        fault(cta, pc, r.fault);
    }
  }
  stats.max_stack_depth = std::max(stats.max_stack_depth, w.wmax_depth);
  return n;
}

uint64_t FunctionalRunner::run_warp(Warp& w, func::CtaState& cta, const func::ExecEnv& env,
                                    uint64_t budget, RunnerStats& stats) {
  uint64_t n = 0;
  SimtStack& st = w.stack;
  func::StepResult& r = step_;
  // The top entry and its live threads change only when the stack does or
  // threads exit; between those, consecutive instructions reuse them.
  bool resettle = true;
  StackEntry* top = nullptr;
  func::ThreadMask mask;
  uint32_t lanes = 0;
  while (n < budget) {
    if (resettle || top->pc == top->rpc) {
      if (!st.settle(cta.exited())) { w.done = true; break; }
      top = &st.top();
      mask = top->mask.minus(cta.exited());
      lanes = mask.count();
      resettle = false;
    }
    const uint32_t pc = top->pc;
    if (pc >= prog_.code.size())
      throw kernel_fault("kernel '" + prog_.kernel + "' CTA " + dim3_text(cta.ctaid()) +
                         ": control reached PC " + std::to_string(pc) + " past the end of the program");
    if (member_operand_[pc] >= 0 && wait_sync(w, cta, env, pc, mask)) {
      ++n;
      ++stats.warp_instructions;
      stats.thread_instructions += lanes;
      release_syncs(cta, env);
      return n;
    }
    exec_.step(cta, env, pc, mask, r);
    ++n;
    ++stats.warp_instructions;
    stats.thread_instructions += lanes;
    switch (r.control) {
      case func::Control::Next:
        top->pc = pc + 1;
        break;
      case func::Control::Branch: {
        uint32_t rpc = cfg_.reconv_pc(pc);
        if (rpc == ptx::kNoPc) rpc = top->rpc;  // reconverges where the enclosing entry does
        resettle = st.branch(r.taken, r.target, pc + 1, rpc);  // a uniform branch only moves the top's PC
        break;
      }
      case func::Control::Call:
        st.call(r.target, pc + 1, r.taken, r.stay);
        resettle = true;
        break;
      case func::Control::Ret:
        st.ret(r.taken);
        resettle = true;
        break;
      case func::Control::Exit:
        // exit() already marked the threads in cta.exited(); the others go on.
        top->pc = pc + 1;
        resettle = true;
        if (r.taken.any()) release_barriers(cta);
        break;
      case func::Control::Barrier: {
        top->pc = pc + 1;
        // Counts whole warps.
        if (barrier_step(w, cta, pc, r, mask.first(), w.threads.minus(cta.exited()).count())) {
          stats.max_stack_depth = std::max(stats.max_stack_depth, st.max_depth());
          return n;
        }
        break;
      }
      case func::Control::Fault:
        fault(cta, pc, r.fault);
    }
  }
  stats.max_stack_depth = std::max(stats.max_stack_depth, st.max_depth());
  return n;
}

bool FunctionalRunner::barrier_step(Warp& w, func::CtaState& cta, uint32_t pc, const func::StepResult& r,
                                    uint32_t first_tid, uint32_t arriving) {
  if (r.bar_id >= kNumBarriers) {
    func::Fault f;
    f.tid = first_tid;
    f.message = "barrier id " + std::to_string(r.bar_id) + " out of range (0-15)";
    fault(cta, pc, f);
  }
  barriers_.arrive(r, arriving);
  if (!r.bar_arrive) w.barrier = static_cast<int>(r.bar_id);
  release_barriers(cta);
  return !r.bar_arrive;
}

void FunctionalRunner::release_barriers(func::CtaState& cta) {
  barriers_.release(cta, [&](uint32_t id) {
    for (Warp& w : warps_)
      if (w.barrier == static_cast<int>(id)) w.barrier = -1;
  });
}

std::string FunctionalRunner::where(const func::CtaState& cta, uint32_t pc) const {
  return func::fault_where(prog_, cta, pc);
}

void FunctionalRunner::fault(const func::CtaState& cta, uint32_t pc, const func::Fault& f) const {
  throw func::thread_fault(prog_, cta, pc, f);
}

void FunctionalRunner::runaway(const func::CtaState& cta, uint64_t limit) const {
  std::ostringstream s;
  s << "runaway kernel '" << prog_.kernel << "': CTA " << dim3_text(cta.ctaid()) << " issued more than " << limit
    << " warp instructions (option --max-warp-instructions; raise it, or 0 for no limit, if the kernel is "
       "meant to run that long). Its warps:";
  int shown = 0;
  for (size_t i = 0; i < warps_.size(); ++i) {
    const Warp& w = warps_[i];
    if (w.done) continue;
    if (++shown > 8) {
      s << "\n    ...";
      break;
    }
    const uint32_t pc = w.top_pc();
    s << "\n    warp " << i << ": PC " << pc;
    if (pc < prog_.code.size()) {
      s << " (" << prog_.source_path << ":" << prog_.code[pc].line;
      if (pc < prog_.text.size()) s << ": " << prog_.text[pc];
      s << ")";
    }
    s << "; " << w.top_mask().minus(cta.exited()).count() << " threads";
    if (w.barrier >= 0) s << "; waits at barrier " << w.barrier;
  }
  throw kernel_fault(s.str());
}

void FunctionalRunner::deadlock(const func::CtaState& cta) const {
  std::ostringstream s;
  const uint32_t live = cta.threads() - cta.exited().count();
  s << "barrier deadlock in kernel '" << prog_.kernel << "' CTA " << dim3_text(cta.ctaid())
    << ": every live warp waits at a barrier or warp-synchronous instruction that cannot complete";
  for (uint32_t id = 0; id < kNumBarriers; ++id) {
    if (barriers_.arrived(id))
      s << "; barrier " << id << ": " << barriers_.arrived(id) << " of " << barriers_.expected(id, live)
        << " threads arrived";
  }
  for (const auto& [pc, sync] : syncs_)
    s << "; warp-synchronous instruction at PC " << pc << " (line " << prog_.code[pc].line << ") has "
      << sync.arrived.count() << " of " << sync.need.count() << " member threads";
  int shown = 0;
  for (size_t i = 0; i < warps_.size() && shown < 8; ++i) {
    const Warp& w = warps_[i];
    if (w.done) continue;
    ++shown;
    const uint32_t top_pc = w.top_pc();
    uint32_t pc = top_pc ? top_pc - 1 : 0;  // the barrier instruction just executed
    if (w.at_sync) {
      s << "; warp " << i << " at a warp-synchronous instruction (PC " << top_pc << ")";
      continue;
    }
    s << "; warp " << i << " at barrier " << w.barrier << " (PC " << pc;
    if (pc < prog_.code.size()) s << ", line " << prog_.code[pc].line;
    s << ", " << w.top_mask().minus(cta.exited()).count() << " threads, stack depth " << w.depth() << ")";
  }
  throw kernel_fault(s.str());
}

}  // namespace simt::runtime
