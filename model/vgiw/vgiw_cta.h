// One CTA resident on the VGIW core: its functional state and where its
// threads sit in the core's thread slots (the CVT's bit positions). Data
// shared by the BBS (which creates and retires it) and the grid (which runs
// its threads); not a hardware block.
#pragma once

#include <cstdint>
#include <memory>

#include "func/cta_state.h"
#include "sm/cta_barriers.h"
#include "sm/kernel_context.h"

namespace simt::vgiw {

struct VgiwCta {
  std::unique_ptr<func::CtaState> state;
  const sm::KernelContext* kernel = nullptr;
  uint64_t index = 0;    // the dispatcher's CTA index
  uint32_t base = 0;     // thread slot of thread 0 (a multiple of 64)
  uint32_t threads = 0;
  uint32_t exited = 0;   // threads that have exited
  // Arrivals at its barriers (bar.red results are delivered when the last
  // thread arrives; the successor block runs after that, batch_runner.h).
  sm::CtaBarriers barriers;
};

}  // namespace simt::vgiw
