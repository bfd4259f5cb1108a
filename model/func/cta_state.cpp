#include "func/cta_state.h"

#include <string>

#include "util/error.h"

namespace simt::func {

CtaState::CtaState(const ptx::Program& prog, const LaunchGeometry& geom, Dim3 ctaid,
                   const std::vector<uint8_t>& params)
    : prog_(&prog), geom_(geom), ctaid_(ctaid), nthreads_(geom.threads_per_cta()),
      local_bytes_(prog.local_bytes), params_(&params) {
  // Geometry errors are the launcher's input, so they are reported, never asserted.
  if (nthreads_ == 0 || nthreads_ > kMaxCtaThreads)
    throw input_error("CTA of " + std::to_string(nthreads_) + " threads for kernel '" + prog.kernel +
                      "': must be 1.." + std::to_string(kMaxCtaThreads));
  for (int i = 0; i < 3; ++i)
    if (ctaid[i] >= geom.grid[i])
      throw input_error("CTA id outside the grid for kernel '" + prog.kernel + "'");
  if (params.size() < prog.param_bytes)
    throw input_error("kernel '" + prog.kernel + "' expects " + std::to_string(prog.param_bytes) +
                      " bytes of parameters, got " + std::to_string(params.size()));
  regs_.assign(size_t{prog.num_regs()} * nthreads_, 0);
  // Dynamic (extern) shared memory starts at the static size rounded up to 16 (link.cpp).
  const size_t dynamic_base = (size_t{prog.static_shared_bytes} + 15) / 16 * 16;
  shared_.assign(dynamic_base + geom.dynamic_shared_bytes, 0);
  local_.assign(size_t{local_bytes_} * nthreads_, 0);
  carry_.assign(nthreads_, 0);
}

}  // namespace simt::func
