// Comparison and selection: setp, set, selp, slct.
// Comparisons follow PTX: ordered float compares (eq..ge) are false when
// either input is NaN, the unordered ones (equ..geu) true; num/nan test for
// NaN; lo/ls/hi/hs compare unsigned; .b types support eq/ne only. Packed
// .f16x2/.bf16x2 compare each half: setp writes the low half's result to p
// and the high half's to q (not a complement), set writes one result per half.
#include <cmath>
#include <string>

#include "func/compare_math.h"
#include "func/exec_alu.h"
#include "func/float_math.h"
#include "func/int_math.h"

namespace simt::func {

using ptx::BoolOp;
using ptx::CmpOp;
using ptx::Instr;
using ptx::Op;
using ptx::Type;

namespace {

bool has(const Instr& in, uint32_t f) { return (in.flags & f) != 0; }

bool packed(Type t) { return t == Type::F16x2 || t == Type::BF16x2; }

bool combine(BoolOp op, bool t, bool c) {
  switch (op) {
    case BoolOp::And: return t && c;
    case BoolOp::Or: return t || c;
    case BoolOp::Xor: return t != c;
    default: return t;
  }
}

// Evaluates `a CmpOp b` of instruction type `ty` for thread t, operands at
// ops[ia], ops[ia+1].
struct Comparator {
  Type ty;
  CmpOp op;
  bool is_float, sgn, ftz;
  unsigned bits;
  explicit Comparator(const Instr& in, Type cmp_type)
      : ty(cmp_type == Type::F16x2 ? Type::F16 : cmp_type == Type::BF16x2 ? Type::BF16 : cmp_type),
        op(in.cmp), is_float(ptx::type_is_float(cmp_type)), sgn(ptx::type_is_signed(cmp_type)),
        ftz(has(in, ptx::kFtz)), bits(type_bits(ty)), whole(cmp_type) {}
  double fval(uint64_t b) const {
    switch (ty) {
      case Type::F64: return fm::as_f64(b);
      case Type::F16: {
        const uint16_t h = static_cast<uint16_t>(b);
        return fm::f16_to_f32(ftz ? fm::f16_ftz(h) : h);
      }
      case Type::BF16: return fm::bf16_to_f32(static_cast<uint16_t>(b));
      default: {
        float f = fm::as_f32(static_cast<uint32_t>(b));
        return ftz ? fm::ftz(f) : f;
      }
    }
  }
  bool operator()(const ExecContext& c, int ia, uint32_t t) const {
    uint64_t a = c.src(ia, t, ty), b = c.src(ia + 1, t, ty);
    if (is_float) return cmp_float(op, fval(a), fval(b));
    if (sgn) return cmp_int(op, static_cast<uint64_t>(im::sext(a, bits)), static_cast<uint64_t>(im::sext(b, bits)), true);
    return cmp_int(op, a, b, false);
  }
  // A packed compare: bit k is half k's result.
  unsigned halves(const ExecContext& c, int ia, uint32_t t) const {
    const uint64_t a = c.src(ia, t, whole), b = c.src(ia + 1, t, whole);
    unsigned r = 0;
    for (unsigned k = 0; k < 2; ++k)
      if (cmp_float(op, fval((a >> (16 * k)) & 0xffff), fval((b >> (16 * k)) & 0xffff))) r |= 1u << k;
    return r;
  }
  Type whole;  // the instruction's comparison type (packed or not)
};

// What set writes for "true": 1.0 in a float destination, all ones otherwise.
uint64_t set_true(Type dty) {
  switch (dty) {
    case Type::F32: return 0x3f800000u;
    case Type::F16: case Type::F16x2: return 0x3c00u;
    case Type::BF16: case Type::BF16x2: return 0x3f80u;
    case Type::U16: case Type::S16: return 0xffffu;
    default: return 0xffffffffu;
  }
}

void h_setp(ExecContext& c) {
  const Instr& in = c.in;
  const Comparator cmp(in, in.type);
  const BoolOp bop = in.bop;
  const bool has_c = bop != BoolOp::None;
  const uint32_t q = in.pout.kind == ptx::Operand::Kind::Reg ? in.pout.reg : ptx::kNoReg;
  if (packed(in.type)) {
    c.mask.for_each([&](uint32_t t) {
      const unsigned r = cmp.halves(c, 1, t);
      const bool pc = has_c ? c.pred(in.ops[3], t) : false;
      c.dst(0, t, Type::Pred, combine(bop, (r & 1) != 0, pc) ? 1 : 0);
      if (q != ptx::kNoReg) c.write_reg(q, t, Type::Pred, combine(bop, (r & 2) != 0, pc) ? 1 : 0);
    });
    return;
  }
  c.mask.for_each([&](uint32_t t) {
    const bool r = cmp(c, 1, t);
    const bool pc = has_c ? c.pred(in.ops[3], t) : false;
    c.dst(0, t, Type::Pred, combine(bop, r, pc) ? 1 : 0);
    if (q != ptx::kNoReg) c.write_reg(q, t, Type::Pred, combine(bop, !r, pc) ? 1 : 0);
  });
}

void h_set(ExecContext& c) {
  const Instr& in = c.in;
  // set.cmp.dtype.stype: the parser puts the comparison (source) type in
  // `type`, as for setp, and the destination type in `type2`.
  const Comparator cmp(in, in.type);
  const BoolOp bop = in.bop;
  const bool has_c = bop != BoolOp::None;
  const Type dty = in.type2;
  if (packed(in.type)) {  // one result per half: 1.0 in a packed float destination, 0xffff in .u32/.s32
    const uint64_t yes = packed(dty) ? set_true(dty) : 0xffffu;
    c.mask.for_each([&](uint32_t t) {
      const unsigned r = cmp.halves(c, 1, t);
      const bool pc = has_c ? c.pred(in.ops[3], t) : false;
      uint64_t d = 0;
      for (unsigned k = 0; k < 2; ++k)
        if (combine(bop, ((r >> k) & 1) != 0, pc)) d |= yes << (16 * k);
      c.dst(0, t, dty, d);
    });
    return;
  }
  const uint64_t yes = set_true(dty);
  c.mask.for_each([&](uint32_t t) {
    const bool r = cmp(c, 1, t);
    const bool pc = has_c ? c.pred(in.ops[3], t) : false;
    c.dst(0, t, dty, combine(bop, r, pc) ? yes : 0);
  });
}

void h_selp(ExecContext& c) {
  const Instr& in = c.in;
  const Type ty = in.type;
  c.mask.for_each([&](uint32_t t) {
    c.dst(0, t, ty, c.pred(in.ops[3], t) ? c.src(1, t, ty) : c.src(2, t, ty));
  });
}

void h_slct(ExecContext& c) {
  const Instr& in = c.in;
  const Type ty = in.type;
  const bool fc = in.type2 == Type::F32, ftz = has(in, ptx::kFtz);
  c.mask.for_each([&](uint32_t t) {
    bool take_a;
    if (fc) {
      float f = fm::as_f32(static_cast<uint32_t>(c.src(3, t, Type::F32)));
      if (ftz) f = fm::ftz(f);
      take_a = f >= 0.0f;  // -0 counts as >= 0; NaN selects b
    } else {
      take_a = static_cast<int32_t>(c.src(3, t, Type::S32)) >= 0;
    }
    c.dst(0, t, ty, take_a ? c.src(1, t, ty) : c.src(2, t, ty));
  });
}

// ---------------------------------------------------------------- checks
std::string check_cmp(const Instr& in, Type ty) {
  const std::string where = std::string(ptx::op_name(in.op)) + "." + ptx::type_name(ty);
  if (in.cmp == CmpOp::None) return where + " needs a comparison operator";
  if (in.bop == BoolOp::Popc) return "bad boolean operator on " + where;
  if (in.rnd != ptx::Rnd::None || (in.flags & ~ptx::kFtz)) return "unsupported modifier on " + where;
  const bool fl = ty == Type::F32 || ty == Type::F64 || ty == Type::F16 || ty == Type::BF16 || packed(ty);
  if (has(in, ptx::kFtz) && ty != Type::F32 && ty != Type::F16 && ty != Type::F16x2)
    return ".ftz is only supported with f32, f16 and f16x2 comparisons";
  if (ptx::type_is_float(ty) && !fl) return where + " comparison is not supported";
  const bool cmp_float = in.cmp >= CmpOp::Equ || (in.cmp >= CmpOp::Eq && in.cmp <= CmpOp::Ge);
  const bool cmp_int = in.cmp >= CmpOp::Eq && in.cmp <= CmpOp::Hs;
  if (fl) return cmp_float ? "" : "integer comparison operator on " + where;
  switch (ty) {
    case Type::B16: case Type::B32: case Type::B64:
      return (in.cmp == CmpOp::Eq || in.cmp == CmpOp::Ne) ? "" : ".b types support only eq/ne in " + where;
    case Type::U16: case Type::U32: case Type::U64: case Type::S16: case Type::S32: case Type::S64:
      return cmp_int ? "" : "float comparison operator on " + where;
    default:
      return "unsupported comparison type in " + where;
  }
}

std::string check_setp(const Instr& in) {
  std::string w = check_cmp(in, in.type);
  if (!w.empty()) return w;
  if (in.bop != BoolOp::None && in.nops < 4) return "setp with a boolean operator needs predicate c";
  return "";
}

// set's destination types: .u32/.s32/.f32 for any comparison, .f16/.bf16 too;
// .u16/.s16 after a scalar half compare; a packed compare writes its own
// packed type or .u32/.s32 (PTX's half-precision set forms).
std::string check_set(const Instr& in) {
  const Type d = in.type2, s = in.type;
  const bool half_src = s == Type::F16 || s == Type::BF16;
  bool ok;
  if (packed(s)) ok = d == s || d == Type::U32 || d == Type::S32;
  else ok = d == Type::U32 || d == Type::S32 || d == Type::F32 || d == Type::F16 || d == Type::BF16 ||
            (half_src && (d == Type::U16 || d == Type::S16));
  if (!ok)
    return std::string("set destination type .") + ptx::type_name(d) + " is not supported with ." +
           ptx::type_name(s) + " comparisons";
  std::string w = check_cmp(in, in.type);
  if (!w.empty()) return w;
  if (in.bop != BoolOp::None && in.nops < 4) return "set with a boolean operator needs predicate c";
  return "";
}

bool selectable(Type t) {
  switch (t) {
    case Type::B16: case Type::B32: case Type::B64: case Type::U16: case Type::U32: case Type::U64:
    case Type::S16: case Type::S32: case Type::S64: case Type::F32: case Type::F64:
      return true;
    default:
      return false;
  }
}

std::string check_selp(const Instr& in) {
  if (!selectable(in.type) && in.type != Type::F16 && in.type != Type::BF16)
    return std::string("selp.") + ptx::type_name(in.type) + " is not supported";
  if (in.flags || in.rnd != ptx::Rnd::None) return "unsupported modifier on selp";
  return "";
}

std::string check_slct(const Instr& in) {
  if (!selectable(in.type)) return std::string("slct.") + ptx::type_name(in.type) + " is not supported";
  if (in.type2 != Type::S32 && in.type2 != Type::F32) return "slct needs an .s32 or .f32 selector";
  if (in.flags & ~ptx::kFtz) return "unsupported modifier on slct";
  if (has(in, ptx::kFtz) && in.type2 != Type::F32) return "slct.ftz needs an .f32 selector";
  return "";
}

}  // namespace

void register_compare_ops(HandlerTable& t) {
  t.add(Op::Setp, h_setp, check_setp);
  t.add(Op::Set, h_set, check_set);
  t.add(Op::Selp, h_selp, check_selp);
  t.add(Op::Slct, h_slct, check_slct);
}

}  // namespace simt::func
