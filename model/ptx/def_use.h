// Which registers one decoded instruction reads and writes.
//
// Used by liveness (VGIW live values), the divergence analysis and any
// scoreboard that needs register dependences. Decoding is per instruction
// and allocation-free, so callers may run it once per PC and cache it.
//
// Conventions (after ir.h's operand order, destination first):
//  - ops[0] is a destination for every opcode except the "no destination"
//    ones (see op_writes_ops0): st, red, bar/barrier/bar.warp (unless
//    bar.red, which writes d), bra, brx, call, ret, exit, trap, brkpt,
//    pmevent, prefetch(u), membar, fence, nanosleep, sust.
//  - a destination operand may be a register or a vector {a,b,c,d}; `_`
//    sinks (kNoReg) are skipped. The `d|p` second destination is `pout`.
//  - reads: every other register operand, vector element and address base
//    register, plus the guard predicate. setp/selp's predicate operand c is
//    an ordinary source. Carry flags (addc, .cc) are not registers.
//  - call reads/writes no registers: arguments travel through local memory.
#pragma once

#include <array>
#include <cstdint>

#include "ptx/ir.h"

namespace simt::ptx {

// A small fixed-capacity register list (no allocation on hot paths).
template <int N>
struct RegList {
  uint8_t n = 0;
  std::array<uint32_t, N> regs{};
  // Adds `r` unless it is kNoReg or already present.
  void add(uint32_t r) {
    if (r == kNoReg) return;
    for (int i = 0; i < n; ++i)
      if (regs[i] == r) return;
    regs[n++] = r;
  }
  bool contains(uint32_t r) const {
    for (int i = 0; i < n; ++i)
      if (regs[i] == r) return true;
    return false;
  }
  int size() const { return n; }
  const uint32_t* begin() const { return regs.data(); }
  const uint32_t* end() const { return regs.data() + n; }
};

// Up to 6 operands of up to 4 registers each, plus the guard; the largest
// reader of 8-register fragments, wmma.mma, reads three of them (a, b, c)
// and fits too.
using UseList = RegList<kMaxOperands * 4 + 1>;
static_assert(kMaxOperands * 4 + 1 >= 3 * kMaxVec + 1, "wmma.mma's a, b, c and the guard");
// A vector destination (a fragment: up to 8) plus `pout`.
using DefList = RegList<kMaxVec + 1>;

struct DefUse {
  UseList uses;
  DefList defs;
  bool partial_defs = false;  // guarded: threads whose guard is false keep the old values
};

// True when ops[0] of `in` is a destination (see the conventions above).
bool writes_ops0(const Instr& in);

// The registers `in` reads and writes.
DefUse def_use(const Instr& in);

}  // namespace simt::ptx
