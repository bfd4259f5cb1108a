// Storage slots for a linked program's registers: registers whose values are
// never needed at the same time share one row of the CTA's register file
// (func::CtaState), as ptxas's allocation shares physical registers.
//
// Why: nvcc names a fresh virtual register for nearly every value, so a
// kernel declares several times the registers it ever holds live. One row
// per name makes the model's register file (8 bytes x threads per register)
// that much larger than what it touches, and a many-SM run spends its time
// in host cache misses on it. Sharing is a storage layout only: the
// scoreboard, def/use, traces and statistics keep the PTX register ids.
//
// Exactness: with one slot per register, a register not yet written reads 0
// (or, in a .func, its value from the last call) and a shuffle may read
// another lane's register at any point of that lane's path. Sharing keeps
// every such value too, by giving a private slot to
//   - every register live at its function's entry (some path reads it
//     before writing it: uninitialised reads, the `0` vector element);
//   - every register operand of an instruction that reads other lanes'
//     registers (shfl, vote, match, redux, bar.warp, wmma, mma, ldmatrix);
//   - the registers calls use but def/use leaves out: an indirect call's
//     target and each function's hidden return address.
// Every other register is written before any read on every path, so two of
// them may share a slot when neither is live where the other is written.
// A function keeps its own range of slots, so calls cannot clobber the
// caller, and a recursive call's save of [reg_begin, reg_end) still holds
// the whole function.
#pragma once

#include <cstdint>

#include "ptx/cfg.h"
#include "ptx/ir.h"

namespace simt::ptx {

// Functions with more registers than this keep one slot per register (the
// interference matrix is registers^2 bits).
inline constexpr uint32_t kMaxSharedSlotRegs = 8192;

// Fills p.reg_slot and p.reg_slots. `cfg` must be the Cfg of `p`.
void share_register_slots(Program& p, const Cfg& cfg);

}  // namespace simt::ptx
