// Pure scalar integer semantics of PTX instructions. Kept free of executor
// types so every corner case (division by zero, shift counts past the width,
// bit-field positions past the msb) is unit-testable on its own.
//
// Conventions: values travel as uint64_t holding the low `bits` bits of the
// operand; signed results are returned sign-extended to 64 bits so that a
// caller may truncate them to any register width.
#pragma once

#include <cstdint>

namespace simt::func::im {

inline uint64_t width_mask(unsigned bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}
// Sign-extends the low `bits` bits of v to 64 bits.
inline int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  uint64_t m = uint64_t{1} << (bits - 1);
  v &= width_mask(bits);
  return static_cast<int64_t>((v ^ m) - m);
}
inline uint64_t zext(uint64_t v, unsigned bits) { return v & width_mask(bits); }

// ---------------------------------------------------------------- multiply
// High half of the 2n-bit product of two n-bit values (n = 16, 32 or 64).
inline uint64_t mul_hi(uint64_t a, uint64_t b, unsigned bits, bool is_signed) {
  if (bits == 64) {
    if (is_signed) {
      __int128 p = static_cast<__int128>(static_cast<int64_t>(a)) * static_cast<int64_t>(b);
      return static_cast<uint64_t>(static_cast<unsigned __int128>(p) >> 64);
    }
    unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
    return static_cast<uint64_t>(p >> 64);
  }
  if (is_signed) {
    int64_t p = sext(a, bits) * sext(b, bits);
    return static_cast<uint64_t>(p >> bits);  // arithmetic shift keeps the sign
  }
  uint64_t p = zext(a, bits) * zext(b, bits);
  return p >> bits;
}
// Full 2n-bit product of two n-bit values (n <= 32), as mul.wide does.
inline uint64_t mul_wide(uint64_t a, uint64_t b, unsigned bits, bool is_signed) {
  if (is_signed) return static_cast<uint64_t>(sext(a, bits) * sext(b, bits));
  return zext(a, bits) * zext(b, bits);
}
// mul24: 24-bit operands (sign-extended for signed), 48-bit product;
// .lo returns bits 31..0, .hi bits 47..16.
inline uint32_t mul24(uint32_t a, uint32_t b, bool hi, bool is_signed) {
  int64_t p = is_signed ? sext(a, 24) * sext(b, 24)
                        : static_cast<int64_t>(zext(a, 24) * zext(b, 24));
  return static_cast<uint32_t>(static_cast<uint64_t>(p) >> (hi ? 16 : 0));
}

// ---------------------------------------------------------------- saturation
inline int64_t clamp_s32(int64_t v) {
  return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : v);
}
inline uint32_t add_sat_s32(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(clamp_s32(int64_t{static_cast<int32_t>(a)} + static_cast<int32_t>(b)));
}
inline uint32_t sub_sat_s32(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>(clamp_s32(int64_t{static_cast<int32_t>(a)} - static_cast<int32_t>(b)));
}

// ---------------------------------------------------------------- carry chains
// n-bit add with carry in/out (n = 32 or 64).
inline uint64_t add_carry(uint64_t a, uint64_t b, unsigned cin, unsigned bits, unsigned* cout) {
  a = zext(a, bits);
  b = zext(b, bits);
  if (bits == 64) {
    unsigned __int128 s = static_cast<unsigned __int128>(a) + b + cin;
    *cout = static_cast<unsigned>(s >> 64);
    return static_cast<uint64_t>(s);
  }
  uint64_t s = a + b + cin;
  *cout = static_cast<unsigned>((s >> bits) & 1);
  return zext(s, bits);
}
// PTX subc: d = a - (b + CF); CF is a borrow (1 when the unsigned
// subtraction needed to borrow). sub.cc is subc with borrow-in 0.
inline uint64_t sub_borrow(uint64_t a, uint64_t b, unsigned bin, unsigned bits, unsigned* bout) {
  a = zext(a, bits);
  b = zext(b, bits);
  unsigned __int128 need = static_cast<unsigned __int128>(b) + bin;
  *bout = static_cast<unsigned __int128>(a) < need ? 1u : 0u;
  return zext(a - b - bin, bits);
}

// ---------------------------------------------------------------- division
// Division by zero: quotient all ones, remainder the dividend (what NVIDIA
// hardware returns); INT_MIN / -1 = INT_MIN with remainder 0 (wraps).
inline uint64_t div_int(uint64_t a, uint64_t b, unsigned bits, bool is_signed) {
  if (zext(b, bits) == 0) return width_mask(bits);
  if (is_signed) {
    int64_t x = sext(a, bits), y = sext(b, bits);
    if (y == -1) return zext(0 - static_cast<uint64_t>(x), bits);
    return zext(static_cast<uint64_t>(x / y), bits);
  }
  return zext(a, bits) / zext(b, bits);
}
inline uint64_t rem_int(uint64_t a, uint64_t b, unsigned bits, bool is_signed) {
  if (zext(b, bits) == 0) return zext(a, bits);
  if (is_signed) {
    int64_t x = sext(a, bits), y = sext(b, bits);
    if (y == -1) return 0;
    return zext(static_cast<uint64_t>(x % y), bits);
  }
  return zext(a, bits) % zext(b, bits);
}

// ---------------------------------------------------------------- shifts
// shl/shr: the amount is unsigned; past the width shl and shr.u give 0 and
// shr.s fills with the sign.
inline uint64_t shl(uint64_t a, uint32_t n, unsigned bits) {
  return n >= bits ? 0 : zext(a << n, bits);
}
inline uint64_t shr(uint64_t a, uint32_t n, unsigned bits, bool is_signed) {
  if (is_signed) {
    int64_t v = sext(a, bits);
    return zext(static_cast<uint64_t>(v >> (n >= bits ? bits - 1 : n)), bits);
  }
  return n >= bits ? 0 : zext(a, bits) >> n;
}
// shf.l / shf.r on the 64-bit value {b, a}.
inline uint32_t shf(uint32_t a, uint32_t b, uint32_t c, bool left, bool clamp) {
  uint32_t n = clamp ? (c < 32 ? c : 32) : (c & 31);
  uint64_t v = (uint64_t{b} << 32) | a;
  return left ? static_cast<uint32_t>((v << n) >> 32) : static_cast<uint32_t>(v >> n);
}

// ---------------------------------------------------------------- bit operations
inline uint32_t popc(uint64_t a) { return static_cast<uint32_t>(__builtin_popcountll(a)); }
inline uint32_t clz(uint64_t a, unsigned bits) {
  a = zext(a, bits);
  if (a == 0) return bits;
  return static_cast<uint32_t>(__builtin_clzll(a)) - (64 - bits);
}
inline uint64_t brev(uint64_t a, unsigned bits) {
  uint64_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((a >> i) & 1) << (bits - 1 - i);
  return r;
}
// Position of the most significant non-sign bit, 0xffffffff if none.
inline uint32_t bfind(uint64_t a, unsigned bits, bool is_signed, bool shiftamt) {
  a = zext(a, bits);
  if (is_signed && ((a >> (bits - 1)) & 1)) a = zext(~a, bits);
  if (a == 0) return 0xffffffffu;
  uint32_t pos = 63 - static_cast<uint32_t>(__builtin_clzll(a));
  return shiftamt ? (bits - 1) - pos : pos;
}
// bfe: extract len bits from pos (both taken mod 256); signed types
// replicate the field's top bit (or bit msb when the field runs past it).
inline uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, unsigned bits, bool is_signed) {
  pos &= 0xff;
  len &= 0xff;
  const unsigned msb = bits - 1;
  a = zext(a, bits);
  bool sbit = false;
  if (is_signed && len != 0) {
    unsigned top = pos + len - 1;
    sbit = (a >> (top < msb ? top : msb)) & 1;
  }
  uint64_t field = 0;
  unsigned got = 0;  // field bits that come from a
  if (pos <= msb) {
    got = len < bits - pos ? len : bits - pos;
    field = (a >> pos) & width_mask(got);
  }
  if (sbit) field |= zext(~width_mask(got), bits);
  return field;
}
// bfi: insert the low len bits of a into b at pos (stops at the msb).
inline uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, unsigned bits) {
  pos &= 0xff;
  len &= 0xff;
  if (len == 0 || pos >= bits) return zext(b, bits);
  unsigned n = len < bits - pos ? len : bits - pos;
  uint64_t m = width_mask(n) << pos;
  return zext((b & ~m) | ((a << pos) & m), bits);
}
// bmsk.b32: a mask of width b starting at bit a.
inline uint32_t bmsk(uint32_t a, uint32_t b, bool clamp) {
  uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
  uint32_t mask0 = ~0u << a1;
  bool overflow = sum >= 32;
  if (clamp) {
    if (a >= 32) { overflow = true; mask0 = 0; }
    if (b >= 32) overflow = true;
  }
  uint32_t mask1;
  if (overflow) mask1 = 0;
  else if (b1 == 0) mask1 = ~0u;
  else mask1 = ~0u << sum;
  return mask0 & ~mask1;
}
// szext: sign- or zero-extend the low b bits of a to 32 bits.
inline uint32_t szext(uint32_t a, uint32_t b, bool is_signed, bool clamp) {
  uint32_t b1 = b & 31;
  bool too_large = clamp && b >= 32;
  uint32_t mask = too_large ? 0 : (~0u << b1);
  bool sign = false;
  if (b1 != 0 && !too_large && is_signed) sign = (a >> ((b1 - 1) & 31)) & 1;
  return (a & ~mask) | (sign ? mask : 0);
}
// prmt.b32; `mode` follows ptx::PrmtMode numbering (0 = generic form).
inline uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode) {
  const uint64_t src = (uint64_t{b} << 32) | a;
  auto byte = [&](unsigned i) { return static_cast<uint32_t>((src >> (8 * (i & 7))) & 0xff); };
  uint32_t d = 0;
  if (mode == 0) {
    for (unsigned i = 0; i < 4; ++i) {
      unsigned sel = (c >> (4 * i)) & 0xf;
      uint32_t v = byte(sel & 7);
      if (sel & 8) v = (v & 0x80) ? 0xff : 0;  // replicate the byte's sign
      d |= v << (8 * i);
    }
    return d;
  }
  const unsigned s = c & 3;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned idx = 0;
    switch (mode) {
      case 1: idx = s + i; break;                      // f4e: forward 4 extract
      case 2: idx = (s + 8 - i) & 7; break;            // b4e: backward 4 extract
      case 3: idx = s; break;                          // rc8: replicate byte
      case 4: idx = i > s ? i : s; break;              // ecl: edge clamp left
      case 5: idx = i < s ? i : s; break;              // ecr: edge clamp right
      default: idx = 2 * (s & 1) + (i & 1); break;     // rc16: replicate half
    }
    d |= byte(idx) << (8 * i);
  }
  return d;
}
// lop3: bit i of the result is lut[{a_i, b_i, c_i}] with a as the msb.
inline uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, uint8_t lut) {
  uint64_t r = 0;
  for (unsigned k = 0; k < 8; ++k) {
    if (!((lut >> k) & 1)) continue;
    uint64_t ta = (k & 4) ? a : ~a, tb = (k & 2) ? b : ~b, tc = (k & 1) ? c : ~c;
    r |= ta & tb & tc;
  }
  return r;
}

// ---------------------------------------------------------------- misc
inline uint64_t sad(uint64_t a, uint64_t b, uint64_t c, unsigned bits, bool is_signed) {
  uint64_t diff;
  if (is_signed) {
    int64_t x = sext(a, bits), y = sext(b, bits);
    diff = x > y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y)
                 : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
  } else {
    uint64_t x = zext(a, bits), y = zext(b, bits);
    diff = x > y ? x - y : y - x;
  }
  return zext(c + diff, bits);
}
// dp4a: c + sum of the four byte products.
inline uint32_t dp4a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed) {
  uint32_t acc = c;
  for (unsigned i = 0; i < 4; ++i) {
    uint32_t ab = (a >> (8 * i)) & 0xff, bb = (b >> (8 * i)) & 0xff;
    int64_t x = a_signed ? sext(ab, 8) : int64_t{ab};
    int64_t y = b_signed ? sext(bb, 8) : int64_t{bb};
    acc += static_cast<uint32_t>(x * y);
  }
  return acc;
}
// dp2a: c + a.h0 * b.byte[sel] + a.h1 * b.byte[sel+1], sel = hi ? 2 : 0.
inline uint32_t dp2a(uint32_t a, uint32_t b, uint32_t c, bool a_signed, bool b_signed, bool hi) {
  uint32_t acc = c;
  unsigned sel = hi ? 2 : 0;
  for (unsigned i = 0; i < 2; ++i) {
    uint32_t ah = (a >> (16 * i)) & 0xffff, bb = (b >> (8 * (sel + i))) & 0xff;
    int64_t x = a_signed ? sext(ah, 16) : int64_t{ah};
    int64_t y = b_signed ? sext(bb, 8) : int64_t{bb};
    acc += static_cast<uint32_t>(x * y);
  }
  return acc;
}
inline uint64_t min_int(uint64_t a, uint64_t b, unsigned bits, bool is_signed) {
  if (is_signed) return sext(a, bits) < sext(b, bits) ? zext(a, bits) : zext(b, bits);
  return zext(a, bits) < zext(b, bits) ? zext(a, bits) : zext(b, bits);
}
inline uint64_t max_int(uint64_t a, uint64_t b, unsigned bits, bool is_signed) {
  if (is_signed) return sext(a, bits) > sext(b, bits) ? zext(a, bits) : zext(b, bits);
  return zext(a, bits) > zext(b, bits) ? zext(a, bits) : zext(b, bits);
}
// fns: position of the n-th set bit of `mask` at or after `base` (offset > 0)
// or at or before it (offset < 0); 0xffffffff when there is none.
inline uint32_t fns(uint32_t mask, uint32_t base, int32_t offset) {
  if (base > 31) return 0xffffffffu;
  if (offset == 0) return ((mask >> base) & 1) ? base : 0xffffffffu;
  int32_t need = offset > 0 ? offset : -offset;
  int step = offset > 0 ? 1 : -1;
  for (int32_t i = static_cast<int32_t>(base); i >= 0 && i < 32; i += step)
    if (((mask >> i) & 1) && --need == 0) return static_cast<uint32_t>(i);
  return 0xffffffffu;
}

}  // namespace simt::func::im
