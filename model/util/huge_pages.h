// Backs the start of the malloc heap with transparent huge pages, where the
// host allows it (Linux with glibc, THP in "madvise" or "always" mode).
//
// Why: each simulated cycle visits every busy SM's warps, scoreboard,
// buffers and caches, which are many small allocations spread over the
// heap. With many SMs that state outgrows the host's TLB reach in 4 KiB
// pages, and TLB misses come to cost as much as the cache misses (on the
// 30-SM scaling case, about a fifth of the run time; docs/benchmark.md).
// 2 MiB pages cover it with a few dozen TLB entries.
//
// How: grow the heap once by `reserve` bytes (virtual, not touched, so it
// costs no memory until used), mark that range MADV_HUGEPAGE before any of
// it is touched, and keep the allocator from giving it back. Peak RSS then
// grows in steps of up to 2 MiB. Under another allocator (sanitizers,
// valgrind) it does nothing. SIMTLAB_HUGE_PAGES=0 in the environment turns
// it off.
#pragma once

#include <cstddef>

namespace simt::util {

// True when a range of the heap was marked for huge pages.
bool back_heap_with_huge_pages(size_t reserve = size_t{256} << 20);

}  // namespace simt::util
