// Makes the branch unit named by sm.reconvergence (sm/branch_unit.h):
//   pdom                          per-warp PDOM stacks (baseline)
//   pdom + likely_convergence     per-warp block stacks with likely points
//   tbc  (+ likely_convergence, tbc.compaction)   thread block compaction
//   dwf  (+ dwf.warp_barrier)     dynamic warp formation / DWF-WB
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sm/branch_unit.h"

namespace simt::sm {

struct IssueParams;

const std::vector<std::string>& branch_unit_names();
// Throws simt::input_error naming `prefix`.reconvergence for a bad combination.
void validate_branch_unit(const IssueParams& p, const std::string& prefix);
std::unique_ptr<BranchUnit> make_branch_unit(const IssueParams& p);

}  // namespace simt::sm
