// Which kernel launches of a CUDA application run in timing mode
// (`--launches 3-5,9`); the others run functionally, so a long application
// is fast-forwarded to the kernels of interest. Launches are numbered from
// 1 in program order.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace simt::tb {

class LaunchSet {
 public:
  LaunchSet() = default;  // every launch
  // "N", "A-B" (A <= B), "A-" (A to the end), joined by commas; numbers from
  // 1. Anything else, "" included, throws simt::Error(BadInput) naming
  // --launches and the part that is wrong.
  static LaunchSet parse(const std::string& text);

  bool all() const { return ranges_.empty(); }
  bool contains(uint64_t n) const;

 private:
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;  // sorted, disjoint, inclusive
};

}  // namespace simt::tb
