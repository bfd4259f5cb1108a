// The text report of `simtlab inspect --vgiw`: for one compiled kernel, its
// VGIW blocks in schedule order (ID, PC range, successors, exit / barrier,
// innermost loop head, the units one replica of its dataflow graph takes by
// type, its depth, the replicas the grid holds) and its live values
// (register -> live value ID, and each block's live-in / live-out).
#pragma once

#include <string>

#include "vgiw/compiler.h"

namespace simt::vgiw {

std::string vgiw_report(const Compilation& c);

}  // namespace simt::vgiw
