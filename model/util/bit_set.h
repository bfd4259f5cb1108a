// A fixed-size set of small integers (warp slots, blocks) stored as bits, for
// the sets a per-cycle step keeps instead of scanning every slot: visiting
// the members costs one word test per 64 slots plus one step per member.
// (GCC/Clang bit builtins: C++17 has no <bit>.)
#pragma once

#include <cstdint>
#include <vector>

namespace simt::util {

class BitSet {
 public:
  BitSet() = default;
  explicit BitSet(uint32_t size) { resize(size); }

  // Empties the set and makes room for members [0, size).
  void resize(uint32_t size) {
    size_ = size;
    w_.assign((size + 63) / 64, 0);
  }
  uint32_t size() const { return size_; }

  void set(uint32_t i) { w_[i >> 6] |= uint64_t{1} << (i & 63); }
  void reset(uint32_t i) { w_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  bool test(uint32_t i) const { return (w_[i >> 6] >> (i & 63)) & 1; }
  void clear() {
    for (uint64_t& w : w_) w = 0;
  }
  bool any() const {
    for (uint64_t w : w_)
      if (w) return true;
    return false;
  }

  // Calls f(i) for every member in ascending order. f may remove i or any
  // member it has already visited, not one still ahead of it.
  template <class F>
  void for_each(F&& f) const {
    for (uint32_t k = 0; k < w_.size(); ++k)
      for (uint64_t w = w_[k]; w; w &= w - 1) f(k * 64 + static_cast<uint32_t>(__builtin_ctzll(w)));
  }

  // Calls f(i) for every member of both this set and `o` (the same size),
  // ascending; the same rules for f as for_each.
  template <class F>
  void for_each_and(const BitSet& o, F&& f) const {
    for (uint32_t k = 0; k < w_.size(); ++k)
      for (uint64_t w = w_[k] & o.w_[k]; w; w &= w - 1) f(k * 64 + static_cast<uint32_t>(__builtin_ctzll(w)));
  }

  // Like for_each, but in the order first, first+1, ..., size-1, 0, ...,
  // first-1 (round robin from `first`); stops early when f returns false.
  // Returns false when f stopped it.
  template <class F>
  bool for_each_from(uint32_t first, F&& f) const {
    if (w_.empty()) return true;
    const uint32_t k0 = first >> 6;
    const uint64_t high = ~uint64_t{0} << (first & 63);  // bits at or above `first` in its word
    if (!visit(w_[k0] & high, k0, f)) return false;
    for (uint32_t k = k0 + 1; k < w_.size(); ++k)
      if (!visit(w_[k], k, f)) return false;
    for (uint32_t k = 0; k < k0; ++k)
      if (!visit(w_[k], k, f)) return false;
    return visit(w_[k0] & ~high, k0, f);
  }

 private:
  template <class F>
  static bool visit(uint64_t w, uint32_t k, F& f) {
    for (; w; w &= w - 1)
      if (!f(k * 64 + static_cast<uint32_t>(__builtin_ctzll(w)))) return false;
    return true;
  }

  uint32_t size_ = 0;
  std::vector<uint64_t> w_;
};

}  // namespace simt::util
