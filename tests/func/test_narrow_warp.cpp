// What the functional runner uses to run warps whose threads share one
// 64-thread mask word without Executor::step (runtime/functional_runner.cpp,
// run_narrow): func::guard_word must give the threads step() lets through a
// guard, and Executor::fast_program() the kernels step() itself would run,
// on partial masks, negated guards, and the top bit of a word.
#define BOOST_TEST_MODULE narrow_warp
#include <boost/test/unit_test.hpp>

#include "exec_fixture.h"
#include "func/fast_path.h"

using namespace simt;
using namespace simt::test;
using func::Control;

namespace {

Instr bra(uint32_t target) {
  Instr in;
  in.op = Op::Bra;
  in.nops = 1;
  in.ops[0].kind = Operand::Kind::Label;
  in.ops[0].imm = target;
  return in;
}

}  // namespace

BOOST_AUTO_TEST_CASE(guard_word_matches_the_branch_step_takes) {
  ExecFixture x;
  const uint32_t p = x.reg(Type::Pred);
  const uint32_t pos = x.add_guarded(bra(0), p, false);
  const uint32_t neg = x.add_guarded(bra(0), p, true);
  x.build(100);  // words 0 (full) and 1 (36 threads)
  for (uint32_t t = 0; t < 100; ++t) x.r(p, t) = (t * 7 + t / 5) % 3 == 0 ? 1 : 0;
  x.r(p, 63) = 1;
  const uint64_t masks[] = {~uint64_t{0}, 0, 1, uint64_t{1} << 63, 0x00ff00ff00ff00f0ull, 0x8000000000000001ull,
                            0x5555555555555555ull};
  for (uint32_t word = 0; word < 2; ++word) {
    for (uint64_t m : masks) {
      if (word == 1) m &= (uint64_t{1} << 36) - 1;  // threads past the CTA's end are never in a mask
      ThreadMask tm;
      tm.set_word(word, m);
      for (const bool n : {false, true}) {
        func::StepResult& r = x.run(n ? neg : pos, tm);
        BOOST_TEST((r.control == Control::Branch));
        const uint64_t g = func::guard_word(x.cta->reg_row(p), word, m, n);
        BOOST_TEST(g == r.taken.word(word), "word " << word << " mask " << std::hex << m << " neg " << n);
        BOOST_TEST(r.taken.count() == static_cast<uint32_t>(__builtin_popcountll(g)));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(fast_program_is_exposed_only_when_built_with_fast_paths) {
  ExecFixture x;
  const uint32_t a = x.reg(Type::U32);
  Instr add;
  add.op = Op::Add;
  add.type = Type::U32;
  add.nops = 3;
  add.ops[0] = R(a);
  add.ops[1] = R(a);
  add.ops[2] = Imm(1);
  const uint32_t pc = x.add(add);
  const uint32_t b = x.add(bra(0));
  x.build(64);
  const func::FastProgram* fp = x.exec->fast_program();
  BOOST_TEST_REQUIRE(fp != nullptr);
  BOOST_TEST(fp->code.size() == x.prog.code.size());
  BOOST_TEST(fp->code[pc].run != nullptr);
  BOOST_TEST(fp->code[b].branch);
  BOOST_TEST(fp->code[b].target == 0u);
  // The kernel the runner calls gives what step() gives, on a partial mask.
  ThreadMask m = lanes({0, 5, 6, 7, 63});
  x.set_all(a, 10);
  fp->code[pc].run(fp->code[pc], *x.cta, 0, m.word(0));
  for (uint32_t t = 0; t < 64; ++t) BOOST_TEST(x.r(a, t) == (m.test(t) ? 11u : 10u));
  x.run(pc, m);
  for (uint32_t t = 0; t < 64; ++t) BOOST_TEST(x.r(a, t) == (m.test(t) ? 12u : 10u));
  func::Executor slow(x.prog, false);
  BOOST_TEST(slow.fast_program() == nullptr);
}
