// In-order scoreboard of one SM: for every warp, the registers that an issued
// instruction will write but has not written back yet.
//
// An instruction may issue only when none of the registers it reads is
// pending (RAW) and none of the registers it writes is pending (WAW: an
// in-order machine must not let a short op overtake a long one to the same
// register). Pending writes of long-latency operations (global/local memory,
// texture) are also kept in a second set, so the two-level scheduler can tell
// "waits on memory" apart from "waits on the ALU pipeline".
//
// Storage is one bit per (warp, register) in flat arrays: hazard checks are a
// handful of bit tests, no allocation after configure().
#pragma once

#include <cstdint>
#include <vector>

#include "ptx/def_use.h"
#include "ptx/ir.h"

namespace simt::sm {

enum class Hazard : uint8_t { None, Raw, Waw };
const char* hazard_name(Hazard h);

class Scoreboard {
 public:
  Scoreboard() = default;
  Scoreboard(uint32_t warps, uint32_t regs) { configure(warps, regs); }

  // Sizes the board for `warps` warp slots and register ids [0, regs); clears it.
  void configure(uint32_t warps, uint32_t regs);
  uint32_t warps() const { return warps_; }
  uint32_t regs() const { return regs_; }

  // The first hazard `du` has against warp's pending writes (RAW before WAW).
  // Hot path: `warp` must be < warps() (not checked here; reserve/release check).
  Hazard check(uint32_t warp, const ptx::DefUse& du) const;
  Hazard check(uint32_t warp, const ptx::Instr& in) const { return check(warp, ptx::def_use(in)); }
  bool can_issue(uint32_t warp, const ptx::DefUse& du) const { return check(warp, du) == Hazard::None; }

  // At issue: marks every register `du` writes as pending. `long_latency`
  // marks them as memory results too. Reserving a register that is already
  // pending is a model bug (the caller skipped check()) and throws.
  void reserve(uint32_t warp, const ptx::DefUse& du, bool long_latency);
  void reserve(uint32_t warp, const ptx::Instr& in, bool long_latency) {
    reserve(warp, ptx::def_use(in), long_latency);
  }

  // At writeback: clears `reg`. Returns true when it was a long-latency write.
  // Releasing a register that is not pending throws (double writeback).
  bool release(uint32_t warp, uint32_t reg);

  bool is_pending(uint32_t warp, uint32_t reg) const { return test(pending_, warp, reg); }
  bool is_pending_long(uint32_t warp, uint32_t reg) const { return test(long_, warp, reg); }
  uint32_t pending(uint32_t warp) const { return count_[warp]; }            // all pending writes
  uint32_t pending_long(uint32_t warp) const { return long_count_[warp]; }  // memory ones
  // True when `du` reads or writes a register still waiting on memory: the
  // warp's next instruction is stuck behind a long-latency op.
  bool waits_on_long(uint32_t warp, const ptx::DefUse& du) const;

  // Forgets every pending write of `warp` (warp exit / slot reuse).
  void clear_warp(uint32_t warp);
  // Pending registers of `warp`, ascending (for the deadlock dump; allocates).
  std::vector<uint32_t> pending_regs(uint32_t warp) const;

 private:
  size_t word(uint32_t warp, uint32_t reg) const { return size_t(warp) * words_ + (reg >> 6); }
  bool test(const std::vector<uint64_t>& b, uint32_t warp, uint32_t reg) const {
    return reg < regs_ && ((b[word(warp, reg)] >> (reg & 63)) & 1);
  }
  void check_warp(uint32_t warp) const;
  void check_reg(uint32_t reg) const;

  uint32_t warps_ = 0, regs_ = 0, words_ = 0;
  std::vector<uint64_t> pending_;  // [warp][words_]
  std::vector<uint64_t> long_;     // subset of pending_
  std::vector<uint32_t> count_, long_count_;
};

}  // namespace simt::sm
