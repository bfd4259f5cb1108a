#include "func/global_memory.h"

#include "func/address_space.h"

#include <vector>

namespace simt::func {

uint64_t GlobalMemory::allocate(uint64_t bytes, uint64_t align) {
  if (align == 0) align = 1;
  if (next_ == 0) next_ = kGlobalHeapBase;
  uint64_t base = (next_ + align - 1) / align * align;
  uint64_t size = bytes ? bytes : 1;
  allocs_[base] = size;
  // Leave a gap after every allocation so an off-by-one access lands outside.
  next_ = base + size + 256;
  allocated_ += size;
  return base;
}

bool GlobalMemory::release(uint64_t addr) {
  auto it = allocs_.find(addr);
  if (it == allocs_.end()) return false;
  allocated_ -= it->second;
  allocs_.erase(it);
  last_alloc_size_ = 0;
  return true;
}

bool GlobalMemory::mapped(uint64_t addr, uint64_t size) const {
  if (addr - last_alloc_base_ < last_alloc_size_ && addr + size - last_alloc_base_ <= last_alloc_size_)
    return true;
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return false;
  --it;
  if (addr - it->first >= it->second || addr + size - it->first > it->second) return false;
  last_alloc_base_ = it->first;
  last_alloc_size_ = it->second;
  return true;
}

uint8_t* GlobalMemory::page(uint64_t page_no) const {
  if (page_no == last_page_no_) return last_page_;
  auto& p = pages_[page_no];
  if (!p) {
    p.reset(new uint8_t[kPageSize]);
    std::memset(p.get(), 0, kPageSize);
  }
  last_page_no_ = page_no;
  last_page_ = p.get();
  return last_page_;
}

void GlobalMemory::read(uint64_t addr, void* dst, uint64_t size) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (size) {
    uint64_t off = addr & (kPageSize - 1);
    uint64_t n = std::min(size, kPageSize - off);
    std::memcpy(out, page(addr >> kPageBits) + off, n);
    out += n; addr += n; size -= n;
  }
}

void GlobalMemory::write(uint64_t addr, const void* src, uint64_t size) {
  auto* in = static_cast<const uint8_t*>(src);
  while (size) {
    uint64_t off = addr & (kPageSize - 1);
    uint64_t n = std::min(size, kPageSize - off);
    std::memcpy(page(addr >> kPageBits) + off, in, n);
    in += n; addr += n; size -= n;
  }
}

uint64_t GlobalMemory::checksum() const {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  auto mix = [&h](const uint8_t* p, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  };
  std::vector<uint8_t> buf;
  for (const auto& [base, size] : allocs_) {
    mix(reinterpret_cast<const uint8_t*>(&base), sizeof base);
    mix(reinterpret_cast<const uint8_t*>(&size), sizeof size);
    buf.resize(size);
    read(base, buf.data(), size);
    mix(buf.data(), size);
  }
  return h;
}

}  // namespace simt::func
