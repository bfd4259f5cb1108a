// Builds decoded PTX operands and instructions by hand, for tests that
// exercise the executor and the CFG analyses without going through the parser.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "ptx/ir.h"

namespace simt::test {

using ptx::Instr;
using ptx::Op;
using ptx::Operand;
using ptx::Space;
using ptx::Type;

inline Operand R(uint32_t reg, bool neg = false) {
  Operand o;
  o.kind = Operand::Kind::Reg;
  o.reg = reg;
  o.neg = neg;
  return o;
}
inline Operand Imm(int64_t v) {
  Operand o;
  o.kind = Operand::Kind::Imm;
  o.imm = v;
  return o;
}
inline Operand ImmF32(float f) {
  Operand o;
  o.kind = Operand::Kind::Imm;
  o.imm_kind = ptx::ImmKind::F32Bits;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  o.imm = u;
  return o;
}
inline Operand ImmF64(double d) {
  Operand o;
  o.kind = Operand::Kind::Imm;
  o.imm_kind = ptx::ImmKind::F64Bits;
  std::memcpy(&o.imm, &d, 8);
  return o;
}
// [reg + off]; reg == kNoReg is an absolute address.
inline Operand Addr(uint32_t reg, int64_t off = 0) {
  Operand o;
  o.kind = Operand::Kind::Addr;
  o.reg = reg;
  o.imm = off;
  return o;
}
inline Operand Vec(std::initializer_list<uint32_t> regs) {
  Operand o;
  o.kind = Operand::Kind::Vec;
  o.vec_n = 0;
  for (uint32_t r : regs) o.vec[o.vec_n++] = r;
  return o;
}
inline Operand Label(uint32_t pc) {
  Operand o;
  o.kind = Operand::Kind::Label;
  o.imm = pc;
  return o;
}
inline Operand Sreg(ptx::Sreg s) {
  Operand o;
  o.kind = Operand::Kind::Sreg;
  o.sreg = s;
  return o;
}

inline Instr make(Op op, Type ty, std::initializer_list<Operand> ops, Space space = Space::None) {
  Instr in;
  in.op = op;
  in.type = ty;
  in.space = space;
  for (const Operand& o : ops) in.ops[in.nops++] = o;
  return in;
}

}  // namespace simt::test
