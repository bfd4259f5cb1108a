#define BOOST_TEST_MODULE async_copy
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/timing_device.h"
#include "runtime/device.h"
#include "util/error.h"

// cp.async: global -> shared copies of 4, 8 and 16 bytes, a src-size smaller
// than cp-size (the rest zero), ignore-src, commit/wait; the shared buffer is
// copied back out so every byte is checked. Faults and refusals.

using namespace simt;

namespace {

const char* kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// Thread t (of 8) copies in[16t .. 16t+16) to sh[16t ..] with the given
// cp.async forms, then out[16t ..] = sh[16t ..] (the whole 16 bytes, which
// start filled with 0xee by a first st.shared).
std::string kernel(const std::string& copies) {
  return std::string(kHeader) + R"(.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 src_size)
{
  .reg .pred %p;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 sh[128];
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r9, [src_size];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, sh;
  add.u32 %r3, %r3, %r2;
  cvt.u64.u32 %rd3, %r2;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  mov.u32 %r10, 0xeeeeeeee;
  st.shared.v4.u32 [%r3], {%r10, %r10, %r10, %r10};
  setp.eq.u32 %p, %r1, 3;
)" + copies + R"(
  cp.async.commit_group;
  cp.async.wait_group 0;
  cp.async.wait_all;
  bar.sync 0;
  ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r3];
  st.global.v4.u32 [%rd5], {%r4, %r5, %r6, %r7};
  ret;
}
)";
}

std::vector<uint8_t> run(runtime::Device& dev, const std::string& copies, uint32_t src_size = 16) {
  runtime::Module& m = dev.load_ptx(kernel(copies), "cp.ptx");
  std::vector<uint8_t> in(128);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i + 1);
  const uint64_t a = dev.upload(in), out = dev.malloc(128);
  runtime::KernelArgs args;
  args.push<uint64_t>(a).push<uint64_t>(out).push<uint32_t>(src_size);
  dev.launch(m, "k", {{1, 1, 1}}, {{8, 1, 1}}, args);
  return dev.download<uint8_t>(out, 128);
}

// Byte i of thread t's 16: the source byte if i < copied, 0 if i < cp_size, else 0xee.
void expect(const std::vector<uint8_t>& got, uint32_t t, uint32_t cp_size, uint32_t copied, const std::string& what) {
  for (uint32_t i = 0; i < 16; ++i) {
    const uint8_t want = i < copied ? static_cast<uint8_t>(16 * t + i + 1) : i < cp_size ? 0 : 0xee;
    BOOST_TEST(got[16 * t + i] == want, what << ": thread " << t << " byte " << i);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(copies_of_each_size_with_zero_fill) {
  runtime::Device dev;
  auto got = run(dev, "  cp.async.cg.shared.global [%r3], [%rd4], 16;");
  for (uint32_t t = 0; t < 8; ++t) expect(got, t, 16, 16, "cg 16");
  got = run(dev, "  cp.async.ca.shared.global.L2::128B [%r3], [%rd4], 8;");
  for (uint32_t t = 0; t < 8; ++t) expect(got, t, 8, 8, "ca 8");
  got = run(dev, "  cp.async.ca.shared::cta.global [%r3], [%rd4], 4, 4;");
  for (uint32_t t = 0; t < 8; ++t) expect(got, t, 4, 4, "ca 4, src-size 4");
  // src-size from a register, not a power of two: 11 bytes read, 5 zero.
  got = run(dev, "  cp.async.cg.shared.global [%r3], [%rd4], 16, %r9;", 11);
  for (uint32_t t = 0; t < 8; ++t) expect(got, t, 16, 11, "src-size 11");
  got = run(dev, "  cp.async.cg.shared.global [%r3], [%rd4], 16, 0;");
  for (uint32_t t = 0; t < 8; ++t) expect(got, t, 16, 0, "src-size 0");
  // ignore-src: thread 3 (p true) writes zeros, the others copy.
  got = run(dev, "  cp.async.cg.shared.global [%r3], [%rd4], 16, %p;");
  for (uint32_t t = 0; t < 8; ++t) expect(got, t, 16, t == 3 ? 0 : 16, "ignore-src");
}

BOOST_AUTO_TEST_CASE(bad_copies_fault_and_bad_forms_are_refused) {
  runtime::Device dev;
  // A source not aligned to cp-size.
  try {
    run(dev, "  add.s64 %rd6, %rd4, 4;\n  cp.async.cg.shared.global [%r3], [%rd6], 16;");
    BOOST_FAIL("expected a fault");
  } catch (const Error& e) {
    BOOST_TEST((e.code() == ExitCode::KernelFault));
    BOOST_TEST(std::string(e.what()).find("not aligned to cp-size 16") != std::string::npos, e.what());
  }
  // src-size larger than cp-size.
  try {
    run(dev, "  cp.async.ca.shared.global [%r3], [%rd4], 8, %r9;", 12);
    BOOST_FAIL("expected a fault");
  } catch (const Error& e) {
    BOOST_TEST(std::string(e.what()).find("src-size 12 is larger than cp-size 8") != std::string::npos, e.what());
  }
  // Refused forms: a cp-size that is not 4, 8 or 16 (load), the bulk and mbarrier forms (parse).
  for (const char* bad : {"  cp.async.ca.shared.global [%r3], [%rd4], 12;",
                          "  cp.async.bulk.shared::cluster.global [%r3], [%rd4], 16, [%rd4];",
                          "  cp.async.global.shared [%r3], [%rd4], 16;"}) {
    try {
      run(dev, bad);
      BOOST_FAIL("expected a refusal: " << bad);
    } catch (const Error& e) {
      BOOST_TEST((e.code() == ExitCode::BadInput), bad << ": " << e.what());
      BOOST_TEST(std::string(e.what()).find("cp.ptx:") != std::string::npos, e.what());
    }
  }
}

BOOST_AUTO_TEST_CASE(timing_mode_gives_the_same_bytes) {
  runtime::Device dev(test::default_timing_options());
  const auto got = run(dev, "  cp.async.cg.shared.global [%r3], [%rd4], 16, %r9;", 9);
  for (uint32_t t = 0; t < 8; ++t) expect(got, t, 16, 9, "timing");
}
