#include "func/global_memory.h"

#include "func/address_space.h"
#include "util/error.h"

#include <algorithm>
#include <string>
#include <vector>

namespace simt::func {

namespace {

// The default storage: zero-filled pages created on first touch, all of them
// directly accessible (so read()/write() here only serve completeness).
class SparsePages final : public GlobalMemory::Storage {
 public:
  uint8_t* direct_page(uint64_t page_no) override {
    auto& p = pages_[page_no];
    if (!p) {
      p.reset(new uint8_t[GlobalMemory::kPageSize]);
      std::memset(p.get(), 0, GlobalMemory::kPageSize);
    }
    return p.get();
  }
  void read(uint64_t addr, void* dst, uint64_t size) override {
    std::memcpy(dst, direct_page(addr >> GlobalMemory::kPageBits) + (addr & (GlobalMemory::kPageSize - 1)), size);
  }
  void write(uint64_t addr, const void* src, uint64_t size) override {
    std::memcpy(direct_page(addr >> GlobalMemory::kPageBits) + (addr & (GlobalMemory::kPageSize - 1)), src, size);
  }

 private:
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
};

// Writes into a storage that is not (yet) the one GlobalMemory caches.
void write_into(GlobalMemory::Storage& s, uint64_t addr, const uint8_t* src, uint64_t size) {
  while (size) {
    const uint64_t off = addr & (GlobalMemory::kPageSize - 1);
    const uint64_t n = std::min(size, GlobalMemory::kPageSize - off);
    if (uint8_t* p = s.direct_page(addr >> GlobalMemory::kPageBits))
      std::memcpy(p + off, src, n);
    else
      s.write(addr, src, n);
    src += n; addr += n; size -= n;
  }
}

}  // namespace

GlobalMemory::GlobalMemory() : own_(std::make_unique<SparsePages>()), storage_(own_.get()) {}
GlobalMemory::~GlobalMemory() = default;

template <class F>
void GlobalMemory::for_touched(uint64_t base, uint64_t size, F f) const {
  const uint64_t end = base + size;
  if (!windows_.empty()) {  // page by page: a platform window's pages count as touched
    for (uint64_t lo = base; lo < end;) {
      const uint64_t hi = std::min(end, ((lo >> kPageBits) + 1) << kPageBits);
      if (touched(lo >> kPageBits)) f(lo, hi - lo);
      lo = hi;
    }
    return;
  }
  for (auto it = touched_.lower_bound(base >> kPageBits); it != touched_.end() && (*it << kPageBits) < end; ++it) {
    const uint64_t lo = std::max(base, *it << kPageBits), hi = std::min(end, (*it + 1) << kPageBits);
    f(lo, hi - lo);
  }
}

uint64_t GlobalMemory::allocate(uint64_t bytes, uint64_t align) {
  if (align == 0) align = 1;
  if (next_ == 0) next_ = kGlobalHeapBase;
  uint64_t base = (next_ + align - 1) / align * align;
  uint64_t size = bytes ? bytes : 1;
  allocs_[base] = size;
  // Leave a gap after every allocation so an off-by-one access lands outside.
  next_ = base + size + 256;
  allocated_ += size;
  // Untouched pages read as zero (ours start zeroed, a foreign page is zeroed
  // at its first touch); only a page touched before may hold old bytes here.
  static const uint8_t zeros[kPageSize] = {};
  for_touched(base, size, [this](uint64_t a, uint64_t n) { write(a, zeros, n); });
  return base;
}

void GlobalMemory::map_host(uint8_t* host, uint64_t size) {
  const uint64_t base = reinterpret_cast<uint64_t>(host);
  if (size == 0 || (base | size) & (kPageSize - 1) || base + size < base)
    throw input_error("host-backed device memory must be whole " + std::to_string(kPageSize >> 10) + " KiB pages");
  for (const std::map<uint64_t, uint64_t>* ranges : {&allocs_, &windows_}) {
    auto next = ranges->lower_bound(base);
    if ((next != ranges->end() && next->first < base + size) ||
        (next != ranges->begin() && std::prev(next)->first + std::prev(next)->second > base))
      throw input_error("host-backed device memory overlaps device memory");
  }
  allocs_[base] = size;
  host_ranges_[base] = size;
  allocated_ += size;
  for (uint64_t p = 0; p < size; p += kPageSize) {
    host_pages_[(base + p) >> kPageBits] = host + p;
    invalidate(base + p, base + p + kPageSize - 1);
  }
}

bool GlobalMemory::release(uint64_t addr) {
  auto it = allocs_.find(addr);
  if (it == allocs_.end()) return false;
  auto host = host_ranges_.find(addr);
  if (host != host_ranges_.end()) {  // its pages are the host's again
    for (uint64_t p = 0; p < host->second; p += kPageSize) host_pages_.erase((addr + p) >> kPageBits);
    invalidate(addr, addr + host->second - 1);
    host_ranges_.erase(host);
  }
  allocated_ -= it->second;
  allocs_.erase(it);
  last_alloc_size_ = 0;
  return true;
}

bool GlobalMemory::find_range(uint64_t addr, uint64_t size) const {
  for (const std::map<uint64_t, uint64_t>* ranges : {&allocs_, &windows_}) {
    auto it = ranges->upper_bound(addr);
    if (it == ranges->begin()) continue;
    --it;
    if (addr - it->first >= it->second || addr + size - it->first > it->second) continue;
    last_alloc_base_ = it->first;
    last_alloc_size_ = it->second;
    return true;
  }
  return false;
}

bool GlobalMemory::granule_mapped(uint64_t addr, uint64_t size) const {
  return fault_granule_ != 0 && size != 0 && addr + size > addr && granule_mapped(addr) &&
         granule_mapped(addr + size - 1);
}

bool GlobalMemory::granule_mapped(uint64_t addr) const {
  const uint64_t lo = addr & ~(fault_granule_ - 1), last = lo + (fault_granule_ - 1);
  for (const std::map<uint64_t, uint64_t>* ranges : {&allocs_, &windows_}) {
    auto it = ranges->upper_bound(last);  // the last range starting in or before the granule
    if (it != ranges->begin() && std::prev(it)->first + std::prev(it)->second > lo) return true;
  }
  return false;
}

void GlobalMemory::map_platform(uint64_t base, uint64_t size) {
  if (size == 0 || base + size < base)
    throw input_error("platform memory window at " + std::to_string(base) + " of " + std::to_string(size) +
                      " bytes: empty or past the end of the address space");
  auto next = windows_.lower_bound(base);
  if ((next != windows_.end() && next->first < base + size) ||
      (next != windows_.begin() && std::prev(next)->first + std::prev(next)->second > base))
    throw input_error("platform memory window at " + std::to_string(base) + " overlaps another");
  windows_[base] = size;
}

bool GlobalMemory::in_window(uint64_t page_no) const {
  if (windows_.empty()) return false;
  const uint64_t lo = page_no << kPageBits;
  auto it = windows_.upper_bound(lo + kPageSize - 1);
  if (it == windows_.begin()) return false;
  --it;
  return it->first + it->second > lo;  // the window reaches into the page
}

uint8_t* GlobalMemory::lookup_page(uint64_t page_no) const {
  auto it = direct_.find(page_no);
  // A null answer is cached too: the storage is asked again only after invalidate().
  if (it == direct_.end()) {
    auto host = host_pages_.find(page_no);
    if (host != host_pages_.end()) {
      it = direct_.emplace(page_no, host->second).first;
    } else {
      touch(page_no);
      it = direct_.emplace(page_no, storage_->direct_page(page_no)).first;
    }
  }
  PageCacheEntry* set = page_cache_.get() + page_set(page_no) * kPageCacheWays;
  std::move_backward(set, set + kPageCacheWays - 1, set + kPageCacheWays);  // the oldest way goes
  set[0] = {page_no, it->second};
  return it->second;
}

void GlobalMemory::touch(uint64_t page_no) const {
  if (touched(page_no)) return;
  if (touch_limit_ && (touched_.size() + 1) * kPageSize > touch_limit_)
    throw resource_error("device memory: the run touched more than " + std::to_string(touch_limit_) +
                         " bytes of device memory, the most this host may hold (option --max-device-memory; " +
                         "device memory is allocated in " + std::to_string(kPageSize >> 10) +
                         " KiB pages on first touch)");
  if (storage_ != own_.get()) {
    // A foreign memory may hold anything: zero the allocated bytes of the
    // page (only those: the target may not cover the rest of it).
    static const uint8_t zeros[kPageSize] = {};
    const uint64_t lo = page_no << kPageBits, hi = lo + kPageSize;
    uint8_t* direct = storage_->direct_page(page_no);
    auto it = allocs_.upper_bound(lo);
    if (it != allocs_.begin()) --it;
    for (; it != allocs_.end() && it->first < hi; ++it) {
      const uint64_t a = std::max(lo, it->first), b = std::min(hi, it->first + it->second);
      if (a >= b) continue;
      if (direct)
        std::memset(direct + (a - lo), 0, b - a);
      else
        storage_->write(a, zeros, b - a);
    }
  }
  touched_.insert(page_no);
}

void GlobalMemory::forget_pages() const {
  direct_.clear();
  std::fill_n(page_cache_.get(), kPageCacheEntries, PageCacheEntry{});
}

void GlobalMemory::invalidate(uint64_t start, uint64_t end) {
  if (start > end) return;
  const uint64_t first = start >> kPageBits, last = end >> kPageBits;
  if (last - first < direct_.size()) {
    for (uint64_t p = first;; ++p) {
      direct_.erase(p);
      if (p == last) break;
    }
  } else {
    for (auto it = direct_.begin(); it != direct_.end();)
      it = (it->first >= first && it->first <= last) ? direct_.erase(it) : std::next(it);
  }
  auto drop = [&](PageCacheEntry& e) {
    if (e.page_no >= first && e.page_no <= last) e = PageCacheEntry{};
  };
  if (last - first < (uint64_t{1} << kPageCacheSetBits)) {  // a few pages: only their sets
    for (uint64_t p = first;; ++p) {
      PageCacheEntry* set = page_cache_.get() + page_set(p) * kPageCacheWays;
      for (uint64_t w = 0; w < kPageCacheWays; ++w) drop(set[w]);
      if (p == last) break;
    }
  } else {
    std::for_each(page_cache_.get(), page_cache_.get() + kPageCacheEntries, drop);
  }
}

void GlobalMemory::read(uint64_t addr, void* dst, uint64_t size) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (size) {
    uint64_t off = addr & (kPageSize - 1);
    uint64_t n = std::min(size, kPageSize - off);
    if (const uint8_t* p = page(addr >> kPageBits)) {
      std::memcpy(out, p + off, n);
      ++direct_accesses_;
    } else
      storage_->read(addr, out, n);
    out += n; addr += n; size -= n;
  }
}

void GlobalMemory::read_host(uint64_t addr, void* dst, uint64_t size) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (size) {
    const uint64_t n = std::min(size, kPageSize - (addr & (kPageSize - 1)));
    if (touched(addr >> kPageBits))
      read(addr, out, n);
    else
      std::memset(out, 0, n);
    out += n; addr += n; size -= n;
  }
}

void GlobalMemory::write(uint64_t addr, const void* src, uint64_t size) {
  auto* in = static_cast<const uint8_t*>(src);
  while (size) {
    uint64_t off = addr & (kPageSize - 1);
    uint64_t n = std::min(size, kPageSize - off);
    if (uint8_t* p = page(addr >> kPageBits)) {
      std::memcpy(p + off, in, n);
      ++direct_accesses_;
    } else
      storage_->write(addr, in, n);
    in += n; addr += n; size -= n;
  }
}

void GlobalMemory::use_storage(Storage* s) {
  std::unique_ptr<Storage> fresh;  // a new own storage when going back to ours
  Storage* to = s;
  if (!to) {
    if (uses_own_storage()) return;
    fresh = std::make_unique<SparsePages>();
    to = fresh.get();
  }
  if (to == storage_) return;
  // Only touched pages hold anything but zeros: copy those, and they are the
  // new storage's touched pages (the others are zeroed there on first touch).
  std::set<uint64_t> copied;
  std::vector<uint8_t> buf;
  for (const auto& [base, size] : allocs_)
    if (!host_ranges_.count(base))  // host-backed bytes stay where they are
      for_touched(base, size, [&](uint64_t a, uint64_t n) {
        buf.resize(n);
        read(a, buf.data(), n);
        write_into(*to, a, buf.data(), n);
        copied.insert(a >> kPageBits);
      });
  forget_pages();
  storage_ = to;
  touched_ = std::move(copied);
  // Our pages are no longer read: free them (a fresh, empty set replaces them).
  own_ = fresh ? std::move(fresh) : std::make_unique<SparsePages>();
}

uint64_t GlobalMemory::checksum() const {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  auto mix = [&h](const uint8_t* p, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  };
  // Runs of zeros are not mixed (only the address and bytes of pieces that
  // hold a non-zero byte), so untouched pages need not be read.
  std::vector<uint8_t> buf;
  for (const auto& [base, size] : allocs_) {
    if (host_ranges_.count(base)) continue;  // host memory, at an address that differs from run to run
    mix(reinterpret_cast<const uint8_t*>(&base), sizeof base);
    mix(reinterpret_cast<const uint8_t*>(&size), sizeof size);
    for_touched(base, size, [&](uint64_t a, uint64_t n) {
      buf.resize(n);
      read(a, buf.data(), n);
      if (std::all_of(buf.begin(), buf.end(), [](uint8_t b) { return b == 0; })) return;
      mix(reinterpret_cast<const uint8_t*>(&a), sizeof a);
      mix(buf.data(), n);
    });
  }
  return h;
}

}  // namespace simt::func
