// Control flow: bra, call/ret (with argument/return copies through per-thread
// local memory, indirect calls, and a per-thread call stack for recursion),
// exit, trap, barriers, and the builtins nvcc calls as functions (vprintf,
// __assertfail, malloc, free).
//
// Call and ret name the threads that take them (StepResult::taken); at a
// call the others wait at pc + 1, at a ret they go on at pc + 1. The stack
// entry a call pushes reconverges at its return address | kReturnTag, where
// ret sends its threads (SimtStack::call / ret).
#include <algorithm>
#include <cstring>
#include <ostream>

#include "func/device_heap.h"
#include "func/device_printf.h"
#include "func/exec_context.h"
#include "util/hex.h"

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
  if (size) std::memmove(base + to, base + from, size);  // base is null when the local area is empty
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

// Writes builtin return value 0 of thread t: the low bytes of `v`, as many as
// its slot holds (at most `max_bytes`, the C type's size). Nothing for a call
// that takes no return value.
bool builtin_ret(ExecContext& c, const ptx::CallInfo& ci, uint32_t t, uint64_t v, uint32_t max_bytes) {
  if (ci.rets.empty()) return true;
  const uint32_t size = ci.rets[0].size < max_bytes ? ci.rets[0].size : max_bytes;
  if (uint64_t{ci.rets[0].to} + size > c.cta.local_bytes()) {
    c.fail_at(t, ci.rets[0].to, "builtin return slot outside the local area");
    return false;
  }
  std::memcpy(c.cta.local(t) + ci.rets[0].to, &v, size);
  return true;
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
  c.fail(c.mask.first(), "trap", FaultKind::Trap);
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
    builtin_ret(c, ci, t, static_cast<uint32_t>(text.size()), 4);  // an int
  });
}

// malloc(size) -> pointer, 0 when the heap has no block that large (as CUDA).
// Threads allocate in lane order, so addresses are the same every run.
void exec_malloc(ExecContext& c, const ptx::CallInfo& ci) {
  c.mask.for_each([&](uint32_t t) {
    if (c.failed()) return;
    uint64_t size;
    if (!builtin_arg(c, ci, 0, t, size)) return;
    if (!c.env.heap) {
      c.fail(t, "device-side malloc needs a device heap, and this run provides none");
      return;
    }
    builtin_ret(c, ci, t, c.env.heap->malloc(size), 8);
  });
}

// free(ptr): ptr must be a live block from malloc; free(0) does nothing.
void exec_free(ExecContext& c, const ptx::CallInfo& ci) {
  c.mask.for_each([&](uint32_t t) {
    if (c.failed()) return;
    uint64_t p;
    if (!builtin_arg(c, ci, 0, t, p)) return;
    if (p == 0) return;
    if (!c.env.heap) {
      c.fail(t, "device-side free needs a device heap, and this run provides none");
      return;
    }
    if (!c.env.heap->free(p))
      c.fail_at(t, p, "free of an address that is not a live block from device-side malloc (never "
                          "allocated by it, already freed, or not the start of a block)");
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
                " in " + func + ")", FaultKind::Assert);
}

// ---------------------------------------------------------------- call stack
// A call that may re-enter an active function (callee in its caller's cyclic
// component of the call graph, see ptx::FuncRange) pushes the callee's
// registers and local frame on the thread's call stack; the matching return
// pops them. Each function keeps one static frame, so this is all recursion
// needs.

bool saves_frame(const ptx::Program& p, uint32_t caller, uint32_t callee) {
  const ptx::FuncRange& g = p.funcs[callee];
  return g.recursive && g.scc == p.funcs[caller].scc;
}

size_t saved_bytes(const ptx::FuncRange& g) { return size_t{g.reg_end - g.reg_begin} * 8 + g.frame_bytes; }

bool push_frame(ExecContext& c, uint32_t t, const ptx::FuncRange& g) {
  std::vector<uint8_t>& st = c.cta.call_stack(t);
  const size_t need = saved_bytes(g);
  if (st.size() + need > c.env.call_stack_bytes) {
    c.fail(t, "call stack overflow: calling '" + g.name + "' again needs " + std::to_string(need) +
                  " bytes more than the " + std::to_string(c.env.call_stack_bytes) +
                  "-byte call stack holds (" + std::to_string(st.size()) +
                  " bytes already saved; raise it with --call-stack)");
    return false;
  }
  if (uint64_t{g.local_base} + g.frame_bytes > c.cta.local_bytes()) {
    c.fail(t, "the frame of '" + g.name + "' lies outside the local area");
    return false;
  }
  const size_t at = st.size();
  st.resize(at + need);
  uint8_t* d = st.data() + at;
  for (uint32_t r = g.reg_begin; r < g.reg_end; ++r, d += 8) {
    const uint64_t v = static_cast<const CtaState&>(c.cta).reg(r, t);
    std::memcpy(d, &v, 8);
  }
  // An empty frame may sit in an empty local area, whose pointer is null:
  // memcpy must not see it, even for 0 bytes.
  if (g.frame_bytes) std::memcpy(d, c.cta.local(t) + g.local_base, g.frame_bytes);
  return true;
}

bool pop_frame(ExecContext& c, uint32_t t, const ptx::FuncRange& g) {
  std::vector<uint8_t>& st = c.cta.call_stack(t);
  const size_t need = saved_bytes(g);
  if (st.size() < need) {
    c.fail(t, "return from '" + g.name + "' finds no saved frame on the call stack");
    return false;
  }
  const size_t at = st.size() - need;
  const uint8_t* d = st.data() + at;
  for (uint32_t r = g.reg_begin; r < g.reg_end; ++r, d += 8) std::memcpy(&c.cta.reg(r, t), d, 8);
  if (g.frame_bytes) std::memcpy(c.cta.local(t) + g.local_base, d, g.frame_bytes);
  st.resize(at);
  return true;
}

// Argument / return copy i of a call into `callee`. Builtins and indirect
// calls record only the caller's side; the callee's comes from its FuncRange.
ptx::CallInfo::Copy arg_copy(const ptx::CallInfo& ci, const ptx::FuncRange& callee, size_t i) {
  if (ci.callee_reg == ptx::kNoReg) return ci.args[i];
  const ptx::FrameSlot& s = callee.params[i];
  return {ci.args[i].from, s.addr, std::min(ci.args[i].size, s.size)};
}
ptx::CallInfo::Copy ret_copy(const ptx::CallInfo& ci, const ptx::FuncRange& callee, size_t i) {
  if (ci.callee_reg == ptx::kNoReg) return ci.rets[i];
  const ptx::FrameSlot& s = callee.rets[i];
  return {s.addr, ci.rets[i].to, std::min(ci.rets[i].size, s.size)};
}

// Threads `group` enter function `callee` from this call: frame saved when
// needed, arguments copied, return address set.
bool enter(ExecContext& c, const ptx::CallInfo& ci, uint32_t callee, const ThreadMask& group) {
  const ptx::Program& p = c.cta.program();
  const ptx::FuncRange& g = p.funcs[callee];
  const bool save = saves_frame(p, ci.caller_func, callee);
  group.for_each([&](uint32_t t) {
    if (c.failed()) return;
    if (save && !push_frame(c, t, g)) return;
    for (size_t i = 0; i < ci.args.size(); ++i) {
      const ptx::CallInfo::Copy a = arg_copy(ci, g, i);
      if (!local_copy(c, t, a.from, a.to, a.size)) return;
    }
    c.cta.reg(g.retaddr_reg, t) = c.pc + 1;
  });
  return !c.failed();
}

using util::hex;

// call through a register: the threads whose target is the first thread's
// call it now; the others (and threads whose guard is false) stay at this PC
// and run it again once the callers are back (StepResult::stay).
void exec_indirect_call(ExecContext& c, const ptx::CallInfo& ci) {
  if (c.mask.none()) return;
  const ptx::Program& p = c.cta.program();
  const uint64_t* row = static_cast<const CtaState&>(c.cta).reg_row(ci.callee_reg);
  const uint32_t first = c.mask.first();
  const uint64_t addr = row[first];
  uint32_t mi = 0;
  if (!ptx::func_index_of(addr, p.func_by_module.size(), mi) || p.func_by_module[mi] == ptx::kNoPc) {
    c.fail(first, "indirect call to " + hex(addr) + ", which is not the address of a function with a body in " +
                      "this kernel's module");
    return;
  }
  const uint32_t callee = p.func_by_module[mi];
  const ptx::FuncRange& g = p.funcs[callee];
  if (ci.args.size() != g.params.size() || ci.rets.size() > g.rets.size()) {
    c.fail(first, "indirect call to '" + g.name + "' passes " + std::to_string(ci.args.size()) + " arguments and " +
                      std::to_string(ci.rets.size()) + " return values; it takes " + std::to_string(g.params.size()) +
                      " and returns " + std::to_string(g.rets.size()));
    return;
  }
  ThreadMask group;
  c.mask.for_each([&](uint32_t t) {
    if (row[t] == addr) group.set(t);
  });
  if (!enter(c, ci, callee, group)) return;
  c.out.control = Control::Call;
  c.out.taken = group;
  c.out.target = g.begin;
  c.out.stay = group != c.issued;
}

void exec_call(ExecContext& c) {
  const ptx::Program& p = c.cta.program();
  const ptx::CallInfo& ci = p.calls[c.in.call_info];
  switch (ci.builtin) {
    case ptx::Builtin::Vprintf: exec_vprintf(c, ci); return;
    case ptx::Builtin::AssertFail: exec_assertfail(c, ci); return;
    case ptx::Builtin::Malloc: exec_malloc(c, ci); return;
    case ptx::Builtin::Free: exec_free(c, ci); return;
    case ptx::Builtin::None: break;
  }
  if (ci.callee_reg != ptx::kNoReg) return exec_indirect_call(c, ci);
  if (c.mask.none()) return;
  if (!enter(c, ci, ci.callee_func, c.mask)) return;
  c.out.control = Control::Call;  // threads whose guard is false wait at pc + 1
  c.out.taken = c.mask;
  c.out.target = ci.callee_pc;
}

// Each thread returns to its own return address (threads of one stack entry
// share it; a VWS gang's member warps may be at different call depths), and
// the stack sends the threads to the entry's tagged return PC.
void exec_ret(ExecContext& c) {
  const ptx::Program& p = c.cta.program();
  const uint32_t f = static_cast<uint32_t>(func_of(p, c.pc));
  if (f == 0) {  // returning from the kernel entry ends the thread
    exec_exit(c);
    return;
  }
  if (c.mask.none()) return;
  const ptx::FuncRange& g = p.funcs[f];
  const uint64_t* ra = static_cast<const CtaState&>(c.cta).reg_row(g.retaddr_reg);
  const uint32_t first_target = static_cast<uint32_t>(ra[c.mask.first()]);  // before a frame comes back
  std::vector<uint8_t> values;  // return values, held while a saved frame comes back
  c.mask.for_each([&](uint32_t t) {
    if (c.failed()) return;
    const uint64_t target = ra[t];
    if (target == 0 || target > p.code.size() || p.code[target - 1].op != ptx::Op::Call ||
        p.code[target - 1].call_info >= p.calls.size()) {
      c.fail(t, "return address " + std::to_string(target) + " does not follow a call");
      return;
    }
    const ptx::CallInfo& ci = p.calls[p.code[target - 1].call_info];
    if (ci.callee_reg != ptx::kNoReg && ci.rets.size() > g.rets.size()) {  // direct calls: checked at link
      c.fail(t, "return from '" + g.name + "' to a call that expects more return values");
      return;
    }
    if (!saves_frame(p, ci.caller_func, f)) {
      for (size_t i = 0; i < ci.rets.size(); ++i) {
        const ptx::CallInfo::Copy r = ret_copy(ci, g, i);
        if (!local_copy(c, t, r.from, r.to, r.size)) return;
      }
      return;
    }
    // The callee's frame may be the caller's (direct recursion): read the
    // values, restore the frame, then write them to the caller's slots.
    values.clear();
    for (size_t i = 0; i < ci.rets.size(); ++i) {
      const ptx::CallInfo::Copy r = ret_copy(ci, g, i);
      if (uint64_t{r.from} + r.size > c.cta.local_bytes() || uint64_t{r.to} + r.size > c.cta.local_bytes()) {
        c.fail_at(t, r.from, "call parameter copy outside the local area");
        return;
      }
      values.insert(values.end(), c.cta.local(t) + r.from, c.cta.local(t) + r.from + r.size);
    }
    if (!pop_frame(c, t, g)) return;
    size_t at = 0;
    for (size_t i = 0; i < ci.rets.size(); ++i) {
      const ptx::CallInfo::Copy r = ret_copy(ci, g, i);
      std::memcpy(c.cta.local(t) + r.to, values.data() + at, r.size);
      at += r.size;
    }
  });
  if (c.failed()) return;
  c.out.control = Control::Ret;
  c.out.taken = c.mask;
  c.out.target = first_target | ptx::kReturnTag;  // for traces: the stack returns to its entry's own PC
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

// bar.warp.sync: nothing the functional model needs to do.
void exec_nothing(ExecContext&) {}

// nanosleep t: the warp sleeps about t ns (PTX ISA: somewhere in [0, 2t],
// at most 1 ms). The threads of a warp sleep together, so the longest
// request of its active threads is reported; whoever runs the warp in time
// spends it (sm/issue_unit.h), the functional runner ignores it.
void exec_nanosleep(ExecContext& c) {
  uint32_t ns = 0;
  c.mask.for_each([&](uint32_t t) { ns = std::max(ns, static_cast<uint32_t>(c.src(0, t, Type::U32))); });
  c.out.sleep_ns = std::min(ns, kMaxSleepNs);
}

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
  t.add(ptx::Op::Nanosleep, exec_nanosleep);
  t.add(ptx::Op::Brx, exec_refused, refuse_brx);
}

}  // namespace simt::func
