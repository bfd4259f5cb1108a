#include "sm/branch_unit.h"

#include "util/error.h"

namespace simt::sm {

void BranchUnit::refuse_calls(const ptx::Program& p) const {
  for (const ptx::Instr& in : p.code) {
    if (in.op != ptx::Op::Call) continue;
    if (in.call_info < p.calls.size() && p.calls[in.call_info].builtin != ptx::Builtin::None) continue;
    throw input_error("kernel '" + p.kernel + "' uses calls (line " + std::to_string(in.line) + "), which the " +
                      name() + " branch unit does not model; use sm.reconvergence = pdom");
  }
}

}  // namespace simt::sm
