#define BOOST_TEST_MODULE merge_load
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "ptx/merge.h"
#include "ptx/parser.h"
#include "runtime/device.h"

// Two translation units of an -rdc program, joined by ptx::merge_modules()
// and loaded with Device::load_module(): a kernel calls a .func and reads a
// .global that the other unit defines, and both units have a `$str` printf
// format (internal, renamed in the second) that each kernel prints and reads.

using namespace simt;

namespace {

constexpr uint32_t kThreads = 32;

const std::string kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// Prints `$str` with one %d argument in %r9, as nvcc calls vprintf.
const std::string kPrintf = R"(
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  add.u64 %rd7, %SP, 0;
  add.u64 %rd8, %SPL, 0;
  st.local.u32 [%rd8], %r9;
  mov.u64 %rd9, $str;
  cvta.global.u64 %rd10, %rd9;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd10;
  .param .b64 param1;
  st.param.b64 [param1+0], %rd7;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  }
)";

const std::string kVprintf =
    ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n";

// out[t] = twice(t) + bias + $str[0]; thread 0 prints "A:<its value>".
const std::string kUnitA = kHeader + kVprintf + R"(
.extern .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0);
.extern .global .align 4 .u32 bias;
.global .align 1 .b8 $str[6] = {65, 58, 37, 100, 10, 0};
.visible .entry ka(.param .u64 ka_out)
{
  .local .align 8 .b8 __local_depot0[8];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<11>;
  ld.param.u64 %rd1, [ka_out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), twice, (param0);
  ld.param.b32 %r2, [retval0+0];
  }
  ld.global.u32 %r3, [bias];
  ld.global.u8 %r4, [$str];
  add.s32 %r5, %r2, %r3;
  add.s32 %r9, %r5, %r4;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r9;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $L_done;
)" + kPrintf + R"(
$L_done:
  ret;
}
)";

// Defines twice() and bias; out[t] = $str[0] * 1000 + twice(t); thread 0
// prints "B:<its value>".
const std::string kUnitB = kHeader + kVprintf + R"(
.visible .global .align 4 .u32 bias = 100;
.global .align 1 .b8 $str[6] = {66, 58, 37, 100, 10, 0};
.visible .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [twice_param_0];
  shl.b32 %r2, %r1, 1;
  st.param.b32 [func_retval0+0], %r2;
  ret;
}
.visible .entry kb(.param .u64 kb_out)
{
  .local .align 8 .b8 __local_depot0[8];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<11>;
  ld.param.u64 %rd1, [kb_out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  ld.global.u8 %r4, [$str];
  mul.lo.s32 %r5, %r4, 1000;
  {
  .param .b32 param0;
  st.param.b32 [param0+0], %r1;
  .param .b32 retval0;
  call.uni (retval0), twice, (param0);
  ld.param.b32 %r2, [retval0+0];
  }
  add.s32 %r9, %r5, %r2;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r9;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $L_done;
)" + kPrintf + R"(
$L_done:
  ret;
}
)";

}  // namespace

BOOST_AUTO_TEST_CASE(merged_units_load_and_run_across_units) {
  std::ostringstream printed;
  runtime::DeviceOptions opts;
  opts.printf_out = &printed;
  runtime::Device dev(opts);
  std::vector<ptx::Module> units;
  units.push_back(ptx::parse(kUnitA, "a.ptx"));
  units.push_back(ptx::parse(kUnitB, "b.ptx"));
  runtime::Module& m = dev.load_module(ptx::merge_modules(std::move(units), "ab"), "ab");
  BOOST_CHECK_EQUAL(dev.ptx_module(m).path, "ab");

  const uint64_t out = dev.malloc(4 * kThreads);
  runtime::KernelArgs args;
  args.push<uint64_t>(out);
  dev.launch(m, "ka", {{1, 1, 1}}, {{kThreads, 1, 1}}, args);
  std::vector<uint32_t> want;
  for (uint32_t t = 0; t < kThreads; ++t) want.push_back(2 * t + 100 + 'A');
  BOOST_TEST(dev.download<uint32_t>(out, kThreads) == want, boost::test_tools::per_element());

  dev.launch(m, "kb", {{1, 1, 1}}, {{kThreads, 1, 1}}, args);
  want.clear();
  for (uint32_t t = 0; t < kThreads; ++t) want.push_back('B' * 1000 + 2 * t);
  BOOST_TEST(dev.download<uint32_t>(out, kThreads) == want, boost::test_tools::per_element());

  BOOST_CHECK_EQUAL(printed.str(), "A:165\nB:66000\n");
  // bias, defined in b and used from a, has one storage the host can reach.
  const uint64_t bias = dev.symbol(m, "bias").addr;
  BOOST_CHECK_EQUAL(dev.download<uint32_t>(bias, 1)[0], 100u);
}
