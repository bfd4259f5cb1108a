// Manifest arguments beyond plain buffers and scalars (docs/manifest.md):
// a pointer plus a byte offset, a struct passed by value given field by
// field (C layout, pointers patched in at run time) or as raw bytes;
// module variables (__constant__, __device__) filled by name and written
// out; the host's launch loops (a fixed count, or until a flag); and
// device-to-device copies between launches. Each is run end to end through
// `simtlab run --manifest` and checked in its output.
#define BOOST_TEST_MODULE manifest_args
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "common/simtlab_stats.h"

namespace fs = std::filesystem;

namespace {

SIMT_TEST_SCRATCH("simtlab_manifest_args");

// scale: struct S { float* out; int n; float scale; } by value and a pointer
// `in`: out[i] = in[i] * scale for i < n. sum2: struct { int a, b; } by
// value: out[0] = a + b.
const char* kPtx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry scale(.param .align 8 .b8 s[16], .param .u64 in)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [s];
  ld.param.u32 %r1, [s+8];
  ld.param.f32 %f1, [s+12];
  ld.param.u64 %rd2, [in];
  mov.u32 %r2, %tid.x;
  setp.ge.s32 %p1, %r2, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  mul.f32 %f3, %f2, %f1;
  add.s64 %rd5, %rd1, %rd3;
  st.global.f32 [%rd5], %f3;
DONE:
  ret;
}
.const .align 4 .b8 c_coeff[16];
.global .align 4 .u32 g_count;
// weigh: out[i] = in[i] * c_coeff[i % 4] for i < 8; g_count += 1 per thread.
.visible .entry weigh(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 3;
  mul.wide.u32 %rd3, %r2, 4;
  mov.u64 %rd4, c_coeff;
  add.s64 %rd5, %rd4, %rd3;
  ld.const.f32 %f1, [%rd5];
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd1, %rd6;
  ld.global.f32 %f2, [%rd7];
  mul.f32 %f3, %f2, %f1;
  add.s64 %rd8, %rd2, %rd6;
  st.global.f32 [%rd8], %f3;
  atom.global.add.u32 %r3, [g_count], 1;
  ret;
}
// countdown: one thread; if cnt[0] > 0 it takes one off and sets over[0] = 1.
.visible .entry countdown(.param .u64 cnt, .param .u64 over)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [cnt];
  ld.param.u64 %rd2, [over];
  ld.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  sub.u32 %r2, %r1, 1;
  st.global.u32 [%rd1], %r2;
  mov.u32 %r3, 1;
  st.global.u32 [%rd2], %r3;
DONE:
  ret;
}
.visible .entry sum2(.param .align 4 .b8 s[8], .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u32 %r1, [s];
  ld.param.u32 %r2, [s+4];
  add.s32 %r3, %r1, %r2;
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r3;
  ret;
}
)";

// Writes the PTX and `manifest`, runs it, and returns the bytes of out.bin.
std::string run(const std::string& manifest, simt::test::ProcessRun& proc) {
  std::ofstream(scratch() / "k.ptx") << kPtx;
  std::ofstream(scratch() / "m.json") << manifest;
  fs::remove(scratch() / "o" / "out.bin");
  proc = simt::test::run_simtlab(
      "run --quiet --manifest " + (scratch() / "m.json").string() + " --out-dir " + (scratch() / "o").string(), scratch());
  return proc.code == 0 ? simt::test::slurp(scratch() / "o" / "out.bin") : std::string();
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_struct_by_value_with_a_pointer_field_and_pointers_with_offsets) {
  simt::test::ProcessRun p;
  const std::string out = run(R"({"ptx": "k.ptx",
 "buffers": [{"name": "in", "type": "f32", "count": 16, "init": {"kind": "iota"}},
             {"name": "out", "type": "f32", "count": 16}],
 "launches": [{"kernel": "scale", "grid": 1, "block": 8,
               "args": [{"struct": [{"buffer": "out", "offset": 32}, {"i32": 8}, {"f32": 0.5}]},
                        {"buffer": "in", "offset": 16}]}],
 "outputs": [{"buffer": "out", "path": "out.bin"}]})", p);
  BOOST_TEST_REQUIRE(p.code == 0, p.out + p.err);
  BOOST_TEST_REQUIRE(out.size() == 64u);
  float f[16];
  std::memcpy(f, out.data(), 64);
  for (int i = 0; i < 8; ++i) BOOST_TEST(f[i] == 0.0f);
  for (int i = 0; i < 8; ++i) BOOST_TEST(f[8 + i] == (4 + i) * 0.5f);  // out + 8 words = in + 4 words, halved
}

BOOST_AUTO_TEST_CASE(a_struct_by_value_as_raw_bytes) {
  simt::test::ProcessRun p;
  const std::string out = run(R"({"ptx": "k.ptx",
 "buffers": [{"name": "out", "type": "i32", "count": 1}],
 "launches": [{"kernel": "sum2", "grid": 1, "block": 1,
               "args": [{"bytes": [40, 0, 0, 0, 2, 0, 0, 0], "align": 4}, {"buffer": "out"}]}],
 "outputs": [{"buffer": "out", "path": "out.bin"}]})", p);
  BOOST_TEST_REQUIRE(p.code == 0, p.out + p.err);
  int32_t v = 0;
  BOOST_TEST_REQUIRE(out.size() == 4u);
  std::memcpy(&v, out.data(), 4);
  BOOST_TEST(v == 42);
}

BOOST_AUTO_TEST_CASE(a_struct_of_the_wrong_layout_is_refused_before_anything_runs) {
  simt::test::ProcessRun p;
  run(R"({"ptx": "k.ptx",
 "buffers": [{"name": "out", "type": "i32", "count": 1}],
 "launches": [{"kernel": "sum2", "grid": 1, "block": 1,
               "args": [{"struct": [{"i32": 40}, {"i32": 2}, {"i32": 1}]}, {"buffer": "out"}]}],
 "outputs": [{"buffer": "out", "path": "out.bin"}]})", p);
  BOOST_TEST(p.code == 2);
  BOOST_TEST(p.err.find("launches[0]") != std::string::npos, p.err);
  BOOST_TEST(p.err.find("do not match the kernel's parameters") != std::string::npos, p.err);
  BOOST_TEST(!fs::exists(scratch() / "o" / "out.bin"));
}

BOOST_AUTO_TEST_CASE(module_variables_filled_by_name_and_written_out) {
  simt::test::ProcessRun p;
  const std::string out = run(R"({"ptx": "k.ptx",
 "buffers": [{"name": "in", "type": "f32", "count": 8, "init": {"kind": "fill", "value": 2}},
             {"name": "out", "type": "f32", "count": 8}],
 "symbols": [{"name": "c_coeff", "type": "f32", "count": 4, "init": {"kind": "iota", "start": 1}},
             {"name": "g_count", "type": "u32", "count": 1, "init": {"kind": "fill", "value": 100}}],
 "launches": [{"kernel": "weigh", "grid": 1, "block": 8, "args": [{"buffer": "in"}, {"buffer": "out"}]}],
 "outputs": [{"buffer": "out", "path": "out.bin"}, {"symbol": "g_count", "path": "count.bin"}]})", p);
  BOOST_TEST_REQUIRE(p.code == 0, p.out + p.err);
  float f[8];
  BOOST_TEST_REQUIRE(out.size() == 32u);
  std::memcpy(f, out.data(), 32);
  for (int i = 0; i < 8; ++i) BOOST_TEST(f[i] == 2.0f * (1 + i % 4));
  const std::string count = simt::test::slurp(scratch() / "o" / "count.bin");
  uint32_t n = 0;
  BOOST_TEST_REQUIRE(count.size() == 4u);
  std::memcpy(&n, count.data(), 4);
  BOOST_TEST(n == 108u);  // 100, plus one per thread
}

BOOST_AUTO_TEST_CASE(a_symbol_that_is_not_there_or_too_small_is_bad_input) {
  simt::test::ProcessRun p;
  const std::string launch = R"("launches": [{"kernel": "weigh", "grid": 1, "block": 8, "args": [{"buffer": "in"}, {"buffer": "out"}]}]})";
  const std::string bufs = R"({"ptx": "k.ptx", "buffers": [{"name": "in", "type": "f32", "count": 8}, {"name": "out", "type": "f32", "count": 8}],)";
  run(bufs + R"("symbols": [{"name": "c_nope", "type": "f32", "count": 4}],)" + launch, p);
  BOOST_TEST(p.code == 2);
  BOOST_TEST(p.err.find("symbols[0].name") != std::string::npos, p.err);
  BOOST_TEST(p.err.find("c_nope") != std::string::npos, p.err);
  run(bufs + R"("symbols": [{"name": "c_coeff", "type": "f32", "count": 5}],)" + launch, p);
  BOOST_TEST(p.code == 2);
  BOOST_TEST(p.err.find("symbols[0].count") != std::string::npos, p.err);
  BOOST_TEST(p.err.find("holds 16") != std::string::npos, p.err);
}

BOOST_AUTO_TEST_CASE(a_host_loop_until_a_flag_and_a_fixed_count) {
  // Rodinia's BFS loop: do { over = 0; launch; copy over back } while (over).
  const std::string head = R"({"ptx": "k.ptx",
 "buffers": [{"name": "cnt", "type": "u32", "count": 1, "init": {"kind": "fill", "value": 5}},
             {"name": "over", "type": "u32", "count": 1}],
 "launches": [)";
  const std::string body = R"("repeat": [{"kernel": "countdown", "grid": 1, "block": 1, "args": [{"buffer": "cnt"}, {"buffer": "over"}]}])";
  const std::string tail = R"(],
 "outputs": [{"buffer": "cnt", "path": "out.bin"}]})";
  simt::test::ProcessRun p;
  const nlohmann::json st = simt::test::require_stats(
      "--quiet --manifest " + [&] {
        std::ofstream(scratch() / "k.ptx") << kPtx;
        std::ofstream(scratch() / "loop.json")
            << head + "{" + body + R"(, "set": {"buffer": "over", "value": 0}, "until": {"buffer": "over", "equals": 0}, "max": 100})" + tail;
        return (scratch() / "loop.json").string();
      }() + " --out-dir " + (scratch() / "o").string(),
      scratch(), "loop");
  BOOST_TEST(st["kernels"].size() == 6u);  // five passes count down, the sixth finds nothing to do
  std::string out = simt::test::slurp(scratch() / "o" / "out.bin");
  BOOST_TEST(out == std::string(4, '\0'));
  // A fixed count: three passes.
  out = run(head + "{" + body + R"(, "times": 3})" + tail, p);
  BOOST_TEST_REQUIRE(p.code == 0, p.out + p.err);
  uint32_t left = 9;
  std::memcpy(&left, out.data(), 4);
  BOOST_TEST(left == 2u);
  // A loop that does not end within its bound is a kernel fault (exit 3), no output written.
  run(head + "{" + body + R"(, "set": {"buffer": "over", "value": 0}, "until": {"buffer": "over", "equals": 0}, "max": 3})" + tail, p);
  BOOST_TEST(p.code == 3);
  BOOST_TEST(p.err.find("launches[0]") != std::string::npos, p.err);
  BOOST_TEST(p.err.find("\"max\"") != std::string::npos, p.err);
  BOOST_TEST(!fs::exists(scratch() / "o" / "out.bin"));
  // Bad loops are bad input.
  run(head + "{" + body + R"(, "times": 3, "max": 4})" + tail, p);
  BOOST_TEST(p.code == 2);
  BOOST_TEST(p.err.find("either \"times\"") != std::string::npos, p.err);
  run(head + "{" + body + R"(, "until": {"buffer": "nope", "equals": 0}, "max": 4})" + tail, p);
  BOOST_TEST(p.code == 2);
  BOOST_TEST(p.err.find("launches[0].until.buffer") != std::string::npos, p.err);
}

BOOST_AUTO_TEST_CASE(copies_between_buffers_and_module_variables) {
  // Host code between launches: cudaMemcpy(d2, d1, ..., DeviceToDevice) and
  // cudaMemcpyToSymbol(c_coeff, d_table, ...) from device data. weigh reads
  // c_coeff, so the coefficients it uses come from the buffer copied in; a
  // copy inside a loop runs every pass; g_count is copied out to a buffer.
  simt::test::ProcessRun p;
  const std::string out = run(R"({"ptx": "k.ptx",
 "buffers": [{"name": "in", "type": "f32", "count": 8, "init": {"kind": "fill", "value": 2}},
             {"name": "table", "type": "f32", "count": 6, "init": {"kind": "iota", "start": 10}},
             {"name": "mid", "type": "f32", "count": 8},
             {"name": "out", "type": "f32", "count": 8},
             {"name": "count", "type": "u32", "count": 2, "init": {"kind": "fill", "value": 7}}],
 "launches": [{"copy": {"from": {"buffer": "table", "offset": 8}, "to": {"symbol": "c_coeff"}, "bytes": 16}},
              {"repeat": [{"kernel": "weigh", "grid": 1, "block": 8, "args": [{"buffer": "in"}, {"buffer": "mid"}]},
                          {"copy": {"from": {"buffer": "mid"}, "to": {"buffer": "in"}}}], "times": 2},
              {"copy": {"from": {"buffer": "in"}, "to": {"buffer": "out"}}},
              {"copy": {"from": {"symbol": "g_count"}, "to": {"buffer": "count", "offset": 4}}}],
 "outputs": [{"buffer": "out", "path": "out.bin"}, {"buffer": "count", "path": "count.bin"}]})", p);
  BOOST_TEST_REQUIRE(p.code == 0, p.out + p.err);
  float f[8];
  BOOST_TEST_REQUIRE(out.size() == 32u);
  std::memcpy(f, out.data(), 32);
  // c_coeff = table[2..5] = 12, 13, 14, 15; two passes multiply twice.
  for (int i = 0; i < 8; ++i) BOOST_TEST(f[i] == 2.0f * (12 + i % 4) * (12 + i % 4), "i " << i);
  const std::string count = simt::test::slurp(scratch() / "o" / "count.bin");
  uint32_t n[2] = {0, 0};
  BOOST_TEST_REQUIRE(count.size() == 8u);
  std::memcpy(n, count.data(), 8);
  BOOST_TEST(n[0] == 7u);   // untouched
  BOOST_TEST(n[1] == 16u);  // one per thread per pass
}

BOOST_AUTO_TEST_CASE(bad_copies_are_bad_input_naming_the_place) {
  simt::test::ProcessRun p;
  const std::string head = R"({"ptx": "k.ptx",
 "buffers": [{"name": "a", "type": "u32", "count": 4}, {"name": "b", "type": "u32", "count": 2}],
 "launches": [)";
  const std::string tail = R"(, {"kernel": "countdown", "grid": 1, "block": 1, "args": [{"buffer": "a"}, {"buffer": "b"}]}],
 "outputs": [{"buffer": "a", "path": "out.bin"}]})";
  struct Case { std::string step, where; };
  const Case cases[] = {
      {R"({"copy": {"from": {"buffer": "a"}, "to": {"buffer": "b"}}})", "launches[0].copy.bytes: 16 bytes do not fit in \"b\""},
      {R"({"copy": {"from": {"buffer": "nope"}, "to": {"buffer": "b"}}})", "launches[0].copy.from.buffer"},
      {R"({"copy": {"from": {"buffer": "a", "offset": 16}, "to": {"buffer": "b"}}})", "launches[0].copy.from.offset"},
      {R"({"copy": {"from": {"buffer": "a"}, "to": {"buffer": "b"}, "bytes": 0}})", "launches[0].copy.bytes: must be at least 1"},
      {R"({"copy": {"from": {"buffer": "a"}}})", "launches[0].copy"},
      {R"({"copy": {"from": {"symbol": "c_nope"}, "to": {"buffer": "a"}}})", "launches[0].copy.from.symbol"},
      {R"({"copy": {"from": {"buffer": "a"}, "to": {"symbol": "g_count"}}})", "launches[0].copy.bytes: 16 bytes do not fit in 'g_count'"},
  };
  for (const Case& c : cases) {
    run(head + c.step + tail, p);
    BOOST_TEST(p.code == 2, c.step << ": " << p.err);
    BOOST_TEST(p.err.find(c.where) != std::string::npos, c.step << ": " << p.err);
    BOOST_TEST(!fs::exists(scratch() / "o" / "out.bin"));
  }
}
