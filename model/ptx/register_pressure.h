// How many 32-bit registers a thread of the program needs at most: the
// largest number of simultaneously live values over every program point
// (64-bit values count twice, predicates not at all: they live in their own
// file). PTX registers are virtual and ptxas allocates physical ones from
// this pressure, so it stands in for ptxas's count when deciding how many
// CTAs fit on an SM.
#pragma once

#include <cstdint>

#include "ptx/cfg.h"
#include "ptx/ir.h"

namespace simt::ptx {

uint32_t max_live_registers(const Program& p, const Cfg& cfg);

}  // namespace simt::ptx
