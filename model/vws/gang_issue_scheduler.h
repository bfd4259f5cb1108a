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
  // Gangs that would issue but for a structural hazard (a full pipe latch on
  // some member slice), given the slices `used` by this cycle's picks: the
  // ones that claim their slices' pipe, in the same order and limit as
  // pick(), without counting as issued (the greedy state stays).
  const std::vector<uint32_t>& claim(const std::vector<GangCandidate>& blocked, uint8_t used);

 private:
  // The best gang of `c` whose slices are not in `used`, again and again,
  // into `out` (at most per_cycle).
  void select(const std::vector<GangCandidate>& c, uint8_t used, std::vector<uint32_t>& out);
  // A candidate's priority as one comparable value (smaller = issues
  // first), computed once a cycle per candidate instead of in every
  // comparison.
  struct Key {
    uint64_t a = 0, b = 0;
    uint32_t c = 0;
    bool operator<(const Key& o) const {
      if (a != o.a) return a < o.a;
      if (b != o.b) return b < o.b;
      return c < o.c;
    }
  };
  Key key(const GangCandidate& g) const;

  Policy policy_;
  uint32_t per_cycle_;
  uint32_t last_ = ~uint32_t{0};  // GangID issued most recently (greedy, round robin)
  std::vector<uint32_t> picked_, claimed_;
  std::vector<Key> keys_;
};

inline GangIssueScheduler::Key GangIssueScheduler::key(const GangCandidate& g) const {
  // Greedy-then-oldest is the tie-break of bgto and lgto and the whole of
  // gto: the gang issued last first, then the oldest, then the lowest id.
  const uint64_t not_greedy = g.id == last_ ? 0 : 1;
  const uint64_t size = static_cast<uint64_t>(__builtin_popcount(g.mask));
  switch (policy_) {
    case Policy::Bgto: return Key{(8 - size) * 2 + not_greedy, g.age, g.id};  // most warps first
    case Policy::Lgto: return Key{size * 2 + not_greedy, g.age, g.id};        // fewest warps first
    case Policy::Gto: return Key{not_greedy, g.age, g.id};
    case Policy::Lrr: return Key{uint64_t{g.id - (last_ + 1)}, 0, 0};  // distance after the last issued id, wrapping
    case Policy::Lpc: return Key{g.pc, g.age, g.id};
  }
  return Key{};
}

}  // namespace simt::vws
