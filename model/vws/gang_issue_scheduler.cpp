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

const std::vector<uint32_t>& GangIssueScheduler::pick(const std::vector<GangCandidate>& c) {
  picked_.clear();
  select(c, 0, picked_);
  if (!picked_.empty()) last_ = c[picked_.front()].id;
  return picked_;
}

const std::vector<uint32_t>& GangIssueScheduler::claim(const std::vector<GangCandidate>& blocked, uint8_t used) {
  claimed_.clear();
  select(blocked, used, claimed_);
  return claimed_;
}

void GangIssueScheduler::select(const std::vector<GangCandidate>& c, uint8_t used, std::vector<uint32_t>& out) {
  // The same gangs as sorting by priority and taking them greedily, without
  // the sort (at most per_cycle a cycle, one gang per slice).
  keys_.resize(c.size());
  for (size_t i = 0; i < c.size(); ++i) keys_[i] = key(c[i]);
  const size_t n = c.size();
  while (!per_cycle_ || out.size() < per_cycle_) {
    size_t best = n;
    for (size_t i = 0; i < n; ++i)
      if (!(c[i].mask & used) && (best == n || keys_[i] < keys_[best])) best = i;
    if (best == n) break;
    used |= c[best].mask;  // a slice issues one warp a cycle
    out.push_back(static_cast<uint32_t>(best));
  }
}

}  // namespace simt::vws
