#define BOOST_TEST_MODULE link
#include <boost/test/unit_test.hpp>

#include <string>

#include "ptx/link.h"
#include "ptx/parser.h"
#include "util/error.h"

using namespace simt::ptx;

namespace {

const std::string kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// An entry that calls g(int, int) -> int through the usual nvcc call block,
// plus printf through vprintf, with locals, shared and global variables.
const std::string kProgram = kHeader + R"(
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 4 .u32 gcount = 3;
.global .align 1 .b8 $str[4] = {104, 105, 10};
.shared .align 4 .b8 sh_used[40];
.shared .align 4 .b8 sh_unused[100];
.extern .shared .align 16 .b8 dyn[];

.func (.param .b32 g_ret) g(.param .b32 g_a, .param .align 8 .b8 g_s[12])
{
  .reg .pred %p_unused_never;
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [g_a];
  ld.param.b32 %r2, [g_s+8];
$Lg_loop:
  add.s32 %r1, %r1, %r2;
  setp.lt.s32 %p_unused_never, %r1, 10;
  st.param.b32 [g_ret+0], %r1;
  ret;
}
)";

const std::string kEntry = R"(
.visible .entry k(.param .u32 k_a, .param .u64 k_b, .param .align 8 .b8 k_s[12], .param .u8 k_c)
.reqntid 64, 2
{
  .local .align 16 .b8 __local_depot0[24];
  .reg .b64 %SPL;
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .shared .align 8 .b8 fn_shared[8];

  mov.u64 %SPL, __local_depot0;
  ld.param.u32 %r1, [k_a];
  ld.param.u32 %r2, [k_s+4];
  mov.u64 %rd1, k_b;
  mov.u32 %r3, sh_used;
  mov.u32 %r4, fn_shared;
  mov.u32 %r5, dyn;
  mov.u64 %rd2, gcount;
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra $L_end;
  {
  .reg .b32 temp_param_reg;
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .align 8 .b8 param1[12];
  st.param.b32 [param1+8], %r2;
  .param .b32 retval0;
  call.uni (retval0), g, (param0, param1);
  ld.param.b32 %r1, [retval0+0];
  }
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd2;
  .param .b64 param1;
  st.param.b64 [param1+0], %rd1;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r2, [retval0+0];
  }
$L_end:
  ret;
}
)";

Module module() { return parse(kProgram + kEntry, "link.ptx"); }

SymbolAddresses addresses(const Module& m) {
  SymbolAddresses a(m.globals.size(), 0);
  for (size_t i = 0; i < m.globals.size(); ++i) a[i] = 0x10000 + 0x100 * i;
  return a;
}

size_t global_index(const Module& m, const std::string& name) {
  for (size_t i = 0; i < m.globals.size(); ++i)
    if (m.globals[i].name == name) return i;
  BOOST_FAIL("no global " + name);
  return 0;
}

void expect_link_error(const Module& m, const std::string& entry, const std::string& part) {
  try {
    link(m, entry, addresses(m));
  } catch (const simt::Error& e) {
    BOOST_CHECK(e.code() == simt::ExitCode::BadInput);
    BOOST_CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos,
                        "message '" << e.what() << "' lacks '" << part << "'");
    return;
  }
  BOOST_ERROR("no link error, expected: " << part);
}

}  // namespace

BOOST_AUTO_TEST_CASE(pcs_labels_and_registers) {
  Module m = module();
  Program p = link(m, "k", addresses(m));
  const Function& k = *m.find("k");
  const Function& g = *m.find("g");
  BOOST_CHECK_EQUAL(p.kernel, "k");
  BOOST_REQUIRE_EQUAL(p.funcs.size(), 2u);
  BOOST_CHECK_EQUAL(p.funcs[0].name, "k");
  BOOST_CHECK_EQUAL(p.funcs[0].begin, 0u);
  BOOST_CHECK_EQUAL(p.funcs[0].end, k.code.size());
  BOOST_CHECK_EQUAL(p.funcs[1].begin, k.code.size());
  BOOST_CHECK_EQUAL(p.funcs[1].end, k.code.size() + g.code.size());
  BOOST_CHECK_EQUAL(p.code.size(), k.code.size() + g.code.size());
  BOOST_CHECK_EQUAL(p.text.size(), p.code.size());
  BOOST_CHECK_EQUAL(p.funcs[0].retaddr_reg, kNoReg);
  // Registers: the entry's, then g's, then g's hidden return-address register.
  BOOST_CHECK_EQUAL(p.num_regs(), k.regs.size() + g.regs.size() + 1);
  BOOST_CHECK_EQUAL(p.funcs[1].retaddr_reg, k.regs.size() + g.regs.size());
  BOOST_CHECK(p.regs[p.funcs[1].retaddr_reg].type == Type::U32);
  // g's first instruction writes its %r1 (index 2 in g: %p_unused_never, %r0, %r1).
  const Instr& g0 = p.code[p.funcs[1].begin];
  BOOST_CHECK_EQUAL(g0.ops[0].reg, k.regs.size() + 2);
  BOOST_CHECK_EQUAL(p.regs[g0.ops[0].reg].name, "g::%r1");
  // The entry's forward branch lands on `ret`, the last entry instruction.
  const Instr& bra = p.code[9];
  BOOST_REQUIRE(bra.op == Op::Bra);
  BOOST_CHECK(bra.ops[0].kind == Operand::Kind::Label);
  BOOST_CHECK_EQUAL(bra.ops[0].imm, static_cast<int64_t>(k.code.size() - 1));
  BOOST_CHECK(p.code[k.code.size() - 1].op == Op::Ret);
  BOOST_CHECK_EQUAL(p.reqntid[0], 64u);
  BOOST_CHECK_EQUAL(p.reqntid[1], 2u);
  BOOST_CHECK_EQUAL(p.text[9], "@%p1 bra $L_end;");
}

BOOST_AUTO_TEST_CASE(kernel_params) {
  Module m = module();
  Program p = link(m, "k", addresses(m));
  BOOST_REQUIRE_EQUAL(p.params.size(), 4u);
  BOOST_CHECK_EQUAL(p.params[0].offset, 0u);
  BOOST_CHECK_EQUAL(p.params[1].offset, 8u);   // u64 aligned to 8
  BOOST_CHECK_EQUAL(p.params[2].offset, 16u);  // .align 8 .b8 [12]
  BOOST_CHECK_EQUAL(p.params[2].size, 12u);
  BOOST_CHECK_EQUAL(p.params[3].offset, 28u);
  BOOST_CHECK_EQUAL(p.param_bytes, 29u);
  const Instr& ld = p.code[2];  // ld.param.u32 %r2, [k_s+4]
  BOOST_CHECK(ld.space == Space::Param);
  BOOST_CHECK(ld.ops[1].kind == Operand::Kind::Addr);
  BOOST_CHECK_EQUAL(ld.ops[1].reg, kNoReg);
  BOOST_CHECK_EQUAL(ld.ops[1].imm, 20);
  const Instr& mov = p.code[3];  // mov.u64 %rd1, k_b
  BOOST_CHECK(mov.ops[1].kind == Operand::Kind::Imm);
  BOOST_CHECK_EQUAL(mov.ops[1].imm, 8);
}

BOOST_AUTO_TEST_CASE(local_shared_and_global_addresses) {
  Module m = module();
  SymbolAddresses addrs = addresses(m);
  Program p = link(m, "k", addrs);
  // Entry frame: depot at 0 (24 bytes), param0 at 24, param1 (.align 8, 12) at 32,
  // retval0 at 44, then the printf block's param0 at 48, param1 at 56, retval0 at 64.
  BOOST_CHECK_EQUAL(p.funcs[0].local_base, 0u);
  BOOST_CHECK_EQUAL(p.code[0].ops[1].imm, 0);  // mov %SPL, __local_depot0
  const Instr& st0 = p.code[10];               // st.param.b32 [param0+0], %r1
  BOOST_CHECK(st0.op == Op::St);
  BOOST_CHECK(st0.space == Space::Local);
  BOOST_CHECK_EQUAL(st0.ops[0].reg, kNoReg);
  BOOST_CHECK_EQUAL(st0.ops[0].imm, 24);
  BOOST_CHECK(p.code[11].space == Space::Local);
  BOOST_CHECK_EQUAL(p.code[11].ops[0].imm, 32 + 8);
  BOOST_CHECK_EQUAL(p.code[13].ops[1].imm, 44);  // ld.param [retval0+0]
  // g's frame starts after the entry's, at a 16-byte boundary: g_a, g_s (.align 8), g_ret.
  BOOST_CHECK_EQUAL(p.funcs[1].local_base, 80u);
  const Instr& g1 = p.code[p.funcs[1].begin + 1];  // ld.param.b32 %r2, [g_s+8]
  BOOST_CHECK(g1.space == Space::Local);
  BOOST_CHECK_EQUAL(g1.ops[1].imm, 88 + 8);
  BOOST_CHECK_EQUAL(p.local_bytes, 112u);
  // Shared: sh_used at 0 (sh_unused is not referenced), fn_shared at 40, dynamic at 48.
  BOOST_CHECK_EQUAL(p.code[4].ops[1].imm, 0);
  BOOST_CHECK_EQUAL(p.code[5].ops[1].imm, 40);
  BOOST_CHECK_EQUAL(p.static_shared_bytes, 48u);
  BOOST_CHECK_EQUAL(p.code[6].ops[1].imm, 48);
  // Global: the loader's address.
  BOOST_CHECK_EQUAL(static_cast<uint64_t>(p.code[7].ops[1].imm), addrs[global_index(m, "gcount")]);
}

BOOST_AUTO_TEST_CASE(call_copy_lists_and_builtins) {
  Module m = module();
  Program p = link(m, "k", addresses(m));
  BOOST_REQUIRE_EQUAL(p.calls.size(), 2u);
  const Instr& call = p.code[12];
  BOOST_REQUIRE(call.op == Op::Call);
  BOOST_REQUIRE_EQUAL(call.call_info, 0u);
  const CallInfo& c = p.calls[0];
  BOOST_CHECK(c.builtin == Builtin::None);
  BOOST_CHECK_EQUAL(c.callee_func, 1u);
  BOOST_CHECK_EQUAL(c.callee_pc, p.funcs[1].begin);
  BOOST_REQUIRE_EQUAL(c.args.size(), 2u);
  BOOST_CHECK_EQUAL(c.args[0].from, 24u);
  BOOST_CHECK_EQUAL(c.args[0].to, 80u);
  BOOST_CHECK_EQUAL(c.args[0].size, 4u);
  BOOST_CHECK_EQUAL(c.args[1].from, 32u);
  BOOST_CHECK_EQUAL(c.args[1].to, 88u);
  BOOST_CHECK_EQUAL(c.args[1].size, 12u);
  BOOST_REQUIRE_EQUAL(c.rets.size(), 1u);
  BOOST_CHECK_EQUAL(c.rets[0].from, 100u);
  BOOST_CHECK_EQUAL(c.rets[0].to, 44u);
  BOOST_CHECK_EQUAL(c.rets[0].size, 4u);
  const CallInfo& v = p.calls[1];
  BOOST_CHECK(v.builtin == Builtin::Vprintf);
  BOOST_CHECK_EQUAL(v.callee_pc, kNoPc);
  BOOST_REQUIRE_EQUAL(v.args.size(), 2u);
  BOOST_CHECK_EQUAL(v.args[0].from, 48u);
  BOOST_CHECK_EQUAL(v.args[0].to, 0u);
  BOOST_CHECK_EQUAL(v.args[0].size, 8u);
  BOOST_CHECK_EQUAL(v.args[1].from, 56u);
  BOOST_REQUIRE_EQUAL(v.rets.size(), 1u);
  BOOST_CHECK_EQUAL(v.rets[0].to, 64u);
  BOOST_CHECK_EQUAL(v.rets[0].size, 4u);
  BOOST_CHECK(p.code[p.funcs[1].end - 1].op == Op::Ret);
}

BOOST_AUTO_TEST_CASE(recursion_links_with_components) {
  // k -> f <-> g (mutual recursion), k -> h (not recursive), s -> s.
  Module m = parse(kHeader +
                       ".func f(.param .b32 f_a);\n"
                       ".func g(.param .b32 g_a)\n{\n{\n.param .b32 param0;\nst.param.b32 [param0], 1;\n"
                       "call.uni f, (param0);\n}\nret;\n}\n"
                       ".func f(.param .b32 f_a)\n{\n{\n.param .b32 param0;\nst.param.b32 [param0], 1;\n"
                       "call.uni g, (param0);\n}\nret;\n}\n"
                       ".func h()\n{\nret;\n}\n"
                       ".visible .entry k()\n{\n{\n.param .b32 param0;\nst.param.b32 [param0], 1;\n"
                       "call.uni f, (param0);\n}\ncall.uni h;\nret;\n}\n",
                   "rec.ptx");
  Program p = link(m, "k", addresses(m));
  BOOST_REQUIRE_EQUAL(p.funcs.size(), 4u);  // k, f, g, h in discovery order
  BOOST_CHECK(p.recursive);
  BOOST_CHECK(!p.funcs[0].recursive);
  BOOST_CHECK(p.funcs[1].recursive && p.funcs[2].recursive);
  BOOST_CHECK_EQUAL(p.funcs[1].scc, p.funcs[2].scc);
  BOOST_CHECK(!p.funcs[3].recursive);
  BOOST_CHECK_NE(p.funcs[3].scc, p.funcs[1].scc);
  BOOST_CHECK_NE(p.funcs[0].scc, p.funcs[1].scc);
  // What a recursive call saves: the function's registers and its frame.
  for (size_t k = 1; k < p.funcs.size(); ++k) {
    BOOST_CHECK_EQUAL(p.funcs[k].reg_end - 1, p.funcs[k].retaddr_reg);
    BOOST_CHECK_LE(p.funcs[k].reg_begin, p.funcs[k].retaddr_reg);
  }
  BOOST_REQUIRE_EQUAL(p.funcs[1].params.size(), 1u);
  BOOST_CHECK_GE(p.funcs[1].frame_bytes, 8u);  // its formal and its call's param0
  for (const CallInfo& c : p.calls) BOOST_CHECK_LT(c.caller_func, p.funcs.size());

  Module self = parse(kHeader +
                          ".func s()\n{\ncall.uni s;\nret;\n}\n.visible .entry k()\n{\ncall.uni s;\nret;\n}\n",
                      "self.ptx");
  Program ps = link(self, "k", addresses(self));
  BOOST_CHECK(ps.funcs[1].recursive);
  BOOST_CHECK(!ps.funcs[0].recursive);
  Program pm = link(module(), "k", addresses(module()));
  BOOST_CHECK(!pm.recursive);
}

BOOST_AUTO_TEST_CASE(indirect_calls_link_every_address_taken_function) {
  // ops[] holds f and g; k calls through a pointer it loads, and takes the
  // address of h with mov. u is never named: not linked.
  Module m = parse(kHeader +
                       ".func (.param .b32 r) f(.param .b32 a)\n{\nst.param.b32 [r], 1;\nret;\n}\n"
                       ".func (.param .b32 r) g(.param .b32 a)\n{\nst.param.b32 [r], 2;\nret;\n}\n"
                       ".func (.param .b32 r) h(.param .b32 a)\n{\nst.param.b32 [r], 3;\nret;\n}\n"
                       ".func u()\n{\nret;\n}\n"
                       ".global .align 8 .u64 ops[2] = {f, g};\n"
                       ".visible .entry k()\n{\n.reg .b64 %rd<3>;\n"
                       "ld.global.u64 %rd1, [ops];\nmov.u64 %rd2, h;\n"
                       "{\n.param .b32 param0;\n.param .b32 retval0;\n"
                       "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                       "call (retval0), %rd1, (param0), proto;\n}\nret;\n}\n",
                   "ind.ptx");
  Program p = link(m, "k", addresses(m));
  BOOST_REQUIRE_EQUAL(p.funcs.size(), 4u);  // k, then h, f, g (address-taken)
  for (const char* name : {"f", "g", "h"}) {
    const Function* fn = m.find(name);
    const uint32_t mi = static_cast<uint32_t>(fn - m.functions.data());
    BOOST_REQUIRE_NE(p.func_by_module[mi], kNoPc);
    BOOST_CHECK_EQUAL(p.funcs[p.func_by_module[mi]].name, name);
    uint32_t back = 0;
    BOOST_CHECK(func_index_of(func_address(mi), m.functions.size(), back) && back == mi);
  }
  BOOST_CHECK_EQUAL(p.func_by_module[static_cast<size_t>(m.find("u") - m.functions.data())], kNoPc);
  // mov.u64 %rd2, h became h's address; the call keeps its target register.
  bool saw_mov = false;
  for (const Instr& in : p.code)
    if (in.op == Op::Mov && in.ops[1].kind == Operand::Kind::Imm) {
      saw_mov = true;
      BOOST_CHECK_EQUAL(static_cast<uint64_t>(in.ops[1].imm),
                        func_address(static_cast<uint32_t>(m.find("h") - m.functions.data())));
    }
  BOOST_CHECK(saw_mov);
  BOOST_REQUIRE_EQUAL(p.calls.size(), 1u);
  const CallInfo& c = p.calls[0];
  BOOST_CHECK_NE(c.callee_reg, kNoReg);
  BOOST_CHECK_EQUAL(c.args.size(), 1u);
  BOOST_CHECK_EQUAL(c.rets.size(), 1u);
  BOOST_CHECK(!p.recursive);
  for (size_t k = 1; k < p.funcs.size(); ++k) BOOST_CHECK_EQUAL(p.funcs[k].rets.size(), 1u);
}

BOOST_AUTO_TEST_CASE(bad_links_rejected) {
  Module m = module();
  expect_link_error(m, "nope", "no kernel 'nope' (entries: k)");
  expect_link_error(m, "g", "no kernel 'g'");
  Module ext = parse(kHeader +
                         ".extern .func ext_fn();\n.visible .entry k()\n{\ncall.uni ext_fn;\nret;\n}\n",
                     "ext.ptx");
  expect_link_error(ext, "k", "ext.ptx:7:1: function 'ext_fn' is declared but has no body");
  // The device runtime (nvcc -rdc, a child launch from a kernel) names the feature.
  Module cdp = parse(kHeader +
                         ".extern .func (.param .b64 r) __cudaCDP2GetParameterBufferV2();\n"
                         ".visible .entry k()\n{\n{\n.param .b64 r0;\n"
                         "call.uni (r0), __cudaCDP2GetParameterBufferV2, ();\n}\nret;\n}\n",
                     "cdp.ptx");
  expect_link_error(cdp, "k", "device-side kernel launch (CUDA dynamic parallelism");
  Module entry = parse(kHeader + ".visible .entry e()\n{\nret;\n}\n.visible .entry k()\n{\ncall.uni e;\nret;\n}\n",
                       "entry.ptx");
  expect_link_error(entry, "k", "call to kernel entry 'e'");
  Module args = parse(kHeader +
                          ".func f(.param .b32 f_a, .param .b32 f_b)\n{\nret;\n}\n"
                          ".visible .entry k()\n{\n{\n.param .b32 param0;\ncall.uni f, (param0);\n}\nret;\n}\n",
                      "args.ptx");
  expect_link_error(args, "k", "passes 1 arguments, it takes 2");
  BOOST_CHECK((entry_names(m) == std::vector<std::string>{"k"}));
}

BOOST_AUTO_TEST_CASE(nvcc_output_links) {
  Module m = parse_file(std::string(SIMT_SOURCE_DIR) + "/tests/ptx/data/calls.ptx");
  Program p = link(m, "_Z4kernPfPKii1S", addresses(m));
  BOOST_CHECK_EQUAL(p.funcs.size(), 3u);  // kernel, _Z2mki, _Z6helperfi
  BOOST_REQUIRE_EQUAL(p.calls.size(), 4u);
  int printf_calls = 0, asserts = 0, internal = 0;
  for (const CallInfo& c : p.calls) {
    if (c.builtin == Builtin::Vprintf) ++printf_calls;
    if (c.builtin == Builtin::AssertFail) ++asserts;
    if (c.builtin == Builtin::None) {
      ++internal;
      BOOST_CHECK(c.callee_pc < p.code.size());
      BOOST_CHECK(c.callee_pc == p.funcs[c.callee_func].begin);
    }
  }
  BOOST_CHECK_EQUAL(printf_calls, 1);
  BOOST_CHECK_EQUAL(asserts, 1);
  BOOST_CHECK_EQUAL(internal, 2);
  BOOST_CHECK_EQUAL(p.param_bytes, 8u + 8 + 8 + 32);
  BOOST_CHECK_EQUAL(p.static_shared_bytes, 256u);
  BOOST_CHECK_GE(p.local_bytes, 80u);
  // No symbol or module-level label survives linking.
  for (const Instr& in : p.code)
    for (int i = 0; i < in.nops; ++i) {
      BOOST_CHECK(in.ops[i].kind != Operand::Kind::Sym);
      BOOST_CHECK(!in.ops[i].sym_base);
      if (in.ops[i].kind == Operand::Kind::Label) BOOST_CHECK(in.ops[i].imm < static_cast<int64_t>(p.code.size()));
      if (in.ops[i].kind == Operand::Kind::Reg && in.ops[i].reg != kNoReg) BOOST_CHECK(in.ops[i].reg < p.num_regs());
    }
}

BOOST_AUTO_TEST_CASE(param_through_a_register_and_generic_access_to_a_named_variable) {
  const std::string text = kHeader + R"(
.shared .align 4 .b8 sm[16];
.func (.param .b32 f_ret) f(.param .b32 f_a)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, f_a;
  ld.param.u32 %r1, [%rd1];
  ld.u32 %r2, [sm+4];
  st.param.b32 [f_ret], %r1;
  ret;
}
.visible .entry k()
{
  .reg .b32 %r<2>;
  {
  .param .b32 param0;
  st.param.b32 [param0], 7;
  .param .b32 retval0;
  call.uni (retval0), f, (param0);
  ld.param.b32 %r1, [retval0];
  }
  ret;
}
)";
  Module m = parse(text, "t.ptx");
  Program p = link(m, "k", SymbolAddresses(m.globals.size(), 0));
  const FuncRange& f = p.funcs.at(1);
  const Instr& ld_reg = p.code.at(f.begin + 1);
  BOOST_TEST((ld_reg.op == Op::Ld));
  BOOST_TEST((ld_reg.space == Space::Local));  // a .func's params live in local memory
  const Instr& ld_gen = p.code.at(f.begin + 2);
  BOOST_TEST((ld_gen.space == Space::Shared));  // generic access to a shared variable
  BOOST_TEST(ld_gen.ops[1].reg == kNoReg);
  BOOST_TEST(ld_gen.ops[1].imm == 4);
}

// simtlab inspect lists kernel_names(): a file with no kernel says so, naming the file.
BOOST_AUTO_TEST_CASE(file_without_kernels_is_refused_by_kernel_names) {
  auto refused = [](const std::string& text, const std::string& path) {
    const Module m = parse(text, path);
    try {
      kernel_names(m);
    } catch (const simt::Error& e) {
      const std::string what = e.what();
      BOOST_CHECK_MESSAGE(what.find(path + ": no kernel") != std::string::npos, what);
      BOOST_TEST(static_cast<int>(e.code()) == 2);
      return true;
    }
    return false;
  };
  BOOST_TEST(refused("", "empty.ptx"));
  BOOST_TEST(refused(kHeader, "header.ptx"));
  BOOST_TEST(refused(kHeader + ".func f()\n{\nret;\n}\n", "funcs.ptx"));
  const Module ok = parse(kHeader + ".visible .entry k()\n{\nret;\n}\n", "one.ptx");
  BOOST_TEST(kernel_names(ok) == std::vector<std::string>{"k"});
}
