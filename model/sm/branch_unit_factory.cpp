#include "sm/branch_unit_factory.h"

#include "sm/issue_unit.h"
#include "sm/pdom_branch_unit.h"
#include "tbc/dwf_branch_unit.h"
#include "tbc/tbc_branch_unit.h"
#include "util/error.h"

namespace simt::sm {

const std::vector<std::string>& branch_unit_names() {
  static const std::vector<std::string> names = {"pdom", "tbc", "dwf"};
  return names;
}

void validate_branch_unit(const IssueParams& p, const std::string& prefix) {
  bool known = false;
  for (const std::string& n : branch_unit_names()) known = known || n == p.reconvergence;
  if (!known)
    throw input_error("option " + prefix + ".reconvergence: unknown branch unit '" + p.reconvergence +
                      "' (pdom, tbc, dwf)");
  if (p.reconvergence == "dwf" && p.likely_convergence)
    throw input_error("option " + prefix + ".likely_convergence: applies to pdom and tbc, not dwf");
  if (p.reconvergence != "dwf" && p.extra_slots > 0)
    throw input_error("option dwf.extra_slots: applies to " + prefix + ".reconvergence = dwf, not " +
                      p.reconvergence);
}

std::unique_ptr<BranchUnit> make_branch_unit(const IssueParams& p) {
  if (p.reconvergence == "pdom" && !p.likely_convergence)
    return std::make_unique<PdomBranchUnit>(p.max_warps, p.warp_size);
  if (p.reconvergence == "pdom")
    return std::make_unique<tbc::TbcBranchUnit>(p.max_warps, p.warp_size, tbc::TbcBranchUnit::Scope::Warp,
                                                false, true);
  if (p.reconvergence == "tbc")
    return std::make_unique<tbc::TbcBranchUnit>(p.max_warps, p.warp_size, tbc::TbcBranchUnit::Scope::Cta,
                                                p.compaction, p.likely_convergence);
  if (p.reconvergence == "dwf")
    return std::make_unique<tbc::DwfBranchUnit>(p.max_warps, p.warp_size, p.warp_barrier);
  throw input_error("option sm.reconvergence: branch unit '" + p.reconvergence + "' has no factory entry");
}

}  // namespace simt::sm
