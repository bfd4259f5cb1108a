// `simtlab inspect --load FILE`: every kernel of the module is linked and
// checked as its first launch would be (link, then the executor's
// per-instruction support check), one line per kernel: `ok <kernel>` or
// `refused <kernel>: <reason naming file:line>`; exit 0 when all load, 2 when
// any is refused. A parse error is reported as by plain `inspect` (exit 2).
#define BOOST_TEST_MODULE inspect_load
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "common/simtlab_stats.h"

namespace fs = std::filesystem;

namespace {

SIMT_TEST_SCRATCH("simtlab_inspect_load");

// `good` copies tid.x to out[tid.x]; `bad` stops at a breakpoint, which the
// executor refuses when the kernel is loaded.
const char* kTwoKernels = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry good(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r1;
  ret;
}
.visible .entry bad()
{
  brkpt;
  ret;
}
)";

fs::path write_ptx(const std::string& name, const std::string& text) {
  const fs::path p = scratch() / name;
  std::ofstream(p) << text;
  return p;
}

// 1-based line of the first line of `text` that contains `needle`.
int line_of(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(needle) != std::string::npos) return n;
  return 0;
}

simt::test::ProcessRun simtlab(const std::string& args) {
  const fs::path io = scratch() / "io";
  fs::create_directories(io);
  return simt::test::run_simtlab(args, io);
}

}  // namespace

BOOST_AUTO_TEST_CASE(one_line_per_kernel_and_exit_2_when_one_is_refused) {
  const fs::path p = write_ptx("two.ptx", kTwoKernels);
  auto r = simtlab("inspect --load " + p.string());
  BOOST_TEST(r.code == 2, r.out << r.err);
  const std::string where = p.string() + ":" + std::to_string(line_of(kTwoKernels, "brkpt")) + ": ";
  const std::string expected = "ok good\nrefused bad: " + where + "unsupported instruction 'brkpt;': ";
  BOOST_TEST(r.out.rfind(expected, 0) == 0, r.out);
  // Exactly two lines: one per kernel, no report.
  size_t lines = 0;
  for (char c : r.out) lines += c == '\n';
  BOOST_TEST(lines == 2u, r.out);
  BOOST_TEST(r.err.empty(), r.err);
}

BOOST_AUTO_TEST_CASE(exit_0_when_every_kernel_loads) {
  const fs::path p = write_ptx("two.ptx", kTwoKernels);
  auto r = simtlab("inspect --load --kernel good " + p.string());
  BOOST_TEST(r.code == 0, r.out << r.err);
  BOOST_TEST(r.out == "ok good\n");

  std::string one = kTwoKernels;
  one = one.substr(0, one.find(".visible .entry bad"));
  const fs::path q = write_ptx("one.ptx", one);
  r = simtlab("inspect --load " + q.string());
  BOOST_TEST(r.code == 0, r.out << r.err);
  BOOST_TEST(r.out == "ok good\n");
}

BOOST_AUTO_TEST_CASE(link_refusals_are_reported_per_kernel) {
  // `ext` calls a function with no body: refused at link; `good` is unaffected.
  const std::string text = std::string(kTwoKernels).substr(0, std::string(kTwoKernels).find(".visible .entry bad")) +
                           R"(.extern .func f();
.visible .entry ext()
{
  call.uni f;
  ret;
}
)";
  const fs::path p = write_ptx("ext.ptx", text);
  auto r = simtlab("inspect --load " + p.string());
  BOOST_TEST(r.code == 2, r.out << r.err);
  BOOST_TEST(r.out.rfind("ok good\nrefused ext: " + p.string() + ":", 0) == 0, r.out);
  BOOST_TEST(r.out.find("declared but has no body") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(a_module_that_fails_to_load_refuses_every_kernel) {
  // A 32-bit slot cannot hold a device address: refused when the module loads.
  const std::string text = std::string(kTwoKernels).substr(0, std::string(kTwoKernels).find(".visible .entry good")) +
                           ".global .align 4 .u32 x[1];\n.global .align 4 .u32 px[1] = {x};\n" +
                           std::string(kTwoKernels).substr(std::string(kTwoKernels).find(".visible .entry good"));
  const fs::path p = write_ptx("addr32.ptx", text);
  auto r = simtlab("inspect --load " + p.string());
  BOOST_TEST(r.code == 2, r.out << r.err);
  const std::string where = p.string() + ":" + std::to_string(line_of(text, "px[1]")) + ": initialiser of 'px' ";
  BOOST_TEST(r.out.rfind("refused good: " + where, 0) == 0, r.out);
  BOOST_TEST(r.out.find("\nrefused bad: " + where) != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(a_parse_error_exits_2_as_plain_inspect_does) {
  std::string text = kTwoKernels;
  text.replace(text.find("brkpt;"), 6, "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1}, [%rd1];");
  const fs::path p = write_ptx("parse.ptx", text);
  auto r = simtlab("inspect --load " + p.string());
  BOOST_TEST(r.code == 2, r.out << r.err);
  BOOST_TEST(r.out.empty(), r.out);
  const std::string where = p.string() + ":" + std::to_string(line_of(text, "wmma")) + ":";
  BOOST_TEST(r.err.find(where) != std::string::npos, r.err);
  auto plain = simtlab("inspect " + p.string());
  BOOST_TEST(plain.code == 2);
  BOOST_TEST(plain.err == r.err);
}

BOOST_AUTO_TEST_CASE(load_excludes_vgiw) {
  const fs::path p = write_ptx("two.ptx", kTwoKernels);
  auto r = simtlab("inspect --load --vgiw " + p.string());
  BOOST_TEST(r.code == 2, r.out << r.err);
  BOOST_TEST(r.err.find("--vgiw") != std::string::npos, r.err);
}
