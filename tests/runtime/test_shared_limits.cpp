#define BOOST_TEST_MODULE shared_limits
// Issue 35, item 2 (launch): a kernel whose shared memory per CTA (static,
// rounded to 16, plus dynamic) exceeds what the machine has is refused
// (BadInput, exit 2) with the kernel's name and the sizes. A .shared array of
// 4 GiB + 64 B used to wrap to 64 B and run on the 48 KB default machine.
#include <boost/test/unit_test.hpp>

#include <string>

#include "common/timing_device.h"
#include "runtime/device.h"
#include "util/error.h"

using namespace simt;
using runtime::Device;

namespace {

// Kernels with 4 GiB + 64 B, 64 KiB, 48 KiB and 32 KiB of static shared memory.
const char* kPtx = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry huge(.param .u64 p)
{
  .shared .align 4 .b8 s[4294967360];
  .reg .b64 %rd1;
  mov.u64 %rd1, s;
  ret;
}
.visible .entry k64(.param .u64 p)
{
  .shared .align 4 .b8 s[65536];
  .reg .b64 %rd1;
  mov.u64 %rd1, s;
  ret;
}
.visible .entry k48(.param .u64 p)
{
  .shared .align 4 .b32 s[12288];
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, 7;
  st.shared.u32 [s+49148], %r1;
  ld.shared.u32 %r2, [s+49148];
  ld.param.u64 %rd1, [p];
  st.global.u32 [%rd1], %r2;
  ret;
}
.visible .entry k32(.param .u64 p)
{
  .shared .align 4 .b8 s[32768];
  .reg .b64 %rd1;
  mov.u64 %rd1, s;
  ret;
}
)";

template <class F>
std::pair<int, std::string> error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return {static_cast<int>(e.code()), e.what()};
  }
  return {0, ""};
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_CASE(without_a_machine_the_limit_is_the_largest_gpu_s) {
  Device dev;  // functional, no machine: 227 KiB per CTA
  runtime::Module& m = dev.load_ptx(kPtx, "big.ptx");
  runtime::KernelArgs args;
  args.push<uint64_t>(0);
  auto [code, what] = error_of([&] { dev.launch(m, "huge", {{1, 1, 1}}, {{32, 1, 1}}, args); });
  BOOST_TEST(code == 2);
  BOOST_TEST(has(what, "kernel 'huge'"), what);
  BOOST_TEST(has(what, "needs 4294967360 bytes of shared memory per CTA (4294967360 static + 0 dynamic)"), what);
  BOOST_TEST(has(what, "the limit is 232448"), what);
  // 64 KiB fits a GPU, so a device without a machine runs it.
  BOOST_CHECK_NO_THROW(dev.launch(m, "k64", {{1, 1, 1}}, {{32, 1, 1}}, args));
}

BOOST_AUTO_TEST_CASE(on_a_48_kib_machine_bigger_footprints_are_refused_before_running) {
  runtime::DeviceOptions o = test::default_timing_options();
  BOOST_REQUIRE_EQUAL(o.machine->limits.shared_bytes, 49152u);
  Device dev(o);
  runtime::Module& m = dev.load_ptx(kPtx, "big.ptx");
  const uint64_t out = dev.malloc(4);
  runtime::KernelArgs args;
  args.push<uint64_t>(out);

  auto [c1, huge] = error_of([&] { dev.launch(m, "huge", {{1, 1, 1}}, {{32, 1, 1}}, args); });
  BOOST_TEST(c1 == 2);
  BOOST_TEST(has(huge, "kernel 'huge'"), huge);
  BOOST_TEST(has(huge, "needs 4294967360 bytes"), huge);
  BOOST_TEST(has(huge, "the limit is 49152 (sm.shared_bytes"), huge);

  auto [c2, k64] = error_of([&] { dev.launch(m, "k64", {{1, 1, 1}}, {{32, 1, 1}}, args); });
  BOOST_TEST(c2 == 2);
  BOOST_TEST(has(k64, "kernel 'k64': needs 65536 bytes of shared memory per CTA (65536 static + 0 dynamic)"), k64);
  BOOST_TEST(has(k64, "49152"), k64);

  // Static plus dynamic: 32 KiB + 16 KiB + 16 B.
  auto [c3, dyn] = error_of([&] { dev.launch(m, "k32", {{1, 1, 1}}, {{32, 1, 1}}, args, 16400); });
  BOOST_TEST(c3 == 2);
  BOOST_TEST(has(dyn, "kernel 'k32': needs 49168 bytes of shared memory per CTA (32768 static + 16400 dynamic)"), dyn);

  // Exactly the machine's shared memory runs, and the last word works.
  dev.launch(m, "k48", {{2, 1, 1}}, {{32, 1, 1}}, args);
  BOOST_TEST(dev.download<uint32_t>(out, 1)[0] == 7u);
  dev.launch(m, "k32", {{1, 1, 1}}, {{32, 1, 1}}, args, 16384);
}
