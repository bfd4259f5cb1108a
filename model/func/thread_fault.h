// The one way every engine (the SIMT SM, the functional runner, the VGIW
// grid) reports a fault one thread's instruction caused: a message naming
// kernel, CTA, PC (with file:line and the instruction), thread and address,
// and the same numbers as a simt::FaultSite on the error.
#pragma once

#include <cstdint>
#include <string>

#include "func/cta_state.h"
#include "func/executor.h"
#include "ptx/ir.h"
#include "util/error.h"

namespace simt::func {

std::string dim3_text(const Dim3& d);  // "(x,y,z)"
// "kernel 'k' CTA (x,y,z) PC n (file:line: instruction)".
std::string fault_where(const ptx::Program& p, const CtaState& cta, uint32_t pc);
// simt::kernel_fault for `f`, raised by thread f.tid of `cta` at `pc`.
Error thread_fault(const ptx::Program& p, const CtaState& cta, uint32_t pc, const Fault& f);

}  // namespace simt::func
