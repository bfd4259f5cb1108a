// Integer and bit-manipulation instructions. The scalar rules live in
// int_math.h; each handler here decides width/signedness/modifiers once per
// instruction and loops over the executing threads.
//
// Opcodes shared with floats (add, sub, mul, mad, div, abs, neg, min, max)
// are registered here and forward to exec_float.cpp for float types.
#include <string>

#include "func/compare_math.h"
#include "func/exec_alu.h"
#include "func/int_math.h"

namespace simt::func {

using ptx::Flag;
using ptx::Instr;
using ptx::Op;
using ptx::Type;

namespace {

bool is_int32_64(Type t) {
  return t == Type::U32 || t == Type::S32 || t == Type::U64 || t == Type::S64;
}
bool is_bits(Type t) { return t == Type::B16 || t == Type::B32 || t == Type::B64; }
bool has(const Instr& in, uint32_t f) { return (in.flags & f) != 0; }


std::string tname(const Instr& in) { return std::string(ptx::op_name(in.op)) + "." + ptx::type_name(in.type); }

// ---------------------------------------------------------------- checks
std::string check_shared(const Instr& in) {
  if (ptx::type_is_float(in.type) && (in.op == Op::Rem || in.op == Op::Sad))
    return tname(in) + " is only defined for integer types";
  if (ptx::type_is_float(in.type)) return check_float_shared_op(in);
  if (!is_int_type(in.type) || is_bits(in.type)) return "integer " + tname(in) + " is not a valid type";
  const bool sgn = ptx::type_is_signed(in.type);
  const uint32_t known = ptx::kSat | ptx::kCC | ptx::kHi | ptx::kLo | ptx::kWide | ptx::kRelu;
  if (in.flags & ~known) return "unsupported modifier on integer " + tname(in);
  if (in.rnd != ptx::Rnd::None) return "rounding modifier on integer " + tname(in);
  switch (in.op) {
    case Op::Add: case Op::Sub:
      if (has(in, ptx::kSat) && in.type != Type::S32) return ".sat is only defined for s32 add/sub";
      if (has(in, ptx::kCC) && (!is_int32_64(in.type) || has(in, ptx::kSat)))
        return ".cc needs a 32/64-bit type and no .sat";
      if (in.flags & ~(ptx::kSat | ptx::kCC)) return "unsupported modifier on " + tname(in);
      return "";
    case Op::Mul: case Op::Mad: {
      const int modes = has(in, ptx::kHi) + has(in, ptx::kLo) + has(in, ptx::kWide);
      if (modes > 1) return "conflicting .hi/.lo/.wide on " + tname(in);
      if (has(in, ptx::kWide) && wide_type_of(in.type) == Type::None) return ".wide needs a 16/32-bit type";
      if (has(in, ptx::kSat) && !(in.op == Op::Mad && has(in, ptx::kHi) && in.type == Type::S32))
        return ".sat is only defined for mad.hi.sat.s32";
      if (has(in, ptx::kCC) && (in.op != Op::Mad || has(in, ptx::kWide) || !is_int32_64(in.type)))
        return ".cc is only defined for mad.lo/.hi on 32/64-bit types";
      if (has(in, ptx::kRelu)) return ".relu is not defined for " + tname(in);
      return "";
    }
    case Op::Div: case Op::Rem: case Op::Sad:
      if (in.flags) return "unsupported modifier on " + tname(in);
      return "";
    case Op::Abs: case Op::Neg:
      if (!sgn) return tname(in) + " needs a signed type";
      if (in.flags) return "unsupported modifier on " + tname(in);
      return "";
    case Op::Min: case Op::Max:
      if (has(in, ptx::kRelu) && in.type != Type::S32) return ".relu is only supported on s32 min/max";
      if (in.flags & ~ptx::kRelu) return "unsupported modifier on " + tname(in);
      return "";
    default:
      return "";
  }
}

std::string check_int_generic(const Instr& in) {
  const Type t = in.type;
  auto bad_type = [&] { return "unsupported type in " + tname(in); };
  auto no_flags = [&](uint32_t allowed) -> std::string {
    if (in.flags & ~allowed) return "unsupported modifier on " + tname(in);
    if (in.rnd != ptx::Rnd::None) return "rounding modifier on " + tname(in);
    return "";
  };
  switch (in.op) {
    case Op::Mul24: case Op::Mad24:
      if (t != Type::U32 && t != Type::S32) return bad_type();
      if (has(in, ptx::kSat) && !(in.op == Op::Mad24 && has(in, ptx::kHi) && t == Type::S32))
        return ".sat is only defined for mad24.hi.sat.s32";
      if (has(in, ptx::kWide)) return ".wide is not defined for " + tname(in);
      return no_flags(ptx::kHi | ptx::kLo | ptx::kSat);
    case Op::Addc: case Op::Subc:
      if (!is_int32_64(t)) return bad_type();
      return no_flags(ptx::kCC);
    case Op::Madc:
      if (!is_int32_64(t)) return bad_type();
      return no_flags(ptx::kCC | ptx::kHi | ptx::kLo);
    case Op::Popc: case Op::Clz: case Op::Brev:
      if (t != Type::B32 && t != Type::B64) return bad_type();
      return no_flags(0);
    case Op::Bfind:
      if (!is_int32_64(t)) return bad_type();
      return no_flags(ptx::kShiftAmt);
    case Op::Fns:
      if (t != Type::B32) return bad_type();
      return no_flags(0);
    case Op::Bfe:
      if (!is_int32_64(t)) return bad_type();
      return no_flags(0);
    case Op::Bfi:
      if (t != Type::B32 && t != Type::B64) return bad_type();
      return no_flags(0);
    case Op::Bmsk:
      if (t != Type::B32) return bad_type();
      if (has(in, ptx::kWrap) == has(in, ptx::kClamp)) return "bmsk needs exactly one of .wrap/.clamp";
      return no_flags(ptx::kWrap | ptx::kClamp);
    case Op::Szext:
      if (t != Type::U32 && t != Type::S32) return bad_type();
      if (has(in, ptx::kWrap) == has(in, ptx::kClamp)) return "szext needs exactly one of .wrap/.clamp";
      return no_flags(ptx::kWrap | ptx::kClamp);
    case Op::Prmt:
      if (t != Type::B32) return bad_type();
      return no_flags(0);
    case Op::Shf:
      if (t != Type::B32) return bad_type();
      if (has(in, ptx::kLeft) == has(in, ptx::kRight)) return "shf needs exactly one of .l/.r";
      if (has(in, ptx::kWrap) == has(in, ptx::kClamp)) return "shf needs exactly one of .wrap/.clamp";
      return no_flags(ptx::kLeft | ptx::kRight | ptx::kWrap | ptx::kClamp);
    case Op::Shl:
      if (!is_bits(t)) return bad_type();
      return no_flags(0);
    case Op::Shr:
      if (!is_int_type(t)) return bad_type();
      return no_flags(0);
    case Op::And: case Op::Or: case Op::Xor: case Op::Not: case Op::Cnot:
      if (!is_bits(t) && t != Type::Pred) return bad_type();
      if (in.op == Op::Cnot && t == Type::Pred) return "cnot is not defined on .pred";
      return no_flags(0);
    case Op::Lop3:
      if (t != Type::B32) return bad_type();
      if (in.nops != 5 || in.pout.kind != ptx::Operand::Kind::None)
        return "only the lop3.b32 d, a, b, c, immLut form is supported";
      if (in.ops[4].kind != ptx::Operand::Kind::Imm) return "lop3 immLut must be an immediate";
      return no_flags(0);
    case Op::Dp4a:
      if ((t != Type::U32 && t != Type::S32) || (in.type2 != Type::U32 && in.type2 != Type::S32)) return bad_type();
      return no_flags(0);
    case Op::Dp2a:
      if ((t != Type::U32 && t != Type::S32) || (in.type2 != Type::U32 && in.type2 != Type::S32)) return bad_type();
      if (has(in, ptx::kHi) == has(in, ptx::kLo)) return "dp2a needs exactly one of .lo/.hi";
      return no_flags(ptx::kHi | ptx::kLo);
    default:
      return "";
  }
}

// ---------------------------------------------------------------- shared opcodes (integer side)
void h_add_sub(ExecContext& c) {
  const Instr& in = c.in;
  if (ptx::type_is_float(in.type)) return float_shared_op(c);
  const Type ty = in.type;
  const unsigned bits = type_bits(ty);
  const bool sub = in.op == Op::Sub;
  if (has(in, ptx::kSat)) {  // s32 only (checked)
    c.mask.for_each([&](uint32_t t) {
      uint32_t a = static_cast<uint32_t>(c.src(1, t, ty)), b = static_cast<uint32_t>(c.src(2, t, ty));
      c.dst(0, t, ty, sub ? im::sub_sat_s32(a, b) : im::add_sat_s32(a, b));
    });
  } else if (has(in, ptx::kCC)) {
    c.mask.for_each([&](uint32_t t) {
      unsigned flag = 0;
      uint64_t a = c.src(1, t, ty), b = c.src(2, t, ty);
      uint64_t d = sub ? im::sub_borrow(a, b, 0, bits, &flag) : im::add_carry(a, b, 0, bits, &flag);
      c.dst(0, t, ty, d);
      c.cta.carry(t) = static_cast<uint8_t>(flag);
    });
  } else {
    c.mask.for_each([&](uint32_t t) {
      uint64_t a = c.src(1, t, ty), b = c.src(2, t, ty);
      c.dst(0, t, ty, im::zext(sub ? a - b : a + b, bits));
    });
  }
}

void h_mul_mad(ExecContext& c) {
  const Instr& in = c.in;
  if (ptx::type_is_float(in.type)) return float_shared_op(c);
  const Type ty = in.type;
  const unsigned bits = type_bits(ty);
  const bool sgn = ptx::type_is_signed(ty);
  const bool mad = in.op == Op::Mad;
  const bool hi = has(in, ptx::kHi), wide = has(in, ptx::kWide);
  const bool sat = has(in, ptx::kSat), cc = has(in, ptx::kCC);
  const Type dty = wide ? wide_type_of(ty) : ty;
  const unsigned dbits = type_bits(dty);
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty), b = c.src(2, t, ty);
    uint64_t p = wide ? im::mul_wide(a, b, bits, sgn) : hi ? im::mul_hi(a, b, bits, sgn) : im::zext(a * b, bits);
    if (!mad) {
      c.dst(0, t, dty, p);
      return;
    }
    uint64_t addend = c.src(3, t, dty);
    if (sat) {  // mad.hi.sat.s32
      int64_t s = int64_t{static_cast<int32_t>(p)} + static_cast<int32_t>(addend);
      c.dst(0, t, dty, static_cast<uint64_t>(im::clamp_s32(s)));
    } else if (cc) {
      unsigned carry = 0;
      uint64_t d = im::add_carry(p, addend, 0, dbits, &carry);
      c.dst(0, t, dty, d);
      c.cta.carry(t) = static_cast<uint8_t>(carry);
    } else {
      c.dst(0, t, dty, im::zext(p + addend, dbits));
    }
  });
}

void h_div_rem(ExecContext& c) {
  const Instr& in = c.in;
  if (ptx::type_is_float(in.type)) return float_shared_op(c);
  const Type ty = in.type;
  const unsigned bits = type_bits(ty);
  const bool sgn = ptx::type_is_signed(ty);
  const bool rem = in.op == Op::Rem;
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty), b = c.src(2, t, ty);
    c.dst(0, t, ty, rem ? im::rem_int(a, b, bits, sgn) : im::div_int(a, b, bits, sgn));
  });
}

void h_abs_neg(ExecContext& c) {
  const Instr& in = c.in;
  if (ptx::type_is_float(in.type)) return float_shared_op(c);
  const Type ty = in.type;
  const unsigned bits = type_bits(ty);
  const bool neg = in.op == Op::Neg;
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty);
    uint64_t r = (neg || im::sext(a, bits) < 0) ? 0 - a : a;  // wraps: abs(INT_MIN) = INT_MIN
    c.dst(0, t, ty, im::zext(r, bits));
  });
}

void h_min_max(ExecContext& c) {
  const Instr& in = c.in;
  if (ptx::type_is_float(in.type)) return float_shared_op(c);
  const Type ty = in.type;
  const unsigned bits = type_bits(ty);
  const bool sgn = ptx::type_is_signed(ty);
  const bool mx = in.op == Op::Max, relu = has(in, ptx::kRelu);
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty), b = c.src(2, t, ty);
    uint64_t r = mx ? im::max_int(a, b, bits, sgn) : im::min_int(a, b, bits, sgn);
    if (relu && im::sext(r, bits) < 0) r = 0;
    c.dst(0, t, ty, r);
  });
}

void h_sad(ExecContext& c) {
  const Type ty = c.in.type;
  const unsigned bits = type_bits(ty);
  const bool sgn = ptx::type_is_signed(ty);
  c.mask.for_each([&](uint32_t t) {
    c.dst(0, t, ty, im::sad(c.src(1, t, ty), c.src(2, t, ty), c.src(3, t, ty), bits, sgn));
  });
}

// ---------------------------------------------------------------- 24-bit multiply
void h_mul24(ExecContext& c) {
  const Instr& in = c.in;
  const bool sgn = in.type == Type::S32, hi = has(in, ptx::kHi);
  const bool mad = in.op == Op::Mad24, sat = has(in, ptx::kSat);
  c.mask.for_each([&](uint32_t t) {
    uint32_t a = static_cast<uint32_t>(c.src(1, t, Type::U32)), b = static_cast<uint32_t>(c.src(2, t, Type::U32));
    uint32_t p = im::mul24(a, b, hi, sgn);
    if (mad) {
      uint32_t add = static_cast<uint32_t>(c.src(3, t, Type::U32));
      p = sat ? im::add_sat_s32(p, add) : p + add;
    }
    c.dst(0, t, in.type, p);
  });
}

// ---------------------------------------------------------------- carry chains
void h_addc_subc(ExecContext& c) {
  const Instr& in = c.in;
  const Type ty = in.type;
  const unsigned bits = type_bits(ty);
  const bool sub = in.op == Op::Subc, cc = has(in, ptx::kCC);
  c.mask.for_each([&](uint32_t t) {
    unsigned flag = 0;
    unsigned cin = c.cta.carry(t) & 1;
    uint64_t a = c.src(1, t, ty), b = c.src(2, t, ty);
    uint64_t d = sub ? im::sub_borrow(a, b, cin, bits, &flag) : im::add_carry(a, b, cin, bits, &flag);
    c.dst(0, t, ty, d);
    if (cc) c.cta.carry(t) = static_cast<uint8_t>(flag);
  });
}

void h_madc(ExecContext& c) {
  const Instr& in = c.in;
  const Type ty = in.type;
  const unsigned bits = type_bits(ty);
  const bool sgn = ptx::type_is_signed(ty), hi = has(in, ptx::kHi), cc = has(in, ptx::kCC);
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty), b = c.src(2, t, ty), add = c.src(3, t, ty);
    uint64_t p = hi ? im::mul_hi(a, b, bits, sgn) : im::zext(a * b, bits);
    unsigned flag = 0;
    uint64_t d = im::add_carry(p, add, c.cta.carry(t) & 1, bits, &flag);
    c.dst(0, t, ty, d);
    if (cc) c.cta.carry(t) = static_cast<uint8_t>(flag);
  });
}

// ---------------------------------------------------------------- bit operations
void h_bitcount(ExecContext& c) {  // popc, clz, brev, bfind
  const Instr& in = c.in;
  const Type ty = in.type;
  const unsigned bits = type_bits(ty);
  const Op op = in.op;
  const bool sgn = ptx::type_is_signed(ty), shiftamt = has(in, ptx::kShiftAmt);
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty);
    switch (op) {
      case Op::Popc: c.dst(0, t, Type::U32, im::popc(a)); break;
      case Op::Clz: c.dst(0, t, Type::U32, im::clz(a, bits)); break;
      case Op::Brev: c.dst(0, t, ty, im::brev(a, bits)); break;
      default: c.dst(0, t, Type::U32, im::bfind(a, bits, sgn, shiftamt)); break;
    }
  });
}

void h_fns(ExecContext& c) {
  c.mask.for_each([&](uint32_t t) {
    uint32_t mask = static_cast<uint32_t>(c.src(1, t, Type::B32));
    uint32_t base = static_cast<uint32_t>(c.src(2, t, Type::U32));
    int32_t off = static_cast<int32_t>(c.src(3, t, Type::S32));
    if (base > 31) return c.fail(t, "fns: base operand " + std::to_string(base) + " is above 31");
    c.dst(0, t, Type::B32, im::fns(mask, base, off));
  });
}

void h_bfe(ExecContext& c) {
  const Type ty = c.in.type;
  const unsigned bits = type_bits(ty);
  const bool sgn = ptx::type_is_signed(ty);
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty);
    uint32_t pos = static_cast<uint32_t>(c.src(2, t, Type::U32)), len = static_cast<uint32_t>(c.src(3, t, Type::U32));
    c.dst(0, t, ty, im::bfe(a, pos, len, bits, sgn));
  });
}

void h_bfi(ExecContext& c) {
  const Type ty = c.in.type;
  const unsigned bits = type_bits(ty);
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty), b = c.src(2, t, ty);
    uint32_t pos = static_cast<uint32_t>(c.src(3, t, Type::U32)), len = static_cast<uint32_t>(c.src(4, t, Type::U32));
    c.dst(0, t, ty, im::bfi(a, b, pos, len, bits));
  });
}

void h_bmsk_szext(ExecContext& c) {
  const Instr& in = c.in;
  const bool clamp = has(in, ptx::kClamp), szext = in.op == Op::Szext;
  const bool sgn = in.type == Type::S32;
  c.mask.for_each([&](uint32_t t) {
    uint32_t a = static_cast<uint32_t>(c.src(1, t, Type::U32)), b = static_cast<uint32_t>(c.src(2, t, Type::U32));
    c.dst(0, t, in.type, szext ? im::szext(a, b, sgn, clamp) : im::bmsk(a, b, clamp));
  });
}

void h_prmt(ExecContext& c) {
  const unsigned mode = c.in.mode;
  c.mask.for_each([&](uint32_t t) {
    uint32_t a = static_cast<uint32_t>(c.src(1, t, Type::B32)), b = static_cast<uint32_t>(c.src(2, t, Type::B32));
    uint32_t sel = static_cast<uint32_t>(c.src(3, t, Type::B32));
    c.dst(0, t, Type::B32, im::prmt(a, b, sel, mode));
  });
}

void h_shf(ExecContext& c) {
  const bool left = has(c.in, ptx::kLeft), clamp = has(c.in, ptx::kClamp);
  c.mask.for_each([&](uint32_t t) {
    uint32_t a = static_cast<uint32_t>(c.src(1, t, Type::B32)), b = static_cast<uint32_t>(c.src(2, t, Type::B32));
    uint32_t n = static_cast<uint32_t>(c.src(3, t, Type::U32));
    c.dst(0, t, Type::B32, im::shf(a, b, n, left, clamp));
  });
}

void h_shift(ExecContext& c) {
  const Type ty = c.in.type;
  const unsigned bits = type_bits(ty);
  const bool left = c.in.op == Op::Shl, sgn = ptx::type_is_signed(ty);
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty);
    uint32_t n = static_cast<uint32_t>(c.src(2, t, Type::U32));
    c.dst(0, t, ty, left ? im::shl(a, n, bits) : im::shr(a, n, bits, sgn));
  });
}

void h_logic(ExecContext& c) {  // and, or, xor, not, cnot on bits and predicates
  const Instr& in = c.in;
  const Type ty = in.type;
  const Op op = in.op;
  if (ty == Type::Pred) {
    c.mask.for_each([&](uint32_t t) {
      bool a = c.pred(in.ops[1], t);
      bool r;
      switch (op) {
        case Op::And: r = a && c.pred(in.ops[2], t); break;
        case Op::Or: r = a || c.pred(in.ops[2], t); break;
        case Op::Xor: r = a != c.pred(in.ops[2], t); break;
        default: r = !a; break;  // not
      }
      c.dst(0, t, Type::Pred, r ? 1 : 0);
    });
    return;
  }
  const unsigned bits = type_bits(ty);
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty);
    uint64_t r;
    switch (op) {
      case Op::And: r = a & c.src(2, t, ty); break;
      case Op::Or: r = a | c.src(2, t, ty); break;
      case Op::Xor: r = a ^ c.src(2, t, ty); break;
      case Op::Not: r = ~a; break;
      default: r = a == 0 ? 1 : 0; break;  // cnot
    }
    c.dst(0, t, ty, im::zext(r, bits));
  });
}

void h_lop3(ExecContext& c) {
  const uint8_t lut = static_cast<uint8_t>(c.in.ops[4].imm);
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, Type::B32), b = c.src(2, t, Type::B32), d = c.src(3, t, Type::B32);
    c.dst(0, t, Type::B32, im::lop3(a, b, d, lut) & 0xffffffffu);
  });
}

void h_dp(ExecContext& c) {  // dp4a, dp2a
  const Instr& in = c.in;
  const bool as = in.type == Type::S32, bs = in.type2 == Type::S32;
  const bool four = in.op == Op::Dp4a, hi = has(in, ptx::kHi);
  const Type cty = (as || bs) ? Type::S32 : Type::U32;
  c.mask.for_each([&](uint32_t t) {
    uint32_t a = static_cast<uint32_t>(c.src(1, t, Type::B32)), b = static_cast<uint32_t>(c.src(2, t, Type::B32));
    uint32_t acc = static_cast<uint32_t>(c.src(3, t, cty));
    c.dst(0, t, cty, four ? im::dp4a(a, b, acc, as, bs) : im::dp2a(a, b, acc, as, bs, hi));
  });
}

}  // namespace

void register_int_ops(HandlerTable& t) {
  t.add(Op::Add, h_add_sub, check_shared);
  t.add(Op::Sub, h_add_sub, check_shared);
  t.add(Op::Mul, h_mul_mad, check_shared);
  t.add(Op::Mad, h_mul_mad, check_shared);
  t.add(Op::Div, h_div_rem, check_shared);
  t.add(Op::Rem, h_div_rem, check_shared);
  t.add(Op::Abs, h_abs_neg, check_shared);
  t.add(Op::Neg, h_abs_neg, check_shared);
  t.add(Op::Min, h_min_max, check_shared);
  t.add(Op::Max, h_min_max, check_shared);
  t.add(Op::Sad, h_sad, check_shared);
  t.add(Op::Mul24, h_mul24, check_int_generic);
  t.add(Op::Mad24, h_mul24, check_int_generic);
  t.add(Op::Addc, h_addc_subc, check_int_generic);
  t.add(Op::Subc, h_addc_subc, check_int_generic);
  t.add(Op::Madc, h_madc, check_int_generic);
  t.add(Op::Popc, h_bitcount, check_int_generic);
  t.add(Op::Clz, h_bitcount, check_int_generic);
  t.add(Op::Brev, h_bitcount, check_int_generic);
  t.add(Op::Bfind, h_bitcount, check_int_generic);
  t.add(Op::Fns, h_fns, check_int_generic);
  t.add(Op::Bfe, h_bfe, check_int_generic);
  t.add(Op::Bfi, h_bfi, check_int_generic);
  t.add(Op::Bmsk, h_bmsk_szext, check_int_generic);
  t.add(Op::Szext, h_bmsk_szext, check_int_generic);
  t.add(Op::Prmt, h_prmt, check_int_generic);
  t.add(Op::Shf, h_shf, check_int_generic);
  t.add(Op::Shl, h_shift, check_int_generic);
  t.add(Op::Shr, h_shift, check_int_generic);
  t.add(Op::And, h_logic, check_int_generic);
  t.add(Op::Or, h_logic, check_int_generic);
  t.add(Op::Xor, h_logic, check_int_generic);
  t.add(Op::Not, h_logic, check_int_generic);
  t.add(Op::Cnot, h_logic, check_int_generic);
  t.add(Op::Lop3, h_lop3, check_int_generic);
  t.add(Op::Dp4a, h_dp, check_int_generic);
  t.add(Op::Dp2a, h_dp, check_int_generic);
}

}  // namespace simt::func
