#define BOOST_TEST_MODULE device_heap
#include <boost/test/unit_test.hpp>

#include <set>
#include <vector>

#include "func/device_heap.h"
#include "func/global_memory.h"
#include "util/error.h"

using namespace simt;
using func::DeviceHeap;

BOOST_AUTO_TEST_CASE(blocks_are_aligned_distinct_and_inside_the_region) {
  func::GlobalMemory mem;
  DeviceHeap h;
  BOOST_TEST(h.size() == 8u << 20);  // CUDA's default
  BOOST_TEST(h.malloc(16) == 0u);    // no region yet
  h.reserve(mem);
  BOOST_TEST_REQUIRE(h.reserved());
  BOOST_TEST(mem.mapped(h.base(), h.size()));  // kernels may load and store anywhere in it
  std::set<uint64_t> seen;
  uint64_t prev_end = h.base();
  for (uint64_t bytes : {1u, 15u, 16u, 17u, 100u, 0u, 4096u}) {
    const uint64_t a = h.malloc(bytes);
    BOOST_TEST_REQUIRE(a != 0u);
    BOOST_TEST(a % 16 == 0u, bytes);
    BOOST_TEST(a >= prev_end, bytes);  // first fit: after the blocks before it
    BOOST_TEST(a + bytes <= h.base() + h.size());
    BOOST_TEST(seen.insert(a).second, "a distinct pointer, even for malloc(0)");
    prev_end = a + (bytes ? bytes : 1);
  }
  BOOST_TEST(h.blocks_in_use() == 7u);
  BOOST_TEST(h.bytes_in_use() == 16u + 16 + 16 + 32 + 112 + 16 + 4096);
  h.reserve(mem);  // a second reserve keeps the blocks
  BOOST_TEST(h.blocks_in_use() == 7u);
}

BOOST_AUTO_TEST_CASE(exhaustion_returns_zero_and_free_gives_the_space_back) {
  func::GlobalMemory mem;
  DeviceHeap h;
  h.set_size(1000);  // rounded up to 1008
  BOOST_TEST(h.size() == 1008u);
  h.reserve(mem);
  std::vector<uint64_t> blocks;
  for (int i = 0; i < 4; ++i) blocks.push_back(h.malloc(250));  // 256 each: 1024 > 1008
  BOOST_TEST(blocks[0] != 0u);
  BOOST_TEST(blocks[1] != 0u);
  BOOST_TEST(blocks[2] != 0u);
  BOOST_TEST(blocks[3] == 0u);
  BOOST_TEST(h.malloc(~uint64_t{0}) == 0u);  // no wrap-around in the rounding
  BOOST_TEST(h.malloc(~uint64_t{0} - 8) == 0u);
  // Freeing the middle block leaves a 256-byte hole: a 240-byte request
  // fits there, a 300-byte one does not fit anywhere.
  BOOST_TEST(h.free(blocks[1]));
  BOOST_TEST(h.malloc(300) == 0u);
  const uint64_t again = h.malloc(240);
  BOOST_TEST(again == blocks[1]);
  // Free everything: the neighbours merge into one block of the whole region.
  BOOST_TEST(h.free(blocks[0]));
  BOOST_TEST(h.free(again));
  BOOST_TEST(h.free(blocks[2]));
  BOOST_TEST(h.blocks_in_use() == 0u);
  BOOST_TEST(h.bytes_in_use() == 0u);
  BOOST_TEST(h.malloc(1008) == h.base());
}

BOOST_AUTO_TEST_CASE(free_accepts_only_live_block_starts) {
  func::GlobalMemory mem;
  DeviceHeap h;
  h.reserve(mem);
  const uint64_t a = h.malloc(64);
  BOOST_TEST(h.free(0));               // free(NULL) does nothing
  BOOST_TEST(h.blocks_in_use() == 1u);
  BOOST_TEST(!h.free(a + 16));         // inside a block
  BOOST_TEST(!h.free(a + 4096));       // in the region, never allocated
  BOOST_TEST(!h.free(0x1234));         // outside the region
  BOOST_TEST(h.free(a));
  BOOST_TEST(!h.free(a));              // freed already
}

BOOST_AUTO_TEST_CASE(the_size_is_fixed_once_the_region_exists) {
  func::GlobalMemory mem;
  DeviceHeap h;
  BOOST_CHECK_THROW(h.set_size(0), Error);
  h.set_size(4096);
  h.reserve(mem);
  try {
    h.set_size(8192);
    BOOST_FAIL("expected a refusal");
  } catch (const Error& e) {
    BOOST_TEST((e.code() == ExitCode::BadInput));
    BOOST_TEST(std::string(e.what()).find("cudaLimitMallocHeapSize") != std::string::npos, e.what());
  }
  BOOST_TEST(h.size() == 4096u);
  BOOST_TEST(h.overlaps(h.base() + 4095, 1));
  BOOST_TEST(!h.overlaps(h.base() + 4096, 1));
  BOOST_TEST(h.overlaps(h.base() - 8, 16));
}
