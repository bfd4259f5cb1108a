// Thread-block prioritisation of seed 001 §6.2 (used with TBC): warps of
// different thread blocks (CTAs) are ordered by a block policy, warps inside
// a block by loose round robin.
//   age  the oldest block on the SM (dispatch order) first (the paper's default)
//   rrb  block priority rotates every cycle
//   srr  sticky round robin: the block that issued keeps top priority until
//        none of its warps is ready, then the next block in turn
#pragma once

#include <cstdint>
#include <unordered_map>

#include "sm/issue_policy.h"

namespace simt::sm {

class BlockPriorityPolicy final : public IssuePolicy {
 public:
  enum class Order { Age, RoundRobin, Sticky };
  explicit BlockPriorityPolicy(Order o) : order_(o) {}

  // Records the pick as issued (the issue stage issues every pick).
  int pick(const std::vector<WarpCandidate>& c, uint64_t now) override;
  const char* name() const override;

 private:
  // Loose round robin among the ready warps of `block`.
  int pick_in_block(const std::vector<WarpCandidate>& c, uint32_t block) const;
  // The block after `from` (by CTA slot, wrapping) with a ready warp.
  bool next_ready_block(const std::vector<WarpCandidate>& c, uint32_t from, bool inclusive,
                        uint32_t& out) const;

  Order order_;
  std::unordered_map<uint32_t, uint32_t> last_in_block_;  // block -> warp that issued last
  uint32_t last_block_ = 0;   // block of the last issue
  uint32_t turn_ = 0;         // rrb: block holding top priority this cycle
  uint64_t last_cycle_ = ~uint64_t{0};
};

}  // namespace simt::sm
