#define BOOST_TEST_MODULE cfg
#include <boost/test/unit_test.hpp>

#include "ptx/cfg.h"
#include "ptx/cfg_program_builder.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "util/error.h"

using namespace simt;
using namespace simt::ptx;
using B = simt::test::CfgProgramBuilder;

namespace {

std::vector<uint32_t> sorted(std::vector<uint32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// if (tid < 5) r1 = r0 + 1; else r1 = r0 - 1; store r1
Program diamond() {
  B b;
  uint32_t r0 = b.reg("%r0"), r1 = b.reg("%r1"), p0 = b.reg("%p0", Type::Pred);
  b.op(Op::Mov, {B::R(r0), B::S(Sreg::TidX)});           // 0
  b.op(Op::Setp, {B::R(p0), B::R(r0), B::I(5)});         // 1
  b.bra("ELSE", p0);                                     // 2
  b.op(Op::Add, {B::R(r1), B::R(r0), B::I(1)});          // 3
  b.bra("JOIN");                                         // 4
  b.label("ELSE");
  b.op(Op::Sub, {B::R(r1), B::R(r0), B::I(1)});          // 5
  b.label("JOIN");
  b.op(Op::St, {B::A(r0), B::R(r1)}, "st", Space::Global); // 6
  b.exit();                                              // 7
  return b.build();
}

// Example 2 / Figure 10 of seed 001: A->{B,C}, B->E, C->{D,E}, D->F, E->{A,F}.
// Layout: A 0-2, B 3-4, C 5-6, E 7-9, F 10-11, D 12-13.
Program example2() {
  B b;
  uint32_t i = b.reg("%r0"), x = b.reg("%r1"), y = b.reg("%r2"), k = b.reg("%r3"), a = b.reg("%rd0", Type::B64);
  uint32_t p0 = b.reg("%p0", Type::Pred), p1 = b.reg("%p1", Type::Pred), p2 = b.reg("%p2", Type::Pred);
  b.label("A");
  b.op(Op::Ld, {B::R(x), B::A(a)}, "ld.global.u32", Space::Global);  // 0
  b.op(Op::Setp, {B::R(p0), B::R(x), B::I(0)});                       // 1
  b.bra("C", p0, true);                                               // 2
  b.op(Op::St, {B::A(a), B::R(y)}, "st.global.u32", Space::Global);   // 3 B
  b.bra("E");                                                         // 4
  b.label("C");
  b.op(Op::Setp, {B::R(p1), B::R(x), B::I(1)});                       // 5 C
  b.bra("D", p1);                                                     // 6
  b.label("E");
  b.op(Op::Add, {B::R(i), B::R(i), B::I(1)});                         // 7 E
  b.op(Op::Setp, {B::R(p2), B::R(i), B::R(k)});                       // 8
  b.bra("A", p2);                                                     // 9
  b.label("F");
  b.op(Op::Ld, {B::R(y), B::A(a)}, "ld.global.u32", Space::Global);   // 10 F
  b.exit();                                                           // 11
  b.label("D");
  b.op(Op::Mov, {B::R(y), B::I(1)});                                  // 12 D
  b.bra("F");                                                         // 13
  return b.build();
}

}  // namespace

BOOST_AUTO_TEST_CASE(diamond_blocks_and_reconvergence) {
  Program p = diamond();
  Cfg cfg(p);
  BOOST_REQUIRE_EQUAL(cfg.blocks().size(), 4u);
  BOOST_TEST(cfg.blocks()[0].begin == 0u);
  BOOST_TEST(cfg.blocks()[0].end == 3u);
  BOOST_TEST(cfg.blocks()[1].begin == 3u);
  BOOST_TEST(cfg.blocks()[2].begin == 5u);
  BOOST_TEST(cfg.blocks()[3].begin == 6u);
  BOOST_TEST(sorted(cfg.blocks()[0].succs) == (std::vector<uint32_t>{1, 2}));
  BOOST_TEST(cfg.blocks()[1].succs == (std::vector<uint32_t>{3}));
  BOOST_TEST(sorted(cfg.blocks()[3].preds) == (std::vector<uint32_t>{1, 2}));
  BOOST_TEST(cfg.blocks()[3].exits);
  BOOST_TEST(cfg.blocks()[3].succs.empty());
  BOOST_TEST(cfg.block_of(4) == 1u);
  BOOST_TEST(cfg.ipdom(0) == 3u);
  BOOST_TEST(cfg.ipdom(3) == Cfg::kNone);
  BOOST_TEST(cfg.reconv_pc(2) == 6u);
  const BranchInfo* br = cfg.branch(2);
  BOOST_REQUIRE(br);
  BOOST_TEST(br->target == 5u);
  BOOST_TEST(br->reconv_pc == 6u);
  BOOST_TEST(br->likely_pc == kNoPc);
  BOOST_TEST(!br->uniform);
  BOOST_TEST(!br->backward);
  BOOST_TEST(!br->provably_uniform);  // depends on %tid.x
  BOOST_TEST(cfg.branch(3) == nullptr);
  const BranchInfo* jmp = cfg.branch(4);
  BOOST_REQUIRE(jmp);
  BOOST_TEST(jmp->uniform);
  BOOST_TEST(jmp->provably_uniform);
  BOOST_TEST(cfg.branches().size() == 2u);
  BOOST_TEST(cfg.idom(3) == 0u);
  BOOST_TEST(cfg.loops().empty());
}

BOOST_AUTO_TEST_CASE(nested_if) {
  B b;
  uint32_t r0 = b.reg("%r0"), r1 = b.reg("%r1"), p0 = b.reg("%p0", Type::Pred), p1 = b.reg("%p1", Type::Pred);
  b.op(Op::Mov, {B::R(r0), B::S(Sreg::TidX)});     // 0
  b.op(Op::Setp, {B::R(p0), B::R(r0), B::I(8)});   // 1
  b.bra("END", p0);                                // 2
  b.op(Op::Setp, {B::R(p1), B::R(r0), B::I(4)});   // 3
  b.bra("IELSE", p1);                              // 4
  b.op(Op::Add, {B::R(r1), B::R(r0), B::I(1)});    // 5
  b.bra("IJOIN");                                  // 6
  b.label("IELSE");
  b.op(Op::Sub, {B::R(r1), B::R(r0), B::I(1)});    // 7
  b.label("IJOIN");
  b.op(Op::Mul, {B::R(r1), B::R(r1), B::I(3)});    // 8
  b.label("END");
  b.exit();                                        // 9
  Program p = b.build();
  Cfg cfg(p);
  BOOST_TEST(cfg.reconv_pc(2) == 9u);
  BOOST_TEST(cfg.reconv_pc(4) == 8u);
  BOOST_TEST(cfg.reconv_pc(6) == 8u);
  BOOST_TEST(cfg.likely_pc(2) == kNoPc);
  BOOST_TEST(cfg.likely_pc(4) == kNoPc);
  BOOST_TEST(cfg.dominates(cfg.block_of(3), cfg.block_of(8)));
  BOOST_TEST(!cfg.dominates(cfg.block_of(5), cfg.block_of(8)));
}

BOOST_AUTO_TEST_CASE(loop_with_break_example2) {
  Program p = example2();
  Cfg cfg(p);
  BOOST_REQUIRE_EQUAL(cfg.blocks().size(), 6u);
  const uint32_t A = cfg.block_of(0), C = cfg.block_of(5), E = cfg.block_of(7), F = cfg.block_of(10),
                 D = cfg.block_of(12);
  BOOST_TEST(cfg.ipdom(A) == F);
  BOOST_TEST(cfg.ipdom(C) == F);
  BOOST_TEST(cfg.ipdom(D) == F);
  BOOST_TEST(cfg.ipdom(E) == F);
  // Branches at A and C: reconverge at F, likely-converge at E.
  BOOST_TEST(cfg.branch(2)->reconv_pc == 10u);
  BOOST_TEST(cfg.branch(2)->likely_pc == 7u);
  BOOST_TEST(cfg.branch(6)->reconv_pc == 10u);
  BOOST_TEST(cfg.branch(6)->likely_pc == 7u);
  // The latch's own backward branch gets none.
  BOOST_TEST(cfg.branch(9)->backward);
  BOOST_TEST(cfg.branch(9)->reconv_pc == 10u);
  BOOST_TEST(cfg.branch(9)->likely_pc == kNoPc);
  // Unguarded jumps are uniform and get no likely point.
  BOOST_TEST(cfg.branch(4)->uniform);
  BOOST_TEST(cfg.branch(4)->likely_pc == kNoPc);
  BOOST_TEST(cfg.reconv_pc(13) == 10u);
  // One natural loop: header A, latch E, body {A, B, C, E} (D breaks out).
  BOOST_REQUIRE_EQUAL(cfg.loops().size(), 1u);
  const Loop& L = cfg.loops()[0];
  BOOST_TEST(L.header == A);
  BOOST_TEST(L.latches == (std::vector<uint32_t>{E}));
  BOOST_TEST(L.blocks.size() == 4u);
  BOOST_TEST(!L.contains(D));
  BOOST_TEST(!L.contains(F));
  BOOST_TEST(cfg.innermost_loop(C) == 0u);
  BOOST_TEST(cfg.innermost_loop(F) == Cfg::kNone);
  // The data-dependent branches are not provably uniform.
  BOOST_TEST(!cfg.branch(2)->provably_uniform);
  BOOST_TEST(!cfg.branch(6)->provably_uniform);
}

BOOST_AUTO_TEST_CASE(loop_with_continue) {
  B b;
  uint32_t i = b.reg("%r0"), t = b.reg("%r1"), acc = b.reg("%r2"), p0 = b.reg("%p0", Type::Pred),
           p1 = b.reg("%p1", Type::Pred);
  b.op(Op::Mov, {B::R(i), B::I(0)});                // 0
  b.op(Op::Mov, {B::R(t), B::S(Sreg::TidX)});       // 1
  b.label("HEAD");
  b.op(Op::Setp, {B::R(p0), B::R(i), B::R(t)});     // 2
  b.bra("LATCH", p0);                               // 3  continue
  b.op(Op::Add, {B::R(acc), B::R(acc), B::R(i)});   // 4
  b.label("LATCH");
  b.op(Op::Add, {B::R(i), B::R(i), B::I(1)});       // 5
  b.op(Op::Setp, {B::R(p1), B::R(i), B::I(10)});    // 6
  b.bra("HEAD", p1);                                // 7
  b.exit();                                         // 8
  Program p = b.build();
  Cfg cfg(p);
  BOOST_TEST(cfg.branch(3)->reconv_pc == 5u);  // the continue target
  BOOST_TEST(cfg.branch(3)->likely_pc == kNoPc);  // reconverges inside the loop
  BOOST_TEST(cfg.branch(7)->reconv_pc == 8u);
  BOOST_TEST(cfg.branch(7)->likely_pc == kNoPc);
  BOOST_TEST(cfg.branch(7)->backward);
  BOOST_REQUIRE_EQUAL(cfg.loops().size(), 1u);
  BOOST_TEST(cfg.loops()[0].header == cfg.block_of(2));
  // i is compared against %tid.x, so the loop exit diverges...
  BOOST_TEST(!cfg.branch(3)->provably_uniform);
  // ... but the counter is only written outside the divergent region (the
  // latch is the continue's IPDOM), so the loop's own exit test is uniform.
  BOOST_TEST(cfg.branch(7)->provably_uniform);
}

BOOST_AUTO_TEST_CASE(nested_loops_break_out_of_inner) {
  // for (;;) { for (;;) { if (x) break; ...; if (c) continue-inner } ...; if (c2) continue-outer } exit
  B b;
  uint32_t x = b.reg("%r0"), p0 = b.reg("%p0", Type::Pred), p1 = b.reg("%p1", Type::Pred),
           p2 = b.reg("%p2", Type::Pred);
  b.op(Op::Mov, {B::R(x), B::S(Sreg::TidX)});  // 0
  b.label("OUTER");
  b.op(Op::Add, {B::R(x), B::R(x), B::I(1)});  // 1
  b.label("INNER");
  b.op(Op::Setp, {B::R(p0), B::R(x), B::I(3)});  // 2
  b.bra("AFTER", p0);                            // 3  break out of the inner loop
  b.op(Op::Setp, {B::R(p1), B::R(x), B::I(5)});  // 4
  b.bra("INNER", p1);                            // 5  inner latch
  b.label("AFTER");
  b.op(Op::Setp, {B::R(p2), B::R(x), B::I(9)});  // 6
  b.bra("OUTER", p2);                            // 7  outer latch
  b.exit();                                      // 8
  Program p = b.build();
  Cfg cfg(p);
  BOOST_REQUIRE_EQUAL(cfg.loops().size(), 2u);
  const uint32_t inner = cfg.innermost_loop(cfg.block_of(2));
  const uint32_t outer = cfg.innermost_loop(cfg.block_of(6));
  BOOST_TEST(inner != outer);
  BOOST_TEST(cfg.loops()[inner].parent == outer);
  // The break's IPDOM (AFTER, pc 6) is outside the inner loop: likely = inner latch (pc 4).
  BOOST_TEST(cfg.branch(3)->reconv_pc == 6u);
  BOOST_TEST(cfg.branch(3)->likely_pc == 4u);
  BOOST_TEST(cfg.branch(5)->likely_pc == kNoPc);
  BOOST_TEST(cfg.branch(7)->likely_pc == kNoPc);
}

BOOST_AUTO_TEST_CASE(multiple_returns_in_func_reconverge_at_virtual_exit) {
  B b;
  uint32_t r0 = b.reg("%r0"), r1 = b.reg("%r1"), p0 = b.reg("%p0", Type::Pred);
  b.op(Op::Mov, {B::R(r0), B::S(Sreg::TidX)});   // 0
  b.call("f");                                   // 1: does not end the block
  b.op(Op::Add, {B::R(r0), B::R(r0), B::I(1)});  // 2
  b.exit();                                      // 3
  b.func("f");
  b.op(Op::Mov, {B::R(r1), B::S(Sreg::Laneid)});  // 4
  b.op(Op::Setp, {B::R(p0), B::R(r1), B::I(3)}); // 5
  b.bra("R2", p0);                               // 6
  b.op(Op::Add, {B::R(r1), B::R(r1), B::I(1)});  // 7
  b.ret();                                       // 8
  b.label("R2");
  b.op(Op::Sub, {B::R(r1), B::R(r1), B::I(1)});  // 9
  b.ret();                                       // 10
  Program p = b.build();
  Cfg cfg(p);
  BOOST_TEST(cfg.num_funcs() == 2u);
  BOOST_TEST(cfg.func_end_block(0) == 1u);  // the entry is one block despite the call
  BOOST_TEST(cfg.blocks()[0].begin == 0u);
  BOOST_TEST(cfg.blocks()[0].end == 4u);
  BOOST_TEST(cfg.block_of(1) == cfg.block_of(2));
  BOOST_TEST(cfg.blocks()[cfg.block_of(4)].func == 1u);
  BOOST_TEST(cfg.func_first_block(1) == cfg.block_of(4));
  BOOST_TEST(cfg.ipdom(cfg.block_of(6)) == Cfg::kNone);
  BOOST_TEST(cfg.branch(6)->reconv_pc == kNoPc);
  BOOST_TEST(cfg.blocks()[cfg.block_of(8)].exits);
  BOOST_TEST(cfg.blocks()[cfg.block_of(10)].exits);
  BOOST_TEST(cfg.blocks()[cfg.block_of(8)].succs.empty());
  BOOST_TEST(cfg.reaches_exit(cfg.block_of(4)));
}

BOOST_AUTO_TEST_CASE(infinite_loop_still_gets_reconvergence) {
  B b;
  uint32_t r0 = b.reg("%r0"), p0 = b.reg("%p0", Type::Pred);
  b.op(Op::Mov, {B::R(r0), B::S(Sreg::TidX)});   // 0
  b.label("HEAD");
  b.op(Op::Setp, {B::R(p0), B::R(r0), B::I(3)}); // 1
  b.bra("ELSE", p0);                             // 2
  b.op(Op::Add, {B::R(r0), B::R(r0), B::I(1)});  // 3
  b.bra("JOIN");                                 // 4
  b.label("ELSE");
  b.op(Op::Sub, {B::R(r0), B::R(r0), B::I(1)});  // 5
  b.label("JOIN");
  b.bra("HEAD");                                 // 6: no exit anywhere
  Program p = b.build();
  Cfg cfg(p);
  BOOST_TEST(cfg.reconv_pc(2) == 6u);            // the diamond still joins at JOIN
  BOOST_TEST(cfg.reconv_pc(6) == kNoPc);         // the latch leads to the virtual exit
  BOOST_TEST(!cfg.reaches_exit(cfg.block_of(2)));
  BOOST_REQUIRE_EQUAL(cfg.loops().size(), 1u);
  BOOST_TEST(cfg.loops()[0].header == cfg.block_of(1));
  // The loop has no break-like exit, so no likely-convergence point.
  BOOST_TEST(cfg.likely_pc(2) == kNoPc);
}

BOOST_AUTO_TEST_CASE(infinite_loop_beside_an_exit) {
  B b;
  uint32_t p0 = b.reg("%p0", Type::Pred), r0 = b.reg("%r0");
  b.op(Op::Mov, {B::R(r0), B::S(Sreg::TidX)});   // 0
  b.op(Op::Setp, {B::R(p0), B::R(r0), B::I(3)}); // 1
  b.bra("SPIN", p0);                             // 2
  b.exit();                                      // 3
  b.label("SPIN");
  b.bra("SPIN");                                 // 4
  Program p = b.build();
  Cfg cfg(p);
  BOOST_TEST(cfg.reconv_pc(2) == kNoPc);
  BOOST_TEST(cfg.reaches_exit(cfg.block_of(3)));
  BOOST_TEST(!cfg.reaches_exit(cfg.block_of(4)));
  BOOST_TEST(cfg.branch(4)->backward);
}

BOOST_AUTO_TEST_CASE(guarded_exit_falls_through) {
  B b;
  uint32_t r0 = b.reg("%r0"), p0 = b.reg("%p0", Type::Pred);
  b.op(Op::Mov, {B::R(r0), B::S(Sreg::TidX)});   // 0
  b.op(Op::Setp, {B::R(p0), B::R(r0), B::I(3)}); // 1
  b.exit();                                      // 2
  b.guard_last(p0);
  b.op(Op::Add, {B::R(r0), B::R(r0), B::I(1)});  // 3
  b.exit();                                      // 4
  Program p = b.build();
  Cfg cfg(p);
  BOOST_REQUIRE_EQUAL(cfg.blocks().size(), 2u);
  BOOST_TEST(cfg.blocks()[0].exits);
  BOOST_TEST(cfg.blocks()[0].succs == (std::vector<uint32_t>{1}));
  BOOST_TEST(cfg.ipdom(0) == Cfg::kNone);
}

BOOST_AUTO_TEST_CASE(divergence_analysis) {
  B b;
  uint32_t n = b.reg("%r0"), c = b.reg("%r1"), s = b.reg("%r2"), t = b.reg("%r3"), m = b.reg("%r4"), pn = b.reg("%p0", Type::Pred),
           pt = b.reg("%p1", Type::Pred), pu = b.reg("%p2", Type::Pred);
  b.op(Op::Ld, {B::R(n), B::A(kNoReg, 0)}, "ld.param.u32", Space::Param);  // 0 kernel parameter
  b.op(Op::Mov, {B::R(c), B::S(Sreg::CtaidX)});                             // 1
  b.op(Op::Mad, {B::R(s), B::R(c), B::S(Sreg::NtidX), B::R(n)});           // 2
  b.op(Op::Setp, {B::R(pn), B::R(s), B::I(7)});                             // 3
  b.bra("L1", pn);                                                          // 4 param/ctaid only
  b.op(Op::Add, {B::R(m), B::R(s), B::I(1)});                               // 5
  b.label("L1");
  b.op(Op::Mov, {B::R(t), B::S(Sreg::TidX)});                               // 6
  b.op(Op::Setp, {B::R(pt), B::R(t), B::R(n)});                             // 7
  b.bra("L2", pt, false, true);                                             // 8 %tid-dependent (even if .uni)
  b.op(Op::Mov, {B::R(m), B::I(1)});                                        // 9
  b.label("L2");
  b.op(Op::Setp, {B::R(pu), B::R(m), B::I(2)});                             // 10 m merged after a divergent branch
  b.bra("L3", pu);                                                          // 11
  b.op(Op::Add, {B::R(t), B::R(c), B::I(1)});                               // 12
  b.label("L3");
  b.exit();                                                                 // 13
  Program p = b.build();
  Cfg cfg(p);
  BOOST_TEST(cfg.branch(4)->provably_uniform);
  BOOST_TEST(!cfg.branch(4)->uniform);
  BOOST_TEST(!cfg.branch(8)->provably_uniform);
  BOOST_TEST(cfg.branch(8)->uniform);  // bra.uni: the compiler's word
  BOOST_TEST(!cfg.branch(11)->provably_uniform);
}

BOOST_AUTO_TEST_CASE(loads_and_callee_params_are_divergent) {
  B b;
  uint32_t r0 = b.reg("%r0"), r1 = b.reg("%r1"), a = b.reg("%rd0", Type::B64), p0 = b.reg("%p0", Type::Pred),
           p1 = b.reg("%p1", Type::Pred);
  b.op(Op::Ld, {B::R(a), B::A(kNoReg, 0)}, "ld.param.u64", Space::Param);  // 0
  b.op(Op::Ld, {B::R(r0), B::A(a)}, "ld.global.u32", Space::Global);       // 1 same address, but memory
  b.op(Op::Setp, {B::R(p0), B::R(r0), B::I(0)});                           // 2
  b.bra("X", p0);                                                          // 3
  b.label("X");
  b.call("f");                                                             // 4
  b.exit();                                                                // 5
  b.func("f");
  b.op(Op::Ld, {B::R(r1), B::A(kNoReg, 0)}, "ld.param.u32", Space::Param);  // 6 per-thread call argument
  b.op(Op::Setp, {B::R(p1), B::R(r1), B::I(0)});                           // 7
  b.bra("Y", p1);                                                          // 8
  b.label("Y");
  b.ret();                                                                 // 9
  Program p = b.build();
  Cfg cfg(p);
  BOOST_TEST(!cfg.branch(3)->provably_uniform);
  BOOST_TEST(!cfg.branch(8)->provably_uniform);
}

BOOST_AUTO_TEST_CASE(bad_programs_are_rejected) {
  {
    B b;
    b.bra("T");
    b.exit();
    b.func("f");
    b.label("T");
    b.ret();
    BOOST_CHECK_THROW(b.build(), std::logic_error);  // labels are per function
  }
  {
    B b;
    b.bra("T");
    b.label("T");
    b.exit();
    Program p = b.build();
    p.code[0].ops[0].imm = 99;  // target outside the function
    try {
      Cfg cfg(p);
      BOOST_FAIL("expected an error");
    } catch (const Error& e) {
      BOOST_TEST(static_cast<int>(e.code()) == static_cast<int>(ExitCode::BadInput));
      BOOST_TEST(std::string(e.what()).find("outside its function") != std::string::npos);
    }
  }
  {
    B b;
    b.op(Op::Brx, {B::R(b.reg("%r0"))});
    b.exit();
    Program p = b.build();
    BOOST_CHECK_THROW(Cfg cfg(p), Error);
  }
}

// ------------------------------------------------------------ real PTX text

#include "ptx/cfg_real_ptx.h"
#include "ptx/liveness.h"

namespace {

// Naive set-based (post-)dominators for cross-checking the CHK results.
// pdom(b) = {b} + intersection of pdom(s) over successors (the virtual exit X
// included when b exits); dom(b) = {b} + intersection of dom(p) over preds.
void check_against_naive(const Program& p, const Cfg& cfg) {
  for (uint32_t f = 0; f < cfg.num_funcs(); ++f) {
    const uint32_t base = cfg.func_first_block(f), n = cfg.func_end_block(f) - base;
    if (n == 0) continue;
    bool all_exit = true;
    for (uint32_t i = 0; i < n; ++i) all_exit = all_exit && cfg.reaches_exit(base + i);
    const uint32_t X = n;
    std::vector<std::vector<char>> pdom(n + 1, std::vector<char>(n + 1, 1)), dom(n, std::vector<char>(n, 1));
    pdom[X].assign(n + 1, 0);
    pdom[X][X] = 1;
    dom[0].assign(n, 0);
    dom[0][0] = 1;
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t i = n; i-- > 0;) {
        std::vector<char> s(n + 1, 1);
        const BasicBlock& b = cfg.blocks()[base + i];
        for (uint32_t t : b.succs)
          for (uint32_t k = 0; k <= n; ++k) s[k] = s[k] && pdom[t - base][k];
        if (b.exits)
          for (uint32_t k = 0; k <= n; ++k) s[k] = s[k] && pdom[X][k];
        s[i] = 1;
        if (s != pdom[i]) { pdom[i] = s; changed = true; }
      }
      for (uint32_t i = 1; i < n; ++i) {
        std::vector<char> s(n, 1);
        for (uint32_t q : cfg.blocks()[base + i].preds)
          if (cfg.reachable(q))
            for (uint32_t k = 0; k < n; ++k) s[k] = s[k] && dom[q - base][k];
        s[i] = 1;
        if (s != dom[i]) { dom[i] = s; changed = true; }
      }
    }
    auto count = [](const std::vector<char>& v) { return std::count(v.begin(), v.end(), 1); };
    for (uint32_t i = 0; i < n; ++i) {
      if (all_exit) {
        // The immediate post-dominator is the strict post-dominator with the largest set.
        uint32_t best = X;
        for (uint32_t k = 0; k < n; ++k)
          if (k != i && pdom[i][k] && count(pdom[k]) > count(pdom[best])) best = k;
        const uint32_t want = best == X ? Cfg::kNone : base + best;
        BOOST_TEST(cfg.ipdom(base + i) == want, p.kernel << " block " << base + i);
      }
      if (i == 0 || !cfg.reachable(base + i)) continue;
      uint32_t best = kNoPc;
      for (uint32_t k = 0; k < n; ++k)
        if (k != i && dom[i][k] && (best == kNoPc || count(dom[k]) > count(dom[best]))) best = k;
      BOOST_TEST(cfg.idom(base + i) == base + best, p.kernel << " block " << base + i);
    }
  }
}

const char* kBreakLoopPtx = R"(
.version 8.0
.target sm_75
.address_size 64

.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;

  ld.param.u64 %rd1, [k_param_0];
  ld.param.u32 %r1, [k_param_1];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, 0;
$L__BB0_1:
  setp.eq.s32 %p1, %r3, %r2;
  @%p1 bra $L__BB0_3;
  add.s32 %r3, %r3, 1;
  setp.lt.s32 %p2, %r3, %r1;
  @%p2 bra $L__BB0_1;
$L__BB0_3:
  setp.lt.u32 %p3, %r1, 4;
  @%p3 bra.uni $L__BB0_4;
  st.global.u32 [%rd1], %r3;
$L__BB0_4:
  ret;
}
)";

}  // namespace

BOOST_AUTO_TEST_CASE(parsed_loop_with_break) {
  Module m = parse(kBreakLoopPtx, "break_loop.ptx");
  Program p = link(m, "k", {});
  Cfg cfg(p);
  BOOST_REQUIRE_EQUAL(p.code.size(), 13u);
  BOOST_REQUIRE(cfg.branch(5));
  BOOST_TEST(cfg.branch(5)->target == 9u);
  BOOST_TEST(cfg.branch(5)->reconv_pc == 9u);
  BOOST_TEST(cfg.branch(5)->likely_pc == 6u);  // the latch: the break is rarely taken
  BOOST_TEST(!cfg.branch(5)->provably_uniform);
  BOOST_TEST(cfg.branch(8)->backward);
  BOOST_TEST(cfg.branch(8)->likely_pc == kNoPc);
  BOOST_TEST(cfg.branch(10)->uniform);
  BOOST_TEST(cfg.branch(10)->provably_uniform);  // depends on a kernel parameter only
  BOOST_TEST(cfg.reconv_pc(10) == 12u);
  Liveness live(p, cfg);
  const uint32_t r1 = p.code[1].ops[0].reg, rd1 = p.code[0].ops[0].reg;
  BOOST_TEST(live.is_live_in(cfg.block_of(6), r1));
  BOOST_TEST(live.is_live_out(cfg.block_of(6), r1));
  BOOST_TEST(live.is_live_out(cfg.block_of(6), rd1));
  BOOST_TEST(!live.is_live_out(cfg.block_of(9), r1));
  check_against_naive(p, cfg);
}

BOOST_AUTO_TEST_CASE(workload_kernels_match_naive_dominators) {
  size_t kernels = 0, branches = 0;
  for (const auto& f : simt::test::workload_ptx_files())
    for (const Program& p : simt::test::link_all_entries(f)) {
      Cfg cfg(p);
      ++kernels;
      branches += cfg.branches().size();
      check_against_naive(p, cfg);
      for (const BranchInfo& b : cfg.branches()) {
        // reconv is the IPDOM block's start, likely (when set) a latch of a loop holding the branch.
        BOOST_TEST(b.reconv_pc == cfg.reconv_pc(b.pc));
        if (b.likely_pc == kNoPc) continue;
        const uint32_t lb = cfg.block_of(b.likely_pc);
        BOOST_TEST(cfg.blocks()[lb].begin == b.likely_pc);
        const Loop& L = cfg.loops()[cfg.innermost_loop(cfg.block_of(b.pc))];
        BOOST_TEST(std::count(L.latches.begin(), L.latches.end(), lb) == 1);
      }
    }
  BOOST_TEST(kernels > 0u);
  BOOST_TEST_MESSAGE(kernels << " kernels, " << branches << " branches checked");
}
