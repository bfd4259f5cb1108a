// The gang issue scheduler of Variable Warp Sizing (seed 000 §4.2, §6.1 and
// Figure 11), as a plain class: each cycle it picks up to N ready gangs
// (vws.gangs_per_cycle; 0 = as many as fit) whose slices do not overlap, in
// the order of its policy. Slices no gang takes issue their unganged warps.
//   bgto  Big-Gangs-Then-Oldest (the paper's default): most warps first,
//         ties greedy-then-oldest
//   lgto  Little-Gangs-Then-Oldest: fewest warps first, ties greedy-then-oldest
//   gto   greedy-then-oldest: the gang issued last, if ready, then the oldest
//   lrr   loose round robin over gang ids, from the one after the last issued
//   lpc   lowest PC first, ties oldest
// "Oldest" is the gang's age (smaller = older: its original gang launched
// earlier); "greedy" is the gang picked first in the last cycle that issued.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simt::vws {

struct GangCandidate {
  uint32_t id = 0;     // GangID
  uint8_t mask = 0;    // GangMask (slices)
  uint32_t pc = 0;
  uint64_t age = 0;    // smaller = older
};

class GangIssueScheduler {
 public:
  enum class Policy : uint8_t { Bgto, Lgto, Gto, Lrr, Lpc };
  static Policy parse(const std::string& name);  // throws std::invalid_argument
  static const char* name(Policy p);

  // `per_cycle` 0 = unlimited.
  GangIssueScheduler(Policy p, uint32_t per_cycle);

  // The ready gangs of this cycle (in any order); returns the indices into
  // `ready` of the gangs to issue, in priority order, on disjoint slices.
  const std::vector<uint32_t>& pick(const std::vector<GangCandidate>& ready) {
    return pick(ready, [](uint32_t) { return true; });
  }
  // The same over gangs that may be ready: `is_ready(i)` settles candidate
  // i, asked only in priority order and only until the cycle's gangs are
  // found (the costly check is not made for gangs that would not issue).
  template <class IsReady>
  const std::vector<uint32_t>& pick(const std::vector<GangCandidate>& maybe, IsReady&& is_ready);

 private:
  bool before(const GangCandidate& a, const GangCandidate& b) const;

  Policy policy_;
  uint32_t per_cycle_;
  uint32_t last_ = ~uint32_t{0};  // GangID issued most recently (greedy, round robin)
  std::vector<uint32_t> picked_;
  std::vector<uint8_t> rejected_;
};

template <class IsReady>
const std::vector<uint32_t>& GangIssueScheduler::pick(const std::vector<GangCandidate>& c, IsReady&& is_ready) {
  // The best gang whose slices are still free, again and again: the same
  // gangs as sorting by priority and taking the ready ones greedily,
  // without the sort (at most per_cycle a cycle, one gang per slice).
  picked_.clear();
  rejected_.assign(c.size(), 0);
  uint8_t used = 0;
  const size_t n = c.size();
  while (!per_cycle_ || picked_.size() < per_cycle_) {
    size_t best = n;
    for (size_t i = 0; i < n; ++i)
      if (!rejected_[i] && !(c[i].mask & used) && (best == n || before(c[i], c[best]))) best = i;
    if (best == n) break;
    if (!is_ready(static_cast<uint32_t>(best))) {
      rejected_[best] = 1;
      continue;
    }
    used |= c[best].mask;  // a slice issues one warp a cycle
    picked_.push_back(static_cast<uint32_t>(best));
  }
  if (!picked_.empty()) last_ = c[picked_.front()].id;
  return picked_;
}

}  // namespace simt::vws
