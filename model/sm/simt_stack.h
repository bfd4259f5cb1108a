// Per-warp immediate-post-dominator (PDOM) reconvergence stack, as in
// Fung et al. and seed 001 §2: each entry is {PC, reconvergence PC, mask}.
// The top entry executes; on a divergent branch its PC becomes the
// reconvergence PC and one entry per side is pushed (no entry for a side
// that starts at the reconvergence PC; when the branch reconverges where the
// top entry does, the sides replace the top entry); an entry is popped when
// its PC reaches its reconvergence PC or all its threads exited.
// Plain C++ so the functional runner and the timing SM can share it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "func/thread_mask.h"
#include "ptx/ir.h"

namespace simt::sm {

// Whether a side of a divergent branch gets a stack entry. A side that
// starts at the reconvergence PC has nothing to run: its threads wait in the
// entry that resumes there, and an entry for it would sit under the other
// side until that one finished (a loop's exit side under the next
// iteration, one per iteration). If both sides start there, both get one.
// Shared by SimtStack, the functional runner's word stack and TBC's
// tbc::BlockStack.
inline bool side_needs_entry(uint32_t side_pc, uint32_t other_pc, uint32_t rpc) {
  return side_pc != rpc || other_pc == rpc;
}

struct StackEntry {
  uint32_t pc;
  uint32_t rpc;  // ptx::kNoPc: never reconverges (threads leave through exit)
  func::ThreadMask mask;
};

class SimtStack {
 public:
  void reset(uint32_t pc, const func::ThreadMask& mask) {
    entries_.clear();
    entries_.push_back({pc, ptx::kNoPc, mask});
  }
  bool empty() const { return entries_.empty(); }
  size_t depth() const { return entries_.size(); }
  StackEntry& top() { return entries_.back(); }
  const StackEntry& top() const { return entries_.back(); }
  const std::vector<StackEntry>& entries() const { return entries_; }

  // Pops finished entries: reconverged (pc == rpc) or with no live thread.
  // Returns false when the stack is empty (the warp is done).
  bool settle(const func::ThreadMask& exited) {
    while (!entries_.empty()) {
      StackEntry& e = entries_.back();
      if (e.pc != e.rpc && e.mask.minus(exited).any()) return true;
      entries_.pop_back();
    }
    return false;
  }

  // The top entry branched: `taken` threads go to `target`, the others fall
  // through to `fallthrough`; both meet again at `rpc`. Returns true when
  // the warp diverged (the top entry changed; else only its PC moved).
  bool branch(const func::ThreadMask& taken, uint32_t target, uint32_t fallthrough, uint32_t rpc) {
    StackEntry& e = entries_.back();
    func::ThreadMask not_taken = e.mask.minus(taken);
    if (not_taken.none()) { e.pc = target; return false; }
    if (taken.none()) { e.pc = fallthrough; return false; }
    if (rpc == e.rpc && entries_.size() > 1) {
      // Both sides meet where this entry does (a loop's back edge in the
      // loop body's entry): the entry below already waits there with these
      // threads, so this one is done and the sides replace it.
      entries_.pop_back();
    } else {
      e.pc = rpc;  // the reconvergence entry keeps the full mask
    }
    if (side_needs_entry(fallthrough, target, rpc)) entries_.push_back({fallthrough, rpc, not_taken});
    if (side_needs_entry(target, fallthrough, rpc)) entries_.push_back({target, rpc, taken});
    max_depth_ = std::max(max_depth_, entries_.size());
    return true;
  }

  // A call by `callers` (the executing threads that take it): the current
  // entry resumes at `ret_pc`, where the others wait; the callee runs in its
  // own entry, which pops when `ret` sends its threads to
  // ret_pc | kReturnTag. With `stay`, the other threads of the entry run the
  // call instruction (ret_pc - 1) again first, in an entry of their own (an
  // indirect call whose threads name different functions).
  void call(uint32_t callee_pc, uint32_t ret_pc, const func::ThreadMask& callers, bool stay = false) {
    StackEntry& e = entries_.back();
    const func::ThreadMask in = e.mask & callers;  // a VWS gang's step names every member's threads
    const func::ThreadMask rest = e.mask.minus(callers);
    e.pc = ret_pc;
    if (stay && rest.any()) entries_.push_back({ret_pc - 1, ret_pc, rest});
    entries_.push_back({callee_pc, ret_pc | ptx::kReturnTag, in});
    max_depth_ = std::max(max_depth_, entries_.size());
  }

  // A ret by `returning`: they go to the top entry's reconvergence PC, the
  // tagged return address of the call that entered the function (the call's
  // own entry, or a branch side inside the callee that inherited it); the
  // others fall through.
  void ret(const func::ThreadMask& returning) {
    const uint32_t back = entries_.back().rpc;
    branch(returning, back, entries_.back().pc + 1, back);
  }

  size_t max_depth() const { return max_depth_; }

 private:
  std::vector<StackEntry> entries_;
  size_t max_depth_ = 1;
};

}  // namespace simt::sm
