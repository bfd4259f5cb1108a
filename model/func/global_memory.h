// Device global memory: sparse (pages materialise on first touch) and
// allocation-checked, so a kernel that strays outside every allocation is
// reported instead of silently reading zeros.
//
// The allocation map lives here; the bytes live in a Storage. By default
// that is our own sparse pages. In timing mode the GPU's memory port
// (gpu/memory_port.h) becomes the storage, so the bytes sit in whatever
// TLM-2.0 target is bound to the GPU's memory socket (docs/virtual-platform.md).
// The hot path stays free of virtual calls: a storage hands out one direct
// pointer per page, cached here, and is asked again only on a page miss or
// after invalidate().
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace simt::func {

class GlobalMemory {
 public:
  static constexpr uint64_t kPageBits = 16;
  static constexpr uint64_t kPageSize = uint64_t{1} << kPageBits;

  // Where the bytes are. Addresses are device addresses.
  class Storage {
   public:
    virtual ~Storage() = default;
    // The kPageSize bytes of page `page_no` (address page_no << kPageBits),
    // readable and writable, valid until the storage calls
    // GlobalMemory::invalidate() for them; null when the page has no direct
    // access, and then read()/write() below serve it.
    virtual uint8_t* direct_page(uint64_t page_no) = 0;
    // Byte access for pages without a direct pointer; never crosses a page.
    virtual void read(uint64_t addr, void* dst, uint64_t size) = 0;
    virtual void write(uint64_t addr, const void* src, uint64_t size) = 0;
  };

  GlobalMemory();
  ~GlobalMemory();
  GlobalMemory(const GlobalMemory&) = delete;
  GlobalMemory& operator=(const GlobalMemory&) = delete;

  // Reserves `bytes` (zero-filled) aligned to `align`; never returns 0.
  uint64_t allocate(uint64_t bytes, uint64_t align = 256);
  // Releases an allocation made by allocate(); false if `addr` is not one.
  bool release(uint64_t addr);
  // Kernels may also use [base, base+size): memory a virtual platform owns
  // (its CPU writes the buffers there). Its bytes stay as the storage holds
  // them: never zeroed at first touch, copied by use_storage(), counted
  // against the touch limit or hashed by checksum(). Throws
  // simt::input_error for an empty window or one overlapping another.
  void map_platform(uint64_t base, uint64_t size);
  // Unified memory (cudaMallocManaged, __managed__): an allocation at the
  // host address `host` itself, whose bytes are the host's, so the program
  // and the kernels read and write the same memory with no copies. `host`
  // and `size` must be whole pages (kPageSize). Not counted against the
  // touch limit. Throws simt::input_error when the range is not page-aligned
  // or overlaps an allocation or window. release(host) ends it (the caller
  // then unmaps the memory).
  void map_host(uint8_t* host, uint64_t size);
  // How a GPU's MMU maps memory: with a granule of `bytes` (a power of two,
  // 0 = none), an access that leaves every allocation is still mapped when
  // each end lies in a granule some live allocation reaches into, as on a GPU,
  // where a read just before a buffer returns whatever the page holds. 0 (the
  // default) reports every byte outside the allocations, as a memory checker.
  void set_fault_granule(uint64_t bytes) { fault_granule_ = bytes; }
  uint64_t fault_granule() const { return fault_granule_; }
  // True if [addr, addr+size) lies inside one live allocation (or, with a
  // fault granule, in granules that allocations reach into). Inline for
  // the common case: inside the allocation the previous check found.
  bool mapped(uint64_t addr, uint64_t size) const {
    return within_one_range(addr, size) || granule_mapped(addr, size);
  }
  // True if [addr, addr+size) lies inside one live allocation or window,
  // whatever the fault granule: a whole warp's address range checked at once
  // (with a granule, mapped() of a range checks only its two ends).
  bool within_one_range(uint64_t addr, uint64_t size) const {
    if (addr - last_alloc_base_ < last_alloc_size_ && addr + size - last_alloc_base_ <= last_alloc_size_)
      return true;
    return find_range(addr, size);
  }

  // Host pointer to `addr` for an access that does not cross a page, or
  // null when the storage has no direct pointer for that page (then use
  // read()/write()). Valid until the storage revokes it (invalidate()).
  // Not counted here: a store through the returned byte pointer may alias
  // a member counter, which costs the per-thread loops of the fast path
  // about a fifth of their speed; callers tally and call count_direct().
  uint8_t* direct(uint64_t addr) const {
    uint8_t* p = page(addr >> kPageBits);
    return p ? p + (addr & (kPageSize - 1)) : nullptr;
  }
  void count_direct(uint64_t accesses) const { direct_accesses_ += accesses; }
  // Accesses served through a direct pointer (counted by direct()'s callers,
  // and read()/write() pieces on pages that have one): against the
  // storage's own count of read()/write() calls, how much of a run took
  // the slow path.
  uint64_t direct_accesses() const { return direct_accesses_; }

  // Raw byte access; callers check mapped() first where it matters.
  void read(uint64_t addr, void* dst, uint64_t size) const;
  void write(uint64_t addr, const void* src, uint64_t size);

  // read() for the host: untouched pages read as zero without being
  // materialised (a large download of a mostly untouched buffer stays cheap).
  void read_host(uint64_t addr, void* dst, uint64_t size) const;

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

  // Copies the bytes of every live allocation into `s`, then serves every
  // access from it (null: back to our own sparse pages). `s` must outlive
  // its use here. Bytes outside allocations are not carried over.
  void use_storage(Storage* s);
  bool uses_own_storage() const { return storage_ == own_.get(); }
  // Forgets cached direct pointers of every page overlapping [start, end]
  // (inclusive); the storage calls this when a direct pointer is revoked.
  void invalidate(uint64_t start, uint64_t end);

  uint64_t bytes_allocated() const { return allocated_; }
  // Pages are materialised (in our storage, or zero-filled in a foreign one)
  // on first touch only. More than `bytes` of them throws simt::Error
  // (HostResources) naming the limit; 0 = no limit.
  void set_touch_limit(uint64_t bytes) { touch_limit_ = bytes; }
  uint64_t touch_limit() const { return touch_limit_; }
  uint64_t bytes_touched() const { return touched_.size() * kPageSize; }
  // A hash of every live allocation's address, size and contents, in address
  // order: equal for two runs that leave device memory identical. Host-backed
  // memory (map_host) is left out: its address changes from run to run.
  uint64_t checksum() const;

 private:
  // The cached direct pointer of a page (null = use the storage's read/write).
  uint8_t* page(uint64_t page_no) const {
    const PageCacheEntry* set = page_cache_.get() + page_set(page_no) * kPageCacheWays;
    for (uint64_t w = 0; w < kPageCacheWays; ++w)
      if (set[w].page_no == page_no) return set[w].ptr;
    return lookup_page(page_no);
  }
  // Fibonacci hashing: arrays a power of two apart (as allocations often
  // are) map their pages at the same offset to different sets.
  static uint64_t page_set(uint64_t page_no) {
    return (page_no * 0x9E3779B97F4A7C15ull) >> (64 - kPageCacheSetBits);
  }
  uint8_t* lookup_page(uint64_t page_no) const;
  bool find_range(uint64_t addr, uint64_t size) const;  // one allocation or window holds it (cached)
  bool granule_mapped(uint64_t addr) const;  // an allocation or window reaches into addr's granule
  bool granule_mapped(uint64_t addr, uint64_t size) const;  // ... into the granules of both ends
  void forget_pages() const;
  // Records the first touch of a page in the current storage (checking the
  // limit; zero-filling it in a foreign storage, which may hold anything).
  void touch(uint64_t page_no) const;
  bool touched(uint64_t page_no) const {
    return touched_.count(page_no) != 0 || in_window(page_no) || host_pages_.count(page_no) != 0;
  }
  bool in_window(uint64_t page_no) const;  // a platform window reaches into the page
  // Calls f(addr, size) for each piece of [base, base+size) on a touched
  // page, in address order; the rest of the range is known to be zero.
  template <class F>
  void for_touched(uint64_t base, uint64_t size, F f) const;

  std::map<uint64_t, uint64_t> allocs_;   // base -> size
  std::map<uint64_t, uint64_t> windows_;  // map_platform(): base -> size
  std::map<uint64_t, uint64_t> host_ranges_;             // map_host(): base -> size
  std::unordered_map<uint64_t, uint8_t*> host_pages_;    // their pages -> host bytes
  std::unique_ptr<Storage> own_;          // our sparse pages
  Storage* storage_;                      // own_ or a foreign one
  mutable std::unordered_map<uint64_t, uint8_t*> direct_;  // page -> pointer or null
  // Set-associative cache in front of direct_: 1024 sets of 4 ways (64 KiB),
  // the most recently filled way first. A kernel's warps stream through
  // pages one after another (saxpy large: a CTA's grid-stride loop steps
  // 240 KiB through x and y, over a thousand pages per warp, then the next
  // warp walks the same ones), so the cache holds thousands of pages; with
  // 16 entries lookup_page's hash lookups took 12% of the run.
  struct PageCacheEntry {
    uint64_t page_no = ~uint64_t{0};
    uint8_t* ptr = nullptr;
  };
  static constexpr uint64_t kPageCacheSetBits = 10, kPageCacheWays = 4;
  static constexpr uint64_t kPageCacheEntries = kPageCacheWays << kPageCacheSetBits;
  std::unique_ptr<PageCacheEntry[]> page_cache_{new PageCacheEntry[kPageCacheEntries]};
  mutable uint64_t direct_accesses_ = 0;
  mutable uint64_t last_alloc_base_ = 0, last_alloc_size_ = 0;
  uint64_t next_ = 0;
  uint64_t allocated_ = 0;
  mutable std::set<uint64_t> touched_;  // pages materialised in the current storage
  uint64_t touch_limit_ = 0;
  uint64_t fault_granule_ = 0;  // set_fault_granule()
};

}  // namespace simt::func
