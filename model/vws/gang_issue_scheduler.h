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
  const std::vector<uint32_t>& pick(const std::vector<GangCandidate>& ready);

 private:
  bool before(const GangCandidate& a, const GangCandidate& b) const;

  Policy policy_;
  uint32_t per_cycle_;
  uint32_t last_ = ~uint32_t{0};  // GangID issued most recently (greedy, round robin)
  std::vector<uint32_t> order_, picked_;
};

}  // namespace simt::vws
