#include "func/shfl_undefined.h"

#include "util/error.h"

namespace simt::func {

const char* shfl_undefined_name(ShflUndefined p) {
  switch (p) {
    case ShflUndefined::Source: return "source";
    case ShflUndefined::Zero: return "zero";
    case ShflUndefined::Self: return "self";
  }
  return "?";
}

ShflUndefined shfl_undefined_from_name(const std::string& name) {
  for (ShflUndefined p : {ShflUndefined::Source, ShflUndefined::Zero, ShflUndefined::Self})
    if (name == shfl_undefined_name(p)) return p;
  throw input_error("option func.shfl_undefined: '" + name + "' is not one of source, zero, self");
}

void ShflUndefinedLog::note(const ptx::Program& prog, uint32_t pc, uint32_t lane, ShflUndefined policy) {
  ++reads_;
  if (warned_.size() < prog.code.size()) warned_.resize(prog.code.size(), false);
  if (pc >= warned_.size() || warned_[pc]) return;
  warned_[pc] = true;
  if (!warn_) return;
  const uint32_t line = prog.code[pc].line;
  *warn_ << "warning: kernel " << prog.kernel << " pc " << pc << " (" << prog.source_path << ":" << line
         << "): shfl.sync reads lane " << lane
         << " that is inactive/not in membermask; value is undefined in PTX, using "
         << shfl_undefined_name(policy) << " (--set func.shfl_undefined=source|zero|self)\n";
}

}  // namespace simt::func
