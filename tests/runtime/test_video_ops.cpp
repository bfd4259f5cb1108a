#define BOOST_TEST_MODULE video_ops
#include <boost/test/unit_test.hpp>

#include <string>

#include "runtime/device.h"
#include "util/error.h"

using namespace simt;

namespace {

// Runs `instr` (d = %r4, a = %r1, b = %r2, c = %r3) in one thread and returns d.
uint32_t run(const std::string& instr, uint32_t a, uint32_t b, uint32_t c = 0) {
  const std::string ptx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 a, .param .u32 b, .param .u32 c)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<2>;
  ld.param.u32 %r1, [a];
  ld.param.u32 %r2, [b];
  ld.param.u32 %r3, [c];
  ld.param.u32 %r4, [c];
  )" + instr + R"(
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r4;
  ret;
}
)";
  runtime::Device dev;
  runtime::Module& m = dev.load_ptx(ptx, "video.ptx");
  const uint64_t out = dev.malloc(4);
  runtime::KernelArgs args;
  args.push<uint64_t>(out).push<uint32_t>(a).push<uint32_t>(b).push<uint32_t>(c);
  dev.launch(m, "k", {{1, 1, 1}}, {{1, 1, 1}}, args);
  return dev.download<uint32_t>(out, 1)[0];
}

}  // namespace

BOOST_AUTO_TEST_CASE(vabsdiff4_and_its_sum_of_absolute_differences) {
  // What nvcc emits for __vabsdiffu4 and __vsadu4.
  const uint32_t a = 0x10ff0580, b = 0x20017f7f;
  BOOST_TEST(run("vabsdiff4.u32.u32.u32 %r4, %r1, %r2, %r3;", a, b) == 0x10fe7a01u);
  BOOST_TEST(run("vabsdiff4.u32.u32.u32.add %r4, %r1, %r2, %r3;", a, b, 1000) == 1000u + 0x10 + 0xfe + 0x7a + 0x01);
  // Signed bytes: |(-1) - 1| = 2, |(-128) - 127| = 255 saturates to 127 with .sat.
  BOOST_TEST(run("vabsdiff4.s32.s32.s32.sat %r4, %r1, %r2, %r3;", 0x00ff0080, 0x0001007f) == 0x00020000u + 127);
}

BOOST_AUTO_TEST_CASE(simd_arithmetic_saturation_and_merge_masks) {
  // Unsigned bytes: 0xf0 + 0x20 wraps to 0x10, or saturates to 0xff.
  BOOST_TEST(run("vadd4.u32.u32.u32 %r4, %r1, %r2, %r3;", 0x010203f0, 0x01010120) == 0x02030410u);
  BOOST_TEST(run("vadd4.u32.u32.u32.sat %r4, %r1, %r2, %r3;", 0x010203f0, 0x01010120) == 0x020304ffu);
  // Signed half-words: 0x7fff + 1 saturates to 0x7fff; -2 - 3 = -5.
  BOOST_TEST(run("vadd2.s32.s32.s32.sat %r4, %r1, %r2, %r3;", 0xfffe7fff, 0xfffd0001) == 0xfffb7fffu);
  BOOST_TEST(run("vsub2.u32.u32.u32 %r4, %r1, %r2, %r3;", 0x00050003, 0x00020004) == 0x0003ffffu);
  // Average rounds half up for non-negative sums and down otherwise.
  BOOST_TEST(run("vavrg4.u32.u32.u32 %r4, %r1, %r2, %r3;", 0x01020304, 0x02020202) == 0x02020303u);
  BOOST_TEST(run("vavrg2.s32.s32.s32 %r4, %r1, %r2, %r3;", 0xfffd0003, 0x00000000) == 0xfffe0002u);
  BOOST_TEST(run("vmin4.s32.s32.s32 %r4, %r1, %r2, %r3;", 0x80017f00, 0x7f02ff01) == 0x8001ff00u);
  BOOST_TEST(run("vmax2.u32.u32.u32 %r4, %r1, %r2, %r3;", 0x00018000, 0x00027fff) == 0x00028000u);
  // Merge: only lane 0 comes from the operation; the rest from c.
  BOOST_TEST(run("vadd4.u32.u32.u32 %r4.b0, %r1, %r2, %r3;", 0x01010101, 0x01010101, 0xaabbccdd) == 0xaabbcc02u);
  BOOST_TEST(run("vadd2.u32.u32.u32 %r4.h1, %r1, %r2, %r3;", 0x00010001, 0x00010001, 0xaaaabbbb) == 0x0002bbbbu);
  // Accumulate only the masked lanes.
  BOOST_TEST(run("vadd4.u32.u32.u32.add %r4.b10, %r1, %r2, %r3;", 0x01010101, 0x01010101, 100) == 104u);
}

BOOST_AUTO_TEST_CASE(simd_selectors_pick_lanes_from_a_and_b) {
  // a's bytes reversed (.b0123), b's bytes 4..7 as written (.b7654 is the default).
  BOOST_TEST(run("vadd4.u32.u32.u32 %r4, %r1.b0123, %r2, %r3;", 0x01020304, 0) == 0x04030201u);
  // Both operands from a's low half-word (selector digits index {b, a}).
  BOOST_TEST(run("vadd2.u32.u32.u32 %r4, %r1.h00, %r2.h00, %r3;", 0x00050007, 0x00090009) == 0x000e000eu);
  // b's half-words taken from b (.h32) and swapped (.h23).
  BOOST_TEST(run("vsub2.u32.u32.u32 %r4, %r1, %r2.h23, %r3;", 0x00100020, 0x00010002) == 0x000e001fu);
}

BOOST_AUTO_TEST_CASE(simd_compares) {
  BOOST_TEST(run("vset4.u32.u32.lt %r4, %r1, %r2, %r3;", 0x01ff0304, 0x02000304) == 0x01000000u);
  BOOST_TEST(run("vset4.s32.s32.lt %r4, %r1, %r2, %r3;", 0x01ff0304, 0x02000304) == 0x01010000u);
  BOOST_TEST(run("vset2.u32.u32.ne.add %r4, %r1, %r2, %r3;", 0x00010002, 0x00010003, 5) == 6u);
}

BOOST_AUTO_TEST_CASE(scalar_video_instructions) {
  // Byte and half-word selectors with sign extension; saturation to the destination type.
  BOOST_TEST(run("vadd.s32.s32.s32 %r4, %r1.b1, %r2.h1;", 0x0000ff00, 0xfffe0000) == static_cast<uint32_t>(-3));
  BOOST_TEST(run("vadd.u32.u32.u32 %r4, %r1.b1, %r2.h1;", 0x0000ff00, 0xfffe0000) == 0xffu + 0xfffeu);
  BOOST_TEST(run("vsub.u32.u32.u32.sat %r4, %r1, %r2;", 3, 5) == 0u);
  BOOST_TEST(run("vadd.s32.s32.s32.sat %r4, %r1, %r2;", 0x7fffffff, 1) == 0x7fffffffu);
  BOOST_TEST(run("vabsdiff.u32.u32.u32 %r4, %r1, %r2;", 3, 10) == 7u);
  // Secondary operations.
  BOOST_TEST(run("vmin.s32.s32.s32.add %r4, %r1, %r2, %r3;", static_cast<uint32_t>(-4), 2, 10) == 6u);
  BOOST_TEST(run("vmax.s32.s32.s32.min %r4, %r1, %r2, %r3;", 7, 2, 5) == 5u);
  // Merge into c's byte 2, saturated to that byte's range.
  BOOST_TEST(run("vadd.u32.u32.u32.sat %r4.b2, %r1, %r2, %r3;", 200, 100, 0x11223344) == 0x11ff3344u);
  // Shifts: clamp at 32, wrap modulo 32; signed right shifts fill with the sign.
  BOOST_TEST(run("vshl.u32.u32.u32.clamp %r4, %r1, %r2;", 1, 40) == 0u);
  BOOST_TEST(run("vshl.u32.u32.u32.wrap %r4, %r1, %r2;", 1, 33) == 2u);
  BOOST_TEST(run("vshr.s32.s32.u32.clamp %r4, %r1, %r2;", 0x80000000u, 4) == 0xf8000000u);
  BOOST_TEST(run("vset.s32.s32.ge %r4, %r1, %r2;", static_cast<uint32_t>(-1), 0) == 0u);
  BOOST_TEST(run("vset.u32.u32.ge %r4, %r1, %r2;", static_cast<uint32_t>(-1), 0) == 1u);
}

BOOST_AUTO_TEST_CASE(vmad_negation_plus_one_scale_and_saturation) {
  BOOST_TEST(run("vmad.u32.u32.u32 %r4, %r1, %r2, %r3;", 3, 4, 5) == 17u);
  BOOST_TEST(run("vmad.u32.u32.u32.po %r4, %r1, %r2, %r3;", 3, 4, 5) == 18u);
  // -(a*b) + c = ~(a*b) + c + 1
  BOOST_TEST(run("vmad.s32.s32.s32 %r4, -%r1, %r2, %r3;", 3, 4, 5) == static_cast<uint32_t>(-7));
  BOOST_TEST(run("vmad.s32.s32.s32 %r4, %r1, %r2, -%r3;", 3, 4, 5) == 7u);
  BOOST_TEST(run("vmad.u32.u32.u32.shr15 %r4, %r1.h0, %r2.h0, %r3;", 0x8000, 0x8000, 0) == 0x8000u);
  BOOST_TEST(run("vmad.s32.u32.u32.sat %r4, %r1, %r2, %r3;", 0x10000, 0x10000, 0) == 0xffffffffu);
}

BOOST_AUTO_TEST_CASE(bad_video_forms_are_refused_at_load) {
  const char* bad[] = {
      "vadd4.u32.u32 %r4, %r1, %r2, %r3;",                    // two types
      "vadd4.u32.u32.u32.sat.add %r4, %r1, %r2, %r3;",        // .sat with .add
      "vadd4.u32.u32.u32 %r4, %r1.h10, %r2, %r3;",            // half-words on a 4-way op
      "vadd.u32.u32.u32 %r4, -%r1, %r2;",                      // negation outside vmad
      "vshl.u32.u32.s32.clamp %r4, %r1, %r2;",                 // signed shift amount
      "vset4.u32.u32 %r4, %r1, %r2, %r3;",                     // no comparison
  };
  for (const char* instr : bad) {
    try {
      run(instr, 1, 2, 3);
      BOOST_ERROR("accepted: " << instr);
    } catch (const Error& e) {
      BOOST_TEST((e.code() == ExitCode::BadInput), instr << ": " << e.what());
    }
  }
}
