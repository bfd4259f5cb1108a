// The PDOM reconvergence stack moved to sm/ (the timing SM's issue stage owns
// it); the functional runner keeps using it under its old name.
#pragma once

#include "sm/simt_stack.h"

namespace simt::runtime {
using sm::SimtStack;
using sm::StackEntry;
}  // namespace simt::runtime
