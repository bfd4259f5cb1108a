// Executor: checks a whole program once at construction, then runs one
// instruction per step() through a table of handlers indexed by opcode.
#include "func/executor.h"

#include "func/exec_context.h"
#include "func/fast_path.h"
#include "util/error.h"

namespace simt::func {

using ptx::Op;
using ptx::Operand;

const HandlerTable& handler_table() {
  static const HandlerTable table = [] {
    HandlerTable t;
    register_int_ops(t);
    register_compare_ops(t);
    register_float_ops(t);
    register_convert_ops(t);
    register_memory_ops(t);
    register_control_ops(t);
    register_warp_ops(t);
    register_texture_ops(t);
    register_video_ops(t);
    register_mma_ops(t);
    register_async_copy_ops(t);
    return t;
  }();
  return table;
}

namespace {

bool uses_sreg(const Operand& o, ptx::Sreg s) { return o.kind == Operand::Kind::Sreg && o.sreg == s; }

}  // namespace

bool executor_supports(const ptx::Instr& in, std::string* why) {
  const HandlerTable& table = handler_table();
  const size_t op = static_cast<size_t>(in.op);
  auto refuse = [&](const std::string& w) {
    if (why) *why = w;
    return false;
  };
  if (op >= static_cast<size_t>(Op::Count) || !table.by_op[op])
    return refuse(std::string("the executor does not implement '") + ptx::op_name(in.op) + "'");
  if (in.guard.kind != Operand::Kind::None &&
      (in.guard.kind != Operand::Kind::Reg || in.guard.reg == ptx::kNoReg))
    return refuse("the guard must be a predicate register");
  for (int i = 0; i < in.nops && i < ptx::kMaxOperands; ++i)
    if (uses_sreg(in.ops[static_cast<size_t>(i)], ptx::Sreg::Gridid))
      return refuse("%gridid is not modelled");
  if (table.check[op]) {
    std::string w = table.check[op](in);
    if (!w.empty()) return refuse(w);
  }
  if (why) why->clear();
  return true;
}

namespace {

// Program-level checks a single Instr cannot answer: what a call reaches.
std::string check_call(const ptx::Program& prog, const ptx::Instr& in) {
  if (in.call_info == ptx::kNoPc || in.call_info >= prog.calls.size()) return "call without linked call information";
  const ptx::CallInfo& ci = prog.calls[in.call_info];
  if (ci.caller_func >= prog.funcs.size()) return "call outside any linked function";
  if (ci.callee_reg != ptx::kNoReg)  // indirect: the target is checked when the call runs
    return ci.callee_reg < prog.num_regs() ? "" : "call target register out of range";
  switch (ci.builtin) {
    case ptx::Builtin::Malloc:
      return ci.args.size() == 1 && ci.rets.size() == 1 ? "" : "malloc takes one argument and returns one value";
    case ptx::Builtin::Free: return ci.args.size() == 1 ? "" : "free takes one argument";
    case ptx::Builtin::Vprintf:
    case ptx::Builtin::AssertFail: return "";
    case ptx::Builtin::None: break;
  }
  if (ci.callee_pc == ptx::kNoPc || ci.callee_pc >= prog.code.size() ||
      ci.callee_func >= prog.funcs.size())
    return "call target is not a linked function";
  if (prog.funcs[ci.callee_func].retaddr_reg == ptx::kNoReg)
    return "callee has no return-address register";
  return "";
}

// Every register an instruction names must exist, so handlers never index out of range.
std::string check_registers(const ptx::Program& prog, const ptx::Instr& in) {
  const uint32_t n = prog.num_regs();
  auto bad = [&](const Operand& o) {
    switch (o.kind) {
      case Operand::Kind::Reg:
      case Operand::Kind::Addr:
        return o.reg != ptx::kNoReg && o.reg >= n;
      case Operand::Kind::Vec:
        for (int k = 0; k < o.vec_n && k < ptx::kMaxVec; ++k)
          if (o.vec[static_cast<size_t>(k)] != ptx::kNoReg && o.vec[static_cast<size_t>(k)] >= n) return true;
        return false;
      default:
        return false;
    }
  };
  if (bad(in.guard) || bad(in.pout)) return "register index out of range";
  for (int i = 0; i < in.nops && i < ptx::kMaxOperands; ++i)
    if (bad(in.ops[static_cast<size_t>(i)])) return "register index out of range";
  return "";
}

}  // namespace

Executor::Executor(const ptx::Program& prog, bool fast_paths) : prog_(&prog), ncode_(prog.code.size()) {
  for (uint32_t pc = 0; pc < prog.code.size(); ++pc) {
    const ptx::Instr& in = prog.code[pc];
    std::string why;
    bool ok = executor_supports(in, &why);
    if (ok) {
      why = check_registers(prog, in);
      ok = why.empty();
    }
    if (ok && in.op == Op::Call) {
      why = check_call(prog, in);
      ok = why.empty();
    }
    if (!ok) {
      const std::string text = pc < prog.text.size() ? prog.text[pc] : std::string(ptx::op_name(in.op));
      throw input_error(prog.source_path + ":" + std::to_string(in.line) + ": unsupported instruction '" +
                        text + "': " + why);
    }
  }
  if (fast_paths) fast_ = std::make_shared<const FastProgram>(prog);
}

namespace {

// Threads of `mask` whose guard predicate holds, a 64-thread word at a time.
ThreadMask guarded(const CtaState& cta, const ptx::Operand& guard, const ThreadMask& mask) {
  ThreadMask active = mask;  // a copy, not a cleared mask: its empty words are already zero
  const uint64_t* row = cta.reg_row(guard.reg);
  const uint32_t words = (cta.threads() + 63) / 64;
  for (uint32_t i = 0; i < words; ++i)
    if (const uint64_t w = mask.word(i)) active.set_word(i, guard_word(row, i, w, guard.neg));
  return active;
}

}  // namespace

namespace {

// A PC outside the program: a fault, not a crash.
[[gnu::noinline, gnu::cold]] void bad_pc(const CtaState& cta, uint32_t pc, const ThreadMask& mask, StepResult& out) {
  out.control = Control::Fault;
  out.fault.message = "PC " + std::to_string(pc) + " is outside the program";
  out.fault.tid = mask.first() < cta.threads() ? mask.first() : 0;
  out.fault.addr = 0;
  out.fault.has_addr = false;
}

// Everything but the ALU fast kernels, out of line so the fast path of
// step() stays a short function (small frame, few saved registers).
[[gnu::noinline]] void step_general(const FastInstr* f, CtaState& cta, const ExecEnv& env, const ptx::Instr& in,
                                    uint32_t pc, const ThreadMask& mask, StepResult& out) {
  const ThreadMask active = in.guard.kind != Operand::Kind::None ? guarded(cta, in.guard, mask) : mask;
  if (f && f->mem && !env.record_accesses && f->mem(*f, cta, env, active)) {
    (in.op == ptx::Op::St ? out.is_store : out.is_load) = true;
    return;
  }
  ExecContext ctx{cta, env, in, pc, active, mask, out};
  handler_table().by_op[static_cast<size_t>(in.op)](ctx);
}

}  // namespace

void Executor::step(CtaState& cta, const ExecEnv& env, uint32_t pc, const ThreadMask& mask,
                    StepResult& out) const {
  out.reset();
  if (pc >= ncode_) return bad_pc(cta, pc, mask, out);
  const ptx::Instr& in = prog_->code[pc];
  const FastInstr* f = fast_ ? &fast_->code[pc] : nullptr;
  if (f && f->run) {
    // Guard predicate: one bit per thread; threads where it is false do nothing.
    if (in.guard.kind != Operand::Kind::None) run_fast(*f, cta, guarded(cta, in.guard, mask));
    else run_fast(*f, cta, mask);
    return;
  }
  if (f && f->branch) {  // what exec_bra does, without building an ExecContext
    out.control = Control::Branch;
    out.taken = in.guard.kind != Operand::Kind::None ? guarded(cta, in.guard, mask) : mask;
    out.target = f->target;
    return;
  }
  step_general(f, cta, env, in, pc, mask, out);
}

}  // namespace simt::func
