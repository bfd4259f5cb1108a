// PTX text -> Module (see ir.h). Accepts what nvcc 13 emits for sm_75 and
// later; anything else is a simt::Error(BadInput) "path:line:col: message".
//
// Module-level conventions the parser fills (the linker and analyses rely on them):
//   - Reg operands index Function::regs; a `.reg` declared in a `{ }` block is a
//     distinct register even if its name repeats.
//   - Sym operands index Function::symbols / Function::symrefs (already resolved
//     with PTX scoping); `[sym+imm]` is Kind::Addr with `sym_base` set, reg = kNoReg.
//   - Label operands: `sym` indexes Function::labels, `imm` = target index into
//     Function::code (brx.idx targets keep imm = kNoPc; the linker refuses them).
//   - call: ops[0] is the callee (Sym, or Reg for an indirect call), nops = 1,
//     call_info indexes Function::calls.
//   - Types: cvt: `type` = destination, `type2` = source; setp: `type` = comparison
//     type; set.cmp.dtype.stype: `type` = stype (comparison), `type2` = dtype;
//     slct: `type2` = type of c.
//   - bar.red / barrier.red: BoolOp in both `bop` and `mode`.
//   - Texture operands `[tex, {c0, c1}]` become two operands: the texture (Reg or
//     Sym) and a Vec of coordinates.
#pragma once

#include <string>
#include <vector>

#include "ptx/ir.h"

namespace simt::ptx {

// Parses one PTX module; `path` is used in error messages.
Module parse(const std::string& text, const std::string& path);
// Reads and parses a file; BadInput if it cannot be read.
Module parse_file(const std::string& path);

}  // namespace simt::ptx
