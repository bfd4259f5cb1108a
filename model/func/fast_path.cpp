// Pre-decoded fast kernels (see fast_path.h). Each kernel reproduces one
// general handler's per-thread rule for plain register/immediate operands:
// src() = register & width of the type, or the immediate converted once;
// dst() = RegWrite. Lanes are independent, so a run of threads is one loop.
#include "func/fast_path.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "func/address_space.h"
#include "func/compare_math.h"
#include "func/exec_context.h"
#include "func/float_math.h"
#include "func/int_math.h"
#include "util/lane_clones.h"

namespace simt::func {

using ptx::CmpOp;
using ptx::Instr;
using ptx::Op;
using ptx::Operand;
using ptx::Rnd;
using ptx::Type;

namespace {

// ---------------------------------------------------------------- operand readers
struct RegSrc {
  const uint64_t* row;
  uint64_t mask;
  RegSrc(const FastOperand& o, CtaState& cta) : row(std::as_const(cta).reg_row(o.reg)), mask(o.mask) {}
  uint64_t operator()(uint32_t t) const { return row[t] & mask; }
};
struct ImmSrc {
  uint64_t v;
  ImmSrc(const FastOperand& o, CtaState&) : v(o.imm) {}
  uint64_t operator()(uint32_t) const { return v; }
};

// d = op(a[, b[, c]]) written through the destination's rule.
template <class O, class A>
SIMT_LANE_LOOP void k_unary(const FastInstr& f, CtaState& cta, uint32_t word, uint64_t bits) {
  uint64_t* d = cta.reg_row(f.dst);
  const A a(f.src[0], cta);
  const O op(f);
  const RegWrite w = f.w;
  write_word(d, word, bits, [&](uint32_t t) { return w.apply_value(op(a(t))); });
}
template <class O, class A, class B>
SIMT_LANE_LOOP void k_binary(const FastInstr& f, CtaState& cta, uint32_t word, uint64_t bits) {
  uint64_t* d = cta.reg_row(f.dst);
  const A a(f.src[0], cta);
  const B b(f.src[1], cta);
  const O op(f);
  const RegWrite w = f.w;
  write_word(d, word, bits, [&](uint32_t t) { return w.apply_value(op(a(t), b(t))); });
}
template <class O, class A, class B, class C>
SIMT_LANE_LOOP void k_ternary(const FastInstr& f, CtaState& cta, uint32_t word, uint64_t bits) {
  uint64_t* d = cta.reg_row(f.dst);
  const A a(f.src[0], cta);
  const B b(f.src[1], cta);
  const C c(f.src[2], cta);
  const O op(f);
  const RegWrite w = f.w;
  write_word(d, word, bits, [&](uint32_t t) { return w.apply_value(op(a(t), b(t), c(t))); });
}

// fma on three register rows with the host's FMA instruction, where the CPU
// has one (the same correctly rounded result as the fmaf/fma library call
// the generic kernel makes, without a call per thread). A separate function
// per word, because a lambda would not inherit the target attribute.
#if defined(__x86_64__) && defined(__GNUC__)
#define SIMT_FAST_FMA 1
template <class T>
[[gnu::target("fma")]] void fma_run(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                    uint64_t ma, uint64_t mb, uint64_t mc, RegWrite w, uint32_t lo, uint32_t hi,
                                    uint64_t bits);
template <class T>
void k_fma_hw(const FastInstr& f, CtaState& cta, uint32_t word, uint64_t bits) {
  uint64_t* d = cta.reg_row(f.dst);
  const uint64_t* a = std::as_const(cta).reg_row(f.src[0].reg);
  const uint64_t* b = std::as_const(cta).reg_row(f.src[1].reg);
  const uint64_t* c = std::as_const(cta).reg_row(f.src[2].reg);
  const uint64_t ma = f.src[0].mask, mb = f.src[1].mask, mc = f.src[2].mask;
  for_word_span(word, bits, [&](uint32_t lo, uint32_t hi, uint64_t in_span) {
    fma_run<T>(d, a, b, c, ma, mb, mc, f.w, lo, hi, in_span);
  });
}
#endif

// Kernel for operation O over operands that are each a register or a constant.
template <class O>
FastKernel pick1(const FastInstr& f) {
  return f.src[0].reg != ptx::kNoReg ? k_unary<O, RegSrc> : k_unary<O, ImmSrc>;
}
template <class O>
FastKernel pick2(const FastInstr& f) {
  const bool ra = f.src[0].reg != ptx::kNoReg, rb = f.src[1].reg != ptx::kNoReg;
  if (ra && rb) return k_binary<O, RegSrc, RegSrc>;
  if (ra) return k_binary<O, RegSrc, ImmSrc>;
  if (rb) return k_binary<O, ImmSrc, RegSrc>;
  return k_binary<O, ImmSrc, ImmSrc>;
}
template <class O>
FastKernel pick3(const FastInstr& f) {
  const bool ra = f.src[0].reg != ptx::kNoReg, rb = f.src[1].reg != ptx::kNoReg, rc = f.src[2].reg != ptx::kNoReg;
  if (ra && rb && rc) return k_ternary<O, RegSrc, RegSrc, RegSrc>;
  if (ra && rb) return k_ternary<O, RegSrc, RegSrc, ImmSrc>;
  if (ra && rc) return k_ternary<O, RegSrc, ImmSrc, RegSrc>;
  if (ra) return k_ternary<O, RegSrc, ImmSrc, ImmSrc>;
  return nullptr;  // rare forms: the general handler
}

// ---------------------------------------------------------------- integer operations
struct Stateless {
  explicit Stateless(const FastInstr&) {}
};
struct IAdd : Stateless { using Stateless::Stateless; uint64_t operator()(uint64_t a, uint64_t b) const { return a + b; } };
struct ISub : Stateless { using Stateless::Stateless; uint64_t operator()(uint64_t a, uint64_t b) const { return a - b; } };
struct IMul : Stateless { using Stateless::Stateless; uint64_t operator()(uint64_t a, uint64_t b) const { return a * b; } };
struct IMad : Stateless {
  using Stateless::Stateless;
  uint64_t operator()(uint64_t a, uint64_t b, uint64_t c) const { return a * b + c; }
};
struct IAnd : Stateless { using Stateless::Stateless; uint64_t operator()(uint64_t a, uint64_t b) const { return a & b; } };
struct IOr : Stateless { using Stateless::Stateless; uint64_t operator()(uint64_t a, uint64_t b) const { return a | b; } };
struct IXor : Stateless { using Stateless::Stateless; uint64_t operator()(uint64_t a, uint64_t b) const { return a ^ b; } };
struct Copy : Stateless { using Stateless::Stateless; uint64_t operator()(uint64_t a) const { return a; } };

struct IMulWide {
  unsigned bits;
  bool sgn;
  explicit IMulWide(const FastInstr& f) : bits(f.bits), sgn(f.sgn) {}
  uint64_t operator()(uint64_t a, uint64_t b) const { return im::mul_wide(a, b, bits, sgn); }
};
struct IMadWide : IMulWide {
  using IMulWide::IMulWide;
  uint64_t operator()(uint64_t a, uint64_t b, uint64_t c) const { return im::mul_wide(a, b, bits, sgn) + c; }
};
struct IShl {
  unsigned bits;
  explicit IShl(const FastInstr& f) : bits(f.bits) {}
  uint64_t operator()(uint64_t a, uint64_t n) const { return im::shl(a, static_cast<uint32_t>(n), bits); }
};
struct IShr {
  unsigned bits;
  bool sgn;
  explicit IShr(const FastInstr& f) : bits(f.bits), sgn(f.sgn) {}
  uint64_t operator()(uint64_t a, uint64_t n) const { return im::shr(a, static_cast<uint32_t>(n), bits, sgn); }
};
struct IMin {
  unsigned bits;
  bool sgn;
  explicit IMin(const FastInstr& f) : bits(f.bits), sgn(f.sgn) {}
  uint64_t operator()(uint64_t a, uint64_t b) const { return im::min_int(a, b, bits, sgn); }
};
struct IMax : IMin {
  using IMin::IMin;
  uint64_t operator()(uint64_t a, uint64_t b) const { return im::max_int(a, b, bits, sgn); }
};
// Unary bit and sign operations, as exec_int.cpp's h_logic, h_abs_neg and
// h_bitcount compute them (abs wraps: abs(INT_MIN) = INT_MIN).
struct INot {
  unsigned bits;
  explicit INot(const FastInstr& f) : bits(f.bits) {}
  uint64_t operator()(uint64_t a) const { return im::zext(~a, bits); }
};
struct ICnot : Stateless { using Stateless::Stateless; uint64_t operator()(uint64_t a) const { return a == 0 ? 1 : 0; } };
struct INegAbs {
  unsigned bits;
  bool neg;
  explicit INegAbs(const FastInstr& f) : bits(f.bits), neg(f.flag) {}
  uint64_t operator()(uint64_t a) const { return im::zext((neg || im::sext(a, bits) < 0) ? 0 - a : a, bits); }
};
struct IPopc : Stateless { using Stateless::Stateless; uint64_t operator()(uint64_t a) const { return im::popc(a); } };
struct IClz {
  unsigned bits;
  explicit IClz(const FastInstr& f) : bits(f.bits) {}
  uint64_t operator()(uint64_t a) const { return im::clz(a, bits); }
};
struct IBrev {
  unsigned bits;
  explicit IBrev(const FastInstr& f) : bits(f.bits) {}
  uint64_t operator()(uint64_t a) const { return im::brev(a, bits); }
};
// cvt between integer types without .sat: extend the source, the write truncates.
struct CvtInt {
  unsigned bits;
  bool sgn;
  explicit CvtInt(const FastInstr& f) : bits(f.bits), sgn(f.sgn) {}
  uint64_t operator()(uint64_t a) const { return sgn ? static_cast<uint64_t>(im::sext(a, bits)) : a; }
};
// cvta: into or out of a window (global and const: base 0, no wrap).
struct Cvta {
  uint64_t base, wrap;
  bool to_space;
  explicit Cvta(const FastInstr& f) : base(f.base), wrap(f.wrap), to_space(f.flag) {}
  uint64_t operator()(uint64_t a) const { return to_space ? (a - base) & wrap : base + (a & wrap); }
};

// ---------------------------------------------------------------- float operations (.rn, no .ftz/.sat)
template <class T> struct FBits;
template <> struct FBits<float> {
  static float get(uint64_t b) { return fm::as_f32(static_cast<uint32_t>(b)); }
  static uint64_t put(float x) { return fm::canon(x); }
};
template <> struct FBits<double> {
  static double get(uint64_t b) { return fm::as_f64(b); }
  static uint64_t put(double x) { return std::isnan(x) ? fm::kCanonNanF64 : fm::bits_of(x); }
};

template <class T>
struct FAdd : Stateless {
  using Stateless::Stateless;
  uint64_t operator()(uint64_t a, uint64_t b) const { return FBits<T>::put(FBits<T>::get(a) + FBits<T>::get(b)); }
};
template <class T>
struct FSub : Stateless {
  using Stateless::Stateless;
  uint64_t operator()(uint64_t a, uint64_t b) const { return FBits<T>::put(FBits<T>::get(a) - FBits<T>::get(b)); }
};
template <class T>
struct FMul : Stateless {
  using Stateless::Stateless;
  uint64_t operator()(uint64_t a, uint64_t b) const { return FBits<T>::put(FBits<T>::get(a) * FBits<T>::get(b)); }
};
template <class T>
struct FDiv : Stateless {
  using Stateless::Stateless;
  uint64_t operator()(uint64_t a, uint64_t b) const { return FBits<T>::put(FBits<T>::get(a) / FBits<T>::get(b)); }
};
template <class T>
struct FFma : Stateless {
  using Stateless::Stateless;
  uint64_t operator()(uint64_t a, uint64_t b, uint64_t c) const {
    return FBits<T>::put(std::fma(FBits<T>::get(a), FBits<T>::get(b), FBits<T>::get(c)));
  }
};
// min/max as fm::fmin_ptx/fmax_ptx then put(), written as selects so the
// lane loop has no branches: equal inputs give the OR (min) or AND (max) of
// their bits, which only differs from either input for +0/-0, where it is the
// PTX answer; one NaN gives the other input, two NaNs (or any with .NaN) the
// canonical NaN.
template <class T, bool Max>
struct FMinMax {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  static constexpr U kNan = sizeof(T) == 4 ? U(fm::kCanonNanF32) : U(fm::kCanonNanF64);
  bool nan;
  explicit FMinMax(const FastInstr& f) : nan(f.flag) {}
  uint64_t operator()(uint64_t ab, uint64_t bb) const {
    const U ua = static_cast<U>(ab), ub = static_cast<U>(bb);
    const T a = FBits<T>::get(ab), b = FBits<T>::get(bb);
    const bool na = a != a, nb = b != b;
    U r = (Max ? a > b : a < b) ? ua : ub;
    if (a == b) r = Max ? (ua & ub) : (ua | ub);
    if (na) r = (nb || nan) ? kNan : ub;
    if (nb) r = (na || nan) ? kNan : ua;
    return r;
  }
};
template <class T> using FMin = FMinMax<T, false>;
template <class T> using FMax = FMinMax<T, true>;
// neg/abs flip or clear the sign bit of the raw bits (no .ftz).
struct FSign {
  uint64_t sign;
  bool neg;
  explicit FSign(const FastInstr& f) : sign(f.base), neg(f.flag) {}
  uint64_t operator()(uint64_t a) const { return neg ? (a ^ sign) : (a & ~sign); }
};

// ---------------------------------------------------------------- setp / selp

// setp without a boolean operator: p = a cmp b, q = !p. The comparison is a
// template parameter so the per-thread loop has no switch.
template <class Cmp, class A, class B>
SIMT_LANE_LOOP void k_setp(const FastInstr& f, CtaState& cta, uint32_t word, uint64_t bits) {
  uint64_t* p = cta.reg_row(f.dst);
  uint64_t* q = f.dst2 != ptx::kNoReg ? cta.reg_row(f.dst2) : nullptr;
  const A a(f.src[0], cta);
  const B b(f.src[1], cta);
  const Cmp cmp(f);
  const RegWrite w = f.w, w2 = f.w2;
  write_word(p, word, bits, [&](uint32_t t) { return w.apply(cmp(a(t), b(t)) ? 1 : 0); });
  if (q) write_word(q, word, bits, [&](uint32_t t) { return w2.apply(cmp(a(t), b(t)) ? 0 : 1); });
}
template <CmpOp Op, bool Sgn>
struct ICmp {
  unsigned bits;
  explicit ICmp(const FastInstr& f) : bits(f.bits) {}
  bool operator()(uint64_t a, uint64_t b) const {
    if (Sgn) return cmp_int(Op, static_cast<uint64_t>(im::sext(a, bits)), static_cast<uint64_t>(im::sext(b, bits)), true);
    return cmp_int(Op, a, b, false);
  }
};
template <class T>
struct FCmp {
  CmpOp op;
  explicit FCmp(const FastInstr& f) : op(f.cmp) {}
  bool operator()(uint64_t a, uint64_t b) const { return cmp_float(op, FBits<T>::get(a), FBits<T>::get(b)); }
};

template <class Cmp>
FastKernel pick_setp(const FastInstr& f) {
  const bool ra = f.src[0].reg != ptx::kNoReg, rb = f.src[1].reg != ptx::kNoReg;
  if (ra && rb) return k_setp<Cmp, RegSrc, RegSrc>;
  if (ra) return k_setp<Cmp, RegSrc, ImmSrc>;
  return nullptr;
}
template <bool Sgn>
FastKernel pick_icmp(const FastInstr& f) {
  switch (f.cmp) {
    case CmpOp::Eq: return pick_setp<ICmp<CmpOp::Eq, Sgn>>(f);
    case CmpOp::Ne: return pick_setp<ICmp<CmpOp::Ne, Sgn>>(f);
    case CmpOp::Lt: return pick_setp<ICmp<CmpOp::Lt, Sgn>>(f);
    case CmpOp::Le: return pick_setp<ICmp<CmpOp::Le, Sgn>>(f);
    case CmpOp::Gt: return pick_setp<ICmp<CmpOp::Gt, Sgn>>(f);
    case CmpOp::Ge: return pick_setp<ICmp<CmpOp::Ge, Sgn>>(f);
    case CmpOp::Lo: return pick_setp<ICmp<CmpOp::Lo, Sgn>>(f);
    case CmpOp::Ls: return pick_setp<ICmp<CmpOp::Ls, Sgn>>(f);
    case CmpOp::Hi: return pick_setp<ICmp<CmpOp::Hi, Sgn>>(f);
    case CmpOp::Hs: return pick_setp<ICmp<CmpOp::Hs, Sgn>>(f);
    default: return nullptr;
  }
}

// selp: d = p ? a : b, with p a predicate register (honouring `!p`) or constant.
template <class A, class B>
SIMT_LANE_LOOP void k_selp(const FastInstr& f, CtaState& cta, uint32_t word, uint64_t bits) {
  uint64_t* d = cta.reg_row(f.dst);
  const A a(f.src[0], cta);
  const B b(f.src[1], cta);
  const FastOperand& po = f.src[2];
  const uint64_t* prow = po.reg != ptx::kNoReg ? std::as_const(cta).reg_row(po.reg) : nullptr;
  const uint64_t pneg = po.neg ? 1 : 0, pconst = po.imm;
  const RegWrite w = f.w;
  write_word(d, word, bits, [&](uint32_t t) {
    const bool p = ((prow ? prow[t] & 1 : pconst) ^ pneg) != 0;
    return w.apply_value(p ? a(t) : b(t));
  });
}
FastKernel pick_selp(const FastInstr& f) {
  const bool ra = f.src[0].reg != ptx::kNoReg, rb = f.src[1].reg != ptx::kNoReg;
  if (ra && rb) return k_selp<RegSrc, RegSrc>;
  if (ra) return k_selp<RegSrc, ImmSrc>;
  if (rb) return k_selp<ImmSrc, RegSrc>;
  return k_selp<ImmSrc, ImmSrc>;
}

#ifdef SIMT_FAST_FMA
template <class T>
[[gnu::target("fma")]] inline uint64_t fma_bits(uint64_t a, uint64_t b, uint64_t c) {
  const T x = FBits<T>::get(a), y = FBits<T>::get(b), z = FBits<T>::get(c);
  if constexpr (std::is_same<T, float>::value) return FBits<T>::put(__builtin_fmaf(x, y, z));
  else return FBits<T>::put(__builtin_fma(x, y, z));
}
template <class T>
[[gnu::target("fma")]] void fma_run(uint64_t* d, const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                    uint64_t ma, uint64_t mb, uint64_t mc, RegWrite w, uint32_t lo, uint32_t hi,
                                    uint64_t bits) {
  // As write_threads, written out: a lambda would not inherit the target.
  if (span_full(lo, hi, bits)) {
    for (uint32_t t = lo; t < hi; ++t) d[t] = w.apply_value(fma_bits<T>(a[t] & ma, b[t] & mb, c[t] & mc));
    return;
  }
  for (; bits; bits &= bits - 1) {
    const uint32_t t = lo + static_cast<uint32_t>(__builtin_ctzll(bits));
    d[t] = w.apply_value(fma_bits<T>(a[t] & ma, b[t] & mb, c[t] & mc));
  }
}

// fma kernel: the FMA instruction for three registers when the CPU has it.
template <class T>
FastKernel pick_fma(const FastInstr& f) {
  const bool regs = f.src[0].reg != ptx::kNoReg && f.src[1].reg != ptx::kNoReg && f.src[2].reg != ptx::kNoReg;
  static const bool hw = __builtin_cpu_supports("fma");
  if (regs && hw) return k_fma_hw<T>;
  return pick3<FFma<T>>(f);
}
#else
template <class T>
FastKernel pick_fma(const FastInstr& f) { return pick3<FFma<T>>(f); }
#endif

// ---------------------------------------------------------------- mov from a special register
// Special registers that depend on the thread; the others are one value per CTA.
bool per_thread(ptx::Sreg s) {
  switch (s) {
    case ptx::Sreg::TidX: case ptx::Sreg::TidY: case ptx::Sreg::TidZ: case ptx::Sreg::Laneid:
    case ptx::Sreg::Warpid: case ptx::Sreg::LanemaskEq: case ptx::Sreg::LanemaskLe:
    case ptx::Sreg::LanemaskLt: case ptx::Sreg::LanemaskGe: case ptx::Sreg::LanemaskGt:
      return true;
    default:
      return false;
  }
}

void k_sreg(const FastInstr& f, CtaState& cta, uint32_t word, uint64_t bits) {
  uint64_t* d = cta.reg_row(f.dst);
  const ptx::Sreg s = f.sreg;
  const uint64_t mask = f.src[0].mask;
  const RegWrite w = f.w;
  const uint32_t bx = cta.geometry().block[0];
  if (!per_thread(s)) {
    const uint64_t v = bits ? w.apply_value(sreg_value(cta, s, word * 64 + __builtin_ctzll(bits)) & mask) : 0;
    write_word(d, word, bits, [&](uint32_t) { return v; });
  } else if (s == ptx::Sreg::TidX) {
    // t % ntid.x, stepped along the span instead of divided per thread.
    for_word_span(word, bits, [&](uint32_t lo, uint32_t hi, uint64_t in_span) {
      uint32_t x = lo % bx;
      for (uint32_t t = lo; t < hi; ++t) {
        if ((in_span >> (t - lo)) & 1) d[t] = w.apply_value(x & mask);
        if (++x == bx) x = 0;
      }
    });
  } else {
    write_word(d, word, bits, [&](uint32_t t) { return w.apply_value(sreg_value(cta, s, t) & mask); });
  }
}

// ---------------------------------------------------------------- and/or/xor/not on predicates
// A predicate operand as pred() reads it: register bit 0 or a constant, then `!`.
struct PredSrc {
  const uint64_t* row;
  uint64_t c, neg;
  PredSrc(const FastOperand& o, CtaState& cta)
      : row(o.reg != ptx::kNoReg ? std::as_const(cta).reg_row(o.reg) : nullptr), c(o.imm), neg(o.neg ? 1 : 0) {}
  uint64_t operator()(uint32_t t) const { return (row ? row[t] & 1 : c) ^ neg; }
};
template <Op O>
SIMT_LANE_LOOP void k_plogic(const FastInstr& f, CtaState& cta, uint32_t word, uint64_t bits) {
  uint64_t* d = cta.reg_row(f.dst);
  const PredSrc a(f.src[0], cta), b(f.src[1], cta);
  const RegWrite w = f.w;
  write_word(d, word, bits, [&](uint32_t t) {
    const uint64_t x = a(t);
    return w.apply(O == Op::And ? (x & b(t)) : O == Op::Or ? (x | b(t)) : O == Op::Xor ? (x ^ b(t)) : (x ^ 1));
  });
}

// ---------------------------------------------------------------- decoding
bool has(const Instr& in, uint32_t f) { return (in.flags & f) != 0; }


// Operand `o` read as type `ty`, if it is a plain register or a constant.
bool plain_operand(const Operand& o, Type ty, FastOperand& out) {
  if (ty == Type::Pred) return false;
  switch (o.kind) {
    case Operand::Kind::Reg:
      if (o.reg == ptx::kNoReg) {  // `_` reads as 0
        out.imm = 0;
        return true;
      }
      out.reg = o.reg;
      out.mask = ExecContext::width_mask(ty);
      return true;
    case Operand::Kind::Imm:
      out.imm = imm_bits(o, ty);
      return true;
    case Operand::Kind::Addr:  // an absolute [symbol+imm] used as a value
      if (o.reg != ptx::kNoReg) return false;
      out.imm = static_cast<uint64_t>(o.imm) & ExecContext::width_mask(ty);
      return true;
    default:
      return false;
  }
}

// A predicate operand read by pred(): register bit 0, or an immediate's truth.
bool pred_operand(const Operand& o, FastOperand& out) {
  out.neg = o.neg;
  if (o.kind == Operand::Kind::Reg && o.reg != ptx::kNoReg) {
    out.reg = o.reg;
    return true;
  }
  if (o.kind == Operand::Kind::Imm || o.kind == Operand::Kind::Reg) {
    out.imm = (o.kind == Operand::Kind::Imm && o.imm != 0) ? 1 : 0;
    return true;
  }
  return false;
}

// Sets up the destination ops[0] written as `ty`; false unless it is a
// plain non-predicate register.
bool plain_dst(const ptx::Program& prog, const Instr& in, Type ty, FastInstr& f) {
  const Operand& d = in.ops[0];
  if (d.kind != Operand::Kind::Reg || d.reg == ptx::kNoReg) return false;
  if (prog.regs[d.reg].type == Type::Pred || ty == Type::Pred) return false;
  f.dst = d.reg;
  f.w = RegWrite::of(prog.regs[d.reg].type, ty);
  return true;
}

// Sources ops[1..n] read as `ty` (or per-operand types).
bool plain_sources(const Instr& in, std::initializer_list<Type> types, FastInstr& f) {
  int i = 0;
  for (Type ty : types) {
    if (in.nops < i + 2 || !plain_operand(in.ops[static_cast<size_t>(i + 1)], ty, f.src[i])) return false;
    ++i;
  }
  return true;
}


FastKernel decode_int(const ptx::Program& prog, const Instr& in, FastInstr& f) {
  const Type ty = in.type;
  f.bits = static_cast<uint8_t>(ptx::type_bytes(ty) * 8);
  f.sgn = ptx::type_is_signed(ty);
  const uint32_t flags = in.flags;
  switch (in.op) {
    case Op::Add: case Op::Sub:
      if (flags || !plain_dst(prog, in, ty, f) || !plain_sources(in, {ty, ty}, f)) return nullptr;
      return in.op == Op::Add ? pick2<IAdd>(f) : pick2<ISub>(f);
    case Op::Mul: case Op::Mad: {
      const bool mad = in.op == Op::Mad;
      if (flags & ~(ptx::kLo | ptx::kWide)) return nullptr;
      if (has(in, ptx::kWide)) {
        const Type dty = wide_type_of(ty);
        if (dty == Type::None || !plain_dst(prog, in, dty, f)) return nullptr;
        if (mad) return plain_sources(in, {ty, ty, dty}, f) ? pick3<IMadWide>(f) : nullptr;
        return plain_sources(in, {ty, ty}, f) ? pick2<IMulWide>(f) : nullptr;
      }
      if (!plain_dst(prog, in, ty, f)) return nullptr;
      if (mad) return plain_sources(in, {ty, ty, ty}, f) ? pick3<IMad>(f) : nullptr;
      return plain_sources(in, {ty, ty}, f) ? pick2<IMul>(f) : nullptr;
    }
    case Op::Min: case Op::Max:
      if (flags || !plain_dst(prog, in, ty, f) || !plain_sources(in, {ty, ty}, f)) return nullptr;
      return in.op == Op::Min ? pick2<IMin>(f) : pick2<IMax>(f);
    case Op::Shl: case Op::Shr:
      if (flags || !plain_dst(prog, in, ty, f) || !plain_sources(in, {ty, Type::U32}, f)) return nullptr;
      return in.op == Op::Shl ? pick2<IShl>(f) : pick2<IShr>(f);
    case Op::And: case Op::Or: case Op::Xor:
      if (flags || !plain_dst(prog, in, ty, f) || !plain_sources(in, {ty, ty}, f)) return nullptr;
      return in.op == Op::And ? pick2<IAnd>(f) : in.op == Op::Or ? pick2<IOr>(f) : pick2<IXor>(f);
    case Op::Not: case Op::Cnot:
      if (flags || !plain_dst(prog, in, ty, f) || !plain_sources(in, {ty}, f)) return nullptr;
      return in.op == Op::Not ? pick1<INot>(f) : pick1<ICnot>(f);
    case Op::Neg: case Op::Abs:
      if (flags || !f.sgn || !plain_dst(prog, in, ty, f) || !plain_sources(in, {ty}, f)) return nullptr;
      f.flag = in.op == Op::Neg;
      return pick1<INegAbs>(f);
    case Op::Popc: case Op::Clz:
      if (flags || !plain_dst(prog, in, Type::U32, f) || !plain_sources(in, {ty}, f)) return nullptr;
      return in.op == Op::Popc ? pick1<IPopc>(f) : pick1<IClz>(f);
    case Op::Brev:
      if (flags || !plain_dst(prog, in, ty, f) || !plain_sources(in, {ty}, f)) return nullptr;
      return pick1<IBrev>(f);
    default:
      return nullptr;
  }
}

template <class T>
FastKernel decode_float(const ptx::Program& prog, const Instr& in, FastInstr& f) {
  const Type ty = in.type;
  if (in.rnd != Rnd::None && in.rnd != Rnd::Rn) return nullptr;
  if (has(in, ptx::kFtz) || has(in, ptx::kSat)) return nullptr;
  if (!plain_dst(prog, in, ty, f)) return nullptr;
  const uint32_t flags = in.flags;
  switch (in.op) {
    case Op::Add: case Op::Sub: case Op::Mul:
      if (flags || !plain_sources(in, {ty, ty}, f)) return nullptr;
      return in.op == Op::Add ? pick2<FAdd<T>>(f) : in.op == Op::Sub ? pick2<FSub<T>>(f) : pick2<FMul<T>>(f);
    case Op::Div:
      // .rn, .approx and .full all divide in the host type (see exec_float.cpp).
      if ((flags & ~(ptx::kApprox | ptx::kFull)) || !plain_sources(in, {ty, ty}, f)) return nullptr;
      return pick2<FDiv<T>>(f);
    case Op::Fma: case Op::Mad:
      if (flags || !plain_sources(in, {ty, ty, ty}, f)) return nullptr;
      return pick_fma<T>(f);
    case Op::Min: case Op::Max:
      if ((flags & ~ptx::kNaN) || !plain_sources(in, {ty, ty}, f)) return nullptr;
      f.flag = has(in, ptx::kNaN);
      return in.op == Op::Min ? pick2<FMin<T>>(f) : pick2<FMax<T>>(f);
    case Op::Neg: case Op::Abs:
      if (flags || in.rnd != Rnd::None || !plain_sources(in, {ty}, f)) return nullptr;
      f.base = sizeof(T) == 4 ? 0x80000000ull : 0x8000000000000000ull;
      f.flag = in.op == Op::Neg;
      return pick1<FSign>(f);
    default:
      return nullptr;
  }
}

FastKernel decode_setp(const ptx::Program& prog, const Instr& in, FastInstr& f) {
  const Type ty = in.type;
  if (in.bop != ptx::BoolOp::None || in.flags || in.rnd != Rnd::None) return nullptr;
  const Operand& d = in.ops[0];
  if (d.kind != Operand::Kind::Reg || d.reg == ptx::kNoReg) return nullptr;
  f.dst = d.reg;
  f.w = RegWrite::of(prog.regs[d.reg].type, Type::Pred);
  if (in.pout.kind == Operand::Kind::Reg && in.pout.reg != ptx::kNoReg) {
    f.dst2 = in.pout.reg;
    f.w2 = RegWrite::of(prog.regs[in.pout.reg].type, Type::Pred);
  }
  if (!plain_sources(in, {ty, ty}, f)) return nullptr;
  f.cmp = in.cmp;
  f.bits = static_cast<uint8_t>(ptx::type_bytes(ty) * 8);
  if (ty == Type::F32) return pick_setp<FCmp<float>>(f);
  if (ty == Type::F64) return pick_setp<FCmp<double>>(f);
  if (!is_int_type(ty)) return nullptr;
  return ptx::type_is_signed(ty) ? pick_icmp<true>(f) : pick_icmp<false>(f);
}

FastKernel decode_plogic(const ptx::Program& prog, const Instr& in, FastInstr& f) {
  const Operand& d = in.ops[0];
  if (in.flags || d.kind != Operand::Kind::Reg || d.reg == ptx::kNoReg) return nullptr;
  const bool unary = in.op == Op::Not;
  if (in.nops < (unary ? 2 : 3) || !pred_operand(in.ops[1], f.src[0])) return nullptr;
  if (!unary && !pred_operand(in.ops[2], f.src[1])) return nullptr;
  f.dst = d.reg;
  f.w = RegWrite::of(prog.regs[d.reg].type, Type::Pred);
  switch (in.op) {
    case Op::And: return k_plogic<Op::And>;
    case Op::Or: return k_plogic<Op::Or>;
    case Op::Xor: return k_plogic<Op::Xor>;
    default: return k_plogic<Op::Not>;
  }
}

FastKernel decode(const ptx::Program& prog, const Instr& in, FastInstr& f) {
  const Type ty = in.type;
  switch (in.op) {
    case Op::And: case Op::Or: case Op::Xor: case Op::Not:
      if (ty == Type::Pred) return decode_plogic(prog, in, f);
      [[fallthrough]];
    case Op::Cnot: case Op::Popc: case Op::Clz: case Op::Brev:
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mad: case Op::Min: case Op::Max:
    case Op::Div: case Op::Fma: case Op::Neg: case Op::Abs:
    case Op::Shl: case Op::Shr:
      if (ty == Type::F32) return decode_float<float>(prog, in, f);
      if (ty == Type::F64) return decode_float<double>(prog, in, f);
      if (!is_int_type(ty) || in.rnd != Rnd::None) return nullptr;
      return decode_int(prog, in, f);
    case Op::Mov:
      // Scalar moves of a register, constant or special register (vectors: general).
      if (in.vec != 1 || in.flags || in.nops != 2 || !plain_dst(prog, in, ty, f)) return nullptr;
      if (in.ops[1].kind == Operand::Kind::Sreg) {
        f.sreg = in.ops[1].sreg;
        f.src[0].mask = ExecContext::width_mask(ty);
        return k_sreg;
      }
      if (!plain_sources(in, {ty}, f)) return nullptr;
      return pick1<Copy>(f);
    case Op::Cvt: {
      // Integer to integer without .sat; the float conversions keep the general handler.
      const Type sty = in.type2;
      auto cvt_int = [](Type t) { return is_int_type(t) || t == Type::U8 || t == Type::S8; };
      if (!cvt_int(ty) || !cvt_int(sty) || ptx::type_bytes(ty) == 0 || in.flags || in.rnd != Rnd::None ||
          in.nops != 2 || ty == Type::B16 || ty == Type::B32 || ty == Type::B64 || sty == Type::B16 ||
          sty == Type::B32 || sty == Type::B64)
        return nullptr;
      if (!plain_dst(prog, in, ty, f) || !plain_sources(in, {sty}, f)) return nullptr;
      f.bits = static_cast<uint8_t>(ptx::type_bytes(sty) * 8);
      f.sgn = ptx::type_is_signed(sty);
      return pick1<CvtInt>(f);
    }
    case Op::Cvta: {
      uint64_t base;
      switch (in.space) {
        case ptx::Space::Global: case ptx::Space::Const: base = 0; break;
        case ptx::Space::Shared: base = kSharedWindow; break;
        case ptx::Space::Local: base = kLocalWindow; break;
        case ptx::Space::Param: base = kParamWindow; break;
        default: return nullptr;
      }
      if (!plain_dst(prog, in, ty, f) || !plain_sources(in, {Type::U64}, f)) return nullptr;
      f.base = base;
      f.wrap = base ? kWindowSize - 1 : ~uint64_t{0};
      f.flag = has(in, ptx::kToSpace);
      return pick1<Cvta>(f);
    }
    case Op::Setp:
      return decode_setp(prog, in, f);
    case Op::Selp:
      if (in.flags || in.rnd != Rnd::None || !plain_dst(prog, in, ty, f) || !plain_sources(in, {ty, ty}, f) ||
          in.nops < 4 || !pred_operand(in.ops[3], f.src[2]))
        return nullptr;
      return pick_selp(f);
    default:
      return nullptr;
  }
}

}  // namespace

// The loop counts from 0 in 64 bits so that the AVX2 version vectorises
// (a variable shift per lane).
SIMT_LANE_LOOP uint64_t pack_predicates(const uint64_t* r, uint64_t n) {
  uint64_t g = 0;
  for (uint64_t k = 0; k < n; ++k) g |= (r[k] & 1) << k;
  return g;
}

FastProgram::FastProgram(const ptx::Program& prog) : code(prog.code.size()) {
  for (size_t pc = 0; pc < prog.code.size(); ++pc) {
    FastInstr f;
    f.run = decode(prog, prog.code[pc], f);
    if (f.run) {
      code[pc] = f;
      continue;
    }
    const Instr& in = prog.code[pc];
    if (in.op == Op::Bra && in.nops >= 1 && in.ops[0].kind == Operand::Kind::Label) {
      code[pc].branch = true;
      code[pc].target = static_cast<uint32_t>(in.ops[0].imm);
      continue;
    }
    FastInstr m;
    if (decode_fast_memory(prog, in, m)) code[pc] = m;
  }
  for (size_t pc = 0; pc < prog.code.size(); ++pc) {
    const Operand& g = prog.code[pc].guard;
    if (g.kind == Operand::Kind::None) continue;
    code[pc].guard = g.reg;
    code[pc].guard_neg = g.neg;
  }
}

}  // namespace simt::func
