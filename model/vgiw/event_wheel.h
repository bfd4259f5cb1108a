// A calendar queue of timed events for the grid's token engine: push an
// event for a future cycle, then run every event due up to `now`, cycle by
// cycle, each cycle's in push order. Events within `slots` cycles of the
// wheel's position go straight into their cycle's bucket (O(1)); later ones
// wait in an overflow heap until they come within range. Replaces a binary
// heap whose push and pop dominated the engine.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

namespace simt::vgiw {

template <class T>
class EventWheel {
 public:
  explicit EventWheel(uint32_t log2_slots = 10)
      : mask_((uint64_t{1} << log2_slots) - 1), buckets_(mask_ + 1), used_((mask_ + 64) / 64, 0) {}

  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  // `cycle` must not be before the cycle being run (or the last one run).
  void push(uint64_t cycle, const T& e) {
    if (cycle < pos_) throw std::logic_error("event wheel: an event in the past");
    ++size_;
    if (cycle - pos_ > mask_) {
      far_.push({cycle, seq_++, e});
      return;
    }
    place(cycle, e);
  }

  // The first cycle holding an event, UINT64_MAX when none.
  uint64_t next_cycle() const {
    if (size_ == 0) return UINT64_MAX;
    uint64_t best = far_.empty() ? UINT64_MAX : far_.top().cycle;
    if (near_) {
      // Scan the occupancy bits from pos_ around the wheel.
      const uint64_t slots = mask_ + 1;
      for (uint64_t k = 0; k < slots;) {
        const uint64_t b = (pos_ + k) & mask_;
        const uint64_t word = used_[b / 64] >> (b % 64);
        if (word) {
          const uint64_t at = pos_ + k + static_cast<uint64_t>(__builtin_ctzll(word));
          return std::min(best, at);
        }
        k += 64 - b % 64;
      }
    }
    return best;
  }

  // Runs every event due at or before `now`, earliest cycle first, calling
  // f(cycle, event); f may push events for later cycles.
  template <class F>
  void run(uint64_t now, F&& f) {
    while (size_ > 0) {
      const uint64_t at = next_cycle();
      if (at > now) break;
      pos_ = at;
      pull_far();
      auto& bucket = buckets_[at & mask_];
      for (size_t i = 0; i < bucket.size(); ++i) {
        const T e = bucket[i];
        --size_;
        f(at, e);
      }
      bucket.clear();
      used_[(at & mask_) / 64] &= ~(uint64_t{1} << ((at & mask_) % 64));
      --near_;
    }
    if (now > pos_) {
      pos_ = now;
      pull_far();
    }
  }

 private:
  struct Far {
    uint64_t cycle, seq;
    T e;
    bool operator>(const Far& o) const { return cycle != o.cycle ? cycle > o.cycle : seq > o.seq; }
  };

  void place(uint64_t cycle, const T& e) {
    const uint64_t b = cycle & mask_;
    auto& bucket = buckets_[b];
    if (bucket.empty()) {
      used_[b / 64] |= uint64_t{1} << (b % 64);
      ++near_;
    }
    bucket.push_back(e);
  }
  // Far events now within range move into their buckets.
  void pull_far() {
    while (!far_.empty() && far_.top().cycle - pos_ <= mask_) {
      place(far_.top().cycle, far_.top().e);
      far_.pop();
    }
  }

  uint64_t mask_;
  std::vector<std::vector<T>> buckets_;
  std::vector<uint64_t> used_;  // occupancy bit per bucket
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
  uint64_t pos_ = 0, seq_ = 0;
  size_t size_ = 0, near_ = 0;  // events in all; buckets in use
};

}  // namespace simt::vgiw
