// Runaway detection for spin-waits (issue 35 item 3): a launch in which, for
// `window` cycles, no thread on any SM stored to memory, ran an atomic,
// exited or arrived at a barrier, its loads kept to a small set of memory
// lines, and threads kept re-reading what they had read before, is waiting
// for a value nothing will change. The per-CTA and per-launch limits stop
// such a kernel too, but only after as long as the longest real launch may
// take (minutes to hours in timing mode); this stops it after `window`
// cycles of no progress.
//
// Loads count only from memory another thread could write (global, shared):
// a loop over registers, parameters or constants is not a wait, and a loop
// reading ever new lines makes progress through its data. A re-read is a
// thread that runs the same load instruction at the same address again (a
// poll): threads that share a small set of lines but each read every word
// once (a neighbour scan before a store, as in particles) are not polling,
// however long the scan takes. One watch per launch, shared by every SM's
// issue stage (the simulation is one thread).
#pragma once

#include <cstdint>
#include <vector>

namespace simt::sm {

class SpinWatch {
 public:
  // Distinct lines a wait may read before the reads count as progress.
  static constexpr uint32_t kMaxLines = 1024;
  // Polls remembered between two progress events; past that, new polls go
  // unrecorded (the ones recorded still count their re-reads).
  static constexpr uint32_t kMaxPolls = 8192;
  // Re-reads (a poll seen again since the last progress) that make a spin:
  // warps that issued a few loads and wait for them (a long memory latency)
  // are not spinning.
  static constexpr uint64_t kMinRereads = 1000;

  explicit SpinWatch(uint64_t window, uint64_t start)
      : window_(window), last_progress_(start), lines_(2 * kMaxLines), polls_(2 * kMaxPolls) {}

  // As a new watch starting at `start`, keeping the tables' memory (a
  // launch would otherwise allocate and clear 288 KiB: most of a short
  // kernel's launch cost in timing mode).
  void restart(uint64_t start) {
    last_progress_ = start;
    rereads_ = 0;
    reported_ = false;
    new_epoch();
  }

  uint64_t window() const { return window_; }
  uint64_t last_progress() const { return last_progress_; }

  // A store, atomic, exit or barrier arrival.
  void progress(uint64_t now) {
    last_progress_ = now;
    rereads_ = 0;
    // Forget lines and polls: a new epoch, not a clear (stores are frequent).
    if (lines_.used || polls_.used) new_epoch();
  }
  // A load touched memory line `key` (the caller folds in space and CTA).
  void line(uint64_t key, uint64_t now) {
    if (lines_.insert(key, epoch_) && lines_.used > kMaxLines) progress(now);  // reading through data
  }
  // A load instruction's poll `key`: its first thread, the instruction and
  // the address it read (the caller folds them into one key).
  void poll(uint64_t key) {
    if (polls_.contains(key, epoch_)) ++rereads_;
    else if (polls_.used < kMaxPolls) polls_.insert(key, epoch_);
  }
  // No progress for `window` cycles while threads kept re-reading; true
  // once, to the first SM that asks (every SM shares the watch).
  bool spinning(uint64_t now) {
    if (!window_ || rereads_ < kMinRereads || now - last_progress_ < window_ || reported_) return false;
    reported_ = true;
    return true;
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t epoch = 0;  // the slot holds a key of this epoch; older ones are free
  };
  // A set of keys of the current epoch: open addressing, power of two, at
  // most half full.
  struct KeySet {
    std::vector<Slot> slots;
    uint32_t used = 0;
    explicit KeySet(size_t size) : slots(size) {}
    void reset() { slots.assign(slots.size(), Slot{}); }
    size_t hash(uint64_t k) const { return static_cast<size_t>((k * 0x9E3779B97F4A7C15ull) >> 40) & (slots.size() - 1); }
    bool contains(uint64_t key, uint32_t epoch) const {
      for (size_t i = hash(key);; i = (i + 1) & (slots.size() - 1)) {
        const Slot& s = slots[i];
        if (s.epoch != epoch) return false;
        if (s.key == key) return true;
      }
    }
    // True if the key was new.
    bool insert(uint64_t key, uint32_t epoch) {
      for (size_t i = hash(key);; i = (i + 1) & (slots.size() - 1)) {
        Slot& s = slots[i];
        if (s.epoch == epoch) {
          if (s.key == key) return false;
          continue;
        }
        s.key = key;
        s.epoch = epoch;
        ++used;
        return true;
      }
    }
  };

  // Every key recorded so far becomes free; the slots are cleared only
  // when the epoch counter wraps.
  void new_epoch() {
    lines_.used = polls_.used = 0;
    if (++epoch_ == 0) {
      lines_.reset();
      polls_.reset();
      epoch_ = 1;
    }
  }

  uint64_t window_;
  uint64_t last_progress_;
  uint64_t rereads_ = 0;
  bool reported_ = false;
  uint32_t epoch_ = 1;
  KeySet lines_;
  KeySet polls_;
};

}  // namespace simt::sm
