// Per-warp instruction buffer between decode and issue: a small FIFO of
// decoded instructions per warp (Fermi-era designs hold 1-2 per warp).
//
// Each entry carries a valid bit (a decoded instruction is present); the
// front entry also has a ready bit (the issue stage's last scoreboard check
// found no hazard; set by the owner with set_ready). Only the front entry is
// ever checked, so the ready bits are one bit set over the warps: the issue
// stage sets them for every candidate every cycle, and a bit set stays in
// cache where one entry per warp would not (with many SMs, each cycle's
// state outgrows the host's caches). A taken branch or a divergence changes the
// warp's next PC, so every buffered instruction of that warp is discarded
// with flush(); flush also bumps the warp's generation so fetches that were
// already in flight for the old path can be recognised and dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ptx/ir.h"

namespace simt::config { class ParamRegistry; }

namespace simt::sm {

struct IBufferParams {
  uint32_t entries = 2;  // per warp

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

class InstructionBuffer {
 public:
  struct Entry {
    uint32_t pc = ptx::kNoPc;
    const ptx::Instr* instr = nullptr;
    bool valid = false;
  };

  InstructionBuffer(const IBufferParams& p, uint32_t warps);

  uint32_t warps() const { return warps_; }
  uint32_t capacity() const { return cap_; }
  uint32_t size(uint32_t warp) const { return count_[warp]; }
  uint32_t space(uint32_t warp) const { return cap_ - count_[warp]; }
  bool empty(uint32_t warp) const { return count_[warp] == 0; }

  // Appends a decoded instruction (valid, not ready). Throws std::logic_error when full.
  void push(uint32_t warp, uint32_t pc, const ptx::Instr* instr);
  // Oldest entry, or nullptr when the warp's buffer is empty.
  const Entry* front(uint32_t warp) const {
    return count_[warp] ? &slots_[size_t(warp) * cap_ + head_[warp]] : nullptr;
  }
  // On the front entry; inline: the issue stage calls it for every candidate
  // every cycle.
  void set_ready(uint32_t warp, bool ready) {
    if (warp >= warps_ || count_[warp] == 0) set_ready_misuse(warp);
    const uint64_t bit = uint64_t{1} << (warp % 64);
    uint64_t& word = ready_[warp / 64];
    word = ready ? word | bit : word & ~bit;
  }
  // The front entry's ready bit; false when the buffer is empty.
  bool front_ready(uint32_t warp) const { return (ready_[warp / 64] >> (warp % 64)) & 1; }
  // Removes the front entry (it issued). Throws std::logic_error when empty.
  void pop(uint32_t warp);
  // Discards every entry of the warp; returns how many were discarded.
  uint32_t flush(uint32_t warp);
  // Keeps the entries but bumps the generation: fetches in flight are
  // dropped when they return (a warp whose fetches now take another path).
  void retag(uint32_t warp) {
    check_warp(warp);
    ++gen_[warp];
  }
  // Bumped by every flush: tag fetch requests with it, drop stale returns.
  uint32_t generation(uint32_t warp) const { return gen_[warp]; }
  // PC the next fetch should read: after the last buffered entry, or `fallback`
  // (the warp's current PC) when empty.
  uint32_t next_pc(uint32_t warp, uint32_t fallback) const;

 private:
  Entry& at(uint32_t warp, uint32_t k) { return slots_[size_t(warp) * cap_ + (head_[warp] + k) % cap_]; }
  void check_warp(uint32_t warp) const;
  [[noreturn]] void set_ready_misuse(uint32_t warp) const;

  uint32_t warps_, cap_;
  std::vector<Entry> slots_;  // [warp][cap_] rings
  std::vector<uint32_t> head_, count_, gen_;
  std::vector<uint64_t> ready_;  // bit w: warp w's front entry is ready
  void clear_ready(uint32_t warp) { ready_[warp / 64] &= ~(uint64_t{1} << (warp % 64)); }
};

}  // namespace simt::sm
