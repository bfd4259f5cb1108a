// util::back_heap_with_huge_pages: off when SIMTLAB_HUGE_PAGES=0; when it
// reports success, the kernel really marked part of the heap for huge pages;
// either way malloc keeps working.
#define BOOST_TEST_MODULE huge_pages
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "util/huge_pages.h"

#if defined(__linux__)
#include <unistd.h>
#endif

namespace {

// Whether some mapping of this process has the kernel's "hg" flag (MADV_HUGEPAGE).
bool some_mapping_marked_hg() {
  std::ifstream in("/proc/self/smaps");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmFlags:", 0) == 0 && (line + " ").find(" hg ") != std::string::npos) return true;
  return false;
}

}  // namespace

BOOST_AUTO_TEST_CASE(turned_off_by_the_environment) {
  setenv("SIMTLAB_HUGE_PAGES", "0", 1);
#if defined(__linux__)
  const void* before = sbrk(0);
  BOOST_TEST(!simt::util::back_heap_with_huge_pages());
  BOOST_TEST(sbrk(0) == before);  // the heap was not grown
#else
  BOOST_TEST(!simt::util::back_heap_with_huge_pages());
#endif
  unsetenv("SIMTLAB_HUGE_PAGES");
}

BOOST_AUTO_TEST_CASE(a_reported_success_is_a_marked_heap_and_malloc_still_works) {
  const bool marked = simt::util::back_heap_with_huge_pages(size_t{16} << 20);
  BOOST_TEST_MESSAGE("heap marked for huge pages: " << (marked ? "yes" : "no (allocator or kernel without THP)"));
  if (marked) BOOST_TEST(some_mapping_marked_hg());
  // Allocations of every size class still work and keep their contents.
  std::vector<std::vector<uint8_t>> blocks;
  for (size_t n = 1; n < (size_t{1} << 22); n *= 3) blocks.emplace_back(n, static_cast<uint8_t>(n));
  for (const auto& b : blocks)
    for (uint8_t v : b) BOOST_REQUIRE_EQUAL(v, static_cast<uint8_t>(b.size()));
}
