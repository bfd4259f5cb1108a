#include "vws/gang_issue_scheduler.h"

#include <algorithm>
#include <stdexcept>

namespace simt::vws {

namespace {

int size_of(const GangCandidate& g) { return __builtin_popcount(g.mask); }

}  // namespace

GangIssueScheduler::Policy GangIssueScheduler::parse(const std::string& n) {
  if (n == "bgto") return Policy::Bgto;
  if (n == "lgto") return Policy::Lgto;
  if (n == "gto") return Policy::Gto;
  if (n == "lrr") return Policy::Lrr;
  if (n == "lpc") return Policy::Lpc;
  throw std::invalid_argument("unknown gang scheduler '" + n + "' (bgto, lgto, gto, lrr, lpc)");
}

const char* GangIssueScheduler::name(Policy p) {
  switch (p) {
    case Policy::Bgto: return "bgto";
    case Policy::Lgto: return "lgto";
    case Policy::Gto: return "gto";
    case Policy::Lrr: return "lrr";
    case Policy::Lpc: return "lpc";
  }
  return "?";
}

GangIssueScheduler::GangIssueScheduler(Policy p, uint32_t per_cycle) : policy_(p), per_cycle_(per_cycle) {}

GangIssueScheduler::Key GangIssueScheduler::key(const GangCandidate& g) const {
  // Greedy-then-oldest is the tie-break of bgto and lgto and the whole of
  // gto: the gang issued last first, then the oldest, then the lowest id.
  const uint64_t not_greedy = g.id == last_ ? 0 : 1;
  const uint64_t size = static_cast<uint64_t>(size_of(g));
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
