#include "util/huge_pages.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace simt::util {

bool back_heap_with_huge_pages(size_t reserve) {
  const char* env = std::getenv("SIMTLAB_HUGE_PAGES");
  if (env && std::strcmp(env, "0") == 0) return false;
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  if (reserve > (size_t{1} << 30)) reserve = size_t{1} << 30;  // mallopt takes an int
  // Never trim the heap: a range given back and grown again would lose the
  // mark (the kernel does not merge it with the marked mapping).
  if (!mallopt(M_TRIM_THRESHOLD, INT32_MAX)) return false;
  if (!mallopt(M_TOP_PAD, static_cast<int>(reserve))) return false;
  const uintptr_t before = reinterpret_cast<uintptr_t>(sbrk(0));
  // Allocate below the mmap threshold until the heap grows; with the top pad
  // it grows by `reserve` at once. A replaced malloc never moves the break.
  std::vector<void*> blocks;
  blocks.reserve(64);
  uintptr_t after = before;
  for (int i = 0; i < 64 && after == before; ++i) {
    void* p = std::malloc(64 << 10);
    if (!p) break;
    blocks.push_back(p);
    after = reinterpret_cast<uintptr_t>(sbrk(0));
  }
  for (void* p : blocks) std::free(p);
  mallopt(M_TOP_PAD, 128 << 10);  // glibc's default: later growth as usual
  const uintptr_t lo = (before + kHuge - 1) & ~(kHuge - 1), hi = after & ~(kHuge - 1);
  if (after == before || hi <= lo) return false;
  return madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE) == 0;
#else
  (void)reserve;
  return false;
#endif
}

}  // namespace simt::util
