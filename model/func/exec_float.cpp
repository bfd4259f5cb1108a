// Floating-point instructions on f32 and f64 (and add/sub/mul/fma/neg/abs on
// f16). Scalar rules (rounding modes, ftz, sat, NaN handling of min/max,
// conversions of f16) live in float_math.{h,cpp}.
//
// .approx functions (ex2, lg2, sin, cos, tanh, rsqrt, rcp.approx, sqrt.approx,
// div.approx) use the correctly rounded host library function, so results can
// differ from hardware in the last bits. div.approx.f32 does not reproduce the
// hardware's zero result for divisors beyond 2^126.
#include <cmath>
#include <string>
#include <type_traits>

#include "func/exec_alu.h"
#include "func/float_math.h"

namespace simt::func {

using ptx::Flag;
using ptx::Instr;
using ptx::Op;
using ptx::Rnd;
using ptx::Type;

namespace {

bool has(const Instr& in, uint32_t f) { return (in.flags & f) != 0; }
bool is_frnd(Rnd r) { return r == Rnd::Rn || r == Rnd::Rz || r == Rnd::Rm || r == Rnd::Rp; }
std::string tname(const Instr& in) { return std::string(ptx::op_name(in.op)) + "." + ptx::type_name(in.type); }

template <class T> struct FT;
template <> struct FT<float> {
  static float get(uint64_t b) { return fm::as_f32(static_cast<uint32_t>(b)); }
  static uint64_t put(float x) { return fm::canon(x); }
};
template <> struct FT<double> {
  static double get(uint64_t b) { return fm::as_f64(b); }
  static uint64_t put(double x) { return std::isnan(x) ? fm::kCanonNanF64 : fm::bits_of(x); }
};

// Runs f(a, b, c) for every thread: `nsrc` sources from ops[1..], inputs and
// result flushed when `ftz`, result clamped to [0, 1] when `sat`.
template <class T, class F>
void run(ExecContext& c, int nsrc, bool ftz, bool sat, F f) {
  const Type ty = c.in.type;
  c.mask.for_each([&](uint32_t t) {
    T v[3] = {T(0), T(0), T(0)};
    for (int i = 0; i < nsrc; ++i) {
      v[i] = FT<T>::get(c.src(i + 1, t, ty));
      if (ftz) v[i] = fm::ftz(v[i]);
    }
    T r = f(v[0], v[1], v[2]);
    if (ftz) r = fm::ftz(r);
    if (sat) r = fm::saturate(r);
    c.dst(0, t, ty, FT<T>::put(r));
  });
}

fm::FOp arith_op(Op op) {
  switch (op) {
    case Op::Add: return fm::FOp::Add;
    case Op::Sub: return fm::FOp::Sub;
    case Op::Mul: return fm::FOp::Mul;
    case Op::Div: return fm::FOp::Div;
    case Op::Sqrt: return fm::FOp::Sqrt;
    case Op::Rcp: return fm::FOp::Rcp;
    default: return fm::FOp::Fma;  // fma, mad
  }
}
int arity(Op op) {
  switch (op) {
    case Op::Mad: case Op::Fma: return 3;
    case Op::Sqrt: case Op::Rcp: case Op::Abs: case Op::Neg: return 1;
    default: return 2;
  }
}

// ---------------------------------------------------------------- f16, bf16 and their x2 pairs
// A .f16x2/.bf16x2 register holds two halves, lane 0 in bits 0-15: each
// lane is computed on its own, as the scalar type would be.
bool is_bf16(Type t) { return t == Type::BF16 || t == Type::BF16x2; }
bool is_pair(Type t) { return t == Type::F16x2 || t == Type::BF16x2; }
double half_value(uint16_t h, bool bf) { return bf ? fm::bf16_to_f32(h) : fm::f16_to_f32(h); }

void run_half(ExecContext& c) {
  const Instr& in = c.in;
  const Type ty = in.type;
  const bool bf = is_bf16(ty), ftz = has(in, ptx::kFtz), sat = has(in, ptx::kSat), nan = has(in, ptx::kNaN);
  const Op op = in.op;
  const int n = arity(op), lanes = is_pair(ty) ? 2 : 1;
  c.mask.for_each([&](uint32_t t) {
    uint64_t src[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) src[i] = c.src(i + 1, t, ty);
    uint64_t out = 0;
    for (int lane = 0; lane < lanes; ++lane) {
      uint16_t h[3];
      for (int i = 0; i < 3; ++i) {
        h[i] = static_cast<uint16_t>(src[i] >> (16 * lane));
        if (ftz) h[i] = fm::f16_ftz(h[i]);
      }
      uint16_t r;
      if (op == Op::Neg) {
        r = h[0] ^ 0x8000;
      } else if (op == Op::Abs) {
        r = h[0] & 0x7fff;
      } else if (op == Op::Min || op == Op::Max) {
        // The chosen input converts back exactly; a NaN result is the canonical 0x7fff.
        const double a = half_value(h[0], bf), b = half_value(h[1], bf);
        const double m = op == Op::Max ? fm::fmax_ptx(a, b, nan) : fm::fmin_ptx(a, b, nan);
        r = std::isnan(m) ? uint16_t{0x7fff} : bf ? fm::bf16_from(m, Rnd::Rn) : fm::f16_from(m, Rnd::Rn);
      } else {
        // Sums and products of halves are exact in double; fma can round
        // twice only when one term is far below the other's last bit, where
        // round-to-nearest gives the same half (.rn is the only mode).
        const double a = half_value(h[0], bf), b = half_value(h[1], bf), d = half_value(h[2], bf);
        double v = op == Op::Add ? a + b : op == Op::Sub ? a - b : op == Op::Mul ? a * b : std::fma(a, b, d);
        if (sat) v = fm::saturate(v);
        r = bf ? fm::bf16_from(v, Rnd::Rn) : fm::f16_from(v, Rnd::Rn);
        if (ftz) r = fm::f16_ftz(r);
      }
      out |= uint64_t{r} << (16 * lane);
    }
    c.dst(0, t, ty, out);
  });
}

// ---------------------------------------------------------------- f32 / f64
template <class T>
void run_shared(ExecContext& c) {
  const Instr& in = c.in;
  const bool ftz = has(in, ptx::kFtz), sat = has(in, ptx::kSat);
  const Op op = in.op;
  switch (op) {
    case Op::Abs: case Op::Neg: {
      const Type ty = in.type;
      const uint64_t sign = std::is_same<T, float>::value ? 0x80000000ull : 0x8000000000000000ull;
      c.mask.for_each([&](uint32_t t) {
        T a = FT<T>::get(c.src(1, t, ty));
        if (ftz) a = fm::ftz(a);
        uint64_t b = fm::bits_of(a);
        c.dst(0, t, ty, op == Op::Neg ? (b ^ sign) : (b & ~sign));
      });
      return;
    }
    case Op::Min: case Op::Max: {
      const bool nan = has(in, ptx::kNaN), mx = op == Op::Max;
      return run<T>(c, 2, ftz, false, [&](T a, T b, T) { return mx ? fm::fmax_ptx(a, b, nan) : fm::fmin_ptx(a, b, nan); });
    }
    case Op::Div:
      if (has(in, ptx::kApprox) || has(in, ptx::kFull))
        return run<T>(c, 2, ftz, false, [](T a, T b, T) { return a / b; });
      break;
    default:
      break;
  }
  const fm::FOp fop = arith_op(op);
  const Rnd r = in.rnd;
  run<T>(c, arity(op), ftz, sat, [&](T a, T b, T d) { return fm::arith(fop, a, b, d, r); });
}

// rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh
template <class T>
void run_unary(ExecContext& c) {
  const Instr& in = c.in;
  const bool ftz = has(in, ptx::kFtz), approx = has(in, ptx::kApprox);
  switch (in.op) {
    case Op::Rcp: case Op::Sqrt:
      if (approx) {
        if (in.op == Op::Rcp) return run<T>(c, 1, ftz, false, [](T a, T, T) { return T(1) / a; });
        return run<T>(c, 1, ftz, false, [](T a, T, T) { return std::sqrt(a); });
      } else {
        const fm::FOp fop = arith_op(in.op);
        const Rnd r = in.rnd;
        return run<T>(c, 1, ftz, false, [&](T a, T, T) { return fm::arith(fop, a, T(0), T(0), r); });
      }
    case Op::Rsqrt:
      // Computed in double, so the f32 result is the correctly rounded value.
      return run<T>(c, 1, ftz, false, [](T a, T, T) { return static_cast<T>(1.0 / std::sqrt(static_cast<double>(a))); });
    case Op::Ex2: return run<T>(c, 1, ftz, false, [](T a, T, T) { return std::exp2(a); });
    case Op::Lg2: return run<T>(c, 1, ftz, false, [](T a, T, T) { return std::log2(a); });
    case Op::Sin: return run<T>(c, 1, ftz, false, [](T a, T, T) { return std::sin(a); });
    case Op::Cos: return run<T>(c, 1, ftz, false, [](T a, T, T) { return std::cos(a); });
    default: return run<T>(c, 1, ftz, false, [](T a, T, T) { return std::tanh(a); });
  }
}

void h_fma(ExecContext& c) { float_shared_op(c); }

void h_unary(ExecContext& c) {
  if (c.in.type == Type::F64) run_unary<double>(c);
  else run_unary<float>(c);
}

void h_testp(ExecContext& c) {
  const Type ty = c.in.type;
  const auto cls = static_cast<ptx::TestpClass>(c.in.mode);
  c.mask.for_each([&](uint32_t t) {
    uint64_t b = c.src(1, t, ty);
    bool r = ty == Type::F64 ? fm::testp(fm::as_f64(b), cls) : fm::testp(fm::as_f32(static_cast<uint32_t>(b)), cls);
    c.dst(0, t, Type::Pred, r ? 1 : 0);
  });
}

void h_copysign(ExecContext& c) {  // d = |b| with the sign of a
  const Type ty = c.in.type;
  const uint64_t sign = ty == Type::F64 ? 0x8000000000000000ull : 0x80000000ull;
  c.mask.for_each([&](uint32_t t) {
    uint64_t a = c.src(1, t, ty), b = c.src(2, t, ty);
    c.dst(0, t, ty, (b & ~sign) | (a & sign));
  });
}

// ---------------------------------------------------------------- checks
// PTX's half-precision arithmetic: add/sub/mul/fma (.rn only; f16 also
// .ftz and .sat), neg/abs, min/max (.NaN; f16 also .ftz), on .f16, .f16x2,
// .bf16 and .bf16x2.
std::string check_half(const Instr& in) {
  const bool bf = is_bf16(in.type);
  const uint32_t ftz = bf ? 0u : uint32_t{ptx::kFtz};
  switch (in.op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Fma:
      if (in.rnd != Rnd::None && in.rnd != Rnd::Rn) return tname(in) + " supports only .rn";
      if (in.flags & ~(ftz | (bf ? 0u : uint32_t{ptx::kSat}))) return "unsupported modifier on " + tname(in);
      return "";
    case Op::Neg: case Op::Abs:
      if (in.rnd != Rnd::None || (in.flags & ~ftz)) return "unsupported modifier on " + tname(in);
      return "";
    case Op::Min: case Op::Max:
      if (in.rnd != Rnd::None || (in.flags & ~(ftz | uint32_t{ptx::kNaN})))
        return "unsupported modifier on " + tname(in);
      return "";
    default:
      return std::string(ptx::type_name(in.type)) + " '" + ptx::op_name(in.op) + "' is not supported";
  }
}

// Opcodes of the shared family plus fma (all handled by float_shared_op).
std::string check_arith(const Instr& in) {
  const Type ty = in.type;
  if (ty == Type::F16 || ty == Type::F16x2 || ty == Type::BF16 || ty == Type::BF16x2) return check_half(in);
  if (ty != Type::F32 && ty != Type::F64)
    return std::string("floating-point type .") + ptx::type_name(ty) + " is not supported in '" +
           ptx::op_name(in.op) + "'";
  const bool f32 = ty == Type::F32;
  const uint32_t ftz = f32 ? uint32_t{ptx::kFtz} : 0u;
  auto only = [&](uint32_t allowed) -> std::string {
    if (in.flags & ~allowed) return "unsupported modifier on " + tname(in);
    return "";
  };
  switch (in.op) {
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mad: case Op::Fma:
      if (in.rnd != Rnd::None && !is_frnd(in.rnd)) return "bad rounding modifier on " + tname(in);
      return only(ftz | (f32 ? uint32_t{ptx::kSat} : 0u));
    case Op::Div:
      if (has(in, ptx::kApprox) || has(in, ptx::kFull)) {
        if (!f32) return "div.approx/.full is only defined for f32";
        if (in.rnd != Rnd::None) return "div.approx/.full take no rounding modifier";
        return only(ptx::kApprox | ptx::kFull | ptx::kFtz);
      }
      if (in.rnd != Rnd::None && !is_frnd(in.rnd)) return "bad rounding modifier on " + tname(in);
      return only(ftz);
    case Op::Abs: case Op::Neg:
      if (in.rnd != Rnd::None) return "rounding modifier on " + tname(in);
      return only(ftz);
    case Op::Min: case Op::Max:
      if (has(in, ptx::kXorSign)) return ".xorsign.abs is not supported";
      if (has(in, ptx::kRelu)) return ".relu is not supported on float min/max";
      if (in.rnd != Rnd::None) return "rounding modifier on " + tname(in);
      return only(ftz | ptx::kNaN);
    default:
      return "";
  }
}

std::string check_unary(const Instr& in) {
  const Type ty = in.type;
  const bool f32 = ty == Type::F32, f64 = ty == Type::F64;
  if (!f32 && !f64) return std::string(ptx::type_name(ty)) + " '" + ptx::op_name(in.op) + "' is not supported";
  const bool approx = has(in, ptx::kApprox), ftz = has(in, ptx::kFtz);
  if (in.flags & ~(ptx::kApprox | ptx::kFtz)) return "unsupported modifier on " + tname(in);
  switch (in.op) {
    case Op::Rcp: case Op::Sqrt:
      if (approx) {
        if (in.rnd != Rnd::None) return ".approx takes no rounding modifier";
        if (f64 && (in.op == Op::Sqrt || !ftz)) return tname(in) + ".approx is only defined as rcp.approx.ftz.f64";
        return "";
      }
      if (!is_frnd(in.rnd)) return tname(in) + " needs .approx or a rounding modifier .rn/.rz/.rm/.rp";
      if (f64 && ftz) return ".ftz is not defined for " + tname(in);
      return "";
    case Op::Rsqrt:
      if (!approx || in.rnd != Rnd::None) return "rsqrt needs .approx";
      return "";
    case Op::Ex2: case Op::Lg2: case Op::Sin: case Op::Cos: case Op::Tanh:
      if (!f32) return std::string("f64 '") + ptx::op_name(in.op) + "' is not supported";
      if (!approx || in.rnd != Rnd::None) return std::string(ptx::op_name(in.op)) + " needs .approx";
      if (in.op == Op::Tanh && ftz) return "tanh has no .ftz";
      return "";
    default:
      return "";
  }
}

std::string check_testp_copysign(const Instr& in) {
  if (in.type != Type::F32 && in.type != Type::F64) return std::string(ptx::type_name(in.type)) + " '" + ptx::op_name(in.op) + "' is not supported";
  if (in.flags || in.rnd != Rnd::None) return "unsupported modifier on " + tname(in);
  return "";
}

}  // namespace

void float_shared_op(ExecContext& c) {
  switch (c.in.type) {
    case Type::F32: return run_shared<float>(c);
    case Type::F64: return run_shared<double>(c);
    default: return run_half(c);  // the check admits only the half types otherwise
  }
}

std::string check_float_shared_op(const Instr& in) { return check_arith(in); }

void register_float_ops(HandlerTable& t) {
  // add/sub/mul/mad/div/abs/neg/min/max are registered by exec_int.cpp,
  // which forwards float types to float_shared_op.
  t.add(Op::Fma, h_fma, check_arith);
  t.add(Op::Rcp, h_unary, check_unary);
  t.add(Op::Sqrt, h_unary, check_unary);
  t.add(Op::Rsqrt, h_unary, check_unary);
  t.add(Op::Ex2, h_unary, check_unary);
  t.add(Op::Lg2, h_unary, check_unary);
  t.add(Op::Sin, h_unary, check_unary);
  t.add(Op::Cos, h_unary, check_unary);
  t.add(Op::Tanh, h_unary, check_unary);
  t.add(Op::Testp, h_testp, check_testp_copysign);
  t.add(Op::Copysign, h_copysign, check_testp_copysign);
}

}  // namespace simt::func
