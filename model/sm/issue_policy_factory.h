// Makes the scheduler policy named in the configuration ("lrr", "gto",
// "two_level", "gates"); a new policy is one new file plus one line here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sm/issue_policy.h"

namespace simt::config { class ParamRegistry; }

namespace simt::sm {

struct IssuePolicyParams {
  std::string policy = "gto";
  uint32_t active_warps = 8;  // two-level / GATES active set (Gebhart et al. use 8)

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

const std::vector<std::string>& issue_policy_names();

// Throws simt::input_error for an unknown name or bad parameters.
std::unique_ptr<IssuePolicy> make_issue_policy(const IssuePolicyParams& p,
                                               const std::string& prefix = "sched");

}  // namespace simt::sm
