// GlobalMemory::map_host: unified memory (cudaMallocManaged) is device
// memory at the host address itself, so what the host writes a kernel reads
// and what a kernel writes the host reads, with no copy in between.
#define BOOST_TEST_MODULE host_backed_memory
#include <boost/test/unit_test.hpp>

#include <sys/mman.h>

#include <cstring>

#include "func/global_memory.h"
#include "util/error.h"

using simt::func::GlobalMemory;

namespace {

// Whole, aligned pages of host memory, unmapped at the end.
struct HostPages {
  explicit HostPages(uint64_t pages) : size(pages * GlobalMemory::kPageSize) {
    const uint64_t span = size + GlobalMemory::kPageSize;
    void* p = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    BOOST_REQUIRE(p != MAP_FAILED);
    raw = static_cast<uint8_t*>(p);
    raw_size = span;
    const uint64_t a = (reinterpret_cast<uint64_t>(p) + GlobalMemory::kPageSize - 1) & ~(GlobalMemory::kPageSize - 1);
    bytes = reinterpret_cast<uint8_t*>(a);
  }
  ~HostPages() { munmap(raw, raw_size); }
  uint64_t addr() const { return reinterpret_cast<uint64_t>(bytes); }
  uint8_t* raw;
  uint64_t raw_size;
  uint8_t* bytes;
  uint64_t size;
};

}  // namespace

BOOST_AUTO_TEST_CASE(host_and_device_see_the_same_bytes) {
  GlobalMemory mem;
  mem.set_touch_limit(GlobalMemory::kPageSize);  // host-backed pages do not count against it
  HostPages h(3);
  mem.map_host(h.bytes, h.size);
  BOOST_TEST(mem.mapped(h.addr(), h.size));
  BOOST_TEST(!mem.mapped(h.addr(), h.size + 1));
  h.bytes[5] = 42;  // the host writes, the device reads
  BOOST_TEST(mem.load<uint8_t>(h.addr() + 5) == 42);
  mem.store<uint32_t>(h.addr() + 2 * GlobalMemory::kPageSize + 8, 0xdeadbeef);  // and back
  uint32_t v;
  std::memcpy(&v, h.bytes + 2 * GlobalMemory::kPageSize + 8, 4);
  BOOST_TEST(v == 0xdeadbeefu);
  uint8_t out[4] = {};
  mem.read_host(h.addr() + 4, out, 2);
  BOOST_TEST(out[1] == 42);
  BOOST_TEST(mem.bytes_touched() == 0u);
  const uint64_t plain = mem.allocate(100);  // ordinary allocations still work beside it
  mem.store<uint8_t>(plain, 7);
  BOOST_TEST(mem.load<uint8_t>(plain) == 7);
}

BOOST_AUTO_TEST_CASE(release_returns_the_pages_to_the_host) {
  GlobalMemory mem;
  HostPages h(1);
  mem.map_host(h.bytes, h.size);
  const uint64_t before = mem.checksum();
  h.bytes[0] = 1;  // host-backed bytes are not part of the checksum (their address changes run to run)
  BOOST_TEST(mem.checksum() == before);
  BOOST_TEST(mem.release(h.addr()));
  BOOST_TEST(!mem.mapped(h.addr(), 1));
  BOOST_TEST(mem.bytes_allocated() == 0u);
}

BOOST_AUTO_TEST_CASE(refuses_partial_pages_and_overlap) {
  GlobalMemory mem;
  HostPages h(2);
  BOOST_CHECK_THROW(mem.map_host(h.bytes + 1, GlobalMemory::kPageSize), simt::Error);
  BOOST_CHECK_THROW(mem.map_host(h.bytes, 100), simt::Error);
  mem.map_host(h.bytes, GlobalMemory::kPageSize);
  BOOST_CHECK_THROW(mem.map_host(h.bytes, 2 * GlobalMemory::kPageSize), simt::Error);
}
