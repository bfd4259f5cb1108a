#include "tbc/dwf_kernel_facts.h"

#include <string>

#include "util/error.h"

namespace simt::tbc {

namespace {

// Operand index of the membermask of a warp-synchronous instruction (see
// func/exec_warp.cpp), or -1 when the opcode is not warp-synchronous.
int member_operand(const ptx::Instr& in) {
  switch (in.op) {
    case ptx::Op::Vote: case ptx::Op::Match: case ptx::Op::Redux: return 2;
    case ptx::Op::Shfl: return 4;
    case ptx::Op::BarWarp: return 0;
    default: return -1;
  }
}

std::string place(const ptx::Program& prog, uint32_t pc) {
  const std::string text = pc < prog.text.size() ? prog.text[pc] : std::string("?");
  return "kernel '" + prog.kernel + "': '" + text + "' at line " + std::to_string(prog.code[pc].line) +
         " (PC " + std::to_string(pc) + ")";
}

}  // namespace

DwfKernelFacts analyse_dwf_kernel(const ptx::Program& prog, const ptx::Cfg& cfg, uint32_t warp_size,
                                  const char* unit) {
  DwfKernelFacts f;
  f.prog = &prog;
  f.cfg = &cfg;
  const uint32_t n = static_cast<uint32_t>(prog.code.size());
  f.kind.assign(n, PcKind::Plain);
  f.members.assign(n, 0);
  for (uint32_t pc = 0; pc < n; ++pc) {
    const ptx::Instr& in = prog.code[pc];
    if (in.op == ptx::Op::Call) {
      const bool builtin = in.call_info < prog.calls.size() && prog.calls[in.call_info].builtin != ptx::Builtin::None;
      if (!builtin)
        throw input_error(place(prog, pc) + ": the " + std::string(unit) +
                          " branch unit cannot run calls to functions (no return stack); use pdom or tbc");
      continue;
    }
    if ((in.op == ptx::Op::Bar || in.op == ptx::Op::Barrier) && !(in.flags & ptx::kArrive)) {
      f.kind[pc] = PcKind::CtaBarrier;
      continue;
    }
    const int mo = member_operand(in);
    if (mo < 0) continue;
    if (warp_size < 32)
      throw input_error(place(prog, pc) + ": warp-synchronous instructions need a warp size of at least 32 under the " +
                        std::string(unit) + " branch unit (warp size " + std::to_string(warp_size) + ")");
    f.kind[pc] = PcKind::WarpSync;
    f.has_warp_sync = true;
    f.members[pc] = 0xffffffffu;
    if (mo < in.nops && in.ops[mo].kind == ptx::Operand::Kind::Imm)
      f.members[pc] = static_cast<uint32_t>(in.ops[mo].imm);
  }
  return f;
}

}  // namespace simt::tbc
