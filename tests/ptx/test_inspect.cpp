#define BOOST_TEST_MODULE inspect
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <sstream>

#include "ptx/cfg.h"
#include "ptx/cfg_program_builder.h"
#include "ptx/cfg_real_ptx.h"
#include "ptx/inspect.h"

using namespace simt::ptx;
using B = simt::test::CfgProgramBuilder;

namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream is(s);
  for (std::string l; std::getline(is, l);) out.push_back(l);
  return out;
}

std::vector<std::string> tokens(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream is(line);
  for (std::string t; is >> t;) out.push_back(t);
  return out;
}

// The rows of the "branches" section, split into tokens.
std::vector<std::vector<std::string>> branch_rows(const std::string& report) {
  std::vector<std::vector<std::string>> rows;
  bool in = false;
  for (const auto& l : lines_of(report)) {
    if (l.rfind("branches", 0) == 0) { in = true; continue; }
    if (!in) continue;
    if (l.empty()) break;
    auto t = tokens(l);
    if (!t.empty() && t[0] != "pc") rows.push_back(t);
  }
  return rows;
}

// Example 2 of seed 001 (see test_cfg.cpp for the layout).
Program example2() {
  B b;
  uint32_t i = b.reg("%r0"), x = b.reg("%r1"), y = b.reg("%r2"), k = b.reg("%r3"), a = b.reg("%rd0", Type::B64);
  uint32_t p0 = b.reg("%p0", Type::Pred), p1 = b.reg("%p1", Type::Pred), p2 = b.reg("%p2", Type::Pred);
  b.label("A");
  b.op(Op::Ld, {B::R(x), B::A(a)}, "ld.global.u32 %r1, [%rd0]", Space::Global, InstrClass::Ldst);  // 0
  b.op(Op::Setp, {B::R(p0), B::R(x), B::I(0)}, "setp.eq.s32 %p0, %r1, 0");                      // 1
  b.bra("C", p0, true);                                                                         // 2
  b.op(Op::St, {B::A(a), B::R(y)}, "st.global.u32 [%rd0], %r2", Space::Global, InstrClass::Ldst); // 3
  b.bra("E");                                                                                   // 4
  b.label("C");
  b.op(Op::Setp, {B::R(p1), B::R(x), B::I(1)}, "setp.eq.s32 %p1, %r1, 1");  // 5
  b.bra("D", p1);                                                           // 6
  b.label("E");
  b.op(Op::Add, {B::R(i), B::R(i), B::I(1)}, "add.s32 %r0, %r0, 1");        // 7
  b.op(Op::Setp, {B::R(p2), B::R(i), B::R(k)}, "setp.lt.s32 %p2, %r0, %r3"); // 8
  b.bra("A", p2);                                                           // 9
  b.label("F");
  b.op(Op::Ld, {B::R(y), B::A(a)}, "ld.global.u32 %r2, [%rd0]", Space::Global, InstrClass::Ldst);  // 10
  b.exit();                                                                 // 11
  b.label("D");
  b.op(Op::Mov, {B::R(y), B::I(1)}, "mov.u32 %r2, 1");                      // 12
  b.bra("F");                                                               // 13
  return b.build();
}

}  // namespace

BOOST_AUTO_TEST_CASE(report_lists_every_branch_with_its_reconvergence) {
  Program p = example2();
  p.kernel = "example2";
  Cfg cfg(p);
  const std::string r = inspect_report(p, cfg);
  BOOST_TEST_MESSAGE(r);
  BOOST_TEST(r.find("kernel example2") != std::string::npos);
  auto rows = branch_rows(r);
  BOOST_REQUIRE_EQUAL(rows.size(), cfg.branches().size());
  // pc target reconv likely dir uniform provably-uniform instruction...
  const std::vector<std::vector<std::string>> want = {
      {"2", "5", "10", "7", "fwd", "no", "no"},   {"4", "7", "7", "-", "fwd", "yes", "yes"},
      {"6", "12", "10", "7", "fwd", "no", "no"},  {"9", "0", "10", "-", "back", "no", "no"},
      {"13", "10", "10", "-", "back", "yes", "yes"}};
  for (size_t i = 0; i < want.size(); ++i) {
    BOOST_REQUIRE_GE(rows[i].size(), 8u);
    for (size_t c = 0; c < want[i].size(); ++c) BOOST_TEST(rows[i][c] == want[i][c], "row " << i << " col " << c);
  }
  BOOST_TEST(rows[0][7] == "@!%p0");  // the source text follows
  // The counter %r0 is updated in E, inside the region of the divergent branch
  // at A, so the conservative analysis cannot prove the latch branch uniform.
  // Block rows: the loop blocks name header block 0; F has ipdom exit.
  BOOST_TEST(r.find("[10, 12)") != std::string::npos);
  // Mix: 3 LDST of 14 instructions.
  bool found = false;
  for (const auto& l : lines_of(r)) {
    auto t = tokens(l);
    if (t.size() == 3 && t[0] == "LDST") {
      found = true;
      BOOST_TEST(t[1] == "3");
      BOOST_TEST(t[2] == "21.4%");
    }
  }
  BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(report_on_every_workload_kernel) {
  const auto files = simt::test::workload_ptx_files();
  BOOST_REQUIRE(!files.empty());
  size_t kernels = 0;
  for (const auto& f : files) {
    for (const Program& p : simt::test::link_all_entries(f)) {
      ++kernels;
      Cfg cfg(p);
      const std::string r = inspect_report(p, cfg);
      auto rows = branch_rows(r);
      BOOST_TEST(rows.size() == cfg.branches().size(), p.kernel);
      for (size_t i = 0; i < rows.size() && i < cfg.branches().size(); ++i) {
        const BranchInfo& b = cfg.branches()[i];
        BOOST_TEST(rows[i][0] == std::to_string(b.pc));
        BOOST_TEST(rows[i][2] == (b.reconv_pc == kNoPc ? std::string("exit") : std::to_string(b.reconv_pc)));
      }
    }
  }
  BOOST_TEST_MESSAGE(kernels << " kernels inspected");
  BOOST_TEST(kernels >= files.size());
}
