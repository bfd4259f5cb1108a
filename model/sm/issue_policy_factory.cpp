#include "sm/issue_policy_factory.h"

#include "config/param_registry.h"
#include "sm/block_priority_policy.h"
#include "sm/gates_policy.h"
#include "sm/gto_policy.h"
#include "sm/lpc_policy.h"
#include "sm/lrr_policy.h"
#include "sm/majority_policy.h"
#include "sm/two_level_policy.h"
#include "util/error.h"

namespace simt::sm {

const std::vector<std::string>& issue_policy_names() {
  static const std::vector<std::string> names = {"lrr", "gto", "two_level", "gates", "age", "rrb", "srr", "majority", "lpc"};
  return names;
}

void IssuePolicyParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add_choice(prefix + ".policy", policy, issue_policy_names(),
               "warp scheduler: lrr (loose round robin), gto (greedy-then-oldest), two_level "
               "(Gebhart et al. active/pending sets), gates (type-aware two-level, Warped-Gates), "
               "age / rrb / srr (thread-block prioritisation of seed 001, LRR inside a block), "
               "majority (DWF: the PC with the most threads first), lpc (lowest PC first, seed 000 §6.3)");
  r.add(prefix + ".active_warps", active_warps,
        "active set size of the two_level and gates schedulers", 1, 4096);
}

void IssuePolicyParams::validate(const std::string& prefix) const {
  bool known = false;
  for (const std::string& n : issue_policy_names()) known = known || n == policy;
  if (!known)
    throw input_error("option " + prefix + ".policy: unknown scheduler '" + policy +
                      "' (lrr, gto, two_level, gates, age, rrb, srr, majority, lpc)");
  if (active_warps == 0) throw input_error("option " + prefix + ".active_warps: must be at least 1");
}

std::unique_ptr<IssuePolicy> make_issue_policy(const IssuePolicyParams& p, const std::string& prefix) {
  p.validate(prefix);
  if (p.policy == "lrr") return std::make_unique<LrrPolicy>();
  if (p.policy == "gto") return std::make_unique<GtoPolicy>();
  if (p.policy == "two_level") return std::make_unique<TwoLevelPolicy>(p.active_warps);
  if (p.policy == "gates") return std::make_unique<GatesPolicy>(p.active_warps);
  if (p.policy == "age") return std::make_unique<BlockPriorityPolicy>(BlockPriorityPolicy::Order::Age);
  if (p.policy == "rrb") return std::make_unique<BlockPriorityPolicy>(BlockPriorityPolicy::Order::RoundRobin);
  if (p.policy == "srr") return std::make_unique<BlockPriorityPolicy>(BlockPriorityPolicy::Order::Sticky);
  if (p.policy == "majority") return std::make_unique<MajorityPolicy>();
  if (p.policy == "lpc") return std::make_unique<LpcPolicy>();
  throw input_error("option " + prefix + ".policy: scheduler '" + p.policy + "' has no factory entry");
}

}  // namespace simt::sm
