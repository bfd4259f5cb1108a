// Numbered slots that are reused once freed: a block gives each request in
// flight a small id (its slot), so responses find their state without a map
// and nothing is allocated once the pool has grown to the peak in flight.
#pragma once

#include <cstdint>
#include <vector>

namespace simt::util {

template <class T>
class SlotPool {
 public:
  // A free slot (reset to T{}), growing the pool when none is free.
  uint32_t alloc() {
    if (free_.empty()) {
      slots_.emplace_back();
      return static_cast<uint32_t>(slots_.size() - 1);
    }
    const uint32_t s = free_.back();
    free_.pop_back();
    slots_[s] = T{};
    return s;
  }
  void release(uint32_t s) { free_.push_back(s); }

  T& operator[](uint32_t s) { return slots_[s]; }
  const T& operator[](uint32_t s) const { return slots_[s]; }
  size_t size() const { return slots_.size(); }  // slots ever created (valid ids are below this)

 private:
  std::vector<T> slots_;
  std::vector<uint32_t> free_;
};

}  // namespace simt::util
