#define BOOST_TEST_MODULE compare_ops
#include <boost/test/unit_test.hpp>

#include <limits>

#include "alu_fixture.h"

using namespace simt::func;
using namespace alu_test;
using simt::ptx::BoolOp;
using simt::ptx::CmpOp;

namespace {
Instr setp(CmpOp op, Type ty, BoolOp bop = BoolOp::None) {
  // p(r4) | q(r5) = a(r0) op b(r1) [bop c(r6)]
  Instr in = mk(Op::Setp, ty, {R(4), R(0), R(1)});
  in.cmp = op;
  in.bop = bop;
  if (bop != BoolOp::None) { in.ops[3] = R(6); in.nops = 4; }
  in.pout = R(5);
  return in;
}
const std::vector<Type> kRegs = {Type::B32, Type::B32, Type::F64, Type::F64, Type::Pred, Type::Pred, Type::Pred};
}  // namespace

BOOST_AUTO_TEST_CASE(float_compares_with_nan) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  struct Row { CmpOp op; bool lt, eq, gt, unord; };  // result for a<b, a==b, a>b, NaN operand
  const Row rows[] = {
      {CmpOp::Eq, false, true, false, false},  {CmpOp::Ne, true, false, true, false},
      {CmpOp::Lt, true, false, false, false},  {CmpOp::Le, true, true, false, false},
      {CmpOp::Gt, false, false, true, false},  {CmpOp::Ge, false, true, true, false},
      {CmpOp::Equ, false, true, false, true},  {CmpOp::Neu, true, false, true, true},
      {CmpOp::Ltu, true, false, false, true},  {CmpOp::Leu, true, true, false, true},
      {CmpOp::Gtu, false, false, true, true},  {CmpOp::Geu, false, true, true, true},
      {CmpOp::Num, true, true, true, false},   {CmpOp::Nan, false, false, false, true},
  };
  OneInstr x(kRegs);
  for (const Row& row : rows) {
    const Instr in = setp(row.op, Type::F32);
    auto check = [&](float a, float b, bool want) {
      auto r = x.run(in, {fbits(a), fbits(b)});
      BOOST_TEST(r[4] == (want ? 1u : 0u), "cmp " << int(row.op) << " a=" << a << " b=" << b);
      BOOST_TEST(r[5] == (want ? 0u : 1u));  // q is the complement
    };
    check(1.0f, 2.0f, row.lt);
    check(2.0f, 2.0f, row.eq);
    check(-0.0f, 0.0f, row.eq);  // -0 == +0
    check(3.0f, 2.0f, row.gt);
    check(nan, 2.0f, row.unord);
    check(2.0f, nan, row.unord);
    // f64 through the same table
    Instr d = setp(row.op, Type::F64);
    d.ops[1] = R(2);
    d.ops[2] = R(3);
    auto r = x.run(d, {0, 0, dbits(1.0), dbits(std::numeric_limits<double>::quiet_NaN())});
    BOOST_TEST(r[4] == (row.unord ? 1u : 0u));
  }
}

BOOST_AUTO_TEST_CASE(integer_compares) {
  OneInstr x(kRegs);
  const uint64_t m1 = 0xffffffffu;  // -1 as s32, max as u32
  auto p = [&](CmpOp op, Type ty, uint64_t a, uint64_t b) { return x.run(setp(op, ty), {a, b})[4]; };
  BOOST_TEST(p(CmpOp::Lt, Type::S32, m1, 1) == 1u);
  BOOST_TEST(p(CmpOp::Lt, Type::U32, m1, 1) == 0u);
  BOOST_TEST(p(CmpOp::Lo, Type::S32, m1, 1) == 0u);  // lo is unsigned even on s32
  BOOST_TEST(p(CmpOp::Hi, Type::U32, m1, 1) == 1u);
  BOOST_TEST(p(CmpOp::Ls, Type::U32, 5, 5) == 1u);
  BOOST_TEST(p(CmpOp::Hs, Type::U32, 4, 5) == 0u);
  BOOST_TEST(p(CmpOp::Ge, Type::S32, 0x80000000u, 0x7fffffffu) == 0u);
  BOOST_TEST(p(CmpOp::Gt, Type::S16, 0x8000, 1) == 0u);
  BOOST_TEST(p(CmpOp::Gt, Type::U16, 0x8000, 1) == 1u);
  BOOST_TEST(p(CmpOp::Eq, Type::B32, 7, 7) == 1u);
  BOOST_TEST(p(CmpOp::Ne, Type::B32, 7, 7) == 0u);
  std::string why;
  BOOST_TEST(!supported(setp(CmpOp::Lt, Type::B32), &why));
  BOOST_TEST(!supported(setp(CmpOp::Lo, Type::F32), &why));
  BOOST_TEST(!supported(setp(CmpOp::Ltu, Type::S32), &why));
}

BOOST_AUTO_TEST_CASE(boolean_combine) {
  OneInstr x(kRegs);
  // setp.lt.and: p = (a<b) & c, q = !(a<b) & c
  auto r = x.run(setp(CmpOp::Lt, Type::S32, BoolOp::And), {1, 2, 0, 0, 0, 0, 1});
  BOOST_TEST(r[4] == 1u); BOOST_TEST(r[5] == 0u);
  r = x.run(setp(CmpOp::Lt, Type::S32, BoolOp::And), {1, 2, 0, 0, 0, 0, 0});
  BOOST_TEST(r[4] == 0u); BOOST_TEST(r[5] == 0u);
  r = x.run(setp(CmpOp::Lt, Type::S32, BoolOp::Or), {3, 2, 0, 0, 0, 0, 1});
  BOOST_TEST(r[4] == 1u); BOOST_TEST(r[5] == 1u);
  r = x.run(setp(CmpOp::Lt, Type::S32, BoolOp::Xor), {1, 2, 0, 0, 0, 0, 1});
  BOOST_TEST(r[4] == 0u); BOOST_TEST(r[5] == 1u);
  // !c
  Instr n = setp(CmpOp::Lt, Type::S32, BoolOp::And);
  n.ops[3] = R(6, true);
  r = x.run(n, {1, 2, 0, 0, 0, 0, 0});
  BOOST_TEST(r[4] == 1u);
  // setp.ftz.f32 treats subnormals as zero
  Instr f = setp(CmpOp::Eq, Type::F32);
  f.flags = simt::ptx::kFtz;
  r = x.run(f, {fbits(std::numeric_limits<float>::denorm_min()), fbits(0.0f)});
  BOOST_TEST(r[4] == 1u);
  f.flags = 0;
  r = x.run(f, {fbits(std::numeric_limits<float>::denorm_min()), fbits(0.0f)});
  BOOST_TEST(r[4] == 0u);
}

BOOST_AUTO_TEST_CASE(selp_slct_set) {
  OneInstr x(kRegs);
  auto r = x.run(mk(Op::Selp, Type::B32, {R(0), I(10), I(20), R(6)}), {0, 0, 0, 0, 0, 0, 1});
  BOOST_TEST(r[0] == 10u);
  r = x.run(mk(Op::Selp, Type::B32, {R(0), I(10), I(20), R(6)}), {0, 0, 0, 0, 0, 0, 0});
  BOOST_TEST(r[0] == 20u);
  r = x.run(mk(Op::Selp, Type::F64, {R(2), R(3), I(0), R(6, true)}), {0, 0, 0, dbits(1.5), 0, 0, 0});
  BOOST_TEST(bitsd(r[2]) == 1.5);
  // slct.b32.s32: c >= 0 picks a
  Instr s = mk(Op::Slct, Type::B32, {R(0), I(1), I(2), R(1)});
  s.type2 = Type::S32;
  r = x.run(s, {0, 0});
  BOOST_TEST(r[0] == 1u);
  r = x.run(s, {0, 0xffffffffu});
  BOOST_TEST(r[0] == 2u);
  s.type2 = Type::F32;
  r = x.run(s, {0, fbits(-0.0f)});
  BOOST_TEST(r[0] == 1u);
  r = x.run(s, {0, fbits(-1.0f)});
  BOOST_TEST(r[0] == 2u);
  s.flags = simt::ptx::kFtz;  // -subnormal flushes to -0 -> a
  r = x.run(s, {0, fbits(-std::numeric_limits<float>::denorm_min())});
  BOOST_TEST(r[0] == 1u);
  // set.lt.u32.f32 -> all ones; set.lt.f32.s32 -> 1.0f; combine with c.
  // As decoded by the parser: `type` = comparison type, `type2` = destination.
  Instr t = mk(Op::Set, Type::F32, {R(0), R(0), R(1)});
  t.type2 = Type::U32;
  t.cmp = CmpOp::Lt;
  r = x.run(t, {fbits(1.0f), fbits(2.0f)});
  BOOST_TEST(r[0] == 0xffffffffu);
  r = x.run(t, {fbits(3.0f), fbits(2.0f)});
  BOOST_TEST(r[0] == 0u);
  t.type = Type::S32;
  t.type2 = Type::F32;
  r = x.run(t, {static_cast<uint32_t>(-3), 2});
  BOOST_TEST(r[0] == fbits(1.0f));
  t.bop = BoolOp::And;
  t.ops[3] = R(6);
  t.nops = 4;
  r = x.run(t, {static_cast<uint32_t>(-3), 2, 0, 0, 0, 0, 0});
  BOOST_TEST(r[0] == 0u);
}

// bf16 compares widen exactly, as f16 ones do; selp moves the raw halves.
BOOST_AUTO_TEST_CASE(bf16_compare_and_select) {
  OneInstr x({Type::B16, Type::B16, Type::B16, Type::B16, Type::Pred, Type::Pred, Type::Pred});
  // 1.0 (0x3f80) < 1.0078125 (0x3f81); -0 == +0; NaN (0x7fc0) is unordered
  auto r = x.run(setp(CmpOp::Lt, Type::BF16), {0x3f80, 0x3f81});
  BOOST_TEST(r[4] == 1u);
  r = x.run(setp(CmpOp::Eq, Type::BF16), {0x8000, 0x0000});
  BOOST_TEST(r[4] == 1u);
  r = x.run(setp(CmpOp::Equ, Type::BF16), {0x7fc0, 0x3f80});
  BOOST_TEST(r[4] == 1u);
  r = x.run(setp(CmpOp::Eq, Type::BF16), {0x7fc0, 0x7fc0});
  BOOST_TEST(r[4] == 0u);
  std::string why;
  BOOST_TEST(!supported(setp(CmpOp::Lo, Type::BF16), &why));  // an integer operator
  BOOST_TEST(!supported(setp(CmpOp::Lo, Type::BF16x2), &why));  // packed: float operators only
  Instr sel = mk(Op::Selp, Type::BF16, {R(2), R(0), R(1), R(4)});
  r = x.run(sel, {0x3f80, 0x4000, 0, 0, 1});
  BOOST_TEST(r[2] == 0x3f80u);
}

// Packed halves compare lane by lane: setp's p is the low half's result and q
// the high half's (not its complement); set writes 1.0 or 0xffff per half.
BOOST_AUTO_TEST_CASE(packed_half_compares) {
  OneInstr x({Type::B32, Type::B32, Type::B32, Type::B32, Type::Pred, Type::Pred, Type::Pred});
  auto pack = [](uint32_t lo, uint32_t hi) { return lo | hi << 16; };
  const uint32_t one = 0x3c00, two = 0x4000, three = 0x4200, nan = 0x7e00;
  // (1, 3) < (2, 2): low true, high false.
  auto r = x.run(setp(CmpOp::Lt, Type::F16x2), {pack(one, three), pack(two, two)});
  BOOST_TEST(r[4] == 1u);
  BOOST_TEST(r[5] == 0u);
  r = x.run(setp(CmpOp::Gt, Type::F16x2), {pack(one, three), pack(two, two)});
  BOOST_TEST(r[4] == 0u);
  BOOST_TEST(r[5] == 1u);
  // NaN in the high half: ordered false, unordered true, the low half unaffected.
  r = x.run(setp(CmpOp::Lt, Type::F16x2), {pack(one, nan), pack(two, two)});
  BOOST_TEST((r[4] == 1u && r[5] == 0u));
  r = x.run(setp(CmpOp::Ltu, Type::F16x2), {pack(one, nan), pack(two, two)});
  BOOST_TEST((r[4] == 1u && r[5] == 1u));
  // A boolean operator combines each half with c.
  r = x.run(setp(CmpOp::Lt, Type::F16x2, BoolOp::Or), {pack(three, three), pack(two, two), 0, 0, 0, 0, 1});
  BOOST_TEST((r[4] == 1u && r[5] == 1u));
  r = x.run(setp(CmpOp::Lt, Type::F16x2, BoolOp::And), {pack(one, one), pack(two, two), 0, 0, 0, 0, 0});
  BOOST_TEST((r[4] == 0u && r[5] == 0u));
  // bf16x2: (1.0, -1.0) > (0, 0).
  r = x.run(setp(CmpOp::Gt, Type::BF16x2), {pack(0x3f80, 0xbf80), 0});
  BOOST_TEST((r[4] == 1u && r[5] == 0u));
  // .ftz flushes f16 subnormals (0x0001) before comparing.
  Instr z = setp(CmpOp::Eq, Type::F16x2);
  z.flags = simt::ptx::kFtz;
  r = x.run(z, {pack(0x0001, 0x8001), 0});
  BOOST_TEST((r[4] == 1u && r[5] == 1u));
  z.flags = 0;
  r = x.run(z, {pack(0x0001, 0x8001), 0});
  BOOST_TEST((r[4] == 0u && r[5] == 0u));

  // set.gt.f16x2.f16x2: 1.0 (0x3c00) in each half that holds; .u32 gives 0xffff.
  Instr t = mk(Op::Set, Type::F16x2, {R(2), R(0), R(1)});
  t.type2 = Type::F16x2;
  t.cmp = CmpOp::Gt;
  r = x.run(t, {pack(one, three), pack(two, two)});
  BOOST_TEST(r[2] == 0x3c000000u);
  t.type2 = Type::U32;
  r = x.run(t, {pack(three, three), pack(two, two)});
  BOOST_TEST(r[2] == 0xffffffffu);
  t.type = t.type2 = Type::BF16x2;
  r = x.run(t, {pack(0x3f80, 0), pack(0, 0)});
  BOOST_TEST(r[2] == 0x3f80u);
  // Scalar half compares may write a half (1.0) or 16 bits of ones.
  Instr h = mk(Op::Set, Type::F16, {R(2), R(0), R(1)});
  h.cmp = CmpOp::Lt;
  h.type2 = Type::F16;
  r = x.run(h, {one, two});
  BOOST_TEST(r[2] == 0x3c00u);
  h.type2 = Type::U16;
  r = x.run(h, {one, two});
  BOOST_TEST(r[2] == 0xffffu);
  std::string why;
  t.type = Type::F32;
  t.type2 = Type::F16x2;
  BOOST_TEST(!supported(t, &why));  // a packed destination needs a packed compare
  h.type = Type::F32;
  h.type2 = Type::U16;
  BOOST_TEST(!supported(h, &why));
  BOOST_TEST(why.find("set destination type .u16") != std::string::npos, why);
}
