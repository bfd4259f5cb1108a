#define BOOST_TEST_MODULE device_limits
// Issue 8, items 5, 6 and 11, on the runtime API (functional mode):
// launch sizes beyond CUDA's limits name the launch and the dimension;
// device memory is allocated on first touch and a cap on touched bytes is a
// resource error; a spinning kernel stops at --max-warp-instructions with its
// warps' PCs, and the default limit is on.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "util/error.h"

using namespace simt;
using runtime::Device;

namespace {

const char* kPtx = R"(
.version 8.0
.target sm_75
.address_size 64
.global .align 4 .b8 g[68719476736];
.visible .entry store(.param .u64 p)
{
  .reg .b32 %r1;
  .reg .b64 %rd<3>;
  mov.u64 %rd1, g;
  mov.u32 %r1, 5;
  st.global.u32 [%rd1], %r1;
  add.u64 %rd2, %rd1, 68719476732;
  st.global.u32 [%rd2], %r1;
  ret;
}
.visible .entry spin(.param .u64 p)
{
  .reg .b32 %r1;
L:
  add.u32 %r1, %r1, 1;
  bra.uni L;
}
)";

// The code and text of the error `f` throws.
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

BOOST_AUTO_TEST_CASE(launch_dimensions_beyond_cuda_limits_name_the_kernel_and_dimension) {
  Device dev;
  runtime::Module& m = dev.load_ptx(kPtx, "k.ptx");
  runtime::KernelArgs args;
  args.push<uint64_t>(0);
  auto [c1, y] = error_of([&] { dev.launch(m, "store", {{1, 65536, 1}}, {{1, 1, 1}}, args); });
  BOOST_TEST(c1 == 2);
  BOOST_TEST(has(y, "'store'"), y);
  BOOST_TEST(has(y, "grid.y"), y);
  auto [c2, z] = error_of([&] { dev.launch(m, "store", {{1, 1, 1}}, {{1, 1, 65}}, args); });
  BOOST_TEST(c2 == 2);
  BOOST_TEST(has(z, "block.z"), z);
  auto [c3, x] = error_of([&] { dev.launch(m, "store", {{0x80000000u, 1, 1}}, {{1, 1, 1}}, args); });
  BOOST_TEST(c3 == 2);
  BOOST_TEST(has(x, "grid.x"), x);
}

BOOST_AUTO_TEST_CASE(a_64_gib_variable_touched_at_both_ends_takes_two_pages) {
  runtime::DeviceOptions o;
  o.max_device_memory = 4 << 20;
  Device dev(o);
  runtime::Module& m = dev.load_ptx(kPtx, "k.ptx");
  runtime::KernelArgs args;
  args.push<uint64_t>(0);
  dev.launch(m, "store", {{1, 1, 1}}, {{1, 1, 1}}, args);
  BOOST_TEST(dev.memory().bytes_touched() == 2 * func::GlobalMemory::kPageSize);
  dev.memory().checksum();  // reads only what was touched
  BOOST_TEST(dev.memory().bytes_touched() == 2 * func::GlobalMemory::kPageSize);
}

BOOST_AUTO_TEST_CASE(touching_more_than_the_cap_is_a_resource_error) {
  runtime::DeviceOptions o;
  o.max_device_memory = 1 << 20;
  Device dev(o);
  const uint64_t a = dev.malloc(uint64_t{1} << 30);  // address space only
  auto [code, what] = error_of([&] { dev.memset(a, 1, 2 << 20); });
  BOOST_TEST(code == 5);
  BOOST_TEST(has(what, "--max-device-memory"), what);
}

BOOST_AUTO_TEST_CASE(a_spinning_kernel_stops_at_the_instruction_limit_naming_its_pc) {
  runtime::DeviceOptions o;
  o.max_warp_instructions = 100000;
  Device dev(o);
  runtime::Module& m = dev.load_ptx(kPtx, "k.ptx");
  runtime::KernelArgs args;
  args.push<uint64_t>(0);
  auto [code, what] = error_of([&] { dev.launch(m, "spin", {{1, 1, 1}}, {{64, 1, 1}}, args); });
  BOOST_TEST(code == 3);
  BOOST_TEST(has(what, "kernel 'spin'"), what);
  BOOST_TEST(has(what, "--max-warp-instructions"), what);
  BOOST_TEST(has(what, "warp 1: PC "), what);
  BOOST_TEST(has(what, "k.ptx:"), what);
}

BOOST_AUTO_TEST_CASE(the_runaway_limits_are_on_by_default) {
  const runtime::DeviceOptions o;
  BOOST_TEST(o.max_warp_instructions > 0u);
  BOOST_TEST(o.max_cycles > 0u);
}

BOOST_AUTO_TEST_CASE(downloading_an_untouched_buffer_takes_no_device_pages) {
  Device dev;
  const uint64_t a = dev.malloc(8 << 20);
  dev.copy_to_device(a + (4 << 20), "\x05", 1);
  const std::vector<uint8_t> v = dev.download<uint8_t>(a, 8 << 20);
  BOOST_TEST(dev.memory().bytes_touched() == func::GlobalMemory::kPageSize);
  BOOST_TEST(v[4 << 20] == 5);
  BOOST_TEST(std::count(v.begin(), v.end(), 0) == (8 << 20) - 1);
}
