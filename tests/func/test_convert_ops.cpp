#define BOOST_TEST_MODULE convert_ops
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

#include "alu_fixture.h"
#include "func/float_math.h"
#include "ptx/opcode_table.h"

using namespace simt::func;
using namespace alu_test;
using simt::ptx::Rnd;

namespace {
Instr cvt(Type d, Type s, Rnd r = Rnd::None, uint32_t flags = 0) {
  Instr in = mk(Op::Cvt, d, {R(0), R(1)}, flags);
  in.type2 = s;
  in.rnd = r;
  return in;
}
const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();
}  // namespace

BOOST_AUTO_TEST_CASE(round_integral_and_float_to_int) {
  BOOST_TEST(fm::round_integral(2.5, Rnd::Rni) == 2.0);
  BOOST_TEST(fm::round_integral(3.5, Rnd::Rni) == 4.0);
  BOOST_TEST(fm::round_integral(-2.5, Rnd::Rni) == -2.0);
  BOOST_TEST(fm::round_integral(2.5, Rnd::Rzi) == 2.0);
  BOOST_TEST(fm::round_integral(-2.5, Rnd::Rzi) == -2.0);
  BOOST_TEST(fm::round_integral(-2.5, Rnd::Rmi) == -3.0);
  BOOST_TEST(fm::round_integral(2.1, Rnd::Rpi) == 3.0);
  BOOST_TEST(std::signbit(fm::round_integral(-0.4, Rnd::Rni)));
  BOOST_TEST(fm::float_to_int(kNan, Rnd::Rzi, 32, true) == 0u);
  BOOST_TEST(fm::float_to_int(kInf, Rnd::Rzi, 32, true) == 0x7fffffffu);
  BOOST_TEST(fm::float_to_int(-kInf, Rnd::Rzi, 32, true) == 0xffffffff80000000ull);
  BOOST_TEST(fm::float_to_int(1e20, Rnd::Rzi, 32, true) == 0x7fffffffu);
  BOOST_TEST(fm::float_to_int(1e20, Rnd::Rzi, 32, false) == 0xffffffffu);
  BOOST_TEST(fm::float_to_int(-1.0, Rnd::Rzi, 32, false) == 0u);
  BOOST_TEST(fm::float_to_int(1e30, Rnd::Rzi, 64, true) == 0x7fffffffffffffffull);
  BOOST_TEST(fm::float_to_int(-1e30, Rnd::Rzi, 64, true) == 0x8000000000000000ull);
  BOOST_TEST(fm::float_to_int(1e30, Rnd::Rzi, 64, false) == ~0ull);
  BOOST_TEST(fm::float_to_int(300.0, Rnd::Rzi, 8, false) == 255u);
  BOOST_TEST(fm::float_to_int(-300.0, Rnd::Rzi, 8, true) == static_cast<uint64_t>(-128));
  BOOST_TEST(fm::float_to_int(-2.5, Rnd::Rni, 32, true) == static_cast<uint64_t>(-2));
}

BOOST_AUTO_TEST_CASE(half_conversion) {
  BOOST_TEST(fm::f16_from(1.0, Rnd::Rn) == 0x3c00u);
  BOOST_TEST(fm::f16_from(-2.0, Rnd::Rn) == 0xc000u);
  BOOST_TEST(fm::f16_from(65504.0, Rnd::Rn) == 0x7bffu);
  BOOST_TEST(fm::f16_from(65519.0, Rnd::Rn) == 0x7bffu);
  BOOST_TEST(fm::f16_from(65520.0, Rnd::Rn) == 0x7c00u);      // rounds to inf
  BOOST_TEST(fm::f16_from(1e6, Rnd::Rz) == 0x7bffu);          // rz stops at max finite
  BOOST_TEST(fm::f16_from(-1e6, Rnd::Rp) == 0xfbffu);
  BOOST_TEST(fm::f16_from(-1e6, Rnd::Rm) == 0xfc00u);
  BOOST_TEST(fm::f16_from(0x1p-24, Rnd::Rn) == 0x0001u);      // smallest subnormal
  BOOST_TEST(fm::f16_from(0x1p-25, Rnd::Rn) == 0x0000u);      // tie -> even (0)
  BOOST_TEST(fm::f16_from(0x1.8p-25, Rnd::Rn) == 0x0001u);
  BOOST_TEST(fm::f16_from(0x1p-26, Rnd::Rp) == 0x0001u);
  BOOST_TEST(fm::f16_from(0x1.ffcp-15, Rnd::Rn) == 0x0400u);  // subnormal rounds up to min normal
  BOOST_TEST(fm::f16_from(1.0 + 0x1p-11, Rnd::Rn) == 0x3c00u);  // tie -> even
  BOOST_TEST(fm::f16_from(1.0 + 0x1p-11, Rnd::Rp) == 0x3c01u);
  BOOST_TEST(fm::f16_from(1.0 + 0x1.8p-11, Rnd::Rn) == 0x3c01u);
  BOOST_TEST(fm::f16_from(-0.0, Rnd::Rn) == 0x8000u);
  BOOST_TEST(fm::f16_from(kInf, Rnd::Rz) == 0x7c00u);
  BOOST_TEST(fm::f16_from(kNan, Rnd::Rn) == 0x7fffu);
  // Round trip of every finite half.
  int bad = 0;
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00) continue;
    if (fm::f16_from(fm::f16_to_f32(static_cast<uint16_t>(h)), Rnd::Rn) != h) ++bad;
  }
  BOOST_TEST(bad == 0);
  BOOST_TEST(std::isinf(fm::f16_to_f32(0x7c00)));
  BOOST_TEST(std::isnan(fm::f16_to_f32(0x7e00)));
  BOOST_TEST(fm::f16_to_f32(0x0001) == 0x1p-24f);
  // bf16
  BOOST_TEST(fm::bf16_from(1.0, Rnd::Rn) == 0x3f80u);
  BOOST_TEST(fm::bf16_from(1.0 + 0x1p-8, Rnd::Rn) == 0x3f80u);  // tie -> even
  BOOST_TEST(fm::bf16_from(1.0 + 0x1p-8, Rnd::Rz) == 0x3f80u);
  BOOST_TEST(fm::bf16_from(1.0 + 0x1.8p-8, Rnd::Rn) == 0x3f81u);
  BOOST_TEST(fm::bf16_to_f32(0x4049) == 3.140625f);
  BOOST_TEST(fm::bf16_from(3.4e38, Rnd::Rn) == 0x7f80u);
}

BOOST_AUTO_TEST_CASE(cvt_handlers) {
  OneInstr x({Type::U32, Type::U32, Type::U64, Type::B16});
  auto f = [](float v) { return uint64_t{fbits(v)}; };
  // f32 -> s32: rni vs rzi on +-2.5, NaN/inf/1e20 saturate
  auto r = x.run(cvt(Type::S32, Type::F32, Rnd::Rni), {0, f(2.5f)});
  BOOST_TEST(r[0] == 2u);
  r = x.run(cvt(Type::S32, Type::F32, Rnd::Rni), {0, f(-2.5f)});
  BOOST_TEST(r[0] == static_cast<uint32_t>(-2));
  r = x.run(cvt(Type::S32, Type::F32, Rnd::Rmi), {0, f(-2.5f)});
  BOOST_TEST(r[0] == static_cast<uint32_t>(-3));
  r = x.run(cvt(Type::S32, Type::F32, Rnd::Rpi), {0, f(2.5f)});
  BOOST_TEST(r[0] == 3u);
  r = x.run(cvt(Type::S32, Type::F32, Rnd::Rzi), {0, f(kNan)});
  BOOST_TEST(r[0] == 0u);
  r = x.run(cvt(Type::S32, Type::F32, Rnd::Rzi), {0, f(-kInf)});
  BOOST_TEST(r[0] == 0x80000000u);
  r = x.run(cvt(Type::S32, Type::F32, Rnd::Rzi), {0, f(1e20f)});
  BOOST_TEST(r[0] == 0x7fffffffu);
  r = x.run(cvt(Type::U32, Type::F32, Rnd::Rzi), {0, f(-5.0f)});
  BOOST_TEST(r[0] == 0u);
  // integer widening / narrowing / saturation
  r = x.run(cvt(Type::S64, Type::S32), {0, 0xfffffffe});
  BOOST_TEST(r[2] == 0u);  // destination is r0 (u32): low 32 bits
  BOOST_TEST(r[0] == 0xfffffffeu);
  Instr w = cvt(Type::S64, Type::S32);
  w.ops[0] = R(2);
  r = x.run(w, {0, 0xfffffffe});
  BOOST_TEST(r[2] == 0xfffffffffffffffeull);
  w = cvt(Type::U64, Type::U32);
  w.ops[0] = R(2);
  r = x.run(w, {0, 0xfffffffe});
  BOOST_TEST(r[2] == 0xfffffffeull);
  r = x.run(cvt(Type::U8, Type::U32), {0, 0x1234});
  BOOST_TEST(r[0] == 0x34u);
  r = x.run(cvt(Type::S8, Type::U32), {0, 0x80});
  BOOST_TEST(r[0] == 0xffffff80u);  // sign-extended into the wider register
  r = x.run(cvt(Type::U8, Type::S32, Rnd::None, simt::ptx::kSat), {0, static_cast<uint32_t>(-5)});
  BOOST_TEST(r[0] == 0u);
  r = x.run(cvt(Type::S8, Type::S32, Rnd::None, simt::ptx::kSat), {0, 1000});
  BOOST_TEST(r[0] == 127u);
  r = x.run(cvt(Type::S32, Type::U32, Rnd::None, simt::ptx::kSat), {0, 0x80000000u});
  BOOST_TEST(r[0] == 0x7fffffffu);
  r = x.run(cvt(Type::U32, Type::S64, Rnd::None, simt::ptx::kSat), {0, 0, 0});
  w = cvt(Type::U32, Type::S64, Rnd::None, simt::ptx::kSat);
  w.ops[1] = R(2);
  r = x.run(w, {0, 0, 0x100000000ull});
  BOOST_TEST(r[0] == 0xffffffffu);
  // int -> float with rounding modes: 2^24 + 1 is not representable in f32
  r = x.run(cvt(Type::F32, Type::U32, Rnd::Rn), {0, 16777217});
  BOOST_TEST(bitsf(r[0]) == 16777216.0f);
  r = x.run(cvt(Type::F32, Type::U32, Rnd::Rp), {0, 16777217});
  BOOST_TEST(bitsf(r[0]) == 16777218.0f);
  r = x.run(cvt(Type::F32, Type::S32, Rnd::Rm), {0, static_cast<uint32_t>(-16777217)});
  BOOST_TEST(bitsf(r[0]) == -16777218.0f);
  // f32 <-> f64 with narrowing rounding
  w = cvt(Type::F32, Type::F64, Rnd::Rz);
  w.ops[1] = R(2);
  r = x.run(w, {0, 0, dbits(1.0 + 1e-12)});
  BOOST_TEST(bitsf(r[0]) == 1.0f);
  w.rnd = Rnd::Rp;
  r = x.run(w, {0, 0, dbits(1.0 + 1e-12)});
  BOOST_TEST(bitsf(r[0]) == 1.0f + 0x1p-23f);
  // float -> same float, round to integral
  r = x.run(cvt(Type::F32, Type::F32, Rnd::Rni), {0, f(-2.5f)});
  BOOST_TEST(bitsf(r[0]) == -2.0f);
  r = x.run(cvt(Type::F32, Type::F32, Rnd::Rmi), {0, f(-2.5f)});
  BOOST_TEST(bitsf(r[0]) == -3.0f);
  // .ftz and .sat on f32 -> f32
  r = x.run(cvt(Type::F32, Type::F32, Rnd::None, simt::ptx::kFtz), {0, f(std::numeric_limits<float>::denorm_min())});
  BOOST_TEST(r[0] == 0u);
  r = x.run(cvt(Type::F32, Type::F32, Rnd::None, simt::ptx::kSat), {0, f(7.0f)});
  BOOST_TEST(bitsf(r[0]) == 1.0f);
  // f16 <-> f32
  w = cvt(Type::F16, Type::F32, Rnd::Rn);
  w.ops[0] = R(3);
  r = x.run(w, {0, f(0.1f)});
  BOOST_TEST(r[3] == 0x2e66u);
  w.rnd = Rnd::Rz;
  r = x.run(w, {0, f(0.1f)});
  BOOST_TEST(r[3] == 0x2e66u);
  w.rnd = Rnd::Rp;
  r = x.run(w, {0, f(0.1f)});
  BOOST_TEST(r[3] == 0x2e67u);
  w = cvt(Type::F32, Type::F16);
  w.ops[1] = R(3);
  r = x.run(w, {0, 0, 0, 0xc000});
  BOOST_TEST(bitsf(r[0]) == -2.0f);
  // f32 -> bf16 and back
  w = cvt(Type::BF16, Type::F32, Rnd::Rn);
  w.ops[0] = R(3);
  r = x.run(w, {0, f(3.14159f)});
  BOOST_TEST(r[3] == 0x4049u);
}

BOOST_AUTO_TEST_CASE(mov_forms) {
  OneInstr x({Type::U32, Type::U32, Type::U64, Type::B16, Type::B16, Type::Pred, Type::Pred});
  // pack {lo, hi} into 64 bits, low element first
  auto r = x.run(mk(Op::Mov, Type::B64, {R(2), V({0, 1})}), {0x11111111, 0x22222222});
  BOOST_TEST(r[2] == 0x2222222211111111ull);
  // unpack
  r = x.run(mk(Op::Mov, Type::B64, {V({0, 1}), R(2)}), {0, 0, 0xaaaaaaaabbbbbbbbull});
  BOOST_TEST(r[0] == 0xbbbbbbbbu);
  BOOST_TEST(r[1] == 0xaaaaaaaau);
  // b32 from two b16 and back
  r = x.run(mk(Op::Mov, Type::B32, {R(0), V({3, 4})}), {0, 0, 0, 0x1234, 0xabcd});
  BOOST_TEST(r[0] == 0xabcd1234u);
  r = x.run(mk(Op::Mov, Type::B32, {V({3, 4}), R(0)}), {0x5678cdef});
  BOOST_TEST(r[3] == 0xcdefu);
  BOOST_TEST(r[4] == 0x5678u);
  // immediates, 64-bit symbol addresses, predicates, special registers
  r = x.run(mk(Op::Mov, Type::U64, {R(2), I(0x700000001000ll)}), {});
  BOOST_TEST(r[2] == 0x700000001000ull);
  r = x.run(mk(Op::Mov, Type::U32, {R(0), I(-1)}), {});
  BOOST_TEST(r[0] == 0xffffffffu);
  r = x.run(mk(Op::Mov, Type::Pred, {R(6), R(5, true)}), {0, 0, 0, 0, 0, 1, 1});
  BOOST_TEST(r[6] == 0u);
  Operand s;
  s.kind = Operand::Kind::Sreg;
  s.sreg = simt::ptx::Sreg::NtidX;
  r = x.run(mk(Op::Mov, Type::U32, {R(0), s}), {});
  BOOST_TEST(r[0] == 1u);
}

BOOST_AUTO_TEST_CASE(checks_refuse_unsupported_cvt_mov) {
  std::string why;
  BOOST_TEST(!supported(cvt(Type::S32, Type::F32), &why));  // needs .rzi etc.
  BOOST_TEST(why.find("rounding") != std::string::npos);
  BOOST_TEST(!supported(cvt(Type::F32, Type::F64, Rnd::Rni), &why));
  BOOST_TEST(!supported(cvt(Type::S32, Type::S32, Rnd::Rn), &why));
  BOOST_TEST(!supported(cvt(Type::F16x2, Type::F32, Rnd::Rn), &why));  // needs two sources
  BOOST_TEST(why.find("d, a, b") != std::string::npos, why);
  Instr pack = mk(Op::Cvt, Type::F16x2, {R(0), R(1), R(2)});
  pack.type2 = Type::F32;
  BOOST_TEST(!supported(pack, &why));  // needs .rn
  pack.rnd = Rnd::Rn;
  BOOST_TEST(supported(pack, &why), why);
  BOOST_TEST(supported(cvt(Type::F64, Type::F32), &why));
  BOOST_TEST(!supported(mk(Op::Mov, Type::B128, {R(0), R(1)}), &why));
}

// cvt.rn.f16x2.f32 d, a, b packs a into the upper half and b into the lower,
// each rounded to nearest even (bf16x2 alike).
BOOST_AUTO_TEST_CASE(cvt_packs_two_floats_into_a_half_pair) {
  OneInstr x({Type::B32, Type::F32, Type::F32});
  auto f = [](float v) { return uint64_t{fbits(v)}; };
  Instr pack = mk(Op::Cvt, Type::F16x2, {R(0), R(1), R(2)});
  pack.type2 = Type::F32;
  pack.rnd = Rnd::Rn;
  auto r = x.run(pack, {0, f(1.0f), f(-2.0f)});
  BOOST_TEST(r[0] == 0x3c00c000u);
  r = x.run(pack, {0, f(1.0f + 1.0f / 2048), f(70000.0f)});  // a tie to even; past 65504: inf
  BOOST_TEST(r[0] == 0x3c007c00u);
  pack.type = Type::BF16x2;
  r = x.run(pack, {0, f(3.0f), f(0.5f)});
  BOOST_TEST(r[0] == 0x40403f00u);
}

// cvt.rna.tf32.f32 (wmma::__float_to_tf32): 10 mantissa bits kept in a .b32,
// the low 13 bits cleared. .rna: ties away from zero; .rn: ties to even; .rz:
// truncate. NaN -> 0x7fffe000; .satfinite keeps an overflow finite.
BOOST_AUTO_TEST_CASE(cvt_to_tf32) {
  OneInstr x({Type::B32, Type::F32});
  Instr rna = cvt(Type::B32, Type::F32, Rnd::Rna, simt::ptx::kTf32);
  auto run = [&](const Instr& in, uint32_t bits) { return static_cast<uint32_t>(x.run(in, {0, bits})[0]); };
  BOOST_TEST(run(rna, 0x3f800fffu) == 0x3f800000u);  // below half: down
  BOOST_TEST(run(rna, 0x3f801000u) == 0x3f802000u);  // a tie: away from zero
  BOOST_TEST(run(rna, 0xbf801000u) == 0xbf802000u);  // ... for negatives too
  BOOST_TEST(run(rna, 0x3f803000u) == 0x3f804000u);
  BOOST_TEST(run(rna, 0x40490fdbu) == 0x40490000u);  // pi
  BOOST_TEST(run(rna, 0x7f7fffffu) == 0x7f800000u);  // FLT_MAX rounds up to inf
  BOOST_TEST(run(rna, fbits(kInf)) == 0x7f800000u);
  BOOST_TEST(run(rna, fbits(kNan)) == 0x7fffe000u);
  BOOST_TEST(run(rna, 0x7f800001u) == 0x7fffe000u);  // a NaN whose payload is all in the dropped bits
  Instr rn = cvt(Type::B32, Type::F32, Rnd::Rn, simt::ptx::kTf32);
  BOOST_TEST(run(rn, 0x3f801000u) == 0x3f800000u);  // a tie to even (mantissa bit 13 clear)
  BOOST_TEST(run(rn, 0x3f803000u) == 0x3f804000u);  // a tie to even (bit 13 set)
  Instr rz = cvt(Type::B32, Type::F32, Rnd::Rz, simt::ptx::kTf32);
  BOOST_TEST(run(rz, 0x3f801fffu) == 0x3f800000u);
  Instr sat = cvt(Type::B32, Type::F32, Rnd::Rna, simt::ptx::kTf32 | simt::ptx::kSatFinite);
  BOOST_TEST(run(sat, 0x7f7fffffu) == 0x7f7fe000u);
  BOOST_TEST(run(sat, 0xff7fffffu) == 0xff7fe000u);
  std::string why;
  BOOST_TEST(!supported(cvt(Type::B32, Type::F32, Rnd::Rm, simt::ptx::kTf32), &why));
  BOOST_TEST(why.find(".rna, .rn or .rz") != std::string::npos, why);
  BOOST_TEST(!supported(cvt(Type::B32, Type::F64, Rnd::Rna, simt::ptx::kTf32), &why));
  BOOST_TEST(!supported(cvt(Type::F16, Type::F32, Rnd::Rn, simt::ptx::kSatFinite), &why));
  // The parser's side: .tf32 is a .b32 destination with the kTf32 flag.
  Instr d;
  BOOST_REQUIRE(simt::ptx::decode_mnemonic("cvt.rna.satfinite.tf32.f32", d));
  BOOST_TEST((d.type == Type::B32 && d.type2 == Type::F32 && d.rnd == Rnd::Rna));
  BOOST_TEST((d.flags == (simt::ptx::kTf32 | simt::ptx::kSatFinite)));
}
