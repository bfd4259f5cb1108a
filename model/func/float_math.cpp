// Directed-rounding arithmetic and conversions (see float_math.h).
//
// GCC has no working `#pragma STDC FENV_ACCESS`, so every operation done
// under a non-default rounding mode reads its inputs through volatiles after
// fesetround and stores its result to a volatile before the mode is restored:
// the compiler can neither constant-fold it nor move it across the mode
// switch. test_float_ops checks .rz/.rm/.rp really differ from .rn.
#include "func/float_math.h"

#include <cfenv>
#include <cmath>

#ifdef __clang__
#pragma STDC FENV_ACCESS ON
#endif

namespace simt::func::fm {
namespace {

int host_mode(Rnd r) {
  switch (r) {
    case Rnd::Rz: case Rnd::Rzi: return FE_TOWARDZERO;
    case Rnd::Rm: case Rnd::Rmi: return FE_DOWNWARD;
    case Rnd::Rp: case Rnd::Rpi: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}
bool is_nearest(Rnd r) { return host_mode(r) == FE_TONEAREST; }

// Sets the host rounding mode for its lifetime.
class RoundingScope {
 public:
  explicit RoundingScope(Rnd r) : old_(std::fegetround()) { std::fesetround(host_mode(r)); }
  ~RoundingScope() { std::fesetround(old_); }
  RoundingScope(const RoundingScope&) = delete;
  RoundingScope& operator=(const RoundingScope&) = delete;

 private:
  int old_;
};

template <class T>
T compute(FOp op, T a, T b, T c) {
  switch (op) {
    case FOp::Add: return a + b;
    case FOp::Sub: return a - b;
    case FOp::Mul: return a * b;
    case FOp::Fma: return std::fma(a, b, c);
    case FOp::Div: return a / b;
    case FOp::Sqrt: return std::sqrt(a);
    case FOp::Rcp: return T(1) / a;
  }
  return a;
}

template <class T>
T arith_impl(FOp op, T a, T b, T c, Rnd r) {
  if (is_nearest(r)) return compute(op, a, b, c);
  RoundingScope scope(r);
  volatile T va = a, vb = b, vc = c;
  volatile T res = compute<T>(op, va, vb, vc);
  return res;
}

// Rounds a non-negative finite double to an integer by the mode, where
// `negative` says the original value was negative (for Rm/Rp).
double round_magnitude(double m, Rnd r, bool negative) {
  double fl = std::floor(m);
  double frac = m - fl;
  if (frac == 0) return m;
  switch (host_mode(r)) {
    case FE_TOWARDZERO: return fl;
    case FE_DOWNWARD: return negative ? fl + 1 : fl;
    case FE_UPWARD: return negative ? fl : fl + 1;
    default:
      if (frac > 0.5) return fl + 1;
      if (frac < 0.5) return fl;
      return std::fmod(fl, 2.0) == 0 ? fl : fl + 1;  // tie: to even
  }
}

}  // namespace

float arith(FOp op, float a, float b, float c, Rnd r) { return arith_impl<float>(op, a, b, c, r); }
double arith(FOp op, double a, double b, double c, Rnd r) { return arith_impl<double>(op, a, b, c, r); }

uint16_t to_small_float(double x, Rnd r, unsigned mant_bits, int bias) {
  const uint16_t exp_mask = static_cast<uint16_t>(((1u << (15 - mant_bits)) - 1) << mant_bits);
  if (std::isnan(x)) return 0x7fff;
  const bool neg = std::signbit(x);
  const uint16_t sign = neg ? 0x8000 : 0;
  if (std::isinf(x)) return sign | exp_mask;
  double a = std::fabs(x);
  if (a == 0) return sign;
  const uint16_t max_finite = static_cast<uint16_t>(exp_mask - 1);
  auto overflow = [&]() -> uint16_t {
    // Rounding toward zero (or away from the overflow direction) stops at
    // the largest finite value; the other modes reach infinity.
    int m = host_mode(r);
    bool to_max = m == FE_TOWARDZERO || (m == FE_DOWNWARD && !neg) || (m == FE_UPWARD && neg);
    return sign | (to_max ? max_finite : exp_mask);
  };
  int e2 = 0;
  std::frexp(a, &e2);
  int e = e2 - 1;                 // a = 1.xxx * 2^e
  const int emin = 1 - bias;      // smallest normal exponent
  if (e > bias) return overflow();
  const int qexp = (e < emin ? emin : e) - static_cast<int>(mant_bits);
  double m = std::ldexp(a, -qexp);  // significand in units of the quantum (exact)
  double rm = round_magnitude(m, r, neg);
  // rm * 2^qexp re-encodes directly: a carry into the next binade or from
  // subnormal into normal lands on the right exponent field.
  uint32_t bits;
  if (e < emin) {
    bits = static_cast<uint32_t>(rm);
  } else {
    bits = (static_cast<uint32_t>(e + bias) << mant_bits) +
           (static_cast<uint32_t>(rm) - (1u << mant_bits));
  }
  if (bits >= exp_mask) return overflow();
  return static_cast<uint16_t>(sign | bits);
}

double from_small_float(uint16_t h, unsigned mant_bits, int bias) {
  const unsigned exp_bits = 15 - mant_bits;
  const uint32_t emax_field = (1u << exp_bits) - 1;
  uint32_t field = (h >> mant_bits) & emax_field;
  uint32_t mant = h & ((1u << mant_bits) - 1);
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (field == emax_field)
    return mant ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
  if (field == 0) return sign * std::ldexp(static_cast<double>(mant), 1 - bias - static_cast<int>(mant_bits));
  return sign * std::ldexp(static_cast<double>(mant | (1u << mant_bits)),
                           static_cast<int>(field) - bias - static_cast<int>(mant_bits));
}

double round_integral(double x, Rnd r) {
  if (!std::isfinite(x)) return x;
  double m = round_magnitude(std::fabs(x), r, std::signbit(x));
  return std::copysign(m, x);
}

uint64_t float_to_int(double x, Rnd r, unsigned bits, bool is_signed) {
  if (std::isnan(x)) return 0;
  double v = round_integral(x, r);
  if (is_signed) {
    const double hi = std::ldexp(1.0, static_cast<int>(bits) - 1);  // 2^(n-1)
    if (v >= hi) return static_cast<uint64_t>(static_cast<int64_t>((uint64_t{1} << (bits - 1)) - 1));
    if (v < -hi) return ~uint64_t{0} << (bits - 1);  // INT_MIN of the width, sign-extended
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
  const double hi = std::ldexp(1.0, static_cast<int>(bits));  // 2^n
  if (v <= 0) return 0;
  if (v >= hi) return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return static_cast<uint64_t>(v);
}

float int_to_f32(uint64_t v, bool is_signed, Rnd r) {
  if (is_nearest(r))
    return is_signed ? static_cast<float>(static_cast<int64_t>(v)) : static_cast<float>(v);
  RoundingScope scope(r);
  volatile uint64_t vv = v;
  volatile float res = is_signed ? static_cast<float>(static_cast<int64_t>(vv)) : static_cast<float>(vv);
  return res;
}

double int_to_f64(uint64_t v, bool is_signed, Rnd r) {
  if (is_nearest(r))
    return is_signed ? static_cast<double>(static_cast<int64_t>(v)) : static_cast<double>(v);
  RoundingScope scope(r);
  volatile uint64_t vv = v;
  volatile double res = is_signed ? static_cast<double>(static_cast<int64_t>(vv)) : static_cast<double>(vv);
  return res;
}

float f64_to_f32(double x, Rnd r) {
  if (is_nearest(r)) return static_cast<float>(x);
  RoundingScope scope(r);
  volatile double vx = x;
  volatile float res = static_cast<float>(vx);
  return res;
}

}  // namespace simt::func::fm
