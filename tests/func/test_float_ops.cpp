#define BOOST_TEST_MODULE float_ops
#include <boost/test/unit_test.hpp>

#include <cfenv>
#include <cmath>
#include <limits>

#include "alu_fixture.h"
#include "func/float_math.h"

using namespace simt::func;
using namespace alu_test;
using simt::ptx::Rnd;

namespace {
const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kSub = std::numeric_limits<float>::denorm_min() * 8;  // a subnormal
}  // namespace

BOOST_AUTO_TEST_CASE(rounding_modes_differ) {
  // 1 + 1e-7: rn rounds up to 1 + 2^-23, rz/rm stay at 1, rp goes up.
  const float a = 1.0f, b = 1e-7f;
  BOOST_TEST(fm::arith(fm::FOp::Add, a, b, 0.f, Rnd::Rn) == 1.0f + 0x1p-23f);
  BOOST_TEST(fm::arith(fm::FOp::Add, a, b, 0.f, Rnd::Rz) == 1.0f);
  BOOST_TEST(fm::arith(fm::FOp::Add, a, b, 0.f, Rnd::Rm) == 1.0f);
  BOOST_TEST(fm::arith(fm::FOp::Add, a, b, 0.f, Rnd::Rp) == 1.0f + 0x1p-23f);
  // Negative: rm goes away from zero.
  BOOST_TEST(fm::arith(fm::FOp::Add, -a, -b, 0.f, Rnd::Rm) == -(1.0f + 0x1p-23f));
  BOOST_TEST(fm::arith(fm::FOp::Add, -a, -b, 0.f, Rnd::Rz) == -1.0f);
  // The host mode is restored afterwards.
  BOOST_TEST(std::fegetround() == FE_TONEAREST);
  // 1/3 in f32: rz and rp differ by one ulp.
  float dz = fm::arith(fm::FOp::Div, 1.0f, 3.0f, 0.f, Rnd::Rz), dp = fm::arith(fm::FOp::Div, 1.0f, 3.0f, 0.f, Rnd::Rp);
  BOOST_TEST(dp == std::nextafter(dz, 2.0f));
  // mul and fma in f64
  double mz = fm::arith(fm::FOp::Mul, 1.0 / 3, 3.0, 0.0, Rnd::Rz), mp = fm::arith(fm::FOp::Mul, 1.0 / 3, 3.0, 0.0, Rnd::Rp);
  BOOST_TEST(mz < mp);
  double fz = fm::arith(fm::FOp::Fma, 1.0 / 3, 3.0, -1.0, Rnd::Rz), fn = fm::arith(fm::FOp::Fma, 1.0 / 3, 3.0, -1.0, Rnd::Rn);
  BOOST_TEST(fn == -0x1p-54);  // fma keeps the exact product's error
  BOOST_TEST(fz == fn);        // exact: rounding mode irrelevant
  float fmaz = fm::arith(fm::FOp::Fma, 1.0f, 1.0f, 1e-8f, Rnd::Rz), fmap = fm::arith(fm::FOp::Fma, 1.0f, 1.0f, 1e-8f, Rnd::Rp);
  BOOST_TEST(fmaz == 1.0f);
  BOOST_TEST(fmap == 1.0f + 0x1p-23f);
  float sz = fm::arith(fm::FOp::Sqrt, 2.0f, 0.f, 0.f, Rnd::Rz), sp = fm::arith(fm::FOp::Sqrt, 2.0f, 0.f, 0.f, Rnd::Rp);
  BOOST_TEST(sp == std::nextafter(sz, 2.0f));
}

BOOST_AUTO_TEST_CASE(min_max_nan_and_signed_zero) {
  BOOST_TEST(fm::fmin_ptx(kNan, 2.0f, false) == 2.0f);
  BOOST_TEST(fm::fmax_ptx(2.0f, kNan, false) == 2.0f);
  BOOST_TEST(std::isnan(fm::fmin_ptx(kNan, kNan, false)));
  BOOST_TEST(std::isnan(fm::fmin_ptx(kNan, 2.0f, true)));   // .NaN propagates
  BOOST_TEST(std::isnan(fm::fmax_ptx(1.0, std::nan(""), true)));
  BOOST_TEST(std::signbit(fm::fmin_ptx(0.0f, -0.0f, false)));
  BOOST_TEST(std::signbit(fm::fmin_ptx(-0.0f, 0.0f, false)));
  BOOST_TEST(!std::signbit(fm::fmax_ptx(-0.0f, 0.0f, false)));
  BOOST_TEST(!std::signbit(fm::fmax_ptx(0.0f, -0.0f, false)));
  BOOST_TEST(fm::fmin_ptx(-kInf, 1.0f, false) == -kInf);
  BOOST_TEST(fm::fmax_ptx(-3.0, -2.0, false) == -2.0);
}

BOOST_AUTO_TEST_CASE(ftz_sat_testp) {
  BOOST_TEST(fm::ftz(kSub) == 0.0f);
  BOOST_TEST(std::signbit(fm::ftz(-kSub)));
  BOOST_TEST(fm::ftz(1.0f) == 1.0f);
  BOOST_TEST(fm::saturate(1.5f) == 1.0f);
  BOOST_TEST(fm::saturate(-1.5f) == 0.0f);
  BOOST_TEST(fm::saturate(kNan) == 0.0f);
  BOOST_TEST(!std::signbit(fm::saturate(-0.0f)));
  BOOST_TEST(fm::saturate(0.25) == 0.25);
  using C = simt::ptx::TestpClass;
  BOOST_TEST(fm::testp(0.0f, C::Normal));
  BOOST_TEST(!fm::testp(kSub, C::Normal));
  BOOST_TEST(fm::testp(kSub, C::Subnormal));
  BOOST_TEST(fm::testp(kSub, C::Finite));
  BOOST_TEST(!fm::testp(kInf, C::Finite));
  BOOST_TEST(fm::testp(-kInf, C::Infinite));
  BOOST_TEST(fm::testp(kInf, C::Number));
  BOOST_TEST(!fm::testp(kNan, C::Number));
  BOOST_TEST(fm::testp(std::nan(""), C::NotANumber));
  BOOST_TEST(!fm::testp(1.0, C::Subnormal));
}

BOOST_AUTO_TEST_CASE(handlers_f32_f64) {
  OneInstr x({Type::F32, Type::F32, Type::F32, Type::F64, Type::F64, Type::Pred});
  auto f = [](float v) { return uint64_t{fbits(v)}; };
  // add.rz.f32 vs add.rn.f32 on values where they differ
  Instr in = mk(Op::Add, Type::F32, {R(0), R(1), R(2)});
  in.rnd = Rnd::Rz;
  auto r = x.run(in, {0, f(1.0f), f(1e-7f)});
  BOOST_TEST(bitsf(r[0]) == 1.0f);
  in.rnd = Rnd::Rn;
  r = x.run(in, {0, f(1.0f), f(1e-7f)});
  BOOST_TEST(bitsf(r[0]) == 1.0f + 0x1p-23f);
  // add.ftz.f32 flushes subnormal inputs and results
  in = mk(Op::Add, Type::F32, {R(0), R(1), R(2)}, simt::ptx::kFtz);
  r = x.run(in, {0, f(kSub), f(kSub)});
  BOOST_TEST(r[0] == 0u);
  in.flags = 0;
  r = x.run(in, {0, f(kSub), f(kSub)});
  BOOST_TEST(bitsf(r[0]) == 2 * kSub);
  // mul.sat.f32 clamps; NaN -> 0
  in = mk(Op::Mul, Type::F32, {R(0), R(1), R(2)}, simt::ptx::kSat);
  r = x.run(in, {0, f(3.0f), f(2.0f)});
  BOOST_TEST(bitsf(r[0]) == 1.0f);
  r = x.run(in, {0, f(kInf), f(0.0f)});
  BOOST_TEST(r[0] == 0u);
  // NaN results are NVIDIA's canonical NaN
  in.flags = 0;
  r = x.run(in, {0, f(kInf), f(0.0f)});
  BOOST_TEST(r[0] == 0x7fffffffu);
  // fma.rn.f32 with an immediate
  in = mk(Op::Fma, Type::F32, {R(0), R(1), F32(2.0f), R(2)});
  in.rnd = Rnd::Rn;
  r = x.run(in, {0, f(3.0f), f(0.5f)});
  BOOST_TEST(bitsf(r[0]) == 6.5f);
  // div.rn.f64, div.full.f32
  in = mk(Op::Div, Type::F64, {R(3), R(4), R(4)});
  in.rnd = Rnd::Rn;
  r = x.run(in, {0, 0, 0, 0, dbits(7.0)});
  BOOST_TEST(bitsd(r[3]) == 1.0);
  in = mk(Op::Div, Type::F32, {R(0), R(1), R(2)}, simt::ptx::kFull);
  r = x.run(in, {0, f(1.0f), f(4.0f)});
  BOOST_TEST(bitsf(r[0]) == 0.25f);
  // min.f32 with NaN; max.NaN.f32; neg/abs
  r = x.run(mk(Op::Min, Type::F32, {R(0), R(1), R(2)}), {0, f(kNan), f(-2.0f)});
  BOOST_TEST(bitsf(r[0]) == -2.0f);
  r = x.run(mk(Op::Max, Type::F32, {R(0), R(1), R(2)}, simt::ptx::kNaN), {0, f(kNan), f(-2.0f)});
  BOOST_TEST(r[0] == 0x7fffffffu);
  r = x.run(mk(Op::Neg, Type::F32, {R(0), R(1)}), {0, f(0.0f)});
  BOOST_TEST(r[0] == 0x80000000u);
  r = x.run(mk(Op::Abs, Type::F64, {R(3), R(4)}), {0, 0, 0, 0, dbits(-2.5)});
  BOOST_TEST(bitsd(r[3]) == 2.5);
  // rcp.rn.f32, sqrt.approx, ex2.approx, lg2.approx, rcp.approx.ftz.f64
  in = mk(Op::Rcp, Type::F32, {R(0), R(1)});
  in.rnd = Rnd::Rn;
  r = x.run(in, {0, f(4.0f)});
  BOOST_TEST(bitsf(r[0]) == 0.25f);
  r = x.run(mk(Op::Sqrt, Type::F32, {R(0), R(1)}, simt::ptx::kApprox), {0, f(9.0f)});
  BOOST_TEST(bitsf(r[0]) == 3.0f);
  r = x.run(mk(Op::Ex2, Type::F32, {R(0), R(1)}, simt::ptx::kApprox), {0, f(-3.0f)});
  BOOST_TEST(bitsf(r[0]) == 0.125f);
  r = x.run(mk(Op::Lg2, Type::F32, {R(0), R(1)}, simt::ptx::kApprox), {0, f(0.0f)});
  BOOST_TEST(bitsf(r[0]) == -kInf);
  r = x.run(mk(Op::Rcp, Type::F64, {R(3), R(4)}, simt::ptx::kApprox | simt::ptx::kFtz), {0, 0, 0, 0, dbits(8.0)});
  BOOST_TEST(bitsd(r[3]) == 0.125);
  r = x.run(mk(Op::Rsqrt, Type::F32, {R(0), R(1)}, simt::ptx::kApprox), {0, f(16.0f)});
  BOOST_TEST(bitsf(r[0]) == 0.25f);
  // copysign: |b| with the sign of a
  r = x.run(mk(Op::Copysign, Type::F32, {R(0), R(1), R(2)}), {0, f(-1.0f), f(3.0f)});
  BOOST_TEST(bitsf(r[0]) == -3.0f);
  // testp.subnormal
  Instr tp = mk(Op::Testp, Type::F32, {R(5), R(1)});
  tp.mode = static_cast<uint8_t>(simt::ptx::TestpClass::Subnormal);
  r = x.run(tp, {0, f(kSub)});
  BOOST_TEST(r[5] == 1u);
  r = x.run(tp, {0, f(0.0f)});
  BOOST_TEST(r[5] == 0u);
}

BOOST_AUTO_TEST_CASE(handlers_f16) {
  OneInstr x({Type::B16, Type::B16, Type::B16});
  // 1.0 (0x3c00) + 2^-11 (0x1000): a tie, rounds to even -> 1.0
  Instr in = mk(Op::Add, Type::F16, {R(0), R(1), R(2)});
  auto r = x.run(in, {0, 0x3c00, 0x1000});
  BOOST_TEST(r[0] == 0x3c00u);
  r = x.run(in, {0, 0x3c01, 0x1000});  // (1 + 2^-10) + 2^-11: tie -> even 1 + 2^-9
  BOOST_TEST(r[0] == 0x3c02u);
  in = mk(Op::Mul, Type::F16, {R(0), R(1), R(2)});
  r = x.run(in, {0, 0x7bff, 0x4000});  // 65504 * 2 overflows to inf
  BOOST_TEST(r[0] == 0x7c00u);
  in = mk(Op::Fma, Type::F16, {R(0), R(1), R(2), R(2)});
  in.rnd = Rnd::Rn;
  r = x.run(in, {0, 0x4000, 0x3c00});  // 2 * 1 + 1 = 3
  BOOST_TEST(r[0] == 0x4200u);
  r = x.run(mk(Op::Neg, Type::F16, {R(0), R(1)}), {0, 0x3c00});
  BOOST_TEST(r[0] == 0xbc00u);
  // ftz flushes f16 subnormals
  r = x.run(mk(Op::Add, Type::F16, {R(0), R(1), R(2)}, simt::ptx::kFtz), {0, 0x0001, 0x0001});
  BOOST_TEST(r[0] == 0u);
  r = x.run(mk(Op::Add, Type::F16, {R(0), R(1), R(2)}), {0, 0x0001, 0x0001});
  BOOST_TEST(r[0] == 2u);
}

// Packed halves: each 16-bit lane of a .f16x2/.bf16x2 register (lane 0 in
// the low bits) is computed as the scalar type would be, rounding included.
BOOST_AUTO_TEST_CASE(handlers_f16x2_and_bf16) {
  OneInstr x({Type::B32, Type::B32, Type::B32});
  // {1.0, 2.0} + {0.5, 3.0} = {1.5, 5.0}
  auto r = x.run(mk(Op::Add, Type::F16x2, {R(0), R(1), R(2)}), {0, 0x40003c00, 0x42003800});
  BOOST_TEST(r[0] == 0x45003e00u);
  // Ties round to even in each lane: (1 + 2^-10) + 2^-11 and 1 + 2^-11.
  r = x.run(mk(Op::Add, Type::F16x2, {R(0), R(1), R(2)}), {0, 0x3c003c01, 0x10001000});
  BOOST_TEST(r[0] == 0x3c003c02u);
  // Overflow stays in its lane: 65504 * 2 = inf, 1 * 2 = 2.
  r = x.run(mk(Op::Mul, Type::F16x2, {R(0), R(1), R(2)}), {0, 0x3c007bff, 0x40004000});
  BOOST_TEST(r[0] == 0x40007c00u);
  // fma: {2, 1} * {1, 1} + {1, 1} = {3, 2}
  Instr fma = mk(Op::Fma, Type::F16x2, {R(0), R(1), R(2), R(2)});
  fma.rnd = Rnd::Rn;
  r = x.run(fma, {0, 0x3c004000, 0x3c003c00});
  BOOST_TEST(r[0] == 0x40004200u);
  // .sat clamps each lane to [0, 1]: 0.75 + 0.5 -> 1.0, -1 + 0.5 -> 0.
  r = x.run(mk(Op::Add, Type::F16x2, {R(0), R(1), R(2)}, simt::ptx::kSat), {0, 0xbc003a00, 0x38003800});
  BOOST_TEST(r[0] == 0x00003c00u);
  // min: a NaN lane gives the other input, or with .NaN the canonical NaN 0x7fff.
  r = x.run(mk(Op::Min, Type::F16x2, {R(0), R(1), R(2)}), {0, 0x40007e00, 0x3c003c00});
  BOOST_TEST(r[0] == 0x3c003c00u);
  r = x.run(mk(Op::Min, Type::F16x2, {R(0), R(1), R(2)}, simt::ptx::kNaN), {0, 0x40007e00, 0x3c003c00});
  BOOST_TEST(r[0] == 0x3c007fffu);
  r = x.run(mk(Op::Max, Type::F16x2, {R(0), R(1), R(2)}), {0, 0xc0003c00, 0x3800bc00});
  BOOST_TEST(r[0] == 0x38003c00u);  // max(1, -1) = 1, max(-2, 0.5) = 0.5
  r = x.run(mk(Op::Neg, Type::F16x2, {R(0), R(1)}), {0, 0xbc003c00});
  BOOST_TEST(r[0] == 0x3c00bc00u);
  // bf16: 7 fraction bits; 1 + 2^-8 is a tie -> 1.0, (1 + 2^-7) + 2^-8 -> 1 + 2^-6.
  r = x.run(mk(Op::Add, Type::BF16, {R(0), R(1), R(2)}), {0, 0x3f80, 0x3b80});
  BOOST_TEST(r[0] == 0x3f80u);
  r = x.run(mk(Op::Add, Type::BF16, {R(0), R(1), R(2)}), {0, 0x3f81, 0x3b80});
  BOOST_TEST(r[0] == 0x3f82u);
  // bf16x2: {2, 3} * {4, 0.5} = {8, 1.5}
  r = x.run(mk(Op::Mul, Type::BF16x2, {R(0), R(1), R(2)}), {0, 0x40404000, 0x3f004080});
  BOOST_TEST(r[0] == 0x3fc04100u);
}

BOOST_AUTO_TEST_CASE(checks_refuse_unsupported_float) {
  std::string why;
  BOOST_TEST(!supported(mk(Op::Sin, Type::F16, {R(0), R(1)}, simt::ptx::kApprox), &why));
  BOOST_TEST(why.find("f16") != std::string::npos);
  BOOST_TEST(!supported(mk(Op::Div, Type::F16, {R(0), R(1), R(2)}), &why));
  BOOST_TEST(why.find("f16 'div' is not supported") != std::string::npos, why);
  BOOST_TEST(!supported(mk(Op::Add, Type::BF16, {R(0), R(1), R(2)}, simt::ptx::kFtz), &why));  // no .ftz on bf16
  BOOST_TEST(!supported(mk(Op::Add, Type::BF16x2, {R(0), R(1), R(2)}, simt::ptx::kSat), &why));
  BOOST_TEST(supported(mk(Op::Min, Type::F16x2, {R(0), R(1), R(2)}, simt::ptx::kNaN), &why));
  BOOST_TEST(!supported(mk(Op::Sin, Type::F32, {R(0), R(1)}), &why));      // needs .approx
  BOOST_TEST(!supported(mk(Op::Sqrt, Type::F64, {R(0), R(1)}, simt::ptx::kApprox), &why));
  BOOST_TEST(!supported(mk(Op::Add, Type::F64, {R(0), R(1), R(2)}, simt::ptx::kFtz), &why));
  Instr rz16 = mk(Op::Add, Type::F16, {R(0), R(1), R(2)});
  rz16.rnd = Rnd::Rz;
  BOOST_TEST(!supported(rz16, &why));
  BOOST_TEST(supported(mk(Op::Rcp, Type::F64, {R(0), R(1)}, simt::ptx::kApprox | simt::ptx::kFtz), &why));
  BOOST_TEST(supported(mk(Op::Tanh, Type::F32, {R(0), R(1)}, simt::ptx::kApprox), &why));
}
