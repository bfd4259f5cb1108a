// The device heap behind device-side malloc/free (the `malloc` and `free`
// builtins nvcc calls): one fixed-size region of global memory, as CUDA's
// cudaLimitMallocHeapSize heap. The region is one GlobalMemory allocation,
// so a kernel's loads and stores inside it pass the allocation check; which
// parts of it are blocks is known only here (host side), as on a GPU the
// heap's bookkeeping is not the kernel's to see.
//
// Blocks are handed out first fit in address order and rounded up to 16
// bytes, so a run gives the same addresses every time: the executor calls
// malloc for a warp's threads in lane order, and both the functional runner
// and the timing model (which executes an instruction when it issues) run
// one instruction at a time, so no locking is needed.
#pragma once

#include <cstdint>
#include <map>

namespace simt::func {

class GlobalMemory;

class DeviceHeap {
 public:
  static constexpr uint64_t kDefaultBytes = uint64_t{8} << 20;  // CUDA's default heap: 8 MiB
  static constexpr uint64_t kAlign = 16;                        // CUDA: every block 16-byte aligned

  // cudaDeviceSetLimit(cudaLimitMallocHeapSize): the size the region will
  // have (rounded up to kAlign). Throws simt::Error (BadInput) once the
  // region exists, as CUDA refuses the limit after the first launch of a
  // kernel that uses malloc, and for 0.
  void set_size(uint64_t bytes);
  uint64_t size() const { return size_; }

  // Allocates the region in `mem` the first time (later calls do nothing).
  // It then lives as long as `mem`: CUDA's heap lasts for the context.
  void reserve(GlobalMemory& mem);
  bool reserved() const { return base_ != 0; }
  uint64_t base() const { return base_; }
  // True if [addr, addr+bytes) overlaps the region (host calls that must not
  // treat heap blocks as their own allocations ask this).
  bool overlaps(uint64_t addr, uint64_t bytes) const {
    return base_ && addr < base_ + size_ && addr + (bytes ? bytes : 1) > base_;
  }

  // malloc(bytes): the address of a free block of at least `bytes` (a
  // 16-byte block for 0, so every call gives a distinct pointer free()
  // accepts), or 0 when no free block is large enough or the region was
  // never reserved.
  uint64_t malloc(uint64_t bytes);
  // free(addr): false if `addr` is not the start of a live block (never
  // allocated, freed already, or inside a block). free(0) is true and does
  // nothing. The block merges with free neighbours.
  bool free(uint64_t addr);

  uint64_t bytes_in_use() const { return in_use_; }  // sum of live blocks (rounded sizes)
  uint64_t blocks_in_use() const { return used_.size(); }

 private:
  uint64_t size_ = kDefaultBytes;
  uint64_t base_ = 0;                  // 0 until reserve()
  uint64_t in_use_ = 0;
  std::map<uint64_t, uint64_t> free_;  // address -> size, no two adjacent
  std::map<uint64_t, uint64_t> used_;  // address -> size
};

}  // namespace simt::func
