// Where each element of a warp matrix fragment sits in its matrix: lane l's
// fragment element e is element (row, col) of the a (M x K), b (K x N) or
// c/d (M x N) matrix.
//
// mma (and ldmatrix) follow the PTX ISA's documented layouts, built from
// tiles: with g = l / 4 and q = l % 4,
//   a 16x16 f16/bf16 tile (mma.m16n8k16):  row g + 8*((e/2)%2), col 2q + e%2 + 8*(e/4)
//   a 16x8  f16/bf16 tile (mma.m16n8k8):   row g + 8*(e/2),     col 2q + e%2
//   a 16x16 s8/u8 tile (mma.m16n8k16):     row g + 8*(e/4),     col 4q + e%4
//   a 16x8  tf32 tile (mma.m16n8k8):       row g + 8*(e%2),     col q + 4*(e/2)
//   a 8x4   f64 tile (mma.m8n8k4):         row g,               col q
//   b 16x8  f16/bf16:  row 2q + e%2 + 8*(e/2), col g;   b 8x8 f16/bf16: row 2q + e, col g
//   b 16x8  s8/u8:     row 4q + e,             col g;   b 8x8 tf32:     row q + 4e, col g
//   b 4x8   f64:       row q,                  col g
//   c 16x8:            row g + 8*(e/2),        col 2q + e%2
//   c 8x8:             row g,                  col 2q + e
// wmma's layout is unspecified by PTX; simtlab composes the same tiles, as
// sm_80 runs wmma as a sequence of mma: a is 16-row tiles top to bottom
// (an 8-row a, m8n32k16, takes the g rows of the 16-row tile: f16 col 2q +
// e%2 + 8*(e/2), s8 col 4q + e), b is 8-column tiles left to right, c/d is
// 16x8 (8x8 when M = 8) tiles row-major over the tile grid. A fragment with
// more elements than the matrix has per thread (wmma .f16 a and b are
// always 8 registers) holds the elements again from the start: element e
// is element e % n.
#pragma once

#include <cstdint>

#include "ptx/ir.h"
#include "ptx/mma_shape.h"

namespace simt::func {

struct MmaCoord {
  uint32_t row = 0, col = 0;
};

// Element `e` (0 <= e < ptx::mma_frag_elems(shape, which)) of lane `lane`'s
// fragment of matrix `which` ('a', 'b', 'c') for a/b element type `ab`
// (.tf32 = B32).
MmaCoord mma_coord(ptx::MmaShape shape, char which, ptx::Type ab, uint32_t lane, uint32_t e);

}  // namespace simt::func
