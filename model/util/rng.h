// splitmix64: a tiny deterministic generator that gives the same sequence on
// every platform (std:: distributions differ between standard libraries),
// used for workload inputs, manifest `random` buffers and random groupings.
#pragma once

#include <cstdint>

namespace simt::util {

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform integer in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) {
    uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    return span == 0 ? static_cast<int64_t>(next()) : lo + static_cast<int64_t>(next() % span);
  }
  // Uniform in [0, 1).
  float unit() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
  double unit_double() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  uint64_t s_;
};

}  // namespace simt::util
