#include "func/mma_layout.h"

namespace simt::func {

using ptx::Type;

namespace {

enum class Family : uint8_t { Half, Int8, Tf32, F64 };

Family family(Type t) {
  switch (t) {
    case Type::S8: case Type::U8: return Family::Int8;
    case Type::B32: return Family::Tf32;
    case Type::F64: return Family::F64;
    default: return Family::Half;  // f16, bf16
  }
}

// One tile of a: `rows` (16 or 8) by `cols` (the instruction's K).
MmaCoord a_tile(Family f, uint32_t rows, uint32_t cols, uint32_t g, uint32_t q, uint32_t e) {
  switch (f) {
    case Family::Half:
      if (rows == 8) return {g, 2 * q + e % 2 + 8 * (e / 2)};
      if (cols == 8) return {g + 8 * (e / 2), 2 * q + e % 2};
      return {g + 8 * ((e / 2) % 2), 2 * q + e % 2 + 8 * (e / 4)};
    case Family::Int8:
      if (rows == 8) return {g, 4 * q + e};
      return {g + 8 * (e / 4), 4 * q + e % 4};
    case Family::Tf32: return {g + 8 * (e % 2), q + 4 * (e / 2)};
    case Family::F64: return {g, q};
  }
  return {};
}

// One 8-column tile of b: `rows` = K.
MmaCoord b_tile(Family f, uint32_t rows, uint32_t g, uint32_t q, uint32_t e) {
  switch (f) {
    case Family::Half:
      if (rows == 8) return {2 * q + e, g};
      return {2 * q + e % 2 + 8 * (e / 2), g};
    case Family::Int8: return {4 * q + e, g};
    case Family::Tf32: return {q + 4 * e, g};
    case Family::F64: return {q, g};
  }
  return {};
}

}  // namespace

MmaCoord mma_coord(ptx::MmaShape shape, char which, Type ab, uint32_t lane, uint32_t e) {
  const ptx::MmaDims d = ptx::mma_dims(shape);
  const uint32_t g = lane / 4, q = lane % 4;
  const Family f = family(ab);
  const uint32_t th = d.m >= 16 ? 16 : 8;  // tile rows of a and c
  if (which == 'a') {
    const uint32_t per = th * d.k / 32;  // elements per tile and thread
    MmaCoord c = a_tile(f, th, d.k, g, q, e % per);
    c.row += th * (e / per);
    return c;
  }
  if (which == 'b') {
    const uint32_t per = d.k * 8 / 32;
    MmaCoord c = b_tile(f, d.k, g, q, e % per);
    c.col += 8 * (e / per);
    return c;
  }
  const uint32_t per = th * 8 / 32, tile = e / per, i = e % per;
  const uint32_t col_tiles = d.n / 8;
  MmaCoord c = th == 16 ? MmaCoord{g + 8 * (i / 2), 2 * q + i % 2} : MmaCoord{g, 2 * q + i};
  c.row += th * (tile / col_tiles);
  c.col += 8 * (tile % col_tiles);
  return c;
}

}  // namespace simt::func
