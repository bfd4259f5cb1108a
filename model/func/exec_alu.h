// Internal to the ALU families (exec_int/compare/float/convert.cpp): the
// float implementations of opcodes that integer and float types share
// (add, sub, mul, mad, div, abs, neg, min, max). The handler table is indexed
// by opcode only, so exec_int.cpp registers one handler per shared opcode
// and forwards here when the instruction type is a float type.
#pragma once

#include <string>

#include "func/exec_context.h"

namespace simt::func {

void float_shared_op(ExecContext& c);                   // executes add/sub/mul/mad/div/abs/neg/min/max on floats
std::string check_float_shared_op(const ptx::Instr& in);  // "" when supported

inline unsigned type_bits(ptx::Type t) { return ptx::type_bytes(t) * 8; }

}  // namespace simt::func
