#define BOOST_TEST_MODULE merge
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "ptx/link.h"
#include "ptx/merge.h"
#include "ptx/parser.h"
#include "util/error.h"

// ptx::merge_modules(): the translation units of an -rdc program joined into
// one module (linkage rules in ptx/merge.h). Running a merged module on a
// device is runtime.test_merge_load.

using namespace simt::ptx;

namespace {

const std::string kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

Module unit(const std::string& body, const std::string& path) { return parse(kHeader + body, path); }

std::vector<Module> units(const std::string& a, const std::string& b) {
  std::vector<Module> v;
  v.push_back(unit(a, "a.ptx"));
  v.push_back(unit(b, "b.ptx"));
  return v;
}

const Variable* global(const Module& m, const std::string& name) {
  for (const Variable& v : m.globals)
    if (v.name == name) return &v;
  return nullptr;
}

size_t count_functions(const Module& m, const std::string& name) {
  size_t n = 0;
  for (const Function& f : m.functions) n += f.name == name;
  return n;
}

// The module-level symbol `name` as function `f` of `m` refers to it.
const SymRef& symref(const Module& m, const std::string& f, const std::string& name) {
  const Function* fn = m.find(f);
  BOOST_REQUIRE(fn);
  for (size_t i = 0; i < fn->symbols.size(); ++i)
    if (fn->symbols[i] == name) return fn->symrefs[i];
  BOOST_FAIL("'" + f + "' does not name '" + name + "'");
  return fn->symrefs[0];
}

// Addresses for ptx::link: every .global/.const variable gets one.
SymbolAddresses addresses(const Module& m) {
  SymbolAddresses a(m.globals.size(), 0);
  for (size_t i = 0; i < m.globals.size(); ++i) a[i] = 0x1'0000'0000ull + 0x100 * i;
  return a;
}

void expect_merge_error(std::vector<Module> v, const std::vector<std::string>& parts) {
  try {
    merge_modules(std::move(v), "prog");
  } catch (const simt::Error& e) {
    BOOST_CHECK(e.code() == simt::ExitCode::BadInput);
    for (const std::string& part : parts)
      BOOST_CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos,
                          "message '" << e.what() << "' lacks '" << part << "'");
    return;
  }
  BOOST_ERROR("no merge error, expected: " << parts.front());
}

// Unit a: kernel ka calls twice() (extern) and reads `bias` (extern).
const std::string kCaller = R"(
.extern .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0);
.extern .global .align 4 .u32 bias;
.visible .entry ka(.param .u64 ka_out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [ka_out];
  mov.u32 %r1, %tid.x;
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), twice, (param0);
  ld.param.b32 %r2, [retval0+0];
  }
  ld.global.u32 %r3, [bias];
  add.s32 %r4, %r2, %r3;
  st.global.u32 [%rd1], %r4;
  ret;
}
)";

// Unit b: defines twice() and bias.
const std::string kCallee = R"(
.visible .global .align 4 .u32 bias = 100;
.visible .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [twice_param_0];
  shl.b32 %r2, %r1, 1;
  st.param.b32 [func_retval0+0], %r2;
  ret;
}
)";

}  // namespace

BOOST_AUTO_TEST_CASE(parser_records_linkage_of_variables_and_functions) {
  Module m = unit(R"(
.visible .global .u32 v;
.weak .global .u32 w;
.common .global .u32 c;
.extern .global .u32 e;
.global .u32 i;
.weak .func f() { ret; }
.visible .func g() { ret; }
)", "l.ptx");
  auto check = [&](const char* n, bool vis, bool weak, bool common, bool ext) {
    const Variable* v = global(m, n);
    BOOST_REQUIRE(v);
    BOOST_CHECK_MESSAGE(v->visible == vis && v->weak == weak && v->common == common && v->is_extern == ext, n);
  };
  check("v", true, false, false, false);
  check("w", false, true, false, false);
  check("c", false, false, true, false);
  check("e", false, false, false, true);
  check("i", false, false, false, false);
  BOOST_CHECK(m.find("f")->weak && !m.find("f")->visible);
  BOOST_CHECK(m.find("g")->visible && !m.find("g")->weak);
  for (const char* bad : {".common .func f() { ret; }", ".common .const .u32 c;"}) {
    try {
      unit(bad, "bad.ptx");
      BOOST_ERROR("accepted: " << bad);
    } catch (const simt::Error& e) {
      BOOST_CHECK_MESSAGE(std::string(e.what()).find(".common applies only to .global variables") != std::string::npos,
                          e.what());
    }
  }
}

BOOST_AUTO_TEST_CASE(cross_unit_call_and_extern_variable_resolve_to_the_definitions) {
  for (bool caller_first : {true, false}) {
    std::vector<Module> v = caller_first ? units(kCaller, kCallee) : units(kCallee, kCaller);
    Module m = merge_modules(std::move(v), "prog");
    BOOST_CHECK_EQUAL(m.path, "prog");
    BOOST_REQUIRE_EQUAL(count_functions(m, "twice"), 1u);
    BOOST_CHECK(!m.find("twice")->is_extern);
    BOOST_REQUIRE_EQUAL(m.globals.size(), 1u);  // the extern declaration is gone
    BOOST_CHECK(!m.globals[0].is_extern);
    BOOST_CHECK_EQUAL(m.globals[0].init.size(), 4u);
    BOOST_CHECK_EQUAL(m.globals[0].init[0], 100);
    const SymRef& call = symref(m, "ka", "twice");
    BOOST_CHECK(call.kind == SymKind::Func);
    BOOST_CHECK_EQUAL(m.functions[call.index].name, "twice");
    const SymRef& var = symref(m, "ka", "bias");
    BOOST_CHECK(var.kind == SymKind::Global);
    BOOST_CHECK_EQUAL(var.index, 0u);
    // It links: the call reaches twice()'s body.
    Program p = link(m, "ka", addresses(m));
    BOOST_REQUIRE_EQUAL(p.funcs.size(), 2u);
    BOOST_CHECK_EQUAL(p.funcs[1].name, "twice");
  }
}

BOOST_AUTO_TEST_CASE(nvcc_rdc_units_merge_and_link) {
  const std::string dir = std::string(SIMT_SOURCE_DIR) + "/tests/ptx/data/";
  std::vector<Module> v;
  v.push_back(parse_file(dir + "rdc_r1.ptx"));
  v.push_back(parse_file(dir + "rdc_r2.ptx"));
  BOOST_REQUIRE_THROW(link(v[0], "_Z1kPi", addresses(v[0])), simt::Error);  // alone: no body for twice
  Module m = merge_modules(std::move(v), "rdc");
  BOOST_CHECK_EQUAL(m.functions.size(), 3u);
  BOOST_REQUIRE_EQUAL(count_functions(m, "_Z5twicei"), 1u);
  Program p = link(m, "_Z1kPi", addresses(m));
  BOOST_REQUIRE_EQUAL(p.funcs.size(), 2u);
  BOOST_CHECK_EQUAL(p.funcs[1].name, "_Z5twicei");
  BOOST_CHECK_EQUAL(entry_names(m).size(), 2u);
}

BOOST_AUTO_TEST_CASE(colliding_internal_names_are_renamed_and_references_follow) {
  // Both units have a `$str`, a static helper and a table whose initialiser
  // takes $str's address; each kernel must keep using its own.
  auto text = [](const std::string& k, const std::string& bytes) {
    return ".global .align 4 .b8 $str[4] = {" + bytes + R"(};
.global .align 8 .u64 table[1] = {generic($str)+1};
.func (.param .b32 r) _ZL6helperv()
{
  .reg .b32 %r<2>;
  ld.global.u32 %r1, [$str];
  st.param.b32 [r+0], %r1;
  ret;
}
.visible .entry )" + k + R"((.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, $str;
  ld.global.u64 %rd3, [table];
  {
  .param .b32 retval0;
  call.uni (retval0), _ZL6helperv, ();
  ld.param.b32 %r1, [retval0+0];
  }
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  };
  std::vector<Renames> renamed;
  Module m = merge_modules(units(text("k0", "1, 2, 3, 4"), text("k1", "5, 6, 7, 8")), "prog", &renamed);
  BOOST_REQUIRE_EQUAL(renamed.size(), 2u);
  BOOST_CHECK(renamed[0].empty());  // the first unit keeps its names
  BOOST_CHECK_EQUAL(renamed[1].at("$str"), "$str$u1");
  BOOST_CHECK_EQUAL(renamed[1].at("table"), "table$u1");
  BOOST_CHECK_EQUAL(renamed[1].at("_ZL6helperv"), "_ZL6helperv$u1");
  BOOST_CHECK_EQUAL(m.globals.size(), 4u);
  BOOST_CHECK_EQUAL(m.functions.size(), 4u);
  for (int u = 0; u < 2; ++u) {
    const std::string sfx = u ? "$u1" : "", k = u ? "k1" : "k0";
    const Variable* str = global(m, "$str" + sfx);
    BOOST_REQUIRE(str);
    BOOST_CHECK_EQUAL(str->init[0], u ? 5 : 1);
    const SymRef& s = symref(m, k, "$str" + sfx);
    BOOST_CHECK_EQUAL(m.globals[s.index].name, "$str" + sfx);
    BOOST_CHECK_EQUAL(m.globals[symref(m, k, "table" + sfx).index].name, "table" + sfx);
    const SymRef& h = symref(m, k, "_ZL6helperv" + sfx);
    BOOST_CHECK(h.kind == SymKind::Func);
    BOOST_CHECK_EQUAL(m.functions[h.index].name, "_ZL6helperv" + sfx);
    // The helper reads its own unit's $str, the table points at it.
    BOOST_CHECK_EQUAL(m.globals[symref(m, "_ZL6helperv" + sfx, "$str" + sfx).index].name, "$str" + sfx);
    BOOST_REQUIRE_EQUAL(global(m, "table" + sfx)->addr_inits.size(), 1u);
    BOOST_CHECK_EQUAL(global(m, "table" + sfx)->addr_inits[0].symbol, "$str" + sfx);
    Program p = link(m, k, addresses(m));
    BOOST_REQUIRE_EQUAL(p.funcs.size(), 2u);
    BOOST_CHECK_EQUAL(p.funcs[1].name, "_ZL6helperv" + sfx);
  }
}

BOOST_AUTO_TEST_CASE(an_internal_name_yields_to_an_external_one) {
  // a's static `helper` must neither satisfy b's extern nor keep the name
  // the extern binds to; b's `x` (visible) owns its name over a's internal x.
  Module m = merge_modules(units(R"(
.global .u32 x = 1;
.func helper() { ret; }
.visible .entry ka() { call.uni helper, (); ret; }
)", R"(
.extern .func helper();
.visible .global .u32 x = 2;
.visible .entry kb() { call.uni helper, (); ret; }
)"), "prog");
  BOOST_CHECK(m.find("helper")->is_extern);
  BOOST_REQUIRE(m.find("helper$u0"));
  BOOST_CHECK(!m.find("helper$u0")->is_extern);
  BOOST_CHECK_EQUAL(m.functions[symref(m, "ka", "helper$u0").index].name, "helper$u0");
  BOOST_CHECK_EQUAL(global(m, "x")->init[0], 2);
  BOOST_CHECK_EQUAL(global(m, "x$u0")->init[0], 1);
}

BOOST_AUTO_TEST_CASE(duplicate_visible_definition_names_both_units) {
  expect_merge_error(units(".visible .global .u32 bias = 1;", "\n.visible .global .u32 bias = 2;"),
                     {"b.ptx:5:", "duplicate definition of 'bias'", "a.ptx:4"});
  expect_merge_error(units(".visible .func f() { ret; }", ".visible .func f() { ret; }"),
                     {"b.ptx:4:", "duplicate definition of 'f'", "a.ptx:4"});
}

BOOST_AUTO_TEST_CASE(mismatched_kinds_and_spaces_are_errors) {
  expect_merge_error(units(".extern .func f();", ".visible .global .u32 f;"), {"'f' is a variable", "a.ptx"});
  expect_merge_error(units(".extern .const .u32 c;", ".visible .global .u32 c;"), {".global variable", ".const"});
}

BOOST_AUTO_TEST_CASE(unresolved_externs_stay_extern_once) {
  const std::string printf_decl =
      ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n";
  Module m = merge_modules(units(printf_decl + ".extern .shared .align 4 .b8 dyn[];\n.extern .global .u32 nowhere;",
                                 printf_decl + ".extern .shared .align 16 .b8 dyn[];"),
                           "prog");
  BOOST_REQUIRE_EQUAL(count_functions(m, "vprintf"), 1u);
  BOOST_CHECK(m.find("vprintf")->is_extern);
  BOOST_REQUIRE_EQUAL(m.globals.size(), 2u);
  BOOST_CHECK(global(m, "dyn")->is_extern);
  BOOST_CHECK_EQUAL(global(m, "dyn")->align, 16u);  // the strictest alignment asked for
  BOOST_CHECK(global(m, "nowhere")->is_extern);
}

BOOST_AUTO_TEST_CASE(weak_definitions_yield_to_visible_and_the_first_weak_wins) {
  auto fn = [](const char* link, int v) {
    return std::string(link) + " .func (.param .b32 r) f() { st.param.b32 [r+0], " + std::to_string(v) + "; ret; }\n";
  };
  std::vector<Module> v;
  v.push_back(unit(fn(".weak", 1), "a.ptx"));
  v.push_back(unit(fn(".visible", 2), "b.ptx"));
  v.push_back(unit(fn(".weak", 3), "c.ptx"));
  Module m = merge_modules(std::move(v), "prog");
  BOOST_REQUIRE_EQUAL(count_functions(m, "f"), 1u);
  BOOST_CHECK_EQUAL(m.find("f")->code[0].ops[1].imm, 2);
  m = merge_modules(units(fn(".weak", 1), fn(".weak", 3)), "prog");
  BOOST_REQUIRE_EQUAL(count_functions(m, "f"), 1u);
  BOOST_CHECK_EQUAL(m.find("f")->code[0].ops[1].imm, 1);
  m = merge_modules(units(".weak .global .u32 w = 5;", ".weak .global .u32 w = 6;"), "prog");
  BOOST_REQUIRE_EQUAL(m.globals.size(), 1u);
  BOOST_CHECK_EQUAL(m.globals[0].init[0], 5);
}

BOOST_AUTO_TEST_CASE(common_variables_take_the_largest_and_one_initialiser) {
  Module m = merge_modules(units(".common .global .u32 c;", ".common .global .u32 c[4];"), "prog");
  BOOST_REQUIRE_EQUAL(m.globals.size(), 1u);
  BOOST_CHECK_EQUAL(m.globals[0].size_bytes(), 16u);
  m = merge_modules(units(".common .global .u32 c;", ".common .global .u32 c[2] = {7, 8};"), "prog");
  BOOST_REQUIRE_EQUAL(m.globals.size(), 1u);
  BOOST_CHECK_EQUAL(m.globals[0].init.size(), 8u);
  BOOST_CHECK_EQUAL(m.globals[0].init[4], 8);
  m = merge_modules(units(".common .global .u32 c[8];", ".visible .global .u32 c = 3;"), "prog");
  BOOST_REQUIRE_EQUAL(m.globals.size(), 1u);
  BOOST_CHECK(m.globals[0].visible);
  expect_merge_error(units(".common .global .u32 c = 1;", ".common .global .u32 c = 2;"),
                     {"b.ptx", "initialised here and in a.ptx"});
  expect_merge_error(units(".common .global .u32 c = 1;", ".common .global .u32 c[2];"),
                     {"a.ptx", "initialised one must be the largest", "b.ptx"});
}

BOOST_AUTO_TEST_CASE(header_takes_the_highest_version_and_target) {
  std::vector<Module> v;
  v.push_back(parse(".version 8.5\n.target sm_80\n.address_size 64\n", "a.ptx"));
  v.push_back(parse(".version 9.0\n.target sm_75\n.address_size 64\n", "b.ptx"));
  v.push_back(parse(".version 8.10\n.target sm_90a\n.address_size 64\n", "c.ptx"));
  Module m = merge_modules(std::move(v), "prog");
  BOOST_CHECK_EQUAL(m.version, "9.0");
  BOOST_CHECK_EQUAL(m.target, "sm_90a");
}

BOOST_AUTO_TEST_CASE(one_unit_is_returned_unchanged) {
  std::vector<Module> v;
  v.push_back(unit(kCaller, "a.ptx"));
  std::vector<Renames> renamed;
  Module m = merge_modules(std::move(v), "prog", &renamed);
  BOOST_CHECK_EQUAL(m.path, "a.ptx");
  BOOST_CHECK(m.find("twice")->is_extern);
  BOOST_CHECK_EQUAL(m.globals.size(), 1u);
  BOOST_CHECK_EQUAL(renamed.size(), 1u);
  BOOST_CHECK(merge_modules({}, "none").functions.empty());
}
