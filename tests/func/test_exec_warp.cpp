#define BOOST_TEST_MODULE exec_warp
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "exec_fixture.h"
#include "util/error.h"

using namespace simt;
using namespace simt::test;

namespace {
Instr moded(Op op, Type ty, uint8_t mode, std::initializer_list<Operand> ops) {
  Instr in = make(op, ty, ops);
  in.mode = mode;
  return in;
}
}  // namespace

BOOST_AUTO_TEST_CASE(vote_modes_on_partial_masks_and_two_groups) {
  ExecFixture f;
  const uint32_t a = f.reg(Type::Pred), d = f.reg(Type::Pred), b = f.reg(Type::B32), mm = f.reg(Type::B32);
  using ptx::VoteMode;
  const uint32_t all = f.add(moded(Op::Vote, Type::Pred, uint8_t(VoteMode::All), {R(d), R(a), Imm(-1)}));
  const uint32_t any = f.add(moded(Op::Vote, Type::Pred, uint8_t(VoteMode::Any), {R(d), R(a), Imm(-1)}));
  const uint32_t uni = f.add(moded(Op::Vote, Type::Pred, uint8_t(VoteMode::Uni), {R(d), R(a), Imm(-1)}));
  const uint32_t bal = f.add(moded(Op::Vote, Type::B32, uint8_t(VoteMode::Ballot), {R(b), R(a), R(mm)}));
  const uint32_t nbal = f.add(moded(Op::Vote, Type::B32, uint8_t(VoteMode::Ballot), {R(b), R(a, true), Imm(-1)}));
  f.build(64);
  f.set_all(mm, 0xffffffffu);
  // Group 0: a true on even lanes. Group 1: a true everywhere.
  for (uint32_t t = 0; t < 64; ++t) f.r(a, t) = t >= 32 || t % 2 == 0;
  const ThreadMask evens_and_g1 = [] {
    ThreadMask m;
    for (uint32_t t = 0; t < 32; t += 2) m.set(t);
    for (uint32_t t = 32; t < 64; ++t) m.set(t);
    return m;
  }();
  f.run(all, evens_and_g1);  // only even lanes of group 0 execute: all true
  BOOST_CHECK_EQUAL(f.r(d, 0), 1u);
  BOOST_CHECK_EQUAL(f.r(d, 40), 1u);
  f.run(all);
  BOOST_CHECK_EQUAL(f.r(d, 0), 0u);
  BOOST_CHECK_EQUAL(f.r(d, 40), 1u);
  f.run(any, lanes({1, 3, 33}));
  BOOST_CHECK_EQUAL(f.r(d, 1), 0u);
  BOOST_CHECK_EQUAL(f.r(d, 33), 1u);
  f.run(uni, lanes({1, 2}));
  BOOST_CHECK_EQUAL(f.r(d, 1), 0u);
  f.run(uni, lanes({2, 4, 35, 36}));
  BOOST_CHECK_EQUAL(f.r(d, 2), 1u);
  BOOST_CHECK_EQUAL(f.r(d, 36), 1u);
  f.run(bal);
  BOOST_CHECK_EQUAL(f.r(b, 3), 0x55555555u);
  BOOST_CHECK_EQUAL(f.r(b, 63), 0xffffffffu);
  f.set_all(mm, 0x0000000fu);  // membermask limits the participants
  f.run(bal, ThreadMask::range(0, 4));
  BOOST_CHECK_EQUAL(f.r(b, 0), 0x5u);
  f.run(nbal, ThreadMask::range(28, 8));
  BOOST_CHECK_EQUAL(f.r(b, 29), 0xa0000000u);
  BOOST_CHECK_EQUAL(f.r(b, 33), 0u);
}

BOOST_AUTO_TEST_CASE(activemask_per_group) {
  ExecFixture f;
  const uint32_t d = f.reg(Type::B32);
  const uint32_t am = f.add(make(Op::Activemask, Type::B32, {R(d)}));
  f.build(48);
  f.run(am, lanes({0, 5, 31, 32, 47}));
  BOOST_CHECK_EQUAL(f.r(d, 5), 0x80000021u);
  BOOST_CHECK_EQUAL(f.r(d, 47), 0x00008001u);
  BOOST_CHECK_EQUAL(f.r(d, 6), 0u);  // not executing: untouched
}

namespace {
struct Shfl {
  ExecFixture f;
  uint32_t d, p, a, pc;
  Shfl(ptx::ShflMode mode, int64_t b, int64_t c, uint32_t threads = 64) {
    d = f.reg(Type::B32);
    p = f.reg(Type::Pred);
    a = f.reg(Type::B32);
    Instr in = moded(Op::Shfl, Type::B32, uint8_t(mode), {R(d), R(a), Imm(b), Imm(c), Imm(-1)});
    in.pout = R(p);
    pc = f.add(in);
    f.build(threads);
    for (uint32_t t = 0; t < threads; ++t) f.r(a, t) = 1000 + t;
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(shfl_idx_up_down_bfly) {
  using ptx::ShflMode;
  {
    Shfl s(ShflMode::Idx, 5, 0x1f);  // broadcast lane 5 of each group
    s.f.run(s.pc);
    BOOST_CHECK_EQUAL(s.f.r(s.d, 0), 1005u);
    BOOST_CHECK_EQUAL(s.f.r(s.d, 63), 1037u);
    BOOST_CHECK_EQUAL(s.f.r(s.p, 63), 1u);
  }
  {
    Shfl s(ShflMode::Up, 2, 0);  // lanes 0,1 keep their own value, p = 0
    s.f.run(s.pc);
    BOOST_CHECK_EQUAL(s.f.r(s.d, 1), 1001u);
    BOOST_CHECK_EQUAL(s.f.r(s.p, 1), 0u);
    BOOST_CHECK_EQUAL(s.f.r(s.d, 2), 1000u);
    BOOST_CHECK_EQUAL(s.f.r(s.p, 2), 1u);
    BOOST_CHECK_EQUAL(s.f.r(s.d, 33), 1033u);  // lane 1 of group 1: no crossing groups
    BOOST_CHECK_EQUAL(s.f.r(s.d, 34), 1032u);
  }
  {
    Shfl s(ShflMode::Down, 1, 0x1f);
    s.f.run(s.pc);
    BOOST_CHECK_EQUAL(s.f.r(s.d, 30), 1031u);
    BOOST_CHECK_EQUAL(s.f.r(s.d, 31), 1031u);  // clamped: own value
    BOOST_CHECK_EQUAL(s.f.r(s.p, 31), 0u);
  }
  {
    Shfl s(ShflMode::Bfly, 3, 0x1f);
    s.f.run(s.pc);
    BOOST_CHECK_EQUAL(s.f.r(s.d, 4), 1007u);
    BOOST_CHECK_EQUAL(s.f.r(s.d, 33), 1034u);
  }
}

BOOST_AUTO_TEST_CASE(shfl_segments_and_inactive_sources) {
  using ptx::ShflMode;
  // Width 8 (__shfl_down_sync(m, v, 2, 8)): c = ((32 - 8) << 8) | 0x1f.
  Shfl s(ShflMode::Down, 2, (24 << 8) | 0x1f);
  s.f.run(s.pc);
  BOOST_CHECK_EQUAL(s.f.r(s.d, 5), 1007u);
  BOOST_CHECK_EQUAL(s.f.r(s.d, 6), 1006u);  // would cross into the next segment
  BOOST_CHECK_EQUAL(s.f.r(s.p, 6), 0u);
  // Width 8 idx: lane 2 of each segment.
  Shfl i(ShflMode::Idx, 2, (24 << 8) | 0x1f);
  i.f.run(i.pc);
  BOOST_CHECK_EQUAL(i.f.r(i.d, 13), 1010u);
  // Source lane not executing: the value is func.shfl_undefined's, p still says in range.
  using func::ShflUndefined;
  for (ShflUndefined policy : {ShflUndefined::Source, ShflUndefined::Zero, ShflUndefined::Self}) {
    Shfl u(ShflMode::Idx, 0, 0x1f);
    std::ostringstream warn;
    func::ShflUndefinedLog log(&warn);
    u.f.env.shfl_undefined = policy;
    u.f.env.shfl_log = &log;
    u.f.run(u.pc, lanes({1, 2, 32, 33}));
    const uint32_t want1 = policy == ShflUndefined::Source ? 1000u : policy == ShflUndefined::Zero ? 0u : 1001u;
    BOOST_CHECK_EQUAL(u.f.r(u.d, 1), want1);
    BOOST_CHECK_EQUAL(u.f.r(u.p, 1), 1u);
    BOOST_CHECK_EQUAL(u.f.r(u.d, 33), 1032u);  // lane 0 of group 1 executes: defined
    BOOST_CHECK_EQUAL(u.f.r(u.d, 0), 0u);      // not executing: untouched
    BOOST_CHECK_EQUAL(log.reads(), 2u);        // threads 1 and 2 read lane 0
    u.f.run(u.pc, lanes({1, 2, 32, 33}));
    BOOST_CHECK_EQUAL(log.reads(), 4u);
    // One warning for the PC, naming kernel, PC, file:line, lane and policy.
    const std::string w = warn.str();
    BOOST_CHECK_EQUAL(w.find("warning: kernel k pc 0 (test.ptx:1): shfl.sync reads lane 0 that is "
                             "inactive/not in membermask; value is undefined in PTX, using " +
                             std::string(func::shfl_undefined_name(policy))),
                      0u);
    BOOST_CHECK_EQUAL(w.find("warning", 1), std::string::npos);
  }
}

// NVIDIA's reduction sample (reduce7's final warp, shuffle path): only lanes
// 0..7 hold partial sums and execute __shfl_down_sync(0xff, v, 16, 8, 4, 2, 1)
// and lane 0's result must be their sum. Only "zero" gives it whatever the
// other lanes' registers hold; "self" double-counts (the old behaviour: 4x).
BOOST_AUTO_TEST_CASE(shfl_down_reduction_over_partial_warp) {
  using func::ShflUndefined;
  auto lane0_sum = [](ShflUndefined policy, uint64_t* reads) {
    ExecFixture f;
    const uint32_t v = f.reg(Type::B32), x = f.reg(Type::B32);
    std::vector<uint32_t> pcs;
    for (int64_t off : {16, 8, 4, 2, 1}) {
      pcs.push_back(f.add(moded(Op::Shfl, Type::B32, uint8_t(ptx::ShflMode::Down), {R(x), R(v), Imm(off), Imm(0x1f), Imm(0xff)})));
      pcs.push_back(f.add(make(Op::Add, Type::S32, {R(v), R(v), R(x)})));
    }
    f.build(32);
    for (uint32_t t = 0; t < 32; ++t) f.r(v, t) = t < 8 ? t + 1 : 500;  // lanes >= 8: stale values
    func::ShflUndefinedLog log(nullptr);
    f.env.shfl_undefined = policy;
    f.env.shfl_log = &log;
    for (uint32_t pc : pcs) f.run(pc, ThreadMask::range(0, 8));
    *reads = log.reads();
    return static_cast<uint32_t>(f.r(v, 0));
  };
  uint64_t reads = 0;
  BOOST_CHECK_EQUAL(lane0_sum(ShflUndefined::Zero, &reads), 36u);  // 1 + 2 + ... + 8
  BOOST_CHECK_GT(reads, 0u);
  BOOST_CHECK_NE(lane0_sum(ShflUndefined::Self, &reads), 36u);
  BOOST_CHECK_NE(lane0_sum(ShflUndefined::Source, &reads), 36u);
  BOOST_CHECK(func::shfl_undefined_from_name("source") == ShflUndefined::Source);
  BOOST_CHECK_THROW(func::shfl_undefined_from_name("garbage"), Error);
}

BOOST_AUTO_TEST_CASE(match_any_and_all) {
  ExecFixture f;
  const uint32_t d = f.reg(Type::B32), p = f.reg(Type::Pred), a = f.reg(Type::B64);
  const uint32_t any = f.add(moded(Op::Match, Type::B64, uint8_t(ptx::MatchMode::Any), {R(d), R(a), Imm(-1)}));
  Instr al = moded(Op::Match, Type::B64, uint8_t(ptx::MatchMode::All), {R(d), R(a), Imm(-1)});
  al.pout = R(p);
  const uint32_t all = f.add(al);
  f.build(64);
  for (uint32_t t = 0; t < 64; ++t) f.r(a, t) = (uint64_t{t % 3} << 40);
  f.run(any, ThreadMask::range(0, 8));
  BOOST_CHECK_EQUAL(f.r(d, 1), 0x92u);   // lanes 1, 4, 7 share t % 3 == 1
  f.run(all, lanes({0, 3, 6, 33}));
  BOOST_CHECK_EQUAL(f.r(d, 0), 0x49u);
  BOOST_CHECK_EQUAL(f.r(p, 0), 1u);
  BOOST_CHECK_EQUAL(f.r(d, 33), 0x2u);   // alone in its group
  f.run(all, lanes({0, 1}));
  BOOST_CHECK_EQUAL(f.r(d, 0), 0u);
  BOOST_CHECK_EQUAL(f.r(p, 1), 0u);
}

BOOST_AUTO_TEST_CASE(redux_ops) {
  ExecFixture f;
  const uint32_t d = f.reg(Type::B32), a = f.reg(Type::B32);
  using ptx::ReduxOp;
  const uint32_t add = f.add(moded(Op::Redux, Type::U32, uint8_t(ReduxOp::Add), {R(d), R(a), Imm(-1)}));
  const uint32_t mins = f.add(moded(Op::Redux, Type::S32, uint8_t(ReduxOp::Min), {R(d), R(a), Imm(-1)}));
  const uint32_t minu = f.add(moded(Op::Redux, Type::U32, uint8_t(ReduxOp::Min), {R(d), R(a), Imm(-1)}));
  const uint32_t maxs = f.add(moded(Op::Redux, Type::S32, uint8_t(ReduxOp::Max), {R(d), R(a), Imm(0xff)}));
  const uint32_t x = f.add(moded(Op::Redux, Type::B32, uint8_t(ReduxOp::Xor), {R(d), R(a), Imm(-1)}));
  f.build(64);
  for (uint32_t t = 0; t < 64; ++t) f.r(a, t) = static_cast<uint32_t>(static_cast<int32_t>(t) - 3);
  f.run(add);
  BOOST_CHECK_EQUAL(f.r(d, 0), static_cast<uint32_t>(31 * 32 / 2 - 3 * 32));
  BOOST_CHECK_EQUAL(f.r(d, 40), static_cast<uint32_t>((32 + 63) * 32 / 2 - 3 * 32));
  f.run(mins);
  BOOST_CHECK_EQUAL(f.r(d, 5), static_cast<uint32_t>(-3));
  f.run(minu);
  BOOST_CHECK_EQUAL(f.r(d, 5), 0u);
  f.run(maxs, ThreadMask::range(0, 16));  // membermask 0xff: lanes 0..7
  BOOST_CHECK_EQUAL(f.r(d, 2), 4u);
  f.run(x, lanes({1, 2, 3}));
  BOOST_CHECK_EQUAL(f.r(d, 1), static_cast<uint32_t>(-2) ^ static_cast<uint32_t>(-1) ^ 0u);
}

BOOST_AUTO_TEST_CASE(warp_checks_refuse_bad_types) {
  ExecFixture f;
  const uint32_t d = f.reg(Type::B32);
  f.add(moded(Op::Redux, Type::S32, uint8_t(ptx::ReduxOp::Xor), {R(d), R(d), Imm(-1)}), "redux.sync.xor.s32 %r0, %r0, -1;");
  BOOST_CHECK_THROW(f.build(32), Error);
}
