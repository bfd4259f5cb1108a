// Internal to the executor: what one instruction's handler sees, and how
// handlers are found. Each family of opcodes lives in its own exec_*.cpp and
// registers its handlers in the table, so adding an opcode touches one file.
#pragma once

#include <cstdint>
#include <string>

#include "func/executor.h"

namespace simt::func {

struct ExecContext {
  CtaState& cta;
  const ExecEnv& env;
  const ptx::Instr& in;
  uint32_t pc;
  ThreadMask mask;       // executing threads whose guard predicate is true
  ThreadMask issued;     // every executing thread (guard true or false)
  StepResult& out;

  // Reads source operand `i` for thread `t` as raw bits of type `ty`
  // (registers, immediates converted to `ty`, special registers).
  uint64_t src(int i, uint32_t t, ptx::Type ty) const;
  // Reads a predicate operand (honours `!p`).
  bool pred(const ptx::Operand& o, uint32_t t) const;
  // Writes `bits` of type `ty` to destination operand `i` (Reg or `_` sink).
  void dst(int i, uint32_t t, ptx::Type ty, uint64_t bits);
  void write_reg(uint32_t r, uint32_t t, ptx::Type ty, uint64_t bits);
  // Value of a special register for thread `t`.
  uint64_t sreg(ptx::Sreg s, uint32_t t) const;

  // Reports a fault for thread `t`; handlers return right after.
  void fail(uint32_t t, const std::string& msg);
  void fail_at(uint32_t t, uint64_t addr, const std::string& msg);
  bool failed() const { return out.control == Control::Fault; }
};

using Handler = void (*)(ExecContext&);

struct HandlerTable {
  Handler by_op[static_cast<size_t>(ptx::Op::Count)] = {};
  // Optional per-opcode check of modifiers/types; returns "" when supported.
  std::string (*check[static_cast<size_t>(ptx::Op::Count)])(const ptx::Instr&) = {};
  void add(ptx::Op op, Handler h, std::string (*chk)(const ptx::Instr&) = nullptr) {
    by_op[static_cast<size_t>(op)] = h;
    check[static_cast<size_t>(op)] = chk;
  }
};

// One registration function per family (exec_<family>.cpp).
void register_int_ops(HandlerTable&);      // add..lop3, popc, bfe, prmt, shf, dp4a ...
void register_compare_ops(HandlerTable&);  // setp, selp, slct, set
void register_float_ops(HandlerTable&);    // add/mul/fma/div/rcp/sqrt/ex2/sin/testp ... on f32/f64 (and f16)
void register_convert_ops(HandlerTable&);  // cvt, mov (incl. vector pack/unpack)
void register_memory_ops(HandlerTable&);   // ld, ldu, st, atom, red, cvta, isspacep, prefetch, fence, membar
void register_control_ops(HandlerTable&);  // bra, call, ret, exit, trap, bar*, barrier*, nanosleep
void register_warp_ops(HandlerTable&);     // vote, shfl, activemask, match, redux

const HandlerTable& handler_table();

}  // namespace simt::func
