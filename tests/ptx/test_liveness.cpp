#define BOOST_TEST_MODULE liveness
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "ptx/cfg.h"
#include "ptx/cfg_program_builder.h"
#include "ptx/def_use.h"
#include "ptx/link.h"
#include "ptx/liveness.h"
#include "ptx/parser.h"

using namespace simt::ptx;
using B = simt::test::CfgProgramBuilder;

namespace {

template <int N>
std::vector<uint32_t> as_sorted(const RegList<N>& l) {
  std::vector<uint32_t> v(l.begin(), l.end());
  std::sort(v.begin(), v.end());
  return v;
}

Instr make(Op op, std::initializer_list<Operand> ops) {
  Instr in;
  in.op = op;
  for (const Operand& o : ops) in.ops[in.nops++] = o;
  return in;
}

}  // namespace

BOOST_AUTO_TEST_CASE(def_use_store_reads_address_and_value) {
  Instr st = make(Op::St, {B::A(3, 4), B::R(7)});
  DefUse du = def_use(st);
  BOOST_TEST(du.defs.size() == 0);
  BOOST_TEST(as_sorted(du.uses) == (std::vector<uint32_t>{3, 7}));
  // st.v4 [a], {r1, r2, r3, r4}
  Instr st4 = make(Op::St, {B::A(9), B::V({1, 2, 3, 4})});
  BOOST_TEST(as_sorted(def_use(st4).uses) == (std::vector<uint32_t>{1, 2, 3, 4, 9}));
  BOOST_TEST(def_use(st4).defs.size() == 0);
}

BOOST_AUTO_TEST_CASE(def_use_vector_load_writes_elements_skipping_sinks) {
  Instr ld = make(Op::Ld, {B::V({1, 2, kNoReg, 4}), B::A(8, 16)});
  ld.vec = 4;
  DefUse du = def_use(ld);
  BOOST_TEST(as_sorted(du.defs) == (std::vector<uint32_t>{1, 2, 4}));
  BOOST_TEST(as_sorted(du.uses) == (std::vector<uint32_t>{8}));
  // Absolute address: no base register.
  Instr ldp = make(Op::Ld, {B::R(5), B::A(kNoReg, 8)});
  BOOST_TEST(def_use(ldp).uses.size() == 0);
  BOOST_TEST(as_sorted(def_use(ldp).defs) == (std::vector<uint32_t>{5}));
}

BOOST_AUTO_TEST_CASE(def_use_setp_pair_and_guard) {
  // @%p9 setp.lt.and.s32 %p1|%p2, %r3, %r4, !%p5
  Instr s = make(Op::Setp, {B::R(1), B::R(3), B::R(4), B::R(5)});
  s.ops[3].neg = true;
  s.pout = B::R(2);
  s.guard = B::R(9);
  DefUse du = def_use(s);
  BOOST_TEST(as_sorted(du.defs) == (std::vector<uint32_t>{1, 2}));
  BOOST_TEST(as_sorted(du.uses) == (std::vector<uint32_t>{3, 4, 5, 9}));
  BOOST_TEST(du.partial_defs);
  // selp d, a, b, c reads c; duplicates are listed once.
  Instr sel = make(Op::Selp, {B::R(0), B::R(3), B::R(3), B::R(6)});
  BOOST_TEST(as_sorted(def_use(sel).uses) == (std::vector<uint32_t>{3, 6}));
  BOOST_TEST(!def_use(sel).partial_defs);
}

BOOST_AUTO_TEST_CASE(def_use_atomics_barriers_and_control) {
  Instr atom = make(Op::Atom, {B::R(1), B::A(2), B::R(3)});
  BOOST_TEST(as_sorted(def_use(atom).defs) == (std::vector<uint32_t>{1}));
  BOOST_TEST(as_sorted(def_use(atom).uses) == (std::vector<uint32_t>{2, 3}));
  Instr cas = make(Op::Atom, {B::R(1), B::A(2), B::R(3), B::R(4)});
  BOOST_TEST(as_sorted(def_use(cas).uses) == (std::vector<uint32_t>{2, 3, 4}));
  Instr red = make(Op::Red, {B::A(2), B::R(3)});
  BOOST_TEST(def_use(red).defs.size() == 0);
  BOOST_TEST(as_sorted(def_use(red).uses) == (std::vector<uint32_t>{2, 3}));
  Instr bar = make(Op::Bar, {B::I(0)});
  BOOST_TEST(def_use(bar).defs.size() == 0);
  Instr bar_red = make(Op::Bar, {B::R(1), B::I(0), B::R(7)});
  bar_red.flags |= kRedBar;
  BOOST_TEST(as_sorted(def_use(bar_red).defs) == (std::vector<uint32_t>{1}));
  BOOST_TEST(as_sorted(def_use(bar_red).uses) == (std::vector<uint32_t>{7}));
  Instr bra = make(Op::Bra, {});
  bra.ops[0].kind = Operand::Kind::Label;
  bra.nops = 1;
  bra.guard = B::R(4);
  BOOST_TEST(as_sorted(def_use(bra).uses) == (std::vector<uint32_t>{4}));
  BOOST_TEST(def_use(bra).defs.size() == 0);
  Instr call = make(Op::Call, {});
  BOOST_TEST(def_use(call).uses.size() == 0);
  BOOST_TEST(def_use(call).defs.size() == 0);
  Instr sust = make(Op::Sust, {B::A(1), B::V({2, 3}), B::V({4})});
  BOOST_TEST(def_use(sust).defs.size() == 0);
  BOOST_TEST(as_sorted(def_use(sust).uses) == (std::vector<uint32_t>{1, 2, 3, 4}));
  Instr mov = make(Op::Mov, {B::R(1), B::S(Sreg::TidX)});
  BOOST_TEST(as_sorted(def_use(mov).defs) == (std::vector<uint32_t>{1}));
  BOOST_TEST(def_use(mov).uses.size() == 0);
}

BOOST_AUTO_TEST_CASE(value_defined_before_loop_is_live_around_back_edge) {
  B b;
  uint32_t n = b.reg("%r0"), i = b.reg("%r1"), acc = b.reg("%r2"), a = b.reg("%rd0", simt::ptx::Type::B64),
           p0 = b.reg("%p0", simt::ptx::Type::Pred), tmp = b.reg("%r3");
  b.op(Op::Ld, {B::R(n), B::A(kNoReg, 0)}, "ld.param.u32", Space::Param);  // 0
  b.op(Op::Ld, {B::R(a), B::A(kNoReg, 8)}, "ld.param.u64", Space::Param);  // 1
  b.op(Op::Mov, {B::R(i), B::I(0)});                                       // 2
  b.op(Op::Mov, {B::R(acc), B::I(0)});                                     // 3
  b.label("HEAD");
  b.op(Op::Mul, {B::R(tmp), B::R(i), B::R(n)});                            // 4
  b.op(Op::Add, {B::R(acc), B::R(acc), B::R(tmp)});                        // 5
  b.op(Op::Add, {B::R(i), B::R(i), B::I(1)});                              // 6
  b.op(Op::Setp, {B::R(p0), B::R(i), B::R(n)});                            // 7
  b.bra("HEAD", p0);                                                       // 8
  b.op(Op::St, {B::A(a), B::R(acc)}, "st.global.u32", Space::Global);      // 9
  b.exit();                                                                // 10
  Program p = b.build();
  Cfg cfg(p);
  Liveness live(p, cfg);
  const uint32_t pre = cfg.block_of(0), loop = cfg.block_of(4), post = cfg.block_of(9);
  BOOST_TEST(live.live_in_count(pre) == 0u);
  BOOST_TEST(live.live_out_regs(pre) == (std::vector<uint32_t>{n, i, acc, a}));
  // n is used in the loop, defined before it: live in and out of the loop block (back edge).
  BOOST_TEST(live.is_live_in(loop, n));
  BOOST_TEST(live.is_live_out(loop, n));
  BOOST_TEST(live.is_live_out(loop, i));
  BOOST_TEST(live.is_live_out(loop, a));  // used after the loop
  BOOST_TEST(!live.is_live_in(loop, tmp));  // defined before use in the block
  BOOST_TEST(!live.is_live_out(loop, p0));
  BOOST_TEST(live.live_in_regs(post) == (std::vector<uint32_t>{acc, a}));
  BOOST_TEST(live.live_out_count(post) == 0u);
  BOOST_TEST(live.words() == 1u);
}

BOOST_AUTO_TEST_CASE(guarded_definition_does_not_kill) {
  B b;
  uint32_t r1 = b.reg("%r1"), r2 = b.reg("%r2"), p0 = b.reg("%p0", simt::ptx::Type::Pred);
  b.op(Op::Setp, {B::R(p0), B::R(r2), B::I(0)});  // 0
  b.op(Op::Mov, {B::R(r1), B::I(5)});             // 1
  b.guard_last(p0);
  b.op(Op::St, {B::A(r2), B::R(r1)}, "st", Space::Global);  // 2
  b.op(Op::Mov, {B::R(r2), B::I(1)});             // 3 unguarded, after the uses
  b.exit();
  Program p = b.build();
  Cfg cfg(p);
  Liveness live(p, cfg);
  BOOST_TEST(live.is_live_in(0, r1));   // threads with !p0 store the old r1
  BOOST_TEST(live.is_live_in(0, r2));
  BOOST_TEST(!live.is_live_in(0, p0));
}

BOOST_AUTO_TEST_CASE(functions_do_not_interfere_and_many_registers) {
  B b;
  std::vector<uint32_t> regs;
  for (int k = 0; k < 70; ++k) regs.push_back(b.reg("%r" + std::to_string(k)));
  uint32_t p0 = b.reg("%p0", simt::ptx::Type::Pred);
  // Entry: r0 defined, call f, r0 used afterwards: live across the call within the block.
  b.op(Op::Mov, {B::R(regs[0]), B::I(1)});                        // 0
  b.op(Op::Setp, {B::R(p0), B::R(regs[0]), B::I(1)});             // 1
  b.bra("SKIP", p0);                                              // 2
  b.call("f");                                                    // 3
  b.label("SKIP");
  b.op(Op::St, {B::A(regs[0]), B::R(regs[0])}, "st", Space::Global);  // 4
  b.exit();                                                       // 5
  b.func("f");
  b.op(Op::Add, {B::R(regs[69]), B::R(regs[68]), B::I(1)});       // 6 r68 read before any write
  b.op(Op::St, {B::A(regs[65]), B::R(regs[69])}, "st", Space::Global);  // 7
  b.ret();                                                        // 8
  Program p = b.build();
  Cfg cfg(p);
  Liveness live(p, cfg);
  BOOST_TEST(live.words() == 2u);
  const uint32_t callblk = cfg.block_of(3), fblk = cfg.block_of(6);
  BOOST_TEST(live.live_in_regs(callblk) == (std::vector<uint32_t>{regs[0]}));
  BOOST_TEST(live.live_out_regs(callblk) == (std::vector<uint32_t>{regs[0]}));
  BOOST_TEST(live.live_in_regs(fblk) == (std::vector<uint32_t>{regs[65], regs[68]}));
  BOOST_TEST(live.live_out_count(fblk) == 0u);
  // f's registers never show up in the entry.
  for (uint32_t blk = 0; blk < cfg.func_end_block(0); ++blk) {
    BOOST_TEST(!live.is_live_in(blk, regs[68]));
    BOOST_TEST(!live.is_live_out(blk, regs[65]));
  }
}

// A kernel that declares no registers has empty live sets; building them and
// reading them must not touch memory that is not there (UBSan found a null
// reference here when the register file was empty).
BOOST_AUTO_TEST_CASE(kernel_without_registers_has_empty_live_sets) {
  const Module m = parse(".version 8.0\n.target sm_75\n.address_size 64\n"
                         ".visible .entry k()\n{\n  ret;\n}\n",
                         "noregs.ptx");
  const Program p = link(m, "k", SymbolAddresses(m.globals.size()));
  BOOST_TEST(p.num_regs() == 0u);
  const Cfg cfg(p);
  const Liveness live(p, cfg);
  BOOST_TEST(live.words() == 0u);
  for (uint32_t b = 0; b < cfg.blocks().size(); ++b) {
    BOOST_TEST(live.live_in_count(b) == 0u);
    BOOST_TEST(live.live_out_regs(b).empty());
    BOOST_TEST(!live.is_live_in(b, 0));
  }
}
