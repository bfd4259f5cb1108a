#include "func/device_heap.h"

#include <iterator>
#include <string>

#include "func/global_memory.h"
#include "util/error.h"

namespace simt::func {

void DeviceHeap::set_size(uint64_t bytes) {
  if (base_)
    throw input_error("the device heap size (cudaLimitMallocHeapSize) cannot change after a kernel that calls "
                      "malloc or free has been launched; the heap holds " + std::to_string(size_) + " bytes");
  if (bytes == 0) throw input_error("the device heap size (cudaLimitMallocHeapSize) must be at least 1 byte");
  if (bytes > (uint64_t{1} << 48)) throw input_error("the device heap size (cudaLimitMallocHeapSize) exceeds 2^48 bytes");
  size_ = (bytes + kAlign - 1) / kAlign * kAlign;
}

void DeviceHeap::reserve(GlobalMemory& mem) {
  if (base_) return;
  base_ = mem.allocate(size_, 256);
  free_.clear();
  used_.clear();
  in_use_ = 0;
  free_.emplace(base_, size_);
}

uint64_t DeviceHeap::malloc(uint64_t bytes) {
  if (bytes > size_) return 0;  // also keeps the rounding below from wrapping
  const uint64_t need = bytes ? (bytes + kAlign - 1) / kAlign * kAlign : kAlign;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need) continue;
    const uint64_t addr = it->first, left = it->second - need;
    free_.erase(it);
    if (left) free_.emplace(addr + need, left);
    used_.emplace(addr, need);
    in_use_ += need;
    return addr;
  }
  return 0;
}

bool DeviceHeap::free(uint64_t addr) {
  if (addr == 0) return true;
  auto u = used_.find(addr);
  if (u == used_.end()) return false;
  uint64_t lo = addr, size = u->second;
  in_use_ -= size;
  used_.erase(u);
  // Merge with the free block after it, then with the one before it.
  auto next = free_.lower_bound(lo);
  if (next != free_.end() && next->first == lo + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == lo) {
      lo = prev->first;
      size += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(lo, size);
  return true;
}

}  // namespace simt::func
