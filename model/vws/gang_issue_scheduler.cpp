#include "vws/gang_issue_scheduler.h"

#include <stdexcept>

namespace simt::vws {

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

}  // namespace simt::vws
