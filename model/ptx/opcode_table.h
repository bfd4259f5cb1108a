// Decodes a PTX mnemonic with its modifiers ("ld.global.nc.v4.f32") into the
// fields of an Instr (op, types, space, rounding, compare/bool ops, mode, vec,
// flags) and assigns the instruction class.
#pragma once

#include <string_view>

#include "ptx/ir.h"

namespace simt::ptx {

// Fills `in` from `mnemonic`. Returns false if the opcode or any modifier is
// unknown for that opcode (the caller reports "unknown instruction '...'").
bool decode_mnemonic(std::string_view mnemonic, Instr& in);

// INT / FP / SFU / LDST / BRANCH / BARRIER from the decoded fields.
InstrClass classify(const Instr& in);

// Type from a suffix without the dot ("u32", "pred"); Type::None if not a type.
Type type_from_name(std::string_view s);

}  // namespace simt::ptx
