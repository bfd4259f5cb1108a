// What shfl.sync returns when its source lane does not execute the shuffle
// or is outside the membermask. PTX leaves that value undefined; the model
// makes it a machine parameter (func.shfl_undefined, docs/ptx-support.md)
// and reports every such read: a warning once per kernel and PC, and a count.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "ptx/ir.h"

namespace simt::func {

enum class ShflUndefined : uint8_t {
  Source,  // the source thread's register as last written (0 for a lane past the CTA's end)
  Zero,    // 0
  Self,    // the reading thread's own value of `a`
};

const char* shfl_undefined_name(ShflUndefined p);               // "source" | "zero" | "self"
ShflUndefined shfl_undefined_from_name(const std::string& name);  // throws simt::input_error

// One per kernel: counts undefined shuffle reads and warns on the first read
// at each PC. Not on the hot path: only reached when such a read happens.
class ShflUndefinedLog {
 public:
  explicit ShflUndefinedLog(std::ostream* warn) : warn_(warn) {}
  // Thread reading lane `lane` at `pc` of `prog` got the policy's value.
  void note(const ptx::Program& prog, uint32_t pc, uint32_t lane, ShflUndefined policy);
  uint64_t reads() const { return reads_; }

 private:
  std::ostream* warn_;
  uint64_t reads_ = 0;
  std::vector<bool> warned_;  // by PC
};

}  // namespace simt::func
