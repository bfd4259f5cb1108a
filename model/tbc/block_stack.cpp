#include "tbc/block_stack.h"

#include <algorithm>
#include <stdexcept>

namespace simt::tbc {

uint32_t compacted_warp_count(const ThreadMask& mask, uint32_t warp_size) {
  std::vector<uint32_t> per_lane(warp_size, 0);
  mask.for_each([&](uint32_t t) { ++per_lane[t % warp_size]; });
  return per_lane.empty() ? 0 : *std::max_element(per_lane.begin(), per_lane.end());
}

BlockStack::BlockStack(uint32_t warp_size, const ThreadMask& cta_threads, uint32_t start_pc)
    : warp_size_(warp_size) {
  if (warp_size < 1) throw std::invalid_argument("BlockStack: warp size must be positive");
  StackEntry base;
  base.pc = start_pc;
  base.mask = cta_threads;
  base.wcnt = compacted_warp_count(cta_threads, warp_size);
  push(base);
  exec_ = 0;
}

void BlockStack::push(const StackEntry& e) {
  entries_.push_back(e);
  ++stats_.pushes;
  stats_.max_depth = std::max(stats_.max_depth, depth());
}

void BlockStack::pop(bool empty) {
  entries_.pop_back();
  ++stats_.pops;
  if (empty) ++stats_.empty_pops;
}

bool BlockStack::count_down(const ThreadMask& warp_threads) {
  StackEntry& e = entries_[exec_];
  // A warp outside the executing entry means the caller lost track of the CTA.
  if (warp_threads.none() || warp_threads.minus(e.mask).any())
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
  if (!sync_pending()) {
    // First warp at this branch: create the entries now, whatever its outcome.
    branch_pc_ = pc;
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
    side.pc = fallthrough;
    push(side);
    side.pc = target;
    push(side);
  } else if (pc != branch_pc_) {
    throw std::logic_error("BlockStack: warp reached another branch while one is synchronising");
  }
  if (taken.minus(warp_threads).any()) throw std::logic_error("BlockStack: taken threads outside the warp");
  const size_t n = entries_.size();
  entries_[n - 1].mask |= taken;
  entries_[n - 2].mask |= warp_threads.minus(taken);
  if (!count_down(warp_threads)) return {};
  branch_pc_ = kNoPc;
  return settle();
}

Dispatch BlockStack::arrive_reconv(uint32_t pc, const ThreadMask& warp_threads) {
  if (!is_reconv_point(pc)) throw std::logic_error("BlockStack: pc is not the top entry's RPC");
  if (!count_down(warp_threads)) return {};
  pop(false);
  return settle();
}

Dispatch BlockStack::arrive_likely(uint32_t pc, const ThreadMask& warp_threads) {
  if (!is_likely_point(pc)) throw std::logic_error("BlockStack: pc is not the top entry's LPC");
  if (!count_down(warp_threads)) return {};
  // Merge once the whole entry is there: its threads wait in the likely entry.
  entries_[top().lpos].mask |= top().mask;
  ++stats_.likely_merges;
  pop(false);
  return settle();
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
  t.wcnt = compacted_warp_count(t.mask, warp_size_);
  Dispatch d;
  d.valid = true;
  d.pc = t.pc;
  d.mask = t.mask;
  d.warps = t.wcnt;
  return d;
}

}  // namespace simt::tbc
