// GlobalMemory::set_fault_granule: by default every byte outside the live
// allocations is unmapped (a memory checker's view, which our own workloads
// run under); with a granule, as a GPU's MMU maps whole pages, an access is
// mapped when each of its ends lies in a granule some allocation reaches into.
#define BOOST_TEST_MODULE fault_granule
#include <boost/test/unit_test.hpp>

#include "func/global_memory.h"

using simt::func::GlobalMemory;

namespace {
constexpr uint64_t kGranule = GlobalMemory::kPageSize;
}

BOOST_AUTO_TEST_CASE(exact_by_default) {
  GlobalMemory mem;
  const uint64_t a = mem.allocate(144);
  const uint64_t b = mem.allocate(4096);
  BOOST_TEST(mem.fault_granule() == 0u);
  BOOST_TEST(mem.mapped(b, 4));
  BOOST_TEST(!mem.mapped(b - 4, 4));        // the gap the allocator leaves before b
  BOOST_TEST(!mem.mapped(a + 144, 4));      // just past a
  BOOST_TEST(!mem.mapped(b + 4096 - 2, 4));  // straddles b's end
}

BOOST_AUTO_TEST_CASE(a_granule_maps_the_bytes_around_allocations) {
  GlobalMemory mem;
  mem.set_fault_granule(kGranule);
  const uint64_t a = mem.allocate(144);
  const uint64_t b = mem.allocate(4096);
  BOOST_TEST(mem.mapped(b - 4, 4));          // Parboil spmv's x[-1]
  BOOST_TEST(mem.mapped(a + 144, 4));
  BOOST_TEST(mem.mapped(b + 4096 - 2, 4));
  const uint64_t granule_end = (b | (kGranule - 1)) + 1;
  BOOST_TEST(mem.mapped(granule_end - 4, 4));    // the last word of the granule
  BOOST_TEST(!mem.mapped(granule_end, 4));       // the next granule holds nothing
  BOOST_TEST(!mem.mapped(granule_end - 2, 4));   // nor may an access reach into it
  BOOST_TEST(!mem.mapped(a - kGranule, 4));      // the granule below the first allocation
  BOOST_TEST(!mem.mapped(0, 4));
  BOOST_TEST(!mem.mapped(~uint64_t{0} - 1, 4));  // wraps around: never mapped
}

BOOST_AUTO_TEST_CASE(a_released_allocation_unmaps_its_granule) {
  GlobalMemory mem;
  mem.set_fault_granule(kGranule);
  const uint64_t far = mem.allocate(3 * kGranule + 100);  // reaches 100 bytes into a fourth granule
  const uint64_t last = far + 3 * kGranule + 100;
  BOOST_TEST(mem.mapped(last + 8, 4));
  BOOST_TEST(mem.release(far));
  BOOST_TEST(!mem.mapped(last + 8, 4));
  BOOST_TEST(!mem.mapped(far, 4));
}
