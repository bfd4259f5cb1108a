// Shapes and fragment sizes of the warp matrix instructions (wmma, mma,
// ldmatrix): what the parser checks operand counts against and what the
// executor's layouts (func/mma_layout.h) cover.
#pragma once

#include <cstdint>
#include <string>

#include "ptx/ir.h"

namespace simt::ptx {

struct MmaDims {
  uint32_t m = 0, n = 0, k = 0;
};

inline MmaDims mma_dims(MmaShape s) {
  switch (s) {
    case MmaShape::M16N16K16: return {16, 16, 16};
    case MmaShape::M32N8K16: return {32, 8, 16};
    case MmaShape::M8N32K16: return {8, 32, 16};
    case MmaShape::M16N16K8: return {16, 16, 8};
    case MmaShape::M8N8K4: return {8, 8, 4};
    case MmaShape::M16N8K16: return {16, 8, 16};
    case MmaShape::M16N8K8: return {16, 8, 8};
    case MmaShape::M8N8: return {8, 8, 0};
    case MmaShape::None: break;
  }
  return {};
}

// Bytes of one matrix element of type `t` (.tf32 is B32).
inline uint32_t mma_elem_bytes(Type t) {
  switch (t) {
    case Type::S8: case Type::U8: return 1;
    case Type::F16: case Type::BF16: case Type::B16: return 2;
    case Type::F64: return 8;
    default: return 4;  // f32, s32, tf32 (B32)
  }
}

// Which matrix of the operation a fragment holds: 'a', 'b', or 'c' (c and d).
// Elements of it one thread holds (each once).
inline uint32_t mma_frag_elems(MmaShape s, char which) {
  const MmaDims d = mma_dims(s);
  const uint32_t n = which == 'a' ? d.m * d.k : which == 'b' ? d.k * d.n : d.m * d.n;
  return n / 32;
}

// Registers of the fragment (each 32 bits wide, 64 for f64): sub-word
// elements are packed, low element first. wmma's .f16 a and b fragments are
// 8 registers in every shape, so their elements are held twice or more (see
// func/mma_layout.h).
inline uint32_t mma_frag_regs(Op op, MmaShape s, char which, Type t) {
  if (op == Op::Wmma && t == Type::F16 && which != 'c') return 8;
  const uint32_t b = mma_elem_bytes(t), e = mma_frag_elems(s, which);
  return b >= 4 ? e : e * b / 4;
}

// Why this shape/type/layout combination is not supported ("" when it is).
// Shared by the parser (a file:line:col message) and the executor's check.
std::string mma_unsupported(const Instr& in);

}  // namespace simt::ptx
