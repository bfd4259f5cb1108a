#define BOOST_TEST_MODULE parser
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstring>
#include <string>

#include "ptx/parser.h"
#include "util/error.h"

using namespace simt::ptx;

namespace {

const std::string kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// Wraps a body in a kernel with a few registers of each kind.
std::string kernel(const std::string& body, const std::string& extra_decls = "") {
  return kHeader + extra_decls +
         ".visible .entry k(.param .u64 k_p0, .param .u32 k_p1)\n{\n"
         ".reg .pred %p<4>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<16>;\n.reg .f32 %f<8>;\n"
         ".reg .b64 %rd<8>;\n.reg .f64 %fd<4>;\n" +
         body + "\n}\n";
}

const Function& entry_of(const Module& m) {
  for (const auto& f : m.functions)
    if (f.is_entry) return f;
  BOOST_FAIL("no entry");
  return m.functions.front();
}

// Parses a kernel with one instruction and returns it.
Instr one(const std::string& instr) {
  static Module keep;
  keep = parse(kernel(instr), "one.ptx");
  const Function& f = entry_of(keep);
  BOOST_REQUIRE_EQUAL(f.code.size(), 1u);
  return f.code[0];
}

uint32_t reg_index(const Function& f, const std::string& name) {
  for (uint32_t i = 0; i < f.regs.size(); ++i)
    if (f.regs[i].name == name) return i;
  BOOST_FAIL("no register " + name);
  return 0;
}

// Expects a BadInput error whose message contains `part`.
void expect_error(const std::string& text, const std::string& part) {
  try {
    parse(text, "bad.ptx");
  } catch (const simt::Error& e) {
    BOOST_CHECK(e.code() == simt::ExitCode::BadInput);
    BOOST_CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos,
                        "message '" << e.what() << "' lacks '" << part << "'");
    return;
  }
  BOOST_ERROR("no error for: " << text);
}

double f64_of(int64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}

}  // namespace

BOOST_AUTO_TEST_CASE(header_and_comments) {
  Module m = parse("// line comment\n/* block\ncomment */ .version 8.5\n.target sm_80, debug\n"
                   ".address_size 64\n.visible .entry e() { /* inner */ ret; // tail\n }\n",
                   "h.ptx");
  BOOST_CHECK_EQUAL(m.version, "8.5");
  BOOST_CHECK_EQUAL(m.target, "sm_80");
  BOOST_CHECK_EQUAL(m.address_size, 64u);
  BOOST_REQUIRE_EQUAL(m.functions.size(), 1u);
  BOOST_CHECK(m.functions[0].visible);
  BOOST_CHECK_EQUAL(m.functions[0].code.size(), 1u);
  BOOST_CHECK(m.functions[0].code[0].op == Op::Ret);
}

BOOST_AUTO_TEST_CASE(register_declarations) {
  Module m = parse(kernel(".reg .b32 a, b, c;\nadd.s32 a, b, c;"), "r.ptx");
  const Function& f = entry_of(m);
  BOOST_CHECK_EQUAL(f.regs.size(), 4u + 4 + 16 + 8 + 8 + 4 + 3);
  uint32_t r15 = reg_index(f, "%r15");
  BOOST_CHECK(f.regs[r15].type == Type::B32);
  BOOST_CHECK(f.regs[reg_index(f, "%p3")].type == Type::Pred);
  BOOST_CHECK(f.regs[reg_index(f, "%fd0")].type == Type::F64);
  const Instr& in = f.code[0];
  BOOST_CHECK_EQUAL(in.ops[0].reg, reg_index(f, "a"));
  BOOST_CHECK_EQUAL(in.ops[2].reg, reg_index(f, "c"));
}

BOOST_AUTO_TEST_CASE(params_and_performance_directives) {
  Module m = parse(kHeader +
                       ".visible .entry e(.param .u64 .ptr .global .align 4 e_p0, .param .align 8 .b8 e_p1[24], "
                       ".param .f32 e_p2)\n.maxntid 256, 1, 1\n.reqntid 128\n.minnctapersm 2\n.maxnreg 64\n"
                       "{ ret; }\n"
                       ".func (.param .align 4 .b8 rv[12]) g(.param .b32 g_a) { ret; }\n",
                   "p.ptx");
  const Function& e = *m.find("e");
  BOOST_REQUIRE_EQUAL(e.params.size(), 3u);
  BOOST_CHECK(e.params[0].is_ptr);
  BOOST_CHECK_EQUAL(e.params[0].align, 4u);
  BOOST_CHECK(e.params[0].type == Type::U64);
  BOOST_CHECK_EQUAL(e.params[1].align, 8u);
  BOOST_CHECK_EQUAL(e.params[1].size_bytes(), 24u);
  BOOST_CHECK(e.params[2].type == Type::F32);
  BOOST_CHECK_EQUAL(e.maxntid[0], 256u);
  BOOST_CHECK_EQUAL(e.maxntid[1], 1u);
  BOOST_CHECK_EQUAL(e.reqntid[0], 128u);
  BOOST_CHECK_EQUAL(e.reqntid[2], 1u);
  BOOST_CHECK_EQUAL(e.minnctapersm, 2u);
  BOOST_CHECK_EQUAL(e.maxnreg, 64u);
  const Function& g = *m.find("g");
  BOOST_CHECK(!g.is_entry);
  BOOST_REQUIRE_EQUAL(g.rets.size(), 1u);
  BOOST_CHECK_EQUAL(g.rets[0].size_bytes(), 12u);
  BOOST_CHECK_EQUAL(g.params[0].name, "g_a");
}

BOOST_AUTO_TEST_CASE(variables_and_initialisers) {
  Module m = parse(kHeader +
                       ".global .align 4 .u32 counter = 5;\n"
                       ".const .align 4 .b8 bytes[8] = {1, 2, 3};\n"
                       ".global .f32 fl[3] = {1.5, 0f40000000, -2};\n"
                       ".global .f64 d1 = 0d3FF8000000000000;\n"
                       ".global .s32 arr[] = {-1, 7};\n"
                       ".global .u16 mat[2][2] = {{1, 2}, {3, 4}};\n"
                       ".extern .shared .align 16 .b8 dyn[];\n"
                       ".shared .align 8 .b8 tile[256];\n"
                       ".global .texref tref;\n"
                       ".visible .entry e() { ret; }\n",
                   "v.ptx");
  BOOST_REQUIRE_EQUAL(m.globals.size(), 9u);
  const Variable& c = m.globals[0];
  BOOST_CHECK(c.space == Space::Global);
  BOOST_CHECK_EQUAL(c.align, 4u);
  BOOST_CHECK((c.init == std::vector<uint8_t>{5, 0, 0, 0}));
  const Variable& b = m.globals[1];
  BOOST_CHECK(b.space == Space::Const);
  BOOST_CHECK_EQUAL(b.size_bytes(), 8u);
  BOOST_CHECK((b.init == std::vector<uint8_t>{1, 2, 3}));  // shorter than the array: rest is zero
  const Variable& fl = m.globals[2];
  BOOST_REQUIRE_EQUAL(fl.init.size(), 12u);
  float vals[3];
  std::memcpy(vals, fl.init.data(), 12);
  BOOST_CHECK_EQUAL(vals[0], 1.5f);
  BOOST_CHECK_EQUAL(vals[1], 2.0f);
  BOOST_CHECK_EQUAL(vals[2], -2.0f);
  double d;
  std::memcpy(&d, m.globals[3].init.data(), 8);
  BOOST_CHECK_EQUAL(d, 1.5);
  BOOST_CHECK_EQUAL(m.globals[4].count, 2u);  // size from the initialiser
  BOOST_CHECK((m.globals[4].init == std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0}));
  BOOST_CHECK_EQUAL(m.globals[5].count, 4u);
  BOOST_CHECK((m.globals[5].init == std::vector<uint8_t>{1, 0, 2, 0, 3, 0, 4, 0}));
  BOOST_CHECK(m.globals[6].is_extern);
  BOOST_CHECK(m.globals[6].space == Space::Shared);
  BOOST_CHECK_EQUAL(m.globals[6].count, 0u);
  BOOST_CHECK_EQUAL(m.globals[7].size_bytes(), 256u);
  BOOST_CHECK(m.globals[8].space == Space::Tex);
}

BOOST_AUTO_TEST_CASE(address_initialisers) {
  // Forms the PTX ISA gives (5.4.4): generic(sym), generic(sym)+N, sym, sym+N;
  // the symbol may be declared further down.
  Module m = parse(kHeader +
                       ".global .align 1 .b8 $str[3] = {97, 98};\n"
                       ".global .align 8 .u64 table[3] = {generic($str), generic(later)+8, 0};\n"
                       ".global .align 8 .u64 q = later + 4 + 0x10;\n"
                       ".const .align 8 .u64 r[] = {7, generic(c)+8};\n"
                       ".global .align 4 .u32 w = generic(c);\n"
                       ".global .align 8 .u64 later[4];\n"
                       ".const .align 8 .u64 c = 5;\n"
                       ".visible .entry e() { ret; }\n",
                   "a.ptx");
  BOOST_REQUIRE_EQUAL(m.globals.size(), 7u);
  const Variable& table = m.globals[1];
  BOOST_CHECK_EQUAL(table.count, 3u);
  BOOST_CHECK((table.init == std::vector<uint8_t>(24, 0)));  // the loader patches the addresses in
  BOOST_REQUIRE_EQUAL(table.addr_inits.size(), 2u);
  BOOST_CHECK_EQUAL(table.addr_inits[0].offset, 0u);
  BOOST_CHECK_EQUAL(table.addr_inits[0].symbol, "$str");
  BOOST_CHECK_EQUAL(table.addr_inits[0].addend, 0);
  BOOST_CHECK(table.addr_inits[0].generic);
  BOOST_CHECK_EQUAL(table.addr_inits[1].offset, 8u);
  BOOST_CHECK_EQUAL(table.addr_inits[1].symbol, "later");
  BOOST_CHECK_EQUAL(table.addr_inits[1].addend, 8);
  const Variable& q = m.globals[2];
  BOOST_REQUIRE_EQUAL(q.addr_inits.size(), 1u);
  BOOST_CHECK(!q.addr_inits[0].generic);
  BOOST_CHECK_EQUAL(q.addr_inits[0].addend, 20);
  BOOST_CHECK((q.init == std::vector<uint8_t>(8, 0)));
  const Variable& r = m.globals[3];
  BOOST_CHECK(r.space == Space::Const);
  BOOST_CHECK_EQUAL(r.count, 2u);  // an unsized array counts address elements too
  BOOST_CHECK((r.init == std::vector<uint8_t>{7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  BOOST_REQUIRE_EQUAL(r.addr_inits.size(), 1u);
  BOOST_CHECK_EQUAL(r.addr_inits[0].offset, 8u);
  BOOST_CHECK_EQUAL(r.addr_inits[0].symbol, "c");
  BOOST_CHECK_EQUAL(r.addr_inits[0].addend, 8);
  const Variable& w = m.globals[4];
  BOOST_CHECK_EQUAL(w.init.size(), 4u);  // a 32-bit slot
  BOOST_REQUIRE_EQUAL(w.addr_inits.size(), 1u);
  BOOST_CHECK(m.globals[5].addr_inits.empty());
}

BOOST_AUTO_TEST_CASE(function_pointer_initialisers_parse) {
  // A table of function pointers (CUDA's `__device__ op_t ops[] = {f, g};`),
  // the function declared before or after the table.
  Module m = parse(kHeader + ".func f() { ret; }\n.global .align 8 .u64 ops[2] = {f, generic(g)};\n"
                             ".func g() { ret; }\n",
                   "fp.ptx");
  const Variable& ops = m.globals[0];
  BOOST_REQUIRE_EQUAL(ops.addr_inits.size(), 2u);
  BOOST_CHECK_EQUAL(ops.addr_inits[0].symbol, "f");
  BOOST_CHECK_EQUAL(ops.addr_inits[1].symbol, "g");
  BOOST_CHECK_EQUAL(ops.addr_inits[1].offset, 8u);
  expect_error(kHeader + ".global .u64 p = generic(nof);\n", "undefined symbol 'nof' in the initialiser of 'p'");
}

BOOST_AUTO_TEST_CASE(zero_in_a_vector_reads_a_hidden_zero_register) {
  Module m = parse(kHeader + ".visible .entry k()\n{\n.reg .b16 %rs<3>;\n.reg .b32 %r<3>;\n"
                             "mov.b32 %r1, {0, %rs1};\nmov.b32 %r2, {%rs2, 0x0};\nret;\n}\n",
                   "z.ptx");
  const Function& f = m.functions[0];
  const uint32_t z = f.code[0].ops[1].vec[0];
  BOOST_REQUIRE_LT(z, f.regs.size());
  BOOST_CHECK_EQUAL(f.regs[z].name, kZeroRegName);
  BOOST_CHECK_EQUAL(f.code[1].ops[1].vec[1], z);  // one per function
  BOOST_CHECK_NE(f.code[0].ops[1].vec[1], z);
  expect_error(kHeader + ".visible .entry k()\n{\n.reg .b16 %rs1;\n.reg .b32 %r1;\nmov.b32 %r1, {1, %rs1};\n}\n",
               "bad operand '1' in vector (registers, '_' or 0 expected)");
}

BOOST_AUTO_TEST_CASE(address_initialiser_errors) {
  const std::string g = ".global .align 8 .u64 g[2];\n";  // line 4
  expect_error(kHeader + g + ".global .u64 p = generic(nosuch);\n", "bad.ptx:5:26: undefined symbol 'nosuch'");
  expect_error(kHeader + g + ".global .u64 p[2] = {g, nosuch+8};\n", "bad.ptx:5:25: undefined symbol 'nosuch'");
  expect_error(kHeader + g + ".global .u16 p = generic(g);\n", "bad.ptx:5:18: address initialiser in 'p': element type .u16");
  expect_error(kHeader + g + ".global .u8 p[8] = {0, g};\n", "bad.ptx:5:24: address initialiser in 'p': element type .u8");
  expect_error(kHeader + g + ".global .f64 p = g;\n", "element type .f64 cannot hold an address");
  expect_error(kHeader + g + ".global .u64 p = generic(g+8);\n", "bad.ptx:5:27: expected ')' after generic(g; an offset goes outside");
  expect_error(kHeader + g + ".shared .u64 p = g;\n", "only .global and .const variables may hold one");
  expect_error(kHeader + g + ".global .u8 p[2] = {0xFF(g), 0};\n", "bad.ptx:5:21: mask() initialisers ('0xFF(...)')");
  expect_error(kHeader + g + ".global .u64 p[1] = {g, g};\n", "bad.ptx:5:25: too many initialisers for 'p'");
}

BOOST_AUTO_TEST_CASE(immediates) {
  struct Case {
    const char* text;
    ImmKind kind;
    int64_t bits;
  } cases[] = {
      {"mov.u32 %r1, 0f3F800000;", ImmKind::F32Bits, 0x3F800000},
      {"mov.u32 %r1, -1;", ImmKind::Int, -1},
      {"mov.u32 %r1, 0x80000000;", ImmKind::Int, 0x80000000LL},
      {"mov.u32 %r1, 0X1fU;", ImmKind::Int, 31},
      {"mov.u32 %r1, 017;", ImmKind::Int, 15},
      {"mov.u32 %r1, 0b101;", ImmKind::Int, 5},
      {"mov.u32 %r1, 42U;", ImmKind::Int, 42},
      {"mov.u32 %r1, 0;", ImmKind::Int, 0},
      {"mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;", ImmKind::Int, -1},
      {"mov.f64 %fd1, 0d3FF0000000000000;", ImmKind::F64Bits, 0x3FF0000000000000LL},
  };
  for (const auto& c : cases) {
    Instr in = one(c.text);
    BOOST_TEST_CONTEXT(c.text) {
      BOOST_CHECK(in.ops[1].kind == Operand::Kind::Imm);
      BOOST_CHECK(in.ops[1].imm_kind == c.kind);
      BOOST_CHECK_EQUAL(in.ops[1].imm, c.bits);
    }
  }
  Instr a = one("mov.f64 %fd1, 1.5;");
  BOOST_CHECK(a.ops[1].imm_kind == ImmKind::F64Bits);
  BOOST_CHECK_EQUAL(f64_of(a.ops[1].imm), 1.5);
  Instr b = one("mov.f64 %fd1, 1e-3;");
  BOOST_CHECK_EQUAL(f64_of(b.ops[1].imm), 1e-3);
  Instr c = one("mov.f64 %fd1, -2.5E+2;");
  BOOST_CHECK_EQUAL(f64_of(c.ops[1].imm), -250.0);
  expect_error(kernel("mov.u32 %r1, 0x1FFFFFFFFFFFFFFFF;"), "bad number");
  expect_error(kernel("mov.u32 %r1, 0f3F80;"), "bad number");
}

BOOST_AUTO_TEST_CASE(special_registers) {
  const char* names[] = {"%tid.x", "%ctaid.y", "%laneid", "%lanemask_lt", "%clock64", "%nctaid.z", "WARP_SZ"};
  Sreg expect[] = {Sreg::TidX, Sreg::CtaidY, Sreg::Laneid, Sreg::LanemaskLt, Sreg::Clock64, Sreg::NctaidZ, Sreg::WarpSz};
  for (int i = 0; i < 7; ++i) {
    Instr in = one(std::string("mov.u32 %r1, ") + names[i] + ";");
    BOOST_CHECK(in.ops[1].kind == Operand::Kind::Sreg);
    BOOST_CHECK(in.ops[1].sreg == expect[i]);
  }
}

BOOST_AUTO_TEST_CASE(guards_pairs_vectors_addresses) {
  Module m = parse(kernel("@%p1 bra L1;\n@!%p2 add.s32 %r1, %r2, 3;\nL1:\n"
                          "shfl.sync.down.b32 %r3|%p3, %r1, 1, 31, -1;\n"
                          "ld.global.v4.u32 {%r1, _, %r3, %r4}, [%rd1+16];\n"
                          "st.shared.u32 [%rd2+-4], %r1;\n"
                          "ld.const.u32 %r5, [gv];\nld.const.u32 %r5, [gv+4];\nld.global.u32 %r6, [123];\n"
                          "setp.eq.and.s32 %p1, %r1, %r2, !%p2;\n",
                          ".const .u32 gv[2];\n"),
                   "g.ptx");
  const Function& f = entry_of(m);
  BOOST_REQUIRE_EQUAL(f.code.size(), 9u);
  const Instr& bra = f.code[0];
  BOOST_CHECK(bra.guard.kind == Operand::Kind::Reg);
  BOOST_CHECK_EQUAL(bra.guard.reg, reg_index(f, "%p1"));
  BOOST_CHECK(!bra.guard.neg);
  BOOST_CHECK(bra.ops[0].kind == Operand::Kind::Label);
  BOOST_CHECK_EQUAL(bra.ops[0].imm, 2);  // forward reference resolved to the shfl
  BOOST_CHECK(f.code[1].guard.neg);
  const Instr& sh = f.code[2];
  BOOST_CHECK(sh.pout.kind == Operand::Kind::Reg);
  BOOST_CHECK_EQUAL(sh.pout.reg, reg_index(f, "%p3"));
  BOOST_CHECK_EQUAL(sh.nops, 5);
  BOOST_CHECK(sh.mode == static_cast<uint8_t>(ShflMode::Down));
  const Instr& ld = f.code[3];
  BOOST_CHECK_EQUAL(ld.vec, 4);
  BOOST_CHECK(ld.ops[0].kind == Operand::Kind::Vec);
  BOOST_CHECK_EQUAL(ld.ops[0].vec_n, 4);
  BOOST_CHECK_EQUAL(ld.ops[0].vec[1], kNoReg);
  BOOST_CHECK_EQUAL(ld.ops[0].vec[2], reg_index(f, "%r3"));
  BOOST_CHECK(ld.ops[1].kind == Operand::Kind::Addr);
  BOOST_CHECK_EQUAL(ld.ops[1].reg, reg_index(f, "%rd1"));
  BOOST_CHECK_EQUAL(ld.ops[1].imm, 16);
  BOOST_CHECK_EQUAL(f.code[4].ops[0].imm, -4);
  const Instr& s0 = f.code[5];
  BOOST_CHECK(s0.ops[1].sym_base);
  BOOST_CHECK_EQUAL(s0.ops[1].reg, kNoReg);
  BOOST_CHECK_EQUAL(f.symbols[s0.ops[1].sym], "gv");
  BOOST_CHECK(f.symrefs[s0.ops[1].sym].kind == SymKind::Global);
  BOOST_CHECK_EQUAL(f.code[6].ops[1].imm, 4);
  BOOST_CHECK_EQUAL(f.code[6].ops[1].sym, s0.ops[1].sym);  // one symbol entry per variable
  BOOST_CHECK(!f.code[7].ops[1].sym_base);
  BOOST_CHECK_EQUAL(f.code[7].ops[1].imm, 123);
  const Instr& sp = f.code[8];
  BOOST_CHECK(sp.cmp == CmpOp::Eq);
  BOOST_CHECK(sp.bop == BoolOp::And);
  BOOST_CHECK(sp.ops[3].neg);
  BOOST_CHECK_EQUAL(f.text[3], "ld.global.v4.u32 {%r1, _, %r3, %r4}, [%rd1+16];");
  BOOST_CHECK_EQUAL(f.text[1], "@!%p2 add.s32 %r1, %r2, 3;");
  BOOST_CHECK_EQUAL(f.code[3].line, 17u);
  BOOST_CHECK_EQUAL(f.code[3].col, 1u);
}

BOOST_AUTO_TEST_CASE(scoped_call_blocks) {
  Module m = parse(kHeader +
                       ".func (.param .b32 rv) g(.param .b32 g_a, .param .b32 g_b)\n{\n.reg .b32 %r<3>;\n"
                       "ld.param.b32 %r1, [g_a];\nld.param.b32 %r2, [g_b];\nadd.s32 %r1, %r1, %r2;\n"
                       "st.param.b32 [rv], %r1;\nret;\n}\n"
                       ".visible .entry e()\n{\n.reg .b32 %r<3>;\n"
                       "{ // callseq 0\n.reg .b32 temp_param_reg;\n.param .b32 param0;\nst.param.b32 [param0+0], 1;\n"
                       ".param .b32 param1;\nst.param.b32 [param1+0], 2;\n.param .b32 retval0;\n"
                       "call.uni (retval0), \ng, \n(\nparam0, \nparam1\n);\nld.param.b32 %r1, [retval0+0];\n}\n"
                       "{\n.reg .b32 temp_param_reg;\n.param .b32 param0;\nst.param.b32 [param0+0], 3;\n"
                       ".param .b32 param1;\nst.param.b32 [param1], 4;\n.param .b32 retval0;\n"
                       "call.uni (retval0), g, (param0, param1);\nld.param.b32 %r2, [retval0];\n}\nret;\n}\n",
                   "s.ptx");
  const Function& e = *m.find("e");
  BOOST_CHECK_EQUAL(e.vars.size(), 6u);  // two sets of param0/param1/retval0
  BOOST_CHECK_EQUAL(e.regs.size(), 5u);  // %r0..2 + two scoped temp_param_reg
  BOOST_REQUIRE_EQUAL(e.calls.size(), 2u);
  const CallSite& c0 = e.calls[0];
  const CallSite& c1 = e.calls[1];
  BOOST_REQUIRE_EQUAL(c0.args.size(), 2u);
  BOOST_REQUIRE_EQUAL(c0.rets.size(), 1u);
  BOOST_CHECK(e.symrefs[c0.args[0]].kind == SymKind::Var);
  BOOST_CHECK(e.symrefs[c0.args[0]].index != e.symrefs[c1.args[0]].index);  // scoped: distinct variables
  BOOST_CHECK(e.symrefs[c0.callee_sym].kind == SymKind::Func);
  BOOST_CHECK_EQUAL(m.functions[e.symrefs[c0.callee_sym].index].name, "g");
  const Instr& call = e.code[2];
  BOOST_CHECK(call.op == Op::Call);
  BOOST_CHECK(call.flags & kUni);
  BOOST_CHECK_EQUAL(call.call_info, 0u);
  BOOST_CHECK_EQUAL(e.text[2], "call.uni (retval0), g, (param0, param1);");
  const Function& g = *m.find("g");
  BOOST_CHECK(g.symrefs[g.code[0].ops[1].sym].kind == SymKind::Param);
  BOOST_CHECK(g.symrefs[g.code[3].ops[0].sym].kind == SymKind::Ret);
}

BOOST_AUTO_TEST_CASE(modifier_decoding) {
  Instr a = one("ld.global.nc.L1::no_allocate.v2.f32 {%f1, %f2}, [%rd1];");
  BOOST_CHECK(a.op == Op::Ld);
  BOOST_CHECK(a.space == Space::Global);
  BOOST_CHECK(a.flags & kNc);
  BOOST_CHECK_EQUAL(a.vec, 2);
  BOOST_CHECK(a.type == Type::F32);
  BOOST_CHECK(a.cls == InstrClass::Ldst);
  Instr b = one("cvt.rzi.s32.f32 %r1, %f1;");
  BOOST_CHECK(b.rnd == Rnd::Rzi);
  BOOST_CHECK(b.type == Type::S32);
  BOOST_CHECK(b.type2 == Type::F32);
  BOOST_CHECK(b.cls == InstrClass::Fp);
  Instr c = one("setp.lo.u32 %p1, %r1, %r2;");
  BOOST_CHECK(c.cmp == CmpOp::Lo);
  BOOST_CHECK(!(c.flags & kLo));
  Instr d = one("mul.lo.s32 %r1, %r2, %r3;");
  BOOST_CHECK(d.flags & kLo);
  BOOST_CHECK(d.cls == InstrClass::Int);
  BOOST_CHECK(one("mul.wide.u32 %rd1, %r2, %r3;").flags & kWide);
  BOOST_CHECK(one("mad.hi.cc.u32 %r1, %r2, %r3, %r4;").flags & kHi);
  Instr e = one("addc.cc.u32 %r1, %r2, %r3;");
  BOOST_CHECK(e.op == Op::Addc);
  BOOST_CHECK(e.flags & kCC);
  BOOST_CHECK(one("sub.cc.u32 %r1, %r2, %r3;").op == Op::Sub);
  BOOST_CHECK(one("madc.lo.u32 %r1, %r2, %r3, %r4;").op == Op::Madc);
  Instr f = one("atom.global.cas.b32 %r1, [%rd1], %r2, %r3;");
  BOOST_CHECK(f.op == Op::Atom);
  BOOST_CHECK(f.mode == static_cast<uint8_t>(AtomOp::Cas));
  BOOST_CHECK(f.space == Space::Global);
  BOOST_CHECK(one("atom.add.relaxed.gpu.u32 %r1, [%rd1], 1;").space == Space::Generic);
  Instr g = one("div.approx.ftz.f32 %f1, %f2, %f3;");
  BOOST_CHECK(g.flags & kApprox);
  BOOST_CHECK(g.flags & kFtz);
  BOOST_CHECK(g.cls == InstrClass::Sfu);
  BOOST_CHECK(one("div.rn.f32 %f1, %f2, %f3;").cls == InstrClass::Fp);
  BOOST_CHECK(one("div.s32 %r1, %r2, %r3;").cls == InstrClass::Int);
  BOOST_CHECK(one("rcp.rn.f64 %fd1, %fd2;").cls == InstrClass::Sfu);
  BOOST_CHECK(one("ex2.approx.ftz.f32 %f1, %f2;").cls == InstrClass::Sfu);
  BOOST_CHECK(one("fma.rn.f32 %f1, %f2, %f3, %f4;").cls == InstrClass::Fp);
  BOOST_CHECK(one("setp.gt.f32 %p1, %f1, 0f00000000;").cls == InstrClass::Fp);
  Instr h = one("vote.sync.ballot.b32 %r1, %p1, -1;");
  BOOST_CHECK(h.mode == static_cast<uint8_t>(VoteMode::Ballot));
  Instr i = one("shf.l.wrap.b32 %r1, %r2, %r3, %r4;");
  BOOST_CHECK((i.flags & (kLeft | kWrap)) == (kLeft | kWrap));
  BOOST_CHECK(one("bfind.shiftamt.u32 %r1, %r2;").flags & kShiftAmt);
  Instr j = one("cvta.to.global.u64 %rd1, %rd2;");
  BOOST_CHECK(j.flags & kToSpace);
  BOOST_CHECK(j.space == Space::Global);
  BOOST_CHECK(!(one("cvta.local.u64 %rd1, %rd2;").flags & kToSpace));
  Instr k = one("bar.sync 0;");
  BOOST_CHECK(k.op == Op::Bar);
  BOOST_CHECK(k.cls == InstrClass::Barrier);
  BOOST_CHECK(one("bar.arrive 1, 64;").flags & kArrive);
  Instr l = one("bar.red.popc.u32 %r1, 0, %p1;");
  BOOST_CHECK(l.flags & kRedBar);
  BOOST_CHECK(l.bop == BoolOp::Popc);
  BOOST_CHECK(one("barrier.sync.aligned 0;").op == Op::Barrier);
  BOOST_CHECK(one("barrier.sync.aligned 0;").flags & kAligned);
  BOOST_CHECK(one("bar.warp.sync -1;").op == Op::BarWarp);
  BOOST_CHECK(one("membar.gl;").cls == InstrClass::Barrier);
  BOOST_CHECK(one("fence.acq_rel.gpu;").op == Op::Fence);
  Module m = parse(kernel("bra.uni L;\nL: ret;"), "u.ptx");
  BOOST_CHECK(entry_of(m).code[0].flags & kUni);
}

BOOST_AUTO_TEST_CASE(more_modifiers) {
  BOOST_CHECK(one("prmt.b32.f4e %r1, %r2, %r3, %r4;").mode == static_cast<uint8_t>(PrmtMode::F4e));
  BOOST_CHECK(one("testp.notanumber.f32 %p1, %f1;").mode == static_cast<uint8_t>(TestpClass::NotANumber));
  BOOST_CHECK(one("redux.sync.max.u32 %r1, %r2, -1;").mode == static_cast<uint8_t>(ReduxOp::Max));
  BOOST_CHECK(one("match.any.sync.b32 %r1, %r2, -1;").mode == static_cast<uint8_t>(MatchMode::Any));
  Instr s = one("set.lt.u32.f32 %r1, %f1, %f2;");
  BOOST_CHECK(s.type == Type::F32);   // comparison type
  BOOST_CHECK(s.type2 == Type::U32);  // destination
  Instr mx = one("max.NaN.f32 %f1, %f2, %f3;");
  BOOST_CHECK(mx.flags & kNaN);
  BOOST_CHECK(one("min.relu.s32 %r1, %r2, %r3;").flags & kRelu);
  BOOST_CHECK(one("ld.volatile.shared.u32 %r1, [%rd1];").flags & kVolatile);
  BOOST_CHECK(one("st.global.wb.u32 [%rd1], %r1;").space == Space::Global);
  BOOST_CHECK(one("ld.global.ca.L2::128B.u32 %r1, [%rd1];").op == Op::Ld);
  BOOST_CHECK(one("ld.acquire.gpu.global.u32 %r1, [%rd1];").space == Space::Global);
  BOOST_CHECK(one("red.global.add.f32 [%rd1], %f1;").cls == InstrClass::Ldst);
  BOOST_CHECK(one("cvt.sat.f32.f32 %f1, %f2;").flags & kSat);
  BOOST_CHECK(one("trap;").cls == InstrClass::Branch);
  BOOST_CHECK(one("exit;").cls == InstrClass::Branch);
  BOOST_CHECK(one("activemask.b32 %r1;").op == Op::Activemask);
  BOOST_CHECK(one("lop3.b32 %r1, %r2, %r3, %r4, 0x96;").nops == 5);
  Instr t = one("tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r2}];");
  BOOST_CHECK(t.op == Op::Tex);
  BOOST_CHECK(t.cls == InstrClass::Ldst);
  BOOST_CHECK(t.mode == static_cast<uint8_t>(TexGeom::D2));
  BOOST_REQUIRE_EQUAL(t.nops, 3);
  BOOST_CHECK(t.ops[1].kind == Operand::Kind::Reg);
  BOOST_CHECK(t.ops[2].kind == Operand::Kind::Vec);
  BOOST_CHECK_EQUAL(t.ops[2].vec_n, 2);
}

BOOST_AUTO_TEST_CASE(texref_operand) {
  Module m = parse(kernel("tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tref, {%r1}];", ".global .texref tref;\n"), "t.ptx");
  const Function& f = entry_of(m);
  BOOST_CHECK(f.code[0].ops[1].kind == Operand::Kind::Sym);
  BOOST_CHECK(f.symrefs[f.code[0].ops[1].sym].kind == SymKind::Global);
}

BOOST_AUTO_TEST_CASE(errors_carry_position_and_exit_code) {
  expect_error(kernel("foo.bar %r1;"), "bad.ptx:12:1: unknown instruction 'foo.bar'");
  expect_error(kernel("add.s32.bogus %r1, %r2, %r3;"), "unknown instruction 'add.s32.bogus'");
  expect_error(kernel("add.s32 %r1, %r2, ];"), "bad.ptx:12:19: bad operand");
  expect_error(kernel("add.s32 %r1, %r2, %r3\nret;"), "bad.ptx:12:19: missing ';'");
  expect_error(kernel("add.s32 %r1, %r2, %r99;"), "bad.ptx:12:19: undefined register '%r99'");
  expect_error(kernel("bra NOWHERE;"), "bad.ptx:12:5: undefined label 'NOWHERE'");
  expect_error(kernel("ld.global.u32 %r1, [nosuch];"), "undefined symbol 'nosuch'");
  expect_error(kHeader + ".visible .entry e() { ret; ", "missing '}'");
  expect_error(kHeader + ".bogus 1;", "unexpected '.bogus'");
  expect_error(kHeader + "/* unterminated", "unterminated");
  expect_error(kernel("L: ret;\nL: ret;"), "label 'L' defined twice");
  try {
    parse_file("/nonexistent/x.ptx");
    BOOST_ERROR("no error");
  } catch (const simt::Error& e) {
    BOOST_CHECK(e.code() == simt::ExitCode::BadInput);
  }
}

// Operands are checked against each instruction's form, as ptxas does, with
// the line and column of the offending operand (kernel() puts the body on line 12).
BOOST_AUTO_TEST_CASE(operand_counts_and_kinds_are_checked) {
  // Too few, too many.
  expect_error(kernel("add.s32 %r1, %r2;"), "bad.ptx:12:1: 'add.s32': expects 3 operands, found 2");
  expect_error(kernel("add.s32 %r1, %r2, %r3, %r4;"), "bad.ptx:12:24: 'add.s32': extra operand (expects 3 operands)");
  expect_error(kernel("ret %r1;"), "bad.ptx:12:5: 'ret': extra operand (expects 0 operands)");
  expect_error(kernel("mad.lo.s32 %r1, %r2, %r3;"), "expects 4 operands, found 3");
  expect_error(kernel("setp.eq.s32 %p1, %r1, %r2, %p2;"), "bad.ptx:12:28: 'setp.eq.s32': extra operand");
  expect_error(kernel("ld.global.u32 %r1;"), "expects 2 operands, found 1");
  // Kinds: an address where a value goes, a value where an address goes, a non-register destination.
  expect_error(kernel("add.s32 %r1, [%rd1], %r3;"), "bad.ptx:12:14: 'add.s32': operand 2: an address operand [..] where a value is expected");
  expect_error(kernel("ld.global.u32 %r1, %rd1;"), "bad.ptx:12:20: 'ld.global.u32': operand 2: expected an address [..]");
  expect_error(kernel("add.s32 5, %r2, %r3;"), "bad.ptx:12:9: 'add.s32': operand 1: the destination must be a register");
  expect_error(kernel("mov.u32 %tid.x, %r1;"), "the destination must be a register");
  expect_error(kernel("add.s32 %r1, {%r2, %r3}, %r4;"), "a vector operand is not allowed here");
  expect_error(kernel("add.s32 %r1|%p1, %r2, %r3;"), "bad.ptx:12:13: 'add.s32': this instruction has no second destination");
  // A float immediate in an integer operation (it used to read as 0).
  expect_error(kernel("add.s32 %r1, %r2, 1.5;"), "bad.ptx:12:19: 'add.s32': operand 3: a floating-point immediate for an integer operand (.s32)");
  expect_error(kernel("add.u32 %r1, %r2, 0f3F800000;"), "a floating-point immediate for an integer operand (.u32)");
  expect_error(kernel("shl.b32 %r1, %r2, 1.0;"), "a floating-point immediate for an integer operand");
  // Register sizes and kinds against the instruction type.
  expect_error(kernel("add.s32 %r1, %rd2, %r3;"), "bad.ptx:12:14: 'add.s32': operand 2: %rd2 is .b64 but the operand is .s32");
  expect_error(kernel("add.s64 %rd1, %rd2, %r3;"), "operand 3: %r3 is .b32 but the operand is .s64: the register is narrower");
  expect_error(kernel("add.f32 %f1, %fd1, %f2;"), "%fd1 is .f64 but the operand is .f32");
  expect_error(kernel("setp.eq.s32 %r1, %r2, %r3;"), "operand 1: %r1 is .b32 but the operand is .pred");
  expect_error(kernel("@%r1 add.s32 %r1, %r2, %r3;"), "bad.ptx:12:1: 'add.s32': the guard %r1 is not a predicate register");
  expect_error(kernel("selp.b32 %r1, %r2, %r3, %r4;"), "operand 4: %r4 is .b32 but the operand is .pred");
  expect_error(kernel("ld.global.f32 %fd1, [%rd1];"), "a wider float register cannot hold this float type");
  expect_error(kernel("mul.wide.s32 %r1, %r2, %r3;"), "operand 1: %r1 is .b32 but the operand is .s64");
  expect_error(kernel("shl.b32 %r1, %r2, %rd1;"), "operand 3: %rd1 is .b64 but the operand is a 32-bit integer");
}

// What nvcc emits and the PTX ISA allows must still parse: .b registers for any
// type of their size, u/s interchange, wider registers for ld/st/cvt (not for a
// float type unless the register is .b), wide destinations, predicates as
// immediates, float immediates in float operations, symbols in mov/cvta.
BOOST_AUTO_TEST_CASE(operand_forms_nvcc_emits_are_accepted) {
  const char* ok[] = {
      "add.s32 %r1, %r2, 7;",
      "add.f32 %f1, %f2, 0f3F800000;",
      "add.f32 %f1, %f2, 1;",
      "mov.b32 %f1, %r1;",
      "mov.u32 %r1, %tid.x;",
      "mov.u64 %rd1, gu;",
      "cvta.global.u64 %rd1, %rd2;",
      "cvt.u32.u16 %r1, %rs1;",
      "cvt.rn.f32.s32 %f1, %r1;",
      "cvt.u16.u32 %rs1, %r1;",
      "cvt.f32.f16 %f1, %rs1;",
      "ld.global.u8 %r1, [%rd1];",
      "ld.global.u8 %rs1, [%rd1];",
      "ld.global.f32 %rd1, [%rd2];",
      "st.global.u8 [%rd1], %r1;",
      "st.shared.v2.f32 [%rd1], {%f1, %f2};",
      "mul.wide.u32 %rd1, %r1, 4;",
      "mad.wide.s32 %rd1, %r1, %r2, %rd2;",
      "shl.b64 %rd1, %rd2, 3;",
      "popc.b64 %r1, %rd1;",
      "setp.lt.and.s32 %p1, %r1, %r2, !%p2;",
      "selp.b32 %r1, 1, 0, %p1;",
      "set.eq.u32.f32 %r1, %f1, %f2;",
      "and.pred %p1, %p2, %p3;",
      "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;",
      "vote.sync.ballot.b32 %r1, %p1, -1;",
      "atom.global.add.u32 %r1, [%rd1], 1;",
      "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;",
      "bar.sync 0;",
      "mov.b64 {%r1, %r2}, %rd1;",
      "mov.b32 %r1, {%rs1, %rs2};",
      "mov.u32 %r1, 0f3F800000;",
  };
  for (const char* text : ok) {
    BOOST_TEST_CONTEXT(text) {
      BOOST_CHECK_NO_THROW(parse(kernel(text, ".global .u32 gu;\n"), "ok.ptx"));
    }
  }
}

// ---------------------------------------------------------------- real nvcc output
namespace {
std::string data(const char* name) { return std::string(SIMT_SOURCE_DIR) + "/tests/ptx/data/" + name; }
}  // namespace

BOOST_AUTO_TEST_CASE(nvcc_calls_printf_locals_f64_shared_globals) {
  Module m = parse_file(data("calls.ptx"));
  BOOST_CHECK_EQUAL(m.target, "sm_75");
  const Function* vp = m.find("vprintf");
  BOOST_REQUIRE(vp);
  BOOST_CHECK(vp->is_extern);
  BOOST_CHECK_EQUAL(vp->rets.size(), 1u);
  BOOST_CHECK(m.find("__assertfail") && m.find("__assertfail")->is_extern);
  const Function* k = m.find("_Z4kernPfPKii1S");
  BOOST_REQUIRE(k);
  BOOST_CHECK(k->is_entry && k->visible);
  BOOST_CHECK_EQUAL(k->params.size(), 4u);
  BOOST_CHECK_EQUAL(k->params[3].size_bytes(), 32u);
  BOOST_CHECK_EQUAL(k->params[3].align, 8u);
  // calls: _Z2mki, _Z6helperfi, vprintf, __assertfail
  BOOST_REQUIRE_EQUAL(k->calls.size(), 4u);
  BOOST_CHECK_EQUAL(k->symbols[k->calls[2].callee_sym], "vprintf");
  BOOST_CHECK_EQUAL(k->calls[3].args.size(), 5u);
  BOOST_CHECK(k->calls[3].rets.empty());
  // local depot, demoted shared, dynamic shared, const and global initialisers
  bool depot = false, tile = false;
  for (const Variable& v : k->vars) {
    if (v.name == "__local_depot2") depot = v.space == Space::Local && v.size_bytes() == 80 && v.align == 16;
    if (v.name == "_ZZ4kernPfPKii1SE4tile") tile = v.space == Space::Shared && v.size_bytes() == 256;
  }
  BOOST_CHECK(depot);
  BOOST_CHECK(tile);
  bool coef = false, dyn = false, str = false;
  for (const Variable& v : m.globals) {
    if (v.name == "coef") coef = v.space == Space::Const && v.size_bytes() == 32 && v.init.size() == 12 && v.init[3] == 63;
    if (v.name == "dyn") dyn = v.is_extern && v.space == Space::Shared;
    if (v.name == "$str") str = v.init.size() == 12 && v.init[0] == 'h';
  }
  BOOST_CHECK(coef);
  BOOST_CHECK(dyn);
  BOOST_CHECK(str);
  size_t f64 = 0, shfl = 0;
  for (const Instr& in : k->code) {
    if (in.type == Type::F64) ++f64;
    if (in.op == Op::Shfl) ++shfl;
  }
  BOOST_CHECK_GE(f64, 4u);
  BOOST_CHECK_EQUAL(shfl, 1u);
  const Function* h = m.find("_Z6helperfi");
  BOOST_REQUIRE(h);
  BOOST_CHECK_EQUAL(h->pragmas.size(), 1u);  // .pragma "nounroll" inside the body
  BOOST_CHECK_EQUAL(h->labels.size(), 4u);
}

BOOST_AUTO_TEST_CASE(nvcc_texture_and_lineinfo) {
  Module a = parse_file(data("tex.ptx"));
  Module b = parse_file(data("tex_lineinfo.ptx"));  // .loc / .file / .section must be ignored
  const Function& fa = a.functions.at(0);
  const Function& fb = b.functions.at(0);
  BOOST_REQUIRE_EQUAL(fa.code.size(), fb.code.size());
  size_t tex = 0;
  for (size_t i = 0; i < fa.code.size(); ++i) {
    BOOST_CHECK(fa.code[i].op == fb.code[i].op);
    BOOST_CHECK_EQUAL(fa.text[i], fb.text[i]);
    if (fa.code[i].op == Op::Tex) ++tex;
  }
  BOOST_CHECK_EQUAL(tex, 2u);
}

BOOST_AUTO_TEST_CASE(nvcc_pointer_table) {
  // __device__ const char* names[] = {"ab", "cde"}; (addr_init.cu)
  Module m = parse_file(data("addr_init.ptx"));
  const Variable* names = nullptr;
  for (const Variable& v : m.globals)
    if (v.name == "names") names = &v;
  BOOST_REQUIRE(names);
  BOOST_CHECK(names->type == Type::U64);
  BOOST_CHECK_EQUAL(names->size_bytes(), 16u);
  BOOST_REQUIRE_EQUAL(names->addr_inits.size(), 2u);
  BOOST_CHECK_EQUAL(names->addr_inits[0].symbol, "$str");
  BOOST_CHECK_EQUAL(names->addr_inits[1].symbol, "$str$1");
  BOOST_CHECK_EQUAL(names->addr_inits[1].offset, 8u);
  BOOST_CHECK(names->addr_inits[0].generic && names->addr_inits[1].generic);
}

BOOST_AUTO_TEST_CASE(large_file_parses_fast) {
  std::string body;
  for (int i = 0; i < 2500; ++i) {
    std::string n = std::to_string(i % 8);
    body += "L" + std::to_string(i) + ":\nld.global.u32 %r" + n + ", [%rd1+" + std::to_string(4 * i) + "];\n"
            "add.s32 %r" + n + ", %r" + n + ", 0x10;\n@%p1 bra L" + std::to_string(i) + ";\n";
  }
  std::string text = kernel(body);
  auto t0 = std::chrono::steady_clock::now();
  Module m = parse(text, "big.ptx");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  BOOST_CHECK_EQUAL(entry_of(m).code.size(), 7500u);
  BOOST_CHECK_LT(secs, 0.5);
  BOOST_TEST_MESSAGE("10k-line parse: " << secs << " s");
}

// __managed__ variables (nvcc: `.global .attribute(.managed) .align 4 .u32 x;`):
// the attribute marks them for the CUDA runtime library, which places them in
// unified memory; .unified(uuid) is taken and ignored; anything else is refused.
BOOST_AUTO_TEST_CASE(variable_attributes) {
  Module m = parse(".version 9.0\n.target sm_75\n.address_size 64\n"
                   ".global .attribute(.managed) .align 4 .u32 counter;\n"
                   ".global .attribute(.unified(1, 2)) .u32 shared_with_host;\n"
                   ".global .u32 plain;\n",
                   "a.ptx");
  BOOST_REQUIRE_EQUAL(m.globals.size(), 3u);
  BOOST_CHECK(m.globals[0].managed);
  BOOST_CHECK_EQUAL(m.globals[0].align, 4u);
  BOOST_CHECK(!m.globals[1].managed);
  BOOST_CHECK(!m.globals[2].managed);
  BOOST_CHECK_THROW(parse(".version 9.0\n.target sm_75\n.global .attribute(.shiny) .u32 x;\n", "b.ptx"), simt::Error);
  BOOST_CHECK_THROW(parse(".version 9.0\n.target sm_75\n.global .attribute(.managed .u32 x;\n", "c.ptx"), simt::Error);
}
