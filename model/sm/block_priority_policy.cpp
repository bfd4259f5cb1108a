#include "sm/block_priority_policy.h"

#include "sm/lrr_policy.h"

namespace simt::sm {

const char* BlockPriorityPolicy::name() const {
  switch (order_) {
    case Order::Age: return "age";
    case Order::RoundRobin: return "rrb";
    case Order::Sticky: return "srr";
  }
  return "?";
}

int BlockPriorityPolicy::pick_in_block(const std::vector<WarpCandidate>& c, uint32_t block) const {
  auto it = last_in_block_.find(block);
  const int64_t last = it == last_in_block_.end() ? -1 : int64_t(it->second);
  int best = -1;
  uint64_t best_key = UINT64_MAX;
  for (size_t i = 0; i < c.size(); ++i) {
    if (!c[i].ready || c[i].block != block) continue;
    const uint64_t key = lrr_key(c[i].warp, last);
    if (key < best_key) {
      best_key = key;
      best = static_cast<int>(i);
    }
  }
  return best;
}

bool BlockPriorityPolicy::next_ready_block(const std::vector<WarpCandidate>& c, uint32_t from, bool inclusive,
                                           uint32_t& out) const {
  bool found = false;
  uint64_t best = UINT64_MAX;
  for (const WarpCandidate& w : c) {
    if (!w.ready) continue;
    const uint64_t key = (w.block > from || (inclusive && w.block == from)) ? w.block
                                                                            : w.block + (uint64_t{1} << 33);
    if (key < best) {
      best = key;
      out = w.block;
      found = true;
    }
  }
  return found;
}

int BlockPriorityPolicy::pick(const std::vector<WarpCandidate>& c, uint64_t now) {
  uint32_t block = 0;
  switch (order_) {
    case Order::Age: {
      uint64_t oldest = UINT64_MAX;
      for (const WarpCandidate& w : c)
        if (w.ready && w.block_age < oldest) {
          oldest = w.block_age;
          block = w.block;
        }
      if (oldest == UINT64_MAX) return -1;
      break;
    }
    case Order::RoundRobin: {
      // Top priority moves to the next block every cycle, whether or not
      // the block holding it issued.
      if (now != last_cycle_) {
        uint32_t next = 0;
        if (last_cycle_ != ~uint64_t{0} && next_ready_block(c, turn_, false, next)) turn_ = next;
        last_cycle_ = now;
      }
      if (!next_ready_block(c, turn_, true, block)) return -1;
      break;
    }
    case Order::Sticky:
      if (!next_ready_block(c, last_block_, true, block)) return -1;
      break;
  }
  const int i = pick_in_block(c, block);
  if (i >= 0) {  // the issue stage issues every pick
    last_in_block_[block] = c[i].warp;
    last_block_ = block;
  }
  return i;
}

}  // namespace simt::sm
