// cvt (every integer/float pair PTX defines for scalar types) and mov
// (registers, immediates, special registers, linker-resolved symbol
// addresses, and packing/unpacking of vector operands).
#include <cmath>
#include <string>

#include "func/exec_alu.h"
#include "func/float_math.h"
#include "func/int_math.h"

namespace simt::func {

using ptx::Instr;
using ptx::Op;
using ptx::Operand;
using ptx::Rnd;
using ptx::Type;

namespace {

bool has(const Instr& in, uint32_t f) { return (in.flags & f) != 0; }
bool is_irnd(Rnd r) { return r == Rnd::Rni || r == Rnd::Rzi || r == Rnd::Rmi || r == Rnd::Rpi; }
bool is_frnd(Rnd r) { return r == Rnd::Rn || r == Rnd::Rz || r == Rnd::Rm || r == Rnd::Rp; }
bool is_cvt_int(Type t) {
  switch (t) {
    case Type::U8: case Type::U16: case Type::U32: case Type::U64:
    case Type::S8: case Type::S16: case Type::S32: case Type::S64:
      return true;
    default:
      return false;
  }
}
bool is_cvt_float(Type t) { return t == Type::F16 || t == Type::BF16 || t == Type::F32 || t == Type::F64; }

// Value of raw float bits of type ty as a double (exact for every type).
double to_double(Type ty, uint64_t b, bool ftz) {
  switch (ty) {
    case Type::F64: return fm::as_f64(b);
    case Type::F16: return fm::f16_to_f32(static_cast<uint16_t>(b));
    case Type::BF16: return fm::bf16_to_f32(static_cast<uint16_t>(b));
    default: {
      float f = fm::as_f32(static_cast<uint32_t>(b));
      return ftz ? fm::ftz(f) : f;
    }
  }
}

// A double rounded to float type ty by r, as raw bits (NaN canonical).
uint64_t from_double(Type ty, double v, Rnd r, bool ftz) {
  switch (ty) {
    case Type::F64: return std::isnan(v) ? fm::kCanonNanF64 : fm::bits_of(v);
    case Type::F16: return fm::f16_from(v, r);
    case Type::BF16: return fm::bf16_from(v, r);
    default: {
      float f = fm::f64_to_f32(v, r);
      return fm::canon(ftz ? fm::ftz(f) : f);
    }
  }
}

// An integer as a double rounded toward zero with a sticky last bit (round
// to odd), so a second rounding to a narrower format is correctly rounded.
double int_to_double_odd(uint64_t v, bool sgn) {
  double d = fm::int_to_f64(v, sgn, Rnd::Rz);
  bool exact = sgn ? static_cast<int64_t>(d) == static_cast<int64_t>(v) : static_cast<uint64_t>(d) == v;
  if (exact) return d;
  return fm::as_f64(fm::bits_of(d) | 1);
}

// f32 -> tf32 (sign, 8-bit exponent, 10-bit mantissa, in the high 19 bits of
// a .b32; the low 13 bits zero): .rna rounds to nearest with ties away from
// zero, .rn to nearest even, .rz toward zero. A NaN becomes the canonical
// 0x7fffe000; with .satfinite an infinite result is the largest finite tf32.
uint32_t to_tf32(uint32_t x, Rnd r, bool satfinite) {
  constexpr uint32_t kLow = 0x1fffu, kMaxFinite = 0x7f7fe000u;
  if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x007fffffu)) return 0x7fffe000u;
  uint32_t y = x;
  if (r == Rnd::Rna) y = x + 0x1000u;
  else if (r == Rnd::Rn) y = x + 0x0fffu + ((x >> 13) & 1u);
  y &= ~kLow;
  if (satfinite && (y & 0x7fffffffu) == 0x7f800000u) y = (y & 0x80000000u) | kMaxFinite;
  return y;
}

void h_cvt(ExecContext& c) {
  const Instr& in = c.in;
  if (has(in, ptx::kTf32)) {
    const bool satfinite = has(in, ptx::kSatFinite);
    c.mask.for_each([&](uint32_t t) {
      c.dst(0, t, Type::B32, to_tf32(static_cast<uint32_t>(c.src(1, t, Type::F32)), in.rnd, satfinite));
    });
    return;
  }
  const Type dty = in.type, sty = in.type2;
  const unsigned dbits = type_bits(dty), sbits = type_bits(sty);
  const bool dsgn = ptx::type_is_signed(dty), ssgn = ptx::type_is_signed(sty);
  const bool sat = has(in, ptx::kSat), ftz = has(in, ptx::kFtz);
  const Rnd r = in.rnd;
  const bool dint = is_cvt_int(dty), sint = is_cvt_int(sty);

  if (dty == Type::F16x2 || dty == Type::BF16x2) {
    // cvt.rn.f16x2.f32 d, a, b: a converted into the upper half, b into the lower.
    const Type half = dty == Type::F16x2 ? Type::F16 : Type::BF16;
    c.mask.for_each([&](uint32_t t) {
      const uint64_t hi = from_double(half, to_double(Type::F32, c.src(1, t, Type::F32), false), r, false);
      const uint64_t lo = from_double(half, to_double(Type::F32, c.src(2, t, Type::F32), false), r, false);
      c.dst(0, t, dty, (hi & 0xffff) << 16 | (lo & 0xffff));
    });
    return;
  }
  if (dint && sint) {
    // Sign- or zero-extend the source, then truncate or (.sat) clamp.
    const __int128 lo = dsgn ? -(static_cast<__int128>(1) << (dbits - 1)) : 0;
    const __int128 hi = dsgn ? (static_cast<__int128>(1) << (dbits - 1)) - 1
                             : (static_cast<__int128>(1) << dbits) - 1;
    c.mask.for_each([&](uint32_t t) {
      uint64_t a = c.src(1, t, sty);
      __int128 v = ssgn ? static_cast<__int128>(im::sext(a, sbits)) : static_cast<__int128>(a);
      if (sat) v = v < lo ? lo : (v > hi ? hi : v);
      c.dst(0, t, dty, static_cast<uint64_t>(v));
    });
  } else if (dint) {  // float -> integer: saturating, NaN -> 0
    c.mask.for_each([&](uint32_t t) {
      double x = to_double(sty, c.src(1, t, sty), ftz);
      c.dst(0, t, dty, fm::float_to_int(x, r, dbits, dsgn));
    });
  } else if (sint) {  // integer -> float
    c.mask.for_each([&](uint32_t t) {
      uint64_t a = c.src(1, t, sty);
      uint64_t v = ssgn ? static_cast<uint64_t>(im::sext(a, sbits)) : a;
      uint64_t bits;
      if (dty == Type::F32) {
        float f = fm::int_to_f32(v, ssgn, r);
        bits = fm::bits_of(sat ? fm::saturate(f) : f);
      } else if (dty == Type::F64) {
        double d = fm::int_to_f64(v, ssgn, r);
        bits = fm::bits_of(sat ? fm::saturate(d) : d);
      } else {
        double d = int_to_double_odd(v, ssgn);
        bits = from_double(dty, sat ? fm::saturate(d) : d, r, false);
      }
      c.dst(0, t, dty, bits);
    });
  } else {  // float -> float
    const bool integral = is_irnd(r);
    const Rnd fr = integral ? Rnd::Rn : r;
    c.mask.for_each([&](uint32_t t) {
      double x = to_double(sty, c.src(1, t, sty), ftz);
      if (integral) x = fm::round_integral(x, r);
      if (sat) x = fm::saturate(x);
      c.dst(0, t, dty, from_double(dty, x, fr, ftz));
    });
  }
}

// ---------------------------------------------------------------- mov
void h_mov(ExecContext& c) {
  const Instr& in = c.in;
  const Type ty = in.type;
  const Operand& d = in.ops[0];
  const Operand& s = in.ops[1];
  if (s.kind == Operand::Kind::Vec) {  // pack: low element first
    const unsigned n = s.vec_n, eb = type_bits(ty) / n;
    const uint64_t em = im::width_mask(eb);
    c.mask.for_each([&](uint32_t t) {
      uint64_t v = 0;
      for (unsigned k = 0; k < n; ++k) {
        const uint32_t r = s.vec[k];
        if (r != ptx::kNoReg) v |= (c.cta.reg(r, t) & em) << (k * eb);
      }
      c.dst(0, t, ty, v);
    });
  } else if (d.kind == Operand::Kind::Vec) {  // unpack
    const unsigned n = d.vec_n, eb = type_bits(ty) / n;
    const Type ety = eb == 8 ? Type::B8 : eb == 16 ? Type::B16 : Type::B32;
    c.mask.for_each([&](uint32_t t) {
      const uint64_t v = c.src(1, t, ty);
      for (unsigned k = 0; k < n; ++k) c.write_reg(d.vec[k], t, ety, (v >> (k * eb)) & im::width_mask(eb));
    });
  } else {
    c.mask.for_each([&](uint32_t t) { c.dst(0, t, ty, c.src(1, t, ty)); });
  }
}

// ---------------------------------------------------------------- checks
std::string check_cvt(const Instr& in) {
  const Type dty = in.type, sty = in.type2;
  if (has(in, ptx::kTf32)) {
    if (sty != Type::F32) return std::string("cvt.tf32.") + ptx::type_name(sty) + " is not supported (only .f32 sources)";
    if (in.rnd != Rnd::Rna && in.rnd != Rnd::Rn && in.rnd != Rnd::Rz)
      return "cvt.tf32.f32 needs .rna, .rn or .rz";
    if (in.flags & ~(ptx::kTf32 | ptx::kSatFinite)) return "unsupported modifier on cvt.tf32.f32 (.relu)";
    if (in.nops != 2) return "cvt.tf32.f32 takes d, a";
    return "";
  }
  if (has(in, ptx::kSatFinite)) return "cvt .satfinite is supported only with .tf32 destinations";
  const std::string where = std::string("cvt.") + ptx::type_name(dty) + "." + ptx::type_name(sty);
  const bool dint = is_cvt_int(dty), sint = is_cvt_int(sty);
  const bool dfl = is_cvt_float(dty), sfl = is_cvt_float(sty);
  if ((dty == Type::F16x2 || dty == Type::BF16x2) && sty == Type::F32) {
    if (in.nops != 3) return where + " needs d, a, b (two f32 sources to pack)";
    if (in.rnd != Rnd::Rn) return where + " supports only .rn";
    if (in.flags) return "unsupported modifier on " + where + " (.relu, .satfinite)";
    return "";
  }
  if (!(dint || dfl) || !(sint || sfl)) return where + " is not supported";
  if (in.nops != 2) return where + ": only the scalar form d, a is supported";
  if (in.flags & ~(ptx::kSat | ptx::kFtz)) return "unsupported modifier on " + where;
  if (has(in, ptx::kFtz) && dty != Type::F32 && sty != Type::F32) return ".ftz needs an f32 operand in " + where;
  if (dint && sint) {
    if (in.rnd != Rnd::None) return "rounding modifier on integer " + where;
    if (has(in, ptx::kFtz)) return ".ftz on integer " + where;
    return "";
  }
  if (dint) {  // float -> int
    if (!is_irnd(in.rnd)) return where + " needs an integer rounding modifier (.rni/.rzi/.rmi/.rpi)";
    return "";
  }
  if (sint) {  // int -> float
    if (in.rnd != Rnd::None && !is_frnd(in.rnd)) return where + " needs a rounding modifier .rn/.rz/.rm/.rp";
    return "";
  }
  // float -> float
  if (is_irnd(in.rnd)) {
    if (dty != sty) return "integer rounding in " + where + " needs equal types";
    return "";
  }
  if (in.rnd != Rnd::None && !is_frnd(in.rnd)) return "bad rounding modifier on " + where;
  return "";
}

std::string check_mov(const Instr& in) {
  const Type ty = in.type;
  const std::string where = std::string("mov.") + ptx::type_name(ty);
  if (ty == Type::B128 || ty == Type::None || type_bits(ty) == 0) return where + " is not supported";
  if (in.vec != 1) return "vector mov (.v2/.v4) is not supported";
  if (in.flags || in.rnd != Rnd::None) return "unsupported modifier on " + where;
  if (in.nops != 2) return where + " needs two operands";
  const Operand& d = in.ops[0];
  const Operand& s = in.ops[1];
  if (d.kind == Operand::Kind::Vec && s.kind == Operand::Kind::Vec) return where + ": vector to vector is not supported";
  for (const Operand* v : {&d, &s}) {
    if (v->kind != Operand::Kind::Vec) continue;
    if (v->vec_n != 2 && v->vec_n != 4) return where + ": vector operands need 2 or 4 elements";
    const unsigned eb = type_bits(ty) / v->vec_n;
    if (eb < 8 || eb * v->vec_n != type_bits(ty)) return where + ": vector elements do not divide the type";
  }
  if (d.kind != Operand::Kind::Reg && d.kind != Operand::Kind::Vec) return where + ": destination must be a register";
  return "";
}

}  // namespace

void register_convert_ops(HandlerTable& t) {
  t.add(Op::Cvt, h_cvt, check_cvt);
  t.add(Op::Mov, h_mov, check_mov);
}

}  // namespace simt::func
