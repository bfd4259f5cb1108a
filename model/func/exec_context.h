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
  // Inline fast path for plain registers; everything else out of line.
  uint64_t src(int i, uint32_t t, ptx::Type ty) const {
    const ptx::Operand& o = in.ops[static_cast<size_t>(i)];
    if (o.kind == ptx::Operand::Kind::Reg && o.reg != ptx::kNoReg && ty != ptx::Type::Pred)
      return cta.reg(o.reg, t) & width_mask(ty);
    return src_slow(i, t, ty);
  }
  // Reads a predicate operand (honours `!p`).
  bool pred(const ptx::Operand& o, uint32_t t) const;
  // Writes `bits` of type `ty` to destination operand `i` (Reg or `_` sink).
  void dst(int i, uint32_t t, ptx::Type ty, uint64_t bits) {
    const ptx::Operand& o = in.ops[static_cast<size_t>(i)];
    if (o.kind == ptx::Operand::Kind::Reg) write_reg(o.reg, t, ty, bits);
  }
  // Sign- or zero-extends `bits` of `ty` to the register's declared width.
  void write_reg(uint32_t r, uint32_t t, ptx::Type ty, uint64_t bits) {
    if (r == ptx::kNoReg) return;
    const ptx::Type rty = cta.program().regs[r].type;
    if (rty == ptx::Type::Pred || ty == ptx::Type::Pred) {
      cta.reg(r, t) = (rty == ptx::Type::Pred) ? (bits != 0 ? 1 : 0) : (bits & 1);
      return;
    }
    const uint32_t bytes = ptx::type_bytes(ty);
    if (bytes > 0 && bytes < 8) {
      const uint32_t shift = 64 - bytes * 8;
      if (ptx::type_is_signed(ty))
        bits = static_cast<uint64_t>(static_cast<int64_t>(bits << shift) >> shift);
      else
        bits &= ~uint64_t{0} >> shift;
    }
    cta.reg(r, t) = bits & width_mask(rty);
  }
  // All ones over the width of `ty` (1 for predicates).
  static uint64_t width_mask(ptx::Type ty) {
    const uint32_t bytes = ptx::type_bytes(ty);
    if (ty == ptx::Type::Pred) return 1;
    if (bytes == 0 || bytes >= 8) return ~uint64_t{0};
    return (uint64_t{1} << (bytes * 8)) - 1;
  }
  uint64_t src_slow(int i, uint32_t t, ptx::Type ty) const;
  // Value of a special register for thread `t`.
  uint64_t sreg(ptx::Sreg s, uint32_t t) const;

  // Reports a fault for thread `t`; handlers return right after.
  void fail(uint32_t t, const std::string& msg, FaultKind kind = FaultKind::Other);
  // An access fault at `addr` (an illegal address unless told otherwise).
  void fail_at(uint32_t t, uint64_t addr, const std::string& msg, FaultKind kind = FaultKind::IllegalAddress);
  bool failed() const { return out.control == Control::Fault; }
};

// Value of special register `s` for thread `t` (what ExecContext::sreg returns).
uint64_t sreg_value(const CtaState& cta, ptx::Sreg s, uint32_t t);

// Value of immediate operand `o` read as type `ty` (what src() returns for it).
uint64_t imm_bits(const ptx::Operand& o, ptx::Type ty);

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
void register_texture_ops(HandlerTable&);  // tex, tld4, txq, suld, sust, suq on texture/surface objects
void register_video_ops(HandlerTable&);    // vadd ... vmad, vset; vadd2 ... vset4 (SIMD)
void register_async_copy_ops(HandlerTable&);  // cp.async and its commit/wait (exec_async_copy.cpp)
void register_mma_ops(HandlerTable&);      // wmma.load/store/mma, mma, ldmatrix (warp matrix)

const HandlerTable& handler_table();

}  // namespace simt::func
