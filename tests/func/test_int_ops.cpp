#define BOOST_TEST_MODULE int_ops
#include <boost/test/unit_test.hpp>

#include <climits>

#include "alu_fixture.h"
#include "func/int_math.h"

using namespace simt::func;
using namespace alu_test;
using simt::ptx::Flag;

BOOST_AUTO_TEST_CASE(division_by_zero_and_overflow) {
  // Division by zero: all ones; remainder: the dividend.
  BOOST_TEST(im::div_int(7, 0, 32, false) == 0xffffffffull);
  BOOST_TEST(im::div_int(7, 0, 32, true) == 0xffffffffull);
  BOOST_TEST(im::div_int(7, 0, 64, false) == ~0ull);
  BOOST_TEST(im::rem_int(7, 0, 32, false) == 7u);
  BOOST_TEST(im::rem_int(0xfffffff9ull, 0, 32, true) == 0xfffffff9ull);
  // INT_MIN / -1 wraps to INT_MIN, remainder 0.
  BOOST_TEST(im::div_int(0x80000000u, 0xffffffffu, 32, true) == 0x80000000u);
  BOOST_TEST(im::rem_int(0x80000000u, 0xffffffffu, 32, true) == 0u);
  BOOST_TEST(im::div_int(0x8000000000000000ull, ~0ull, 64, true) == 0x8000000000000000ull);
  // Truncation toward zero for signed values.
  BOOST_TEST(im::div_int(static_cast<uint32_t>(-7), 2, 32, true) == static_cast<uint32_t>(-3));
  BOOST_TEST(im::rem_int(static_cast<uint32_t>(-7), 2, 32, true) == static_cast<uint32_t>(-1));
  BOOST_TEST(im::div_int(0xfffffff9u, 2, 32, false) == 0x7ffffffcu);
  BOOST_TEST(im::div_int(static_cast<uint16_t>(-8), 3, 16, true) == static_cast<uint16_t>(-2));
}

BOOST_AUTO_TEST_CASE(multiply_high_and_wide) {
  BOOST_TEST(im::mul_hi(0xffffffffu, 0xffffffffu, 32, false) == 0xfffffffeu);
  BOOST_TEST(im::mul_hi(0xffffffffu, 0xffffffffu, 32, true) == 0u);            // -1 * -1 = 1
  BOOST_TEST(im::mul_hi(0xffffffffu, 2, 32, true) == 0xffffffffffffffffull);   // -2: high word all ones
  BOOST_TEST(im::mul_hi(0x80000000u, 0x80000000u, 32, true) == 0x40000000u);
  BOOST_TEST(im::mul_hi(~0ull, ~0ull, 64, false) == 0xfffffffffffffffeull);
  BOOST_TEST(im::mul_hi(~0ull, 3, 64, true) == ~0ull);
  BOOST_TEST(im::mul_wide(0xffffffffu, 3, 32, true) == static_cast<uint64_t>(-3));
  BOOST_TEST(im::mul_wide(0xffffffffu, 3, 32, false) == 0x2fffffffdull);
  BOOST_TEST(im::mul_wide(0x8000, 0x8000, 16, true) == 0x40000000u);
  BOOST_TEST(im::mul24(0x00ffffff, 0x00ffffff, false, true) == 1u);            // (-1)*(-1) in 24 bits
  BOOST_TEST(im::mul24(0x00ffffff, 0x00ffffff, true, false) == 0xfffffe00u);   // bits 47..16
  BOOST_TEST(im::mul24(0x7f000002, 3, false, false) == 6u);                    // high byte ignored
}

BOOST_AUTO_TEST_CASE(saturation_and_wrap) {
  BOOST_TEST(im::add_sat_s32(0x7fffffff, 1) == 0x7fffffffu);
  BOOST_TEST(im::add_sat_s32(0x80000000u, 0xffffffffu) == 0x80000000u);
  BOOST_TEST(im::sub_sat_s32(0x80000000u, 1) == 0x80000000u);
  BOOST_TEST(im::sub_sat_s32(0x7fffffff, 0xffffffffu) == 0x7fffffffu);
  BOOST_TEST(im::sub_sat_s32(5, 7) == static_cast<uint32_t>(-2));
  // Without .sat, add wraps.
  OneInstr x({Type::S32, Type::S32, Type::S32});
  auto r = x.run(mk(Op::Add, Type::S32, {R(0), R(1), R(2)}), {0, 0x7fffffff, 1});
  BOOST_TEST(r[0] == 0x80000000u);
  r = x.run(mk(Op::Add, Type::S32, {R(0), R(1), R(2)}, simt::ptx::kSat), {0, 0x7fffffff, 1});
  BOOST_TEST(r[0] == 0x7fffffffu);
  // abs/neg wrap on INT_MIN.
  r = x.run(mk(Op::Abs, Type::S32, {R(0), R(1)}), {0, 0x80000000u});
  BOOST_TEST(r[0] == 0x80000000u);
  r = x.run(mk(Op::Neg, Type::S32, {R(0), R(1)}), {0, 0x80000000u});
  BOOST_TEST(r[0] == 0x80000000u);
  r = x.run(mk(Op::Abs, Type::S32, {R(0), R(1)}), {0, static_cast<uint32_t>(-5)});
  BOOST_TEST(r[0] == 5u);
}

BOOST_AUTO_TEST_CASE(carry_chain_128bit_add_and_sub) {
  // a = 0x00000001_ffffffff_ffffffff_ffffffff, b = 1 -> 0x00000002_00000000_00000000_00000000
  auto add = [](const uint32_t a[4], const uint32_t b[4], uint32_t d[4]) {
    unsigned cf = 0;
    d[0] = static_cast<uint32_t>(im::add_carry(a[0], b[0], 0, 32, &cf));
    for (int i = 1; i < 4; ++i) d[i] = static_cast<uint32_t>(im::add_carry(a[i], b[i], cf, 32, &cf));
    return cf;
  };
  auto sub = [](const uint32_t a[4], const uint32_t b[4], uint32_t d[4]) {
    unsigned bf = 0;
    d[0] = static_cast<uint32_t>(im::sub_borrow(a[0], b[0], 0, 32, &bf));
    for (int i = 1; i < 4; ++i) d[i] = static_cast<uint32_t>(im::sub_borrow(a[i], b[i], bf, 32, &bf));
    return bf;
  };
  const uint32_t a[4] = {0xffffffff, 0xffffffff, 0xffffffff, 1}, one[4] = {1, 0, 0, 0};
  uint32_t d[4];
  BOOST_TEST(add(a, one, d) == 0u);
  BOOST_TEST(d[0] == 0u); BOOST_TEST(d[1] == 0u); BOOST_TEST(d[2] == 0u); BOOST_TEST(d[3] == 2u);
  uint32_t e[4];
  BOOST_TEST(sub(d, one, e) == 0u);  // back to a
  for (int i = 0; i < 4; ++i) BOOST_TEST(e[i] == a[i]);
  const uint32_t zero[4] = {0, 0, 0, 0};
  BOOST_TEST(sub(zero, one, e) == 1u);  // 0 - 1 borrows out, all ones
  for (int i = 0; i < 4; ++i) BOOST_TEST(e[i] == 0xffffffffu);

  // The same chain end to end: add.cc, addc.cc, addc.cc, addc through the carry flag.
  OneInstr x({Type::U32, Type::U32, Type::U32});
  uint32_t out[4];
  for (int i = 0; i < 4; ++i) {
    Instr in = mk(i == 0 ? Op::Add : Op::Addc, Type::U32, {R(0), R(1), R(2)}, i < 3 ? uint32_t{simt::ptx::kCC} : 0u);
    x.carry_in = i == 0 ? 0 : x.carry_out;
    auto r = x.run(in, {0, a[i], one[i]});
    out[i] = static_cast<uint32_t>(r[0]);
  }
  BOOST_TEST(out[0] == 0u); BOOST_TEST(out[1] == 0u); BOOST_TEST(out[3] == 2u);
  // sub.cc / subc.cc: 2^96 - 1 across words.
  const uint32_t p[4] = {0, 0, 0, 1};
  for (int i = 0; i < 4; ++i) {
    Instr in = mk(i == 0 ? Op::Sub : Op::Subc, Type::U32, {R(0), R(1), R(2)}, simt::ptx::kCC);
    x.carry_in = i == 0 ? 0 : x.carry_out;
    auto r = x.run(in, {0, p[i], one[i]});
    out[i] = static_cast<uint32_t>(r[0]);
  }
  BOOST_TEST(out[0] == 0xffffffffu); BOOST_TEST(out[1] == 0xffffffffu);
  BOOST_TEST(out[2] == 0xffffffffu); BOOST_TEST(out[3] == 0u);
  BOOST_TEST(x.carry_out == 0u);
  // add without .cc leaves the flag alone.
  x.carry_in = 1;
  x.run(mk(Op::Add, Type::U32, {R(0), R(1), R(2)}), {0, 1, 1});
  BOOST_TEST(x.carry_out == 1u);
  // madc.hi: high word plus carry-in.
  x.carry_in = 1;
  auto r = x.run(mk(Op::Madc, Type::U32, {R(0), R(1), R(1), R(2)}, simt::ptx::kHi), {0, 0xffffffff, 5});
  BOOST_TEST(r[0] == 0xfffffffeu + 5 + 1);
}

BOOST_AUTO_TEST_CASE(shifts_past_width) {
  BOOST_TEST(im::shl(1, 31, 32) == 0x80000000u);
  BOOST_TEST(im::shl(1, 32, 32) == 0u);
  BOOST_TEST(im::shl(1, 0xffffffffu, 32) == 0u);  // amount is unsigned
  BOOST_TEST(im::shr(0x80000000u, 32, 32, false) == 0u);
  BOOST_TEST(im::shr(0x80000000u, 40, 32, true) == 0xffffffffu);
  BOOST_TEST(im::shr(0x40000000u, 40, 32, true) == 0u);
  BOOST_TEST(im::shr(0x80000000u, 4, 32, true) == 0xf8000000u);
  BOOST_TEST(im::shr(0x8000, 15, 16, true) == 0xffffu);
  BOOST_TEST(im::shl(1, 64, 64) == 0u);
  // shf: funnel shifts with wrap and clamp.
  BOOST_TEST(im::shf(0x89abcdef, 0x01234567, 8, true, false) == 0x23456789u);
  BOOST_TEST(im::shf(0x89abcdef, 0x01234567, 8, false, false) == 0x6789abcdu);
  BOOST_TEST(im::shf(0x89abcdef, 0x01234567, 40, true, false) == 0x23456789u);  // wrap: 40 & 31 = 8
  BOOST_TEST(im::shf(0x89abcdef, 0x01234567, 40, true, true) == 0x89abcdefu);   // clamp: 32 -> a
  BOOST_TEST(im::shf(0x89abcdef, 0x01234567, 40, false, true) == 0x01234567u);  // clamp: 32 -> b
  BOOST_TEST(im::shf(0x89abcdef, 0x01234567, 0, false, true) == 0x89abcdefu);
}

BOOST_AUTO_TEST_CASE(bit_field_extract_insert) {
  BOOST_TEST(im::bfe(0x12345678, 4, 8, 32, false) == 0x67u);
  BOOST_TEST(im::bfe(0x000000f0, 4, 4, 32, true) == 0xffffffffu);   // field 0xf sign-extends
  BOOST_TEST(im::bfe(0x00000070, 4, 4, 32, true) == 7u);
  BOOST_TEST(im::bfe(0xffffffff, 4, 0, 32, true) == 0u);           // len 0 -> 0
  BOOST_TEST(im::bfe(0x80000000, 40, 8, 32, true) == 0xffffffffu); // pos past msb: sign of bit 31
  BOOST_TEST(im::bfe(0x80000000, 40, 8, 32, false) == 0u);
  BOOST_TEST(im::bfe(0x80000000, 28, 8, 32, true) == 0xfffffff8u); // runs past msb: bit 31 replicated
  BOOST_TEST(im::bfe(0x80000000, 28, 8, 32, false) == 8u);
  BOOST_TEST(im::bfe(0x12345678, 0x104, 0x108, 32, false) == 0x67u);  // pos/len taken mod 256
  BOOST_TEST(im::bfe(0xf000000000000000ull, 60, 4, 64, true) == ~0ull);
  BOOST_TEST(im::bfi(0xff, 0x12345678, 8, 8, 32) == 0x1234ff78u);
  BOOST_TEST(im::bfi(0xff, 0x12345678, 28, 8, 32) == 0xf2345678u);  // stops at msb
  BOOST_TEST(im::bfi(0xff, 0x12345678, 32, 8, 32) == 0x12345678u);  // pos past msb: b
  BOOST_TEST(im::bfi(0xff, 0x12345678, 8, 0, 32) == 0x12345678u);   // len 0: b
  BOOST_TEST(im::bfi(1, 0, 63, 1, 64) == 0x8000000000000000ull);
}

BOOST_AUTO_TEST_CASE(bfind_popc_clz_brev) {
  BOOST_TEST(im::bfind(0, 32, false, false) == 0xffffffffu);
  BOOST_TEST(im::bfind(1, 32, false, false) == 0u);
  BOOST_TEST(im::bfind(0x80000000u, 32, false, false) == 31u);
  BOOST_TEST(im::bfind(0x80000000u, 32, false, true) == 0u);
  BOOST_TEST(im::bfind(1, 32, false, true) == 31u);
  BOOST_TEST(im::bfind(0xffffffffu, 32, true, false) == 0xffffffffu);  // -1: no non-sign bit
  BOOST_TEST(im::bfind(0xfffffffeu, 32, true, false) == 0u);           // -2: lowest 0 bit
  BOOST_TEST(im::bfind(0x80000000u, 32, true, false) == 30u);
  BOOST_TEST(im::bfind(0, 32, true, true) == 0xffffffffu);
  BOOST_TEST(im::bfind(1ull << 40, 64, false, false) == 40u);
  BOOST_TEST(im::popc(0xf0f0f0f0f0f0f0f0ull) == 32u);
  BOOST_TEST(im::clz(0, 32) == 32u);
  BOOST_TEST(im::clz(1, 32) == 31u);
  BOOST_TEST(im::clz(1, 64) == 63u);
  BOOST_TEST(im::brev(1, 32) == 0x80000000u);
  BOOST_TEST(im::brev(0x12345678, 32) == 0x1e6a2c48u);
  BOOST_TEST(im::fns(0xaaaaaaaa, 3, 1) == 3u);
  BOOST_TEST(im::fns(0xaaaaaaaa, 3, -1) == 3u);
  BOOST_TEST(im::fns(0xaaaaaaaa, 2, 1) == 3u);
  BOOST_TEST(im::fns(0xaaaaaaaa, 2, -1) == 1u);
  BOOST_TEST(im::fns(0xaaaaaaaa, 2, 0) == 0xffffffffu);
  BOOST_TEST(im::fns(0xaaaaaaaa, 30, 2) == 0xffffffffu);
}

BOOST_AUTO_TEST_CASE(prmt_modes) {
  const uint32_t a = 0x33221100, b = 0x77665544;
  BOOST_TEST(im::prmt(a, b, 0x3210, 0) == 0x33221100u);
  BOOST_TEST(im::prmt(a, b, 0x7654, 0) == 0x77665544u);
  BOOST_TEST(im::prmt(a, b, 0x0123, 0) == 0x00112233u);
  BOOST_TEST(im::prmt(0x00008000, b, 0x0009, 0) == 0x000000ffu);  // msb of selector: sign replicate
  BOOST_TEST(im::prmt(0x00007f00, b, 0x0009, 0) == 0x00000000u);
  BOOST_TEST(im::prmt(a, b, 1, 1) == 0x44332211u);  // f4e: 4321
  BOOST_TEST(im::prmt(a, b, 3, 1) == 0x66554433u);  // f4e: 6543
  BOOST_TEST(im::prmt(a, b, 0, 2) == 0x55667700u);  // b4e: 5670
  BOOST_TEST(im::prmt(a, b, 1, 2) == 0x66770011u);  // b4e: 6701
  BOOST_TEST(im::prmt(a, b, 2, 3) == 0x22222222u);  // rc8
  BOOST_TEST(im::prmt(a, b, 1, 4) == 0x33221111u);  // ecl: 3211
  BOOST_TEST(im::prmt(a, b, 2, 5) == 0x22221100u);  // ecr: 2210
  BOOST_TEST(im::prmt(a, b, 1, 6) == 0x33223322u);  // rc16: 3232
  BOOST_TEST(im::prmt(a, b, 0, 6) == 0x11001100u);  // rc16: 1010
}

BOOST_AUTO_TEST_CASE(lop3_bmsk_szext_dp) {
  const uint64_t a = 0xF0F0F0F0, b = 0xCCCCCCCC, c = 0xAAAAAAAA;
  BOOST_TEST(im::lop3(a, b, c, 0xF0) == a);
  BOOST_TEST(im::lop3(a, b, c, 0xCC) == b);
  BOOST_TEST(im::lop3(a, b, c, 0xAA) == c);
  BOOST_TEST((im::lop3(a, b, c, 0x80) & 0xffffffff) == (a & b & c));
  BOOST_TEST((im::lop3(a, b, c, 0x96) & 0xffffffff) == (a ^ b ^ c));
  BOOST_TEST((im::lop3(a, b, c, 0xE8) & 0xffffffff) == ((a & b) | (a & c) | (b & c)));  // majority
  BOOST_TEST((im::lop3(a, b, c, 0x00) & 0xffffffff) == 0u);
  BOOST_TEST(im::bmsk(1, 2, false) == 0x6u);
  BOOST_TEST(im::bmsk(0, 32, true) == 0xffffffffu);
  BOOST_TEST(im::bmsk(0, 32, false) == 0u);           // wrap: width 32 wraps to 0 -> empty mask
  BOOST_TEST(im::bmsk(33, 1, true) == 0u);
  BOOST_TEST(im::bmsk(30, 4, false) == 0xc0000000u);
  BOOST_TEST(im::szext(0xffffffff, 0, false, false) == 0u);
  BOOST_TEST(im::szext(0x80, 8, true, true) == 0xffffff80u);
  BOOST_TEST(im::szext(0x80, 8, false, true) == 0x80u);
  BOOST_TEST(im::szext(0x80000000u, 40, true, true) == 0x80000000u);   // clamp: unchanged
  BOOST_TEST(im::szext(0x1ff, 40, true, false) == 0xffffffffu);         // wrap: 8 bits, sign set
  BOOST_TEST(im::dp4a(0x01020304, 0x01010101, 10, false, false) == 20u);
  BOOST_TEST(im::dp4a(0xff000000, 0x02000000, 0, true, false) == static_cast<uint32_t>(-2));
  BOOST_TEST(im::dp4a(0xff000000, 0x02000000, 0, false, false) == 510u);
  BOOST_TEST(im::dp2a(0xffff0002, 0x04030201, 0, true, false, false) == 2u * 1 - 2);
  BOOST_TEST(im::dp2a(0xffff0002, 0x04030201, 0, true, false, true) == 2u * 3 - 4);
  BOOST_TEST(im::sad(3, 10, 1, 32, false) == 8u);
  BOOST_TEST(im::sad(static_cast<uint32_t>(-3), 4, 0, 32, true) == 7u);
  BOOST_TEST(im::sad(static_cast<uint32_t>(-3), 4, 0, 32, false) == 0xfffffff9u);
}

BOOST_AUTO_TEST_CASE(handlers_end_to_end) {
  OneInstr x({Type::U32, Type::U32, Type::U32, Type::U64, Type::Pred, Type::Pred, Type::Pred});
  // mul.wide.s32
  auto r = x.run(mk(Op::Mul, Type::S32, {R(3), R(1), R(2)}, simt::ptx::kWide), {0, static_cast<uint32_t>(-4), 1000000});
  BOOST_TEST(r[3] == static_cast<uint64_t>(-4000000LL));
  // mul.hi.s32 of negatives
  r = x.run(mk(Op::Mul, Type::S32, {R(0), R(1), R(2)}, simt::ptx::kHi), {0, static_cast<uint32_t>(-2), 3});
  BOOST_TEST(r[0] == 0xffffffffu);
  // mad.lo.s32 wraps
  r = x.run(mk(Op::Mad, Type::S32, {R(0), R(1), R(2), I(5)}, simt::ptx::kLo), {0, 0x10000, 0x10000});
  BOOST_TEST(r[0] == 5u);
  // mad.wide.u32 with a 64-bit addend
  r = x.run(mk(Op::Mad, Type::U32, {R(3), R(1), R(2), R(3)}, simt::ptx::kWide), {0, 0xffffffff, 2, 10, 0});
  BOOST_TEST(r[3] == 0x1fffffffeull + 10);
  // mad.hi.sat.s32 clamps
  r = x.run(mk(Op::Mad, Type::S32, {R(0), R(1), R(2), I(0x7fffffff)}, simt::ptx::kHi | simt::ptx::kSat), {0, 0x40000000, 8});
  BOOST_TEST(r[0] == 0x7fffffffu);
  // div.u32 by zero, rem.s32 by zero
  r = x.run(mk(Op::Div, Type::U32, {R(0), R(1), R(2)}), {0, 9, 0});
  BOOST_TEST(r[0] == 0xffffffffu);
  r = x.run(mk(Op::Rem, Type::S32, {R(0), R(1), R(2)}), {0, static_cast<uint32_t>(-9), 0});
  BOOST_TEST(r[0] == static_cast<uint32_t>(-9));
  // shr.s32 by 33 fills with the sign
  r = x.run(mk(Op::Shr, Type::S32, {R(0), R(1), R(2)}), {0, 0x80000000u, 33});
  BOOST_TEST(r[0] == 0xffffffffu);
  // min/max signed vs unsigned, max.relu
  r = x.run(mk(Op::Min, Type::S32, {R(0), R(1), R(2)}), {0, static_cast<uint32_t>(-1), 1});
  BOOST_TEST(r[0] == 0xffffffffu);
  r = x.run(mk(Op::Min, Type::U32, {R(0), R(1), R(2)}), {0, static_cast<uint32_t>(-1), 1});
  BOOST_TEST(r[0] == 1u);
  r = x.run(mk(Op::Max, Type::S32, {R(0), R(1), R(2)}, simt::ptx::kRelu), {0, static_cast<uint32_t>(-7), static_cast<uint32_t>(-3)});
  BOOST_TEST(r[0] == 0u);
  // lop3 with the immLut operand
  r = x.run(mk(Op::Lop3, Type::B32, {R(0), R(1), R(2), R(1), I(0x3C)}), {0, 0xff00ff00, 0x0ff00ff0});
  BOOST_TEST(r[0] == (0xff00ff00u ^ 0x0ff00ff0u));  // 0x3C = a ^ b
  // bfe.s32 / bfind.u32 / popc.b64
  r = x.run(mk(Op::Bfe, Type::S32, {R(0), R(1), I(4), I(4)}), {0, 0xf0});
  BOOST_TEST(r[0] == 0xffffffffu);
  r = x.run(mk(Op::Bfind, Type::U32, {R(0), R(1)}), {0, 0});
  BOOST_TEST(r[0] == 0xffffffffu);
  r = x.run(mk(Op::Popc, Type::B64, {R(0), R(3)}), {0, 0, 0, ~0ull});
  BOOST_TEST(r[0] == 64u);
  // prmt.b32.b4e
  Instr p = mk(Op::Prmt, Type::B32, {R(0), R(1), R(2), I(0)});
  p.mode = static_cast<uint8_t>(simt::ptx::PrmtMode::B4e);
  r = x.run(p, {0, 0x33221100, 0x77665544});
  BOOST_TEST(r[0] == 0x55667700u);
  // predicate logic: and/or/xor/not with a negated source
  r = x.run(mk(Op::And, Type::Pred, {R(6), R(4), R(5, true)}), {0, 0, 0, 0, 1, 0, 0});
  BOOST_TEST(r[6] == 1u);
  r = x.run(mk(Op::Xor, Type::Pred, {R(6), R(4), R(5)}), {0, 0, 0, 0, 1, 1, 1});
  BOOST_TEST(r[6] == 0u);
  r = x.run(mk(Op::Not, Type::Pred, {R(6), R(4)}), {0, 0, 0, 0, 0, 0, 0});
  BOOST_TEST(r[6] == 1u);
  r = x.run(mk(Op::Cnot, Type::B32, {R(0), R(1)}), {7, 0});
  BOOST_TEST(r[0] == 1u);
  r = x.run(mk(Op::Not, Type::B32, {R(0), R(1)}), {7, 0});
  BOOST_TEST(r[0] == 0xffffffffu);
  // dp4a.s32.u32
  Instr d = mk(Op::Dp4a, Type::S32, {R(0), R(1), R(2), I(-1)});
  d.type2 = Type::U32;
  r = x.run(d, {0, 0xffffffff, 0x01010101});
  BOOST_TEST(r[0] == static_cast<uint32_t>(-5));
}

BOOST_AUTO_TEST_CASE(checks_refuse_what_is_not_implemented) {
  std::string why;
  BOOST_TEST(!supported(mk(Op::Add, Type::U32, {R(0), R(1), R(2)}, simt::ptx::kSat), &why));
  BOOST_TEST(why.find("sat") != std::string::npos);
  BOOST_TEST(!supported(mk(Op::Mul, Type::U64, {R(0), R(1), R(2)}, simt::ptx::kWide), &why));
  BOOST_TEST(!supported(mk(Op::Shl, Type::S32, {R(0), R(1), R(2)}), &why));
  BOOST_TEST(!supported(mk(Op::Bmsk, Type::B32, {R(0), R(1), R(2)}), &why));  // needs a mode
  BOOST_TEST(!supported(mk(Op::Abs, Type::U32, {R(0), R(1)}), &why));
  BOOST_TEST(!supported(mk(Op::Max, Type::U32, {R(0), R(1), R(2)}, simt::ptx::kRelu), &why));
  BOOST_TEST(supported(mk(Op::Add, Type::S32, {R(0), R(1), R(2)}, simt::ptx::kSat), &why));
  BOOST_TEST(supported(mk(Op::Mad, Type::U32, {R(0), R(1), R(2), R(0)}, simt::ptx::kLo | simt::ptx::kCC), &why));
  // An unsupported instruction makes the Executor refuse the whole program.
  OneInstr x({Type::U32, Type::U32, Type::U32});
  BOOST_CHECK_THROW(x.run(mk(Op::Sad, Type::B32, {R(0), R(1), R(2), R(0)}), {}), simt::Error);
}
