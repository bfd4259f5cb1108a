#include "tbc/block_stack.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sm/simt_stack.h"

namespace simt::tbc {

uint32_t compacted_warp_count(const ThreadMask& mask, uint32_t warp_size) {
  std::vector<uint32_t> per_lane(warp_size, 0);
  mask.for_each([&](uint32_t t) { ++per_lane[t % warp_size]; });
  return per_lane.empty() ? 0 : *std::max_element(per_lane.begin(), per_lane.end());
}

namespace {
// Static warps (threads [w*W, (w+1)*W)) holding at least one thread of mask.
uint32_t static_warp_count(const ThreadMask& mask, uint32_t warp_size) {
  uint32_t n = 0, last = UINT32_MAX;
  mask.for_each([&](uint32_t t) {
    if (t / warp_size != last) {
      last = t / warp_size;
      ++n;
    }
  });
  return n;
}
}  // namespace

BlockStack::BlockStack(uint32_t warp_size, const ThreadMask& cta_threads, uint32_t start_pc,
                       bool compact)
    : warp_size_(warp_size), compact_(compact) {
  if (warp_size < 1) throw std::invalid_argument("BlockStack: warp size must be positive");
  StackEntry base;
  base.pc = start_pc;
  base.mask = cta_threads;
  base.wcnt = warp_count(cta_threads);
  push(base);
  exec_ = 0;
}

uint32_t BlockStack::warp_count(const ThreadMask& mask) const {
  return compact_ ? compacted_warp_count(mask, warp_size_) : static_warp_count(mask, warp_size_);
}

uint32_t BlockStack::take_peak() {
  const uint32_t p = peak_;
  peak_ = counted_depth();
  return p;
}

void BlockStack::push(const StackEntry& e) {
  entries_.push_back(e);
  ++stats_.pushes;
  stats_.max_depth = std::max(stats_.max_depth, counted_depth());
  peak_ = std::max(peak_, counted_depth());
}

void BlockStack::pop(bool empty) {
  entries_.pop_back();
  ++stats_.pops;
  if (empty) ++stats_.empty_pops;
}

void BlockStack::gather(uint32_t pc, const char* what) {
  StackEntry& e = entries_[exec_];
  if (e.gather_pc != kNoPc && e.gather_pc != pc)
    throw SyncConflict("warps of one block-wide stack entry reached different sync points (PC " +
                       std::to_string(e.gather_pc) + " and " + what + " at PC " + std::to_string(pc) +
                       "); a bra.uni that is not uniform across the block?");
  e.gather_pc = pc;
}

bool BlockStack::count_down(const ThreadMask& warp_threads, bool exiting) {
  StackEntry& e = entries_[exec_];
  const ThreadMask live = warp_threads.minus(exited_);
  // A warp outside the executing entry means the caller lost track of the CTA.
  if (warp_threads.none() || (!exiting && live.none()) || live.minus(e.mask).any())
    throw std::logic_error("BlockStack: warp threads not in the executing entry");
  if (e.wcnt == 0) throw std::logic_error("BlockStack: more warps arrived than were dispatched");
  return --e.wcnt == 0;
}

Dispatch BlockStack::arrive_branch(uint32_t pc, const ThreadMask& taken, const ThreadMask& warp_threads,
                                   uint32_t reconv_pc, uint32_t likely_pc, uint32_t target,
                                   uint32_t fallthrough, bool uniform) {
  if (uniform) {
    // bra.uni: the compiler promises no divergence, warps go on unsynchronised.
    ++stats_.uniform_branches;
    return {};
  }
  if (taken.minus(warp_threads).any()) throw std::logic_error("BlockStack: taken threads outside the warp");
  const bool first = !sync_pending();
  const bool fall_entry = sm::side_needs_entry(fallthrough, target, reconv_pc);
  const bool taken_entry = sm::side_needs_entry(target, fallthrough, reconv_pc);
  gather(pc, "a branch");
  if (first) {
    // First warp at this branch: create the entries now, whatever its outcome.
    StackEntry& cur = entries_[exec_];
    cur.pc = reconv_pc;  // the executing entry resumes at the IPDOM once both sides pop
    uint32_t lpc = kNoPc, lpos = kNoPos;
    if (likely_pc != kNoPc && likely_pc != reconv_pc) {
      lpc = likely_pc;
      if (cur.lpc == likely_pc && cur.lpos != kNoPos) {
        lpos = cur.lpos;  // nested branch in the same region: share the likely entry
      } else {
        StackEntry likely;
        likely.pc = likely_pc;
        likely.rpc = reconv_pc;
        lpos = depth();
        push(likely);
      }
    }
    StackEntry side;
    side.rpc = reconv_pc;
    side.lpc = lpc;
    side.lpos = lpos;
    if (fall_entry) {
      side.pc = fallthrough;
      push(side);
    }
    if (taken_entry) {
      side.pc = target;
      push(side);
    }
  }
  // The round's side entries are the top ones, the taken side above.
  const ThreadMask live = warp_threads.minus(exited_);
  size_t top = entries_.size() - 1;
  if (taken_entry) entries_[top--].mask |= taken.minus(exited_);
  if (fall_entry) entries_[top].mask |= live.minus(taken);
  if (!count_down(warp_threads, false)) return {};
  return round_done();
}

Dispatch BlockStack::arrive_reconv(uint32_t pc, const ThreadMask& warp_threads) {
  if (!is_reconv_point(pc)) throw std::logic_error("BlockStack: pc is not the executing entry's RPC");
  gather(pc, "the reconvergence point");
  if (!count_down(warp_threads, false)) return {};
  return round_done();
}

Dispatch BlockStack::arrive_likely(uint32_t pc, const ThreadMask& warp_threads) {
  if (!is_likely_point(pc)) throw std::logic_error("BlockStack: pc is not the executing entry's LPC");
  gather(pc, "the likely-convergence point");
  if (!count_down(warp_threads, false)) return {};
  return round_done();
}

void BlockStack::exit_threads(const ThreadMask& threads) {
  if (threads.none()) return;
  exited_ |= threads;
  for (StackEntry& e : entries_) e.mask = e.mask.minus(threads);
}

Dispatch BlockStack::arrive_exit(const ThreadMask& warp_threads) {
  exit_threads(warp_threads);
  if (!count_down(warp_threads, true)) return {};
  return round_done();
}

Dispatch BlockStack::round_done() {
  // A branch round: the target entries are complete, hand the new top over.
  if (sync_pending()) {
    drop_finished_exec();
    return settle();
  }
  // The top's warps gathered at its RPC or LPC, or exited. Merge only once
  // the whole entry is there: its threads then wait in the likely entry.
  const StackEntry& t = top();
  if (t.lpc != kNoPc && t.gather_pc == t.lpc) {
    entries_[t.lpos].mask |= t.mask;
    ++stats_.likely_merges;
  }
  if (depth() > 1) pop(false);  // the bottom entry stays (empty when all threads exited)
  return settle();
}

uint32_t BlockStack::counted_depth() const {
  // While a branch round is pending, an executing entry at PC = RPC (the
  // branch reconverges where it does) only waits to leave when the round
  // ends (drop_finished_exec): not counted, as SimtStack, which replaces
  // it at once, never holds it.
  const bool leaving = sync_pending() && exec_ > 0 && entries_[exec_].pc == entries_[exec_].rpc;
  return depth() - (leaving ? 1 : 0);
}

void BlockStack::drop_finished_exec() {
  // A branch that reconverges where the executing entry does (a loop's
  // back edge inside the loop body's entry) leaves that entry with
  // PC = RPC: its threads are counted in the entry below, which resumes at
  // the same PC, so it has nothing left to do. It leaves the stack now
  // rather than when it becomes top again, or a loop would stack one such
  // entry per iteration (GPGPU-Sim's stack pushes no reconvergence entry
  // in this case).
  const StackEntry& e = entries_[exec_];
  if (exec_ == 0 || e.pc != e.rpc) return;
  for (size_t i = exec_ + 1; i < entries_.size(); ++i)
    if (entries_[i].lpos == exec_) return;  // a likely entry still in use (not expected)
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(exec_));
  for (size_t i = exec_; i < entries_.size(); ++i)
    if (entries_[i].lpos != kNoPos && entries_[i].lpos > exec_) --entries_[i].lpos;
  ++stats_.pops;
}

Dispatch BlockStack::settle() {
  while (depth() > 1) {
    const StackEntry& t = top();
    if (t.mask.none()) {
      pop(true);
    } else if (t.pc == t.rpc) {
      pop(false);  // threads already counted in the entry below, which resumes here
    } else if (t.lpc != kNoPc && t.pc == t.lpc) {
      entries_[t.lpos].mask |= t.mask;
      ++stats_.likely_merges;
      pop(false);
    } else {
      break;
    }
  }
  exec_ = entries_.size() - 1;
  StackEntry& t = entries_.back();
  t.wcnt = warp_count(t.mask);
  t.gather_pc = kNoPc;  // a new round starts
  Dispatch d;
  d.valid = true;
  d.pc = t.pc;
  d.mask = t.mask;
  d.warps = t.wcnt;
  return d;
}

}  // namespace simt::tbc
