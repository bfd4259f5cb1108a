// The text report of `simtlab inspect`: for one linked kernel, its functions,
// basic blocks (PC range, successors, live-in/live-out register counts,
// innermost loop), every branch (target, reconvergence PC = IPDOM start,
// likely-convergence PC, uniformity) and the instruction mix by class and by
// opcode. Columns are aligned; "exit" stands for a function's virtual exit
// and "-" for "none".
#pragma once

#include <string>

#include "ptx/cfg.h"
#include "ptx/ir.h"

namespace simt::ptx {

std::string inspect_report(const Program& p, const Cfg& cfg);

}  // namespace simt::ptx
