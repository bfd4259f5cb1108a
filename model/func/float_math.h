// Pure scalar floating-point semantics of PTX: rounding modes, flush to
// zero, saturation, NaN rules of min/max, testp classes, and conversions
// between f16/bf16/f32/f64 and integers. No executor types, so each rule
// is unit-testable on its own.
//
// Directed rounding (.rz/.rm/.rp) is done by switching the host FPU's
// rounding mode for one operation (float_math.cpp keeps the compiler from
// folding or moving those operations); .rn never touches the FPU mode.
// .approx functions use the correctly rounded host library function, so a
// result can differ from hardware in the last bits.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ptx/ir.h"

namespace simt::func::fm {

using ptx::Rnd;

inline float as_f32(uint32_t b) { float f; std::memcpy(&f, &b, 4); return f; }
inline uint32_t bits_of(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }
inline double as_f64(uint64_t b) { double d; std::memcpy(&d, &b, 8); return d; }
inline uint64_t bits_of(double d) { uint64_t b; std::memcpy(&b, &d, 8); return b; }

// NVIDIA's canonical NaNs (what arithmetic producing a NaN returns).
inline constexpr uint32_t kCanonNanF32 = 0x7fffffffu;
inline constexpr uint64_t kCanonNanF64 = 0x7fffffffffffffffull;
inline constexpr uint16_t kCanonNanF16 = 0x7fffu;
inline constexpr uint16_t kCanonNanBF16 = 0x7fffu;

// Flush a subnormal to zero of the same sign (.ftz).
inline float ftz(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
inline double ftz(double x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0, x) : x;
}
// .sat: clamp to [0, 1]; NaN and -0 become +0.
template <class T>
inline T saturate(T x) {
  if (!(x > T(0))) return T(0);  // NaN, negatives, both zeros
  return x > T(1) ? T(1) : x;
}
inline uint32_t canon(float r) { return std::isnan(r) ? kCanonNanF32 : bits_of(r); }

// ---------------------------------------------------------------- arithmetic with a rounding mode
enum class FOp : uint8_t { Add, Sub, Mul, Fma, Div, Sqrt, Rcp };

// One operation rounded as `r` says (None and Rn both mean nearest-even).
float arith(FOp op, float a, float b, float c, Rnd r);
double arith(FOp op, double a, double b, double c, Rnd r);

// ---------------------------------------------------------------- min / max
// If one input is NaN the other is returned; both NaN give the canonical
// NaN; -0 is smaller than +0. `nan_prop` (.NaN) makes any NaN win.
template <class T>
inline T fmin_ptx(T a, T b, bool nan_prop) {
  bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (nan_prop || (na && nb)) return std::numeric_limits<T>::quiet_NaN();
    return na ? b : a;
  }
  if (a == 0 && b == 0) return (std::signbit(a) || std::signbit(b)) ? T(-0.0) : T(0.0);
  return a < b ? a : b;
}
template <class T>
inline T fmax_ptx(T a, T b, bool nan_prop) {
  bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (nan_prop || (na && nb)) return std::numeric_limits<T>::quiet_NaN();
    return na ? b : a;
  }
  if (a == 0 && b == 0) return (std::signbit(a) && std::signbit(b)) ? T(-0.0) : T(0.0);
  return a > b ? a : b;
}

// testp; `cls` follows ptx::TestpClass. Zeros count as normal, as PTX says.
template <class T>
inline bool testp(T x, ptx::TestpClass cls) {
  switch (cls) {
    case ptx::TestpClass::Finite: return std::isfinite(x);
    case ptx::TestpClass::Infinite: return std::isinf(x);
    case ptx::TestpClass::Number: return !std::isnan(x);
    case ptx::TestpClass::NotANumber: return std::isnan(x);
    case ptx::TestpClass::Normal: return std::isnormal(x) || x == 0;
    case ptx::TestpClass::Subnormal: return std::fpclassify(x) == FP_SUBNORMAL;
  }
  return false;
}

// ---------------------------------------------------------------- conversions
// Rounds a double to a binary format with `mant_bits` stored mantissa bits
// and exponent bias `bias` (f16: 10/15, bf16: 7/127) and returns its bits.
// NaN gives the canonical NaN 0x7fff-style pattern of that format.
uint16_t to_small_float(double x, Rnd r, unsigned mant_bits, int bias);
double from_small_float(uint16_t h, unsigned mant_bits, int bias);

inline uint16_t f16_from(double x, Rnd r) { return to_small_float(x, r, 10, 15); }
inline float f16_to_f32(uint16_t h) { return static_cast<float>(from_small_float(h, 10, 15)); }
inline uint16_t bf16_from(double x, Rnd r) { return to_small_float(x, r, 7, 127); }
inline float bf16_to_f32(uint16_t h) { return static_cast<float>(from_small_float(h, 7, 127)); }
inline bool f16_is_subnormal(uint16_t h) { return (h & 0x7c00) == 0 && (h & 0x3ff) != 0; }
inline uint16_t f16_ftz(uint16_t h) { return f16_is_subnormal(h) ? (h & 0x8000) : h; }

// Round to an integral value: Rni nearest-even, Rzi toward zero, Rmi down,
// Rpi up (also accepts Rn/Rz/Rm/Rp with the same meaning). Exact in double.
double round_integral(double x, Rnd r);

// Float -> integer of `bits` bits: rounded by `r`, out-of-range values
// clamp to the destination range, NaN gives 0 (PTX's saturating default).
// Returns the value sign-extended (signed) or zero-extended to 64 bits.
uint64_t float_to_int(double x, Rnd r, unsigned bits, bool is_signed);

// Integer (sign-extended / zero-extended to 64 bits) -> float, rounded by r.
float int_to_f32(uint64_t v, bool is_signed, Rnd r);
double int_to_f64(uint64_t v, bool is_signed, Rnd r);
// f64 -> f32 narrowing, rounded by r.
float f64_to_f32(double x, Rnd r);

}  // namespace simt::func::fm
