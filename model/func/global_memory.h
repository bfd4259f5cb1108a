// Device global memory: sparse (pages materialise on first touch) and
// allocation-checked, so a kernel that strays outside every allocation is
// reported instead of silently reading zeros.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>

namespace simt::func {

class GlobalMemory {
 public:
  static constexpr uint64_t kPageBits = 16;
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;

  // Reserves `bytes` (zero-filled) aligned to `align`; never returns 0.
  uint64_t allocate(uint64_t bytes, uint64_t align = 256);
  // Releases an allocation made by allocate(); false if `addr` is not one.
  bool release(uint64_t addr);
  // True if [addr, addr+size) lies inside one live allocation.
  bool mapped(uint64_t addr, uint64_t size) const;

  // Raw byte access; callers check mapped() first where it matters.
  void read(uint64_t addr, void* dst, uint64_t size) const;
  void write(uint64_t addr, const void* src, uint64_t size);

  template <class T>
  T load(uint64_t addr) const {
    T v;
    read(addr, &v, sizeof(T));
    return v;
  }
  template <class T>
  void store(uint64_t addr, T v) {
    write(addr, &v, sizeof(T));
  }

  uint64_t bytes_allocated() const { return allocated_; }
  // A hash of every live allocation's address, size and contents, in address
  // order: equal for two runs that leave device memory identical.
  uint64_t checksum() const;

 private:
  uint8_t* page(uint64_t page_no) const;  // creates on demand

  std::map<uint64_t, uint64_t> allocs_;   // base -> size
  mutable std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
  mutable uint64_t last_page_no_ = ~uint64_t{0};
  mutable uint8_t* last_page_ = nullptr;
  mutable uint64_t last_alloc_base_ = 0, last_alloc_size_ = 0;
  uint64_t next_ = 0;
  uint64_t allocated_ = 0;
};

}  // namespace simt::func
