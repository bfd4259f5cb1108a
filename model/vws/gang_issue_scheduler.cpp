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

bool GangIssueScheduler::before(const GangCandidate& a, const GangCandidate& b) const {
  // Greedy-then-oldest, the tie-break of bgto and lgto and the whole of gto.
  auto gto = [&] {
    const bool ga = a.id == last_, gb = b.id == last_;
    if (ga != gb) return ga;
    if (a.age != b.age) return a.age < b.age;
    return a.id < b.id;
  };
  switch (policy_) {
    case Policy::Bgto:
      if (size_of(a) != size_of(b)) return size_of(a) > size_of(b);
      return gto();
    case Policy::Lgto:
      if (size_of(a) != size_of(b)) return size_of(a) < size_of(b);
      return gto();
    case Policy::Gto:
      return gto();
    case Policy::Lrr: {
      // Distance after the last issued id, wrapping.
      const uint32_t da = a.id - (last_ + 1), db = b.id - (last_ + 1);
      return da < db;
    }
    case Policy::Lpc:
      if (a.pc != b.pc) return a.pc < b.pc;
      if (a.age != b.age) return a.age < b.age;
      return a.id < b.id;
  }
  return false;
}

}  // namespace simt::vws
