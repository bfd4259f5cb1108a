#include "ptx/def_use.h"

namespace simt::ptx {

bool writes_ops0(const Instr& in) {
  switch (in.op) {
    case Op::St: case Op::Red: case Op::BarWarp: case Op::Bra: case Op::Brx:
    case Op::Call: case Op::Ret: case Op::Exit: case Op::Trap: case Op::Brkpt:
    case Op::Pmevent: case Op::Prefetch: case Op::Prefetchu: case Op::Membar:
    case Op::Fence: case Op::Nanosleep: case Op::Sust: case Op::Cp:
      return false;
    case Op::Bar: case Op::Barrier:
      // bar.red.{popc,and,or} d, a{, b}, {!}c has a destination; plain bar does not.
      return (in.flags & kRedBar) != 0;
    default:
      return in.nops > 0;
  }
}

namespace {

template <int N>
void add_operand_regs(const Operand& o, RegList<N>& out) {
  switch (o.kind) {
    case Operand::Kind::Reg:
    case Operand::Kind::Addr:  // base register; kNoReg for absolute addresses
      out.add(o.reg);
      break;
    case Operand::Kind::Vec:
      for (int i = 0; i < o.vec_n; ++i) out.add(o.vec[i]);
      break;
    default:
      break;
  }
}

}  // namespace

DefUse def_use(const Instr& in) {
  DefUse du;
  if (in.guard.kind == Operand::Kind::Reg) {
    du.uses.add(in.guard.reg);
    du.partial_defs = true;
  }
  // A call's arguments and results live in local memory; an indirect call
  // reads its target register (ops[0], a source: writes_ops0 is false).
  int first_src = 0;
  if (writes_ops0(in)) {
    add_operand_regs(in.ops[0], du.defs);
    first_src = 1;
  }
  if (in.pout.kind == Operand::Kind::Reg) du.defs.add(in.pout.reg);
  for (int i = first_src; i < in.nops && i < kMaxOperands; ++i) add_operand_regs(in.ops[i], du.uses);
  return du;
}

}  // namespace simt::ptx
