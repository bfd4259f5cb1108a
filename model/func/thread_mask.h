// A set of threads of one CTA: runtime-sized (up to 1024 threads), fixed
// storage so masks are cheap to copy and never allocate. Every grouping a
// technique forms (static warp, slice, gang, compacted warp, half-warp,
// VGIW batch) is one of these. (GCC/Clang bit builtins: C++17 has no <bit>.)
#pragma once

#include <array>
#include <cstdint>

namespace simt::func {

inline constexpr uint32_t kMaxCtaThreads = 1024;

class ThreadMask {
 public:
  static constexpr uint32_t kWords = kMaxCtaThreads / 64;

  ThreadMask() = default;
  // Threads [first, first + count) set.
  static ThreadMask range(uint32_t first, uint32_t count) {
    ThreadMask m;
    for (uint32_t t = first; t < first + count; ++t) m.set(t);
    return m;
  }

  void set(uint32_t t) { w_[t >> 6] |= uint64_t{1} << (t & 63); }
  void reset(uint32_t t) { w_[t >> 6] &= ~(uint64_t{1} << (t & 63)); }
  bool test(uint32_t t) const { return (w_[t >> 6] >> (t & 63)) & 1; }
  void clear() { w_.fill(0); }

  // An OR over all words rather than an early exit: it compiles to a few
  // vector instructions instead of a compare and branch per word.
  bool any() const {
    uint64_t o = 0;
    for (uint64_t w : w_) o |= w;
    return o != 0;
  }
  bool none() const { return !any(); }
  // The words [lo, hi) outside which the set is empty (one word for a static
  // warp of <= 64 threads), so per-word work can skip the rest; lo == hi
  // when empty.
  void word_range(uint32_t& lo, uint32_t& hi) const {
    lo = 0;
    hi = kWords;
    while (lo < hi && !w_[lo]) ++lo;
    while (hi > lo && !w_[hi - 1]) --hi;
  }
  uint32_t count() const {
    uint32_t n = 0;
    for (uint64_t w : w_) n += static_cast<uint32_t>(__builtin_popcountll(w));
    return n;
  }
  // Lowest set thread, or kMaxCtaThreads when empty.
  uint32_t first() const {
    for (uint32_t i = 0; i < kWords; ++i)
      if (w_[i]) return i * 64 + static_cast<uint32_t>(__builtin_ctzll(w_[i]));
    return kMaxCtaThreads;
  }

  // Calls f(thread) for every set thread in ascending order.
  template <class F>
  void for_each(F&& f) const {
    for (uint32_t i = 0; i < kWords; ++i) {
      uint64_t w = w_[i];
      while (w) {
        f(i * 64 + static_cast<uint32_t>(__builtin_ctzll(w)));
        w &= w - 1;
      }
    }
  }

  uint64_t word(uint32_t i) const { return w_[i]; }
  void set_word(uint32_t i, uint64_t v) { w_[i] = v; }

  ThreadMask& operator&=(const ThreadMask& o) { for (uint32_t i = 0; i < kWords; ++i) w_[i] &= o.w_[i]; return *this; }
  ThreadMask& operator|=(const ThreadMask& o) { for (uint32_t i = 0; i < kWords; ++i) w_[i] |= o.w_[i]; return *this; }
  ThreadMask& operator^=(const ThreadMask& o) { for (uint32_t i = 0; i < kWords; ++i) w_[i] ^= o.w_[i]; return *this; }
  // this & ~o
  ThreadMask minus(const ThreadMask& o) const { ThreadMask r = *this; for (uint32_t i = 0; i < kWords; ++i) r.w_[i] &= ~o.w_[i]; return r; }
  friend ThreadMask operator&(ThreadMask a, const ThreadMask& b) { return a &= b; }
  friend ThreadMask operator|(ThreadMask a, const ThreadMask& b) { return a |= b; }
  friend bool operator==(const ThreadMask& a, const ThreadMask& b) { return a.w_ == b.w_; }
  friend bool operator!=(const ThreadMask& a, const ThreadMask& b) { return !(a == b); }

 private:
  std::array<uint64_t, kWords> w_{};
};

}  // namespace simt::func
