// If-conversion in the VGIW compiler pass (issue 37 item 4, if_conversion.h):
// triangles and diamonds become predicated straight-line code, guards inside
// an arm are conjoined with the arm's predicate, the size limit decides,
// limit 0 changes nothing, and regions with barriers, exits or loops stay
// branches. On nvcc's workload kernels the blocks get fewer.
#define BOOST_TEST_MODULE vgiw_if_conversion
#include <boost/test/unit_test.hpp>

#include <string>

#include "ptx/cfg.h"
#include "ptx/cfg_real_ptx.h"
#include "ptx/register_slots.h"
#include "util/error.h"
#include "vgiw/compiled_kernel.h"
#include "vgiw/compiler.h"

using namespace simt;
using ptx::Op;

namespace {

struct Compiled : test::CompiledKernel {
  Compiled(const std::string& body, uint32_t limit) : CompiledKernel(body, limit) {}
  const ptx::Program& q() const { return code(); }
  size_t blocks() const { return c->blocks().size(); }
  size_t count(Op op) const {
    size_t n = 0;
    for (const ptx::Instr& in : q().code) n += in.op == op;
    return n;
  }
  // The first instruction with `op` at or after `from`.
  const ptx::Instr& find(Op op, uint32_t from = 0) const {
    for (uint32_t pc = from; pc < q().code.size(); ++pc)
      if (q().code[pc].op == op) return q().code[pc];
    throw std::logic_error("no such instruction");
  }
};

bool guard_is(const ptx::Instr& in, uint32_t reg, bool neg) {
  return in.guard.kind == ptx::Operand::Kind::Reg && in.guard.reg == reg && in.guard.neg == neg;
}

// The end of every kernel here: out[tid] = %r2.
const std::string kStoreR2 = R"(
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

const std::string kDiamond = R"(
.visible .entry k(.param .u64 out) {
  .reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra THEN;
  mul.lo.u32 %r2, %r1, 3;
  bra.uni JOIN;
THEN:
  add.u32 %r2, %r1, 7;
JOIN:)" + kStoreR2;

// `arm` between `@%p1 bra L;` and `L:` of a kernel that stores %r2 afterwards.
std::string triangle_with(const std::string& arm) {
  return R"(
.visible .entry k(.param .u64 out) {
  .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>; .shared .align 4 .b32 s[32];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 5;
  setp.lt.u32 %p1, %r1, 16;
  setp.gt.u32 %p2, %r1, 3;
  @%p1 bra L;
)" + arm + R"(
L:)" + kStoreR2;
}

// A triangle with a two-instruction arm (the fall-through, for %p1 false).
const std::string kTriangle = triangle_with("  add.u32 %r2, %r1, 7;\n  mul.lo.u32 %r2, %r2, 3;");

}  // namespace

BOOST_AUTO_TEST_CASE(a_triangle_becomes_one_block_of_guarded_code) {
  const Compiled off(kTriangle, 0), on(kTriangle, 8);
  BOOST_TEST(off.blocks() == 3u);
  BOOST_TEST(on.blocks() == 1u);
  BOOST_TEST(on.count(Op::Bra) == 0u);
  BOOST_TEST(on.q().code.size() == off.q().code.size() - 1);  // the branch is gone, nothing added
  // The arm runs for the threads that did not branch: under !%p1.
  const uint32_t p1 = on.reg("%p1");
  const ptx::Instr& add = on.find(Op::Add);
  const ptx::Instr& mul = on.find(Op::Mul);
  BOOST_TEST(guard_is(add, p1, true));
  BOOST_TEST(guard_is(mul, p1, true));
  BOOST_TEST(on.c->if_conversion().triangles == 1u);
  BOOST_TEST(on.c->if_conversion().branches_removed == 1u);
  // The guarded writes keep %r2's old value for the other threads: one
  // FP-ALU node each, in the block's graph.
  BOOST_TEST(on.c->blocks()[0].graph.needs()[vgiw::Unit::FpAlu] >= 4u);
  BOOST_TEST(on.c->blocks()[0].exits);
}

BOOST_AUTO_TEST_CASE(a_diamond_guards_each_arm_with_its_side_of_the_predicate) {
  const Compiled off(kDiamond, 0), on(kDiamond, 8);
  BOOST_TEST(off.blocks() == 4u);
  BOOST_TEST(on.blocks() == 1u);
  BOOST_TEST(on.count(Op::Bra) == 0u);  // both the guarded branch and the jump over the else arm
  const uint32_t p1 = on.reg("%p1");
  BOOST_TEST(guard_is(on.find(Op::Mul), p1, true));   // fall-through arm: %p1 false
  BOOST_TEST(guard_is(on.find(Op::Add), p1, false));  // taken arm: %p1 true
  BOOST_TEST(on.c->if_conversion().diamonds == 1u);
  BOOST_TEST(on.c->if_conversion().branches_removed == 2u);
}

BOOST_AUTO_TEST_CASE(a_guard_inside_an_arm_is_conjoined_with_the_arm_predicate) {
  const Compiled on(triangle_with("  @!%p2 add.u32 %r2, %r1, 7;"), 8);
  BOOST_TEST(on.blocks() == 1u);
  const ptx::Instr& conj = on.find(Op::And);
  BOOST_TEST((conj.type == ptx::Type::Pred));
  const uint32_t p1 = on.reg("%p1"), p2 = on.reg("%p2"), t = on.reg("%<if>1");
  BOOST_TEST(conj.ops[0].reg == t);
  BOOST_TEST((conj.ops[1].reg == p1 && conj.ops[1].neg));   // the arm: !%p1
  BOOST_TEST((conj.ops[2].reg == p2 && conj.ops[2].neg));   // the instruction's own !%p2
  BOOST_TEST(guard_is(on.find(Op::Add), t, false));
  BOOST_TEST(on.c->if_conversion().added == 1u);
  // The conjunction is a node on an FP-ALU like any ALU op: setp x2, and, add.
  BOOST_TEST(on.c->blocks()[0].graph.needs()[vgiw::Unit::FpAlu] >= 4u);
}

BOOST_AUTO_TEST_CASE(an_arm_that_rewrites_the_branch_predicate_reads_a_copy) {
  // The then arm sets %p1; the else arm must still see %p1 as it was at the branch.
  const Compiled on(R"(
.visible .entry k(.param .u64 out) {
  .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra THEN;
  setp.eq.u32 %p1, %r1, 20;
  mov.u32 %r2, 1;
  bra.uni JOIN;
THEN:
  mov.u32 %r2, 2;
JOIN:
  selp.u32 %r3, %r2, 0, %p1;
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r3;
  ret;
}
)",
                    8);
  BOOST_TEST(on.blocks() == 1u);
  const uint32_t p1 = on.reg("%p1"), s = on.reg("%<if>1");
  const ptx::Instr& copy = on.q().code.at(2);
  BOOST_TEST((copy.op == Op::Mov && copy.type == ptx::Type::Pred && copy.ops[1].reg == p1 && copy.ops[0].reg == s));
  BOOST_TEST(guard_is(on.find(Op::Setp, 3), s, true));
  BOOST_TEST(guard_is(on.q().code.at(5), s, false));  // the else arm's mov
}

BOOST_AUTO_TEST_CASE(nested_triangles_convert_inside_out) {
  const Compiled on(triangle_with(R"(  @%p2 bra M;
  add.u32 %r2, %r1, 7;
M:
  mul.lo.u32 %r2, %r2, 3;)"),
                    8);
  BOOST_TEST(on.blocks() == 1u);
  BOOST_TEST(on.c->if_conversion().triangles == 2u);
  // The inner triangle guards add with !%p2; the outer one conjoins it with
  // its arm !%p1: and.pred %<if>1, !%p1, !%p2.
  const ptx::Instr& conj = on.find(Op::And);
  BOOST_TEST((conj.ops[1].reg == on.reg("%p1") && conj.ops[1].neg && conj.ops[2].reg == on.reg("%p2")));
  BOOST_TEST(guard_is(on.find(Op::Add), on.reg("%<if>1"), false));
  BOOST_TEST(guard_is(on.find(Op::Mul), on.reg("%p1"), true));
}

BOOST_AUTO_TEST_CASE(the_size_limit_counts_the_converted_instructions) {
  const std::string k = triangle_with("  add.u32 %r2, %r1, 7;\n  @%p2 mul.lo.u32 %r2, %r2, 3;");
  // add, and.pred, mul: 3 instructions once converted.
  const Compiled two(k, 2), three(k, 3), zero(k, 0);
  BOOST_TEST(zero.blocks() == 3u);
  BOOST_TEST(two.blocks() == 3u);
  BOOST_TEST(two.count(Op::Bra) == 1u);
  BOOST_TEST(three.blocks() == 1u);
  BOOST_TEST(three.count(Op::Bra) == 0u);
}

BOOST_AUTO_TEST_CASE(limit_zero_leaves_the_program_as_it_is) {
  for (const std::string& body : {kTriangle, kDiamond}) {
    const Compiled off(body, 0);
    BOOST_TEST(off.q().code.size() == off.p.code.size());
    BOOST_TEST(off.q().regs.size() == off.p.regs.size());
    for (size_t pc = 0; pc < off.p.code.size(); ++pc) {
      BOOST_TEST((off.q().code[pc].op == off.p.code[pc].op));
      BOOST_TEST((off.q().code[pc].guard.kind == off.p.code[pc].guard.kind));
    }
    BOOST_TEST(off.c->if_conversion().branches_removed == 0u);
  }
}

BOOST_AUTO_TEST_CASE(barriers_exits_and_loops_stay_branches) {
  const std::vector<std::string> arms = {
      "  add.u32 %r2, %r1, 7;\n  bar.sync 0;",             // a barrier
      "  add.u32 %r2, %r1, 7;\n  exit;",                   // a thread's end
      "  add.u32 %r2, %r1, 7;\n  ret;",
      "  mov.u32 %r2, 0;\nLOOP:\n  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p2, %r2, %r1;\n  @%p2 bra LOOP;",  // a loop
  };
  for (const std::string& arm : arms) {
    const Compiled off(triangle_with(arm), 0), on(triangle_with(arm), 16);
    BOOST_TEST(on.blocks() == off.blocks(), arm);
    BOOST_TEST(on.count(Op::Bra) == off.count(Op::Bra), arm);
    BOOST_TEST(on.c->if_conversion().branches_removed == 0u, arm);
  }
  // A back edge into an arm: the arm has a second entry.
  const std::string entered = R"(
.visible .entry k(.param .u64 out) {
  .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra L;
ARM:
  add.u32 %r2, %r2, 1;
L:
  setp.lt.u32 %p2, %r2, %r1;
  @%p2 bra ARM;
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r2;
  ret;
}
)";
  const Compiled off(entered, 0), on(entered, 16);
  BOOST_TEST(on.blocks() == off.blocks());
  BOOST_TEST(on.c->if_conversion().branches_removed == 0u);
}

BOOST_AUTO_TEST_CASE(predicated_stores_and_loads_convert) {
  const Compiled on(triangle_with("  st.shared.u32 [s], %r1;\n  ld.shared.u32 %r2, [s+4];"), 8);
  BOOST_TEST(on.blocks() == 1u);
  const uint32_t p1 = on.reg("%p1");
  BOOST_TEST(guard_is(on.find(Op::St), p1, true));
  BOOST_TEST(guard_is(on.find(Op::Ld), p1, true));
}

// nvcc's workload kernels: if-conversion only removes blocks, and does on most.
BOOST_AUTO_TEST_CASE(workload_kernels_have_fewer_blocks) {
  size_t before = 0, after = 0, kernels = 0;
  for (const std::string& file : test::workload_ptx_files())
    for (const ptx::Program& p : test::link_all_entries(file)) {
      vgiw::CompilerOptions off;
      off.if_convert_limit = 0;
      std::unique_ptr<vgiw::Compilation> a, b;
      try {
        a = std::make_unique<vgiw::Compilation>(p, off);
      } catch (const Error&) {  // warp-level instructions: refused either way
        BOOST_CHECK_THROW(vgiw::Compilation{p}, Error);
        continue;
      }
      b = std::make_unique<vgiw::Compilation>(p);
      ++kernels;
      // Splits aside (larger blocks may need more), the CFG has fewer blocks.
      BOOST_TEST(b->blocks().size() - b->splits() <= a->blocks().size() - a->splits(), p.kernel);
      BOOST_TEST(b->program().code.size() <= a->program().code.size() + b->if_conversion().added, p.kernel);
      before += a->blocks().size() - a->splits();
      after += b->blocks().size() - b->splits();
    }
  BOOST_TEST(kernels >= 10u);
  BOOST_TEST(after < before);
}

// The device shares register rows by the kernel's liveness (ptx/register_slots.h):
// %p1 dies at the branch and %r3 is born in the arm, so they may share a row.
// Once converted, the arm reads %p1 after writing %r3: their rows must differ.
BOOST_AUTO_TEST_CASE(register_rows_are_shared_again_after_conversion) {
  ptx::Program p = test::linked_kernel(triangle_with("  add.u32 %r3, %r1, 1;\n  add.u32 %r2, %r3, %r3;"));
  ptx::share_register_slots(p, ptx::Cfg(p));
  using test::reg_of;
  BOOST_TEST_REQUIRE(p.reg_slot[reg_of(p, "%p1")] == p.reg_slot[reg_of(p, "%r3")]);  // shared before
  const vgiw::Compilation c(p);
  const ptx::Program& q = c.program();
  BOOST_TEST(c.if_conversion().triangles == 1u);
  BOOST_TEST(q.reg_slot.size() == q.regs.size());
  BOOST_TEST(q.reg_slot[reg_of(q, "%p1")] != q.reg_slot[reg_of(q, "%r3")]);
}
