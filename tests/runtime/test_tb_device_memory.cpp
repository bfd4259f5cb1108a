#define BOOST_TEST_MODULE tb_device_memory
#include <boost/test/unit_test.hpp>

#include "common/square_ptx.h"
#include "common/timing_device.h"
#include "gpu/foreign_memories.h"
#include "func/address_space.h"
#include "runtime/device.h"
#include "stats/stats.h"
#include "util/error.h"

// A virtual platform binds its own memory to the Device's memory socket:
// host copies made before the first launch reach it, the kernel's stores
// land in it, and the device never binds its own BackingMemory.
namespace {

using namespace simt;

}  // namespace

BOOST_AUTO_TEST_CASE(platform_memory_bound_through_the_device) {
  runtime::Device functional;
  BOOST_CHECK_THROW(functional.memory_socket(), Error);  // no TLM in functional mode

  runtime::Device dev(test::default_timing_options());
  test::DmiMemory ram("ram", func::kGlobalHeapBase, 1 << 20, 0xee);
  dev.memory_socket().bind(ram.socket);

  std::vector<uint32_t> v(200);
  for (uint32_t i = 0; i < v.size(); ++i) v[i] = i + 3;
  const uint64_t a = dev.upload(v);
  runtime::Module& m = dev.load_ptx(test::square_ptx(), "square.ptx");
  runtime::KernelArgs args;
  args.push<uint64_t>(a).push<uint32_t>(200);
  const runtime::LaunchStats st = dev.launch(m, "square", {{2, 1, 1}}, {{128, 1, 1}}, args);
  BOOST_TEST(st.cycles > 0u);

  bool ok = true;
  for (uint32_t i = 0; i < v.size(); ++i) ok = ok && ram.peek<uint32_t>(a + 4 * i) == (i + 3) * (i + 3);
  BOOST_TEST(ok, "the platform memory holds the squares");
  BOOST_TEST((dev.download<uint32_t>(a, 3) == std::vector<uint32_t>{9, 16, 25}));
  BOOST_TEST(ram.dmi_grants == 1u);
  BOOST_TEST(dev.timing_stats()->value("memory_port.dmi_grants") == 1u);
  BOOST_TEST(dev.timing_stats()->find_counter("memory.dmi_grants") == nullptr);  // ours was never built
  BOOST_CHECK_THROW(dev.memory_socket(), Error);  // too late after the first launch
}
