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
    table_.assign(2 * kMaxLines, Slot{});
  }

  uint64_t window() const { return window_; }
  uint64_t last_progress() const { return last_progress_; }

  // A store, atomic, exit or barrier arrival.
  void progress(uint64_t now) {
    last_progress_ = now;
    rereads_ = 0;
    if (lines_) {  // forget the lines: a new epoch, not a clear (stores are frequent)
      lines_ = 0;
      if (++epoch_ == 0) {
        table_.assign(table_.size(), Slot{});
        epoch_ = 1;
      }
    }
  }
  // A load of memory line `key` (the caller folds in space and CTA).
  void load(uint64_t key, uint64_t now) {
    for (size_t i = hash(key);; i = (i + 1) & (table_.size() - 1)) {
      Slot& s = table_[i];
      if (s.epoch == epoch_ && s.key == key) {
        ++rereads_;
        return;
      }
      if (s.epoch == epoch_) continue;
      s.key = key;
      s.epoch = epoch_;
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
  struct Slot {
    uint64_t key = 0;
    uint32_t epoch = 0;  // the slot holds a line of this epoch; older ones are free
  };
  size_t hash(uint64_t k) const { return static_cast<size_t>((k * 0x9E3779B97F4A7C15ull) >> 40) & (table_.size() - 1); }

  uint64_t window_;
  uint64_t last_progress_;
  uint64_t rereads_ = 0;
  bool reported_ = false;
  uint32_t lines_ = 0;
  uint32_t epoch_ = 1;
  std::vector<Slot> table_;  // open addressing, power of two, at most half full
};

}  // namespace simt::sm
