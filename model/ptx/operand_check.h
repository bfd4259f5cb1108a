// Operand forms: checks a parsed instruction's operands against the form of
// its opcode as ptxas does, so malformed code is refused with file:line:col
// instead of being executed (`add.s32 %r1, %r2;` once wrote 7).
//
// Checked: the operand count (with the optional operands each form has), the
// kind of every operand (destination register, value, address, predicate,
// vector, label), floating-point immediates where the type is an integer
// type, the `|p` second destination, and register types against the
// instruction type under the PTX ISA's rules: same size, with .b registers
// fitting any type of their size and u/s interchangeable; ld, st and cvt
// (only) accept registers wider than the instruction type ("Operand Size
// Exceeding Instruction-Type Size"), except wider float registers for a
// float type. Texture/surface instructions and call are checked elsewhere.
#pragma once

#include <string>
#include <vector>

#include "ptx/ir.h"

namespace simt::ptx {

struct OperandError {
  int index = -1;        // offending operand (ops[index]); -1: the instruction; -2: the `|p` destination; -3: the guard
  std::string message;   // what is wrong, naming the mnemonic
};

// True if `in`'s operands fit its form; otherwise fills `err`. `regs` are the
// declared registers of the function (Function::regs), `mnemonic` is the
// instruction's text for messages ("add.s32").
bool check_operands(const Instr& in, const std::vector<RegInfo>& regs, const std::string& mnemonic,
                    OperandError& err);

}  // namespace simt::ptx
