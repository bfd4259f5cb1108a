// In-order scoreboard of one SM, per thread: for every CTA slot and register,
// the threads whose issued instruction will write that register but has not
// written it back yet.
//
// Why per thread and not per warp: under TBC and DWF a warp is a changing set
// of threads (seed 001 §3), so a pending write belongs to threads, not to a
// warp slot. A warp asks with its `scope` (sm/branch_unit.h): under PDOM the
// whole static warp, which gives exactly the per-warp scoreboard of a
// conventional SM; under TBC/DWF its own threads.
//
// An instruction may issue only when none of the registers it reads is
// pending for a thread of its scope (RAW) and none it writes is (WAW: an
// in-order machine must not let a short op overtake a long one to the same
// register). Pending writes of long-latency operations (global/local memory)
// are also kept apart, so the two-level scheduler can tell "waits on memory"
// from "waits on the ALU pipeline".
//
// Storage: one 1024-bit thread mask per (CTA slot, register), laid out word
// by word: [CTA slot][64-thread word][register]. A warp's threads sit in one
// word, so its checks read the registers of that word side by side instead
// of one 128-byte mask per register. A check is a few word ANDs per
// register, no allocation after configure().
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "func/thread_mask.h"
#include "ptx/def_use.h"
#include "ptx/ir.h"

namespace simt::sm {

enum class Hazard : uint8_t { None, Raw, Waw };
const char* hazard_name(Hazard h);

class Scoreboard {
 public:
  using ThreadMask = func::ThreadMask;

  Scoreboard() = default;
  Scoreboard(uint32_t ctas, uint32_t regs) { configure(ctas, regs); }

  // Sizes the board for `ctas` CTA slots and register ids [0, regs); clears it.
  void configure(uint32_t ctas, uint32_t regs);
  uint32_t ctas() const { return ctas_; }
  uint32_t regs() const { return regs_; }

  // The words [lo, hi) of a thread mask that may hold set bits. A caller
  // that knows them (a static warp's threads sit in one word) passes them to
  // the overloads below, which then skip scanning the 16-word mask for them.
  struct Words {
    uint32_t lo = 0, hi = 0;
    static Words of(const ThreadMask& m) {
      Words w;
      m.word_range(w.lo, w.hi);
      return w;
    }
    static Words one(uint32_t word) { return Words{word, word + 1}; }
  };

  // The first hazard `du` has against pending writes of `scope`'s threads
  // (RAW before WAW). Hot path: `cta` must be < ctas() (not checked here).
  Hazard check(uint32_t cta, const ThreadMask& scope, const ptx::DefUse& du) const {
    return check(cta, scope, du, Words::of(scope));
  }
  // The same, `scope`'s set bits all within `w`.
  Hazard check(uint32_t cta, const ThreadMask& scope, const ptx::DefUse& du, Words w) const;
  Hazard check(uint32_t cta, const ThreadMask& scope, const ptx::Instr& in) const {
    return check(cta, scope, ptx::def_use(in));
  }
  bool can_issue(uint32_t cta, const ThreadMask& scope, const ptx::DefUse& du) const {
    return check(cta, scope, du) == Hazard::None;
  }

  // At issue: marks every register `du` writes as pending for `threads`.
  // `long_latency` marks them as memory results too. Reserving a register
  // already pending for one of the threads is a model bug (the caller
  // skipped check()) and throws.
  void reserve(uint32_t cta, const ThreadMask& threads, const ptx::DefUse& du, bool long_latency) {
    reserve(cta, threads, du, long_latency, Words::of(threads));
  }
  void reserve(uint32_t cta, const ThreadMask& threads, const ptx::DefUse& du, bool long_latency, Words w);
  void reserve(uint32_t cta, const ThreadMask& threads, const ptx::Instr& in, bool long_latency) {
    reserve(cta, threads, ptx::def_use(in), long_latency);
  }

  // At write-back: clears `reg` for `threads` (the set reserve() was given).
  // Returns true when it was a long-latency write. Throws when the register
  // is not pending for those threads (double write-back).
  bool release(uint32_t cta, const ThreadMask& threads, uint32_t reg) {
    return release(cta, threads, reg, Words::of(threads));
  }
  bool release(uint32_t cta, const ThreadMask& threads, uint32_t reg, Words w);

  bool is_pending(uint32_t cta, const ThreadMask& scope, uint32_t reg) const;
  // True when `du` reads or writes a register still waiting on memory for
  // `scope`: the warp's next instruction is stuck behind a long-latency op.
  bool waits_on_long(uint32_t cta, const ThreadMask& scope, const ptx::DefUse& du) const {
    return waits_on_long(cta, scope, du, Words::of(scope));
  }
  bool waits_on_long(uint32_t cta, const ThreadMask& scope, const ptx::DefUse& du, Words w) const;
  // Pending writes of the CTA (any thread, any register): 0 = nothing in flight.
  uint32_t pending(uint32_t cta) const { return count_[cta]; }

  // Forgets every pending write of the CTA slot (CTA end / slot reuse).
  void clear_cta(uint32_t cta);
  // Registers pending for `scope`, ascending (for the deadlock dump; allocates).
  std::vector<uint32_t> pending_regs(uint32_t cta, const ThreadMask& scope) const;

 private:
  static constexpr uint32_t kWords = ThreadMask::kWords;
  // Index of word `w` of (cta, reg)'s mask.
  size_t at(uint32_t cta, uint32_t w, uint32_t reg) const { return (size_t(cta) * kWords + w) * regs_ + reg; }
  bool overlaps(const std::vector<uint64_t>& b, uint32_t cta, uint32_t reg, const ThreadMask& m) const;
  void check_cta(uint32_t cta) const;
  void check_reg(uint32_t reg) const;
  // Debug builds: a Words hint must cover every set bit of its mask.
  static void check_words(const ThreadMask& m, Words w) {
#ifndef NDEBUG
    const Words all = Words::of(m);
    if (all.lo < all.hi && (all.lo < w.lo || all.hi > w.hi || w.hi > kWords))
      throw std::logic_error("scoreboard: a thread mask reaches outside the words it was given");
#else
    (void)m;
    (void)w;
#endif
  }

  uint32_t ctas_ = 0, regs_ = 0;
  std::vector<uint64_t> pending_;  // [cta][word][reg]
  std::vector<uint64_t> long_;     // subset of pending_
  std::vector<uint32_t> count_;      // per CTA: pending (register, reservation) pairs
  std::vector<uint32_t> long_count_;
};

}  // namespace simt::sm
