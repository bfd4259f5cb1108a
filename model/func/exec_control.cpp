// Control flow: bra, call/ret (with argument/return copies through per-thread
// local memory), exit, trap, barriers, and the builtins nvcc calls as
// functions (vprintf, __assertfail).
//
// A guard that is true for only some of the executing threads turns call and
// ret into a Branch (the guard-true threads go to the callee / return PC, the
// others to pc + 1): Call/Ret mean "every executing thread".
#include <cstring>
#include <ostream>

#include "func/device_printf.h"
#include "func/exec_context.h"

namespace simt::func {

using ptx::Operand;
using ptx::Type;

namespace {

// Copies `size` bytes inside thread t's local area; false after a fault.
bool local_copy(ExecContext& c, uint32_t t, uint32_t from, uint32_t to, uint32_t size) {
  const uint64_t lim = c.cta.local_bytes();
  if (uint64_t{from} + size > lim || uint64_t{to} + size > lim) {
    c.fail_at(t, from, "call parameter copy outside the local area");
    return false;
  }
  uint8_t* base = c.cta.local(t);
  std::memmove(base + to, base + from, size);
  return true;
}

bool local_read(ExecContext& c, uint32_t t, uint32_t off, void* dst, uint32_t size) {
  if (uint64_t{off} + size > c.cta.local_bytes()) {
    c.fail_at(t, off, "builtin argument slot outside the local area");
    return false;
  }
  std::memcpy(dst, c.cta.local(t) + off, size);
  return true;
}

// Builtin argument i of thread t as an integer of its slot size (<= 8 bytes).
bool builtin_arg(ExecContext& c, const ptx::CallInfo& ci, size_t i, uint32_t t, uint64_t& v) {
  v = 0;
  if (i >= ci.args.size()) {
    c.fail(t, "builtin call is missing argument " + std::to_string(i));
    return false;
  }
  const uint32_t size = ci.args[i].size < 8 ? ci.args[i].size : 8;
  return local_read(c, t, ci.args[i].from, &v, size);
}

// Sets the result for a call/ret that only some executing threads take.
void go_to(ExecContext& c, Control whole, uint32_t target) {
  c.out.target = target;
  if (c.mask == c.issued) {
    c.out.control = whole;
  } else {
    c.out.control = Control::Branch;
    c.out.taken = c.mask;
  }
}

// Index of the function whose body holds `pc`.
size_t func_of(const ptx::Program& p, uint32_t pc) {
  for (size_t i = 0; i < p.funcs.size(); ++i)
    if (pc >= p.funcs[i].begin && pc < p.funcs[i].end) return i;
  return 0;
}

// ---------------------------------------------------------------- bra / exit / trap

std::string check_bra(const ptx::Instr& in) {
  if (in.nops < 1 || in.ops[0].kind != Operand::Kind::Label) return "bra needs a label target";
  return "";
}

void exec_bra(ExecContext& c) {
  c.out.control = Control::Branch;
  c.out.taken = c.mask;
  c.out.target = static_cast<uint32_t>(c.in.ops[0].imm);
}

void exec_exit(ExecContext& c) {
  c.out.control = Control::Exit;
  c.out.taken = c.mask;
  c.cta.exited() |= c.mask;
}

void exec_trap(ExecContext& c) {
  if (c.mask.none()) return;
  c.fail(c.mask.first(), "trap");
}

// ---------------------------------------------------------------- call / ret

void exec_vprintf(ExecContext& c, const ptx::CallInfo& ci) {
  std::string text, error;
  c.mask.for_each([&](uint32_t t) {
    if (c.failed()) return;
    uint64_t fmt, args;
    if (!builtin_arg(c, ci, 0, t, fmt) || !builtin_arg(c, ci, 1, t, args)) return;
    if (!format_device_printf(c, t, fmt, args, text, error)) {
      c.fail(t, error);
      return;
    }
    if (c.env.printf_out) c.env.printf_out->write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!ci.rets.empty()) {
      const int32_t n = static_cast<int32_t>(text.size());
      const uint32_t size = ci.rets[0].size < 4 ? ci.rets[0].size : 4;
      if (uint64_t{ci.rets[0].to} + size > c.cta.local_bytes()) {
        c.fail_at(t, ci.rets[0].to, "builtin return slot outside the local area");
        return;
      }
      std::memcpy(c.cta.local(t) + ci.rets[0].to, &n, size);
    }
  });
}

// __assertfail(message, file, line, function, char_size)
void exec_assertfail(ExecContext& c, const ptx::CallInfo& ci) {
  if (c.mask.none()) return;
  const uint32_t t = c.mask.first();
  uint64_t msg_p, file_p, line, func_p;
  if (!builtin_arg(c, ci, 0, t, msg_p) || !builtin_arg(c, ci, 1, t, file_p) ||
      !builtin_arg(c, ci, 2, t, line) || !builtin_arg(c, ci, 3, t, func_p))
    return;
  std::string msg, file, func, error;
  auto str = [&](uint64_t p, std::string& s) {
    if (!read_device_string(c, t, p, s, error, 4096)) s = "<unreadable: " + error + ">";
  };
  str(msg_p, msg);
  str(file_p, file);
  str(func_p, func);
  c.fail(t, "assertion failed: " + msg + " (" + file + ":" + std::to_string(static_cast<uint32_t>(line)) +
                " in " + func + ")");
}

void exec_call(ExecContext& c) {
  const ptx::Program& p = c.cta.program();
  const ptx::CallInfo& ci = p.calls[c.in.call_info];
  switch (ci.builtin) {
    case ptx::Builtin::Vprintf: exec_vprintf(c, ci); return;
    case ptx::Builtin::AssertFail: exec_assertfail(c, ci); return;
    default: break;  // Malloc/Free are refused when the Executor is built
  }
  if (c.mask.none()) return;
  const uint32_t rr = p.funcs[ci.callee_func].retaddr_reg;
  c.mask.for_each([&](uint32_t t) {
    if (c.failed()) return;
    for (const auto& a : ci.args)
      if (!local_copy(c, t, a.from, a.to, a.size)) return;
    c.cta.reg(rr, t) = c.pc + 1;
  });
  if (c.failed()) return;
  go_to(c, Control::Call, ci.callee_pc);
}

void exec_ret(ExecContext& c) {
  const ptx::Program& p = c.cta.program();
  const size_t f = func_of(p, c.pc);
  if (f == 0) {  // returning from the kernel entry ends the thread
    exec_exit(c);
    return;
  }
  if (c.mask.none()) return;
  const uint64_t* ra = c.cta.reg_row(p.funcs[f].retaddr_reg);
  const uint32_t first = c.mask.first();
  const uint64_t target = ra[first];
  bool same = true;
  c.mask.for_each([&](uint32_t t) {
    if (ra[t] != target && same) {
      same = false;
      c.fail(t, "threads returning together disagree on the return address (PC " + std::to_string(ra[t]) +
                    " vs " + std::to_string(target) + ")");
    }
  });
  if (!same) return;
  if (target == 0 || target > p.code.size() || p.code[target - 1].op != ptx::Op::Call ||
      p.code[target - 1].call_info >= p.calls.size()) {
    c.fail(first, "return address " + std::to_string(target) + " does not follow a call");
    return;
  }
  const ptx::CallInfo& ci = p.calls[p.code[target - 1].call_info];
  c.mask.for_each([&](uint32_t t) {
    if (c.failed()) return;
    for (const auto& r : ci.rets)
      if (!local_copy(c, t, r.from, r.to, r.size)) return;
  });
  if (c.failed()) return;
  go_to(c, Control::Ret, static_cast<uint32_t>(target));
}

// ---------------------------------------------------------------- barriers

std::string check_bar(const ptx::Instr& in) {
  if (in.flags & ptx::kRedBar) {
    if (in.flags & ptx::kArrive) return "bar.red cannot be combined with .arrive";
    if (in.bop != ptx::BoolOp::Popc && in.bop != ptx::BoolOp::And && in.bop != ptx::BoolOp::Or)
      return "bar.red needs .popc, .and or .or";
    if (in.nops < 3 || in.nops > 4) return "bar.red takes d, a{, b}, {!}c";
    return "";
  }
  if (in.nops < 1) return "barrier needs an id operand";
  return "";
}

// bar.sync / bar.arrive / barrier.sync / barrier.arrive  a{, b}
// bar.red.{popc,and,or}  d, a{, b}, {!}c
void exec_bar(ExecContext& c) {
  if (c.mask.none()) return;
  const uint32_t t = c.mask.first();
  const bool red = (c.in.flags & ptx::kRedBar) != 0;
  const int id = red ? 1 : 0;  // bar.red's destination comes first
  const int last = c.in.nops - (red ? 1 : 0);  // operands before the predicate
  c.out.control = Control::Barrier;
  c.out.taken = c.mask;
  c.out.bar_id = static_cast<uint32_t>(c.src(id, t, Type::U32));
  c.out.bar_count = last > id + 1 ? static_cast<uint32_t>(c.src(id + 1, t, Type::U32)) : 0;
  c.out.bar_arrive = (c.in.flags & ptx::kArrive) != 0;
  if (red) {
    c.out.bar_red = true;
    c.out.bar_red_op = c.in.bop;
    c.out.bar_red_dest = c.in.ops[0].reg;
    const ptx::Operand& pred = c.in.ops[c.in.nops - 1];
    uint32_t n = 0;
    c.mask.for_each([&](uint32_t u) { n += c.pred(pred, u) ? 1 : 0; });
    c.out.bar_red_true = n;
  }
}

// bar.warp.sync and nanosleep: nothing the functional model needs to do.
void exec_nothing(ExecContext&) {}

// Registered so they are refused with a specific reason, never executed.
void exec_refused(ExecContext& c) {
  if (c.mask.any()) c.fail(c.mask.first(), "unsupported instruction reached the executor");
}
std::string refuse_brx(const ptx::Instr&) { return "brx.idx (indirect branch) is not supported"; }

}  // namespace

void register_control_ops(HandlerTable& t) {
  t.add(ptx::Op::Bra, exec_bra, check_bra);
  t.add(ptx::Op::Call, exec_call);
  t.add(ptx::Op::Ret, exec_ret);
  t.add(ptx::Op::Exit, exec_exit);
  t.add(ptx::Op::Trap, exec_trap);
  t.add(ptx::Op::Bar, exec_bar, check_bar);
  t.add(ptx::Op::Barrier, exec_bar, check_bar);
  t.add(ptx::Op::BarWarp, exec_nothing);
  t.add(ptx::Op::Nanosleep, exec_nothing);
  t.add(ptx::Op::Brx, exec_refused, refuse_brx);
}

}  // namespace simt::func
