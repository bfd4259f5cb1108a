// Runaway detection for spin-waits (issue 35 item 3): a launch in which, for
// `window` cycles, no thread on any SM stored to memory, ran an atomic,
// exited or arrived at a barrier, and the loads kept re-reading a small set
// of memory lines, is waiting for a value nothing will change. The per-CTA and per-launch limits stop such a kernel too, but
// only after as long as the longest real launch may take (minutes to hours
// in timing mode); this stops it after `window` cycles of no progress.
//
// Loads count only from memory another thread could write (global, shared):
// a loop over registers, parameters or constants is not a wait, and a loop
// reading ever new lines makes progress through its data. One watch per
// launch, shared by every SM's issue stage (the simulation is one thread).
#pragma once

#include <cstdint>
#include <vector>

namespace simt::sm {

class SpinWatch {
 public:
  // Distinct lines a wait may read before the reads count as progress.
  static constexpr uint32_t kMaxLines = 1024;
  // Loads of a line already read since the last progress that make a spin:
  // warps that issued a few loads and wait for them (a long memory latency)
  // are not spinning.
  static constexpr uint64_t kMinRereads = 1000;

  explicit SpinWatch(uint64_t window, uint64_t start) : window_(window), last_progress_(start) {
    table_.assign(2 * kMaxLines, kEmpty);
  }

  uint64_t window() const { return window_; }
  uint64_t last_progress() const { return last_progress_; }

  // A store, atomic, exit or barrier arrival.
  void progress(uint64_t now) {
    last_progress_ = now;
    rereads_ = 0;
    if (lines_) {
      table_.assign(table_.size(), kEmpty);
      lines_ = 0;
    }
  }
  // A load of memory line `key` (the caller folds in space and CTA).
  void load(uint64_t key, uint64_t now) {
    if (key == kEmpty) key = 0;
    for (size_t i = hash(key);; i = (i + 1) & (table_.size() - 1)) {
      if (table_[i] == key) {
        ++rereads_;
        return;
      }
      if (table_[i] != kEmpty) continue;
      table_[i] = key;
      if (++lines_ > kMaxLines) progress(now);  // reading through data, not waiting
      return;
    }
  }
  // No progress for `window` cycles while loads kept re-reading lines; true
  // once, to the first SM that asks (every SM shares the watch).
  bool spinning(uint64_t now) {
    if (!window_ || rereads_ < kMinRereads || now - last_progress_ < window_ || reported_) return false;
    reported_ = true;
    return true;
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  size_t hash(uint64_t k) const { return static_cast<size_t>((k * 0x9E3779B97F4A7C15ull) >> 40) & (table_.size() - 1); }

  uint64_t window_;
  uint64_t last_progress_;
  uint64_t rereads_ = 0;
  bool reported_ = false;
  uint32_t lines_ = 0;
  std::vector<uint64_t> table_;  // open addressing, power of two, at most half full
};

}  // namespace simt::sm
