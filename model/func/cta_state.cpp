#include "func/cta_state.h"

#include <algorithm>
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
  check_ctaid(ctaid);
  if (params.size() < prog.param_bytes)
    throw input_error("kernel '" + prog.kernel + "' expects " + std::to_string(prog.param_bytes) +
                      " bytes of parameters, got " + std::to_string(params.size()));
  uint32_t rows = prog.num_slots();
  if (prog.reg_slot.size() == prog.num_regs()) {
    slot_ = prog.reg_slot.data();
  } else {
    identity_.resize(prog.num_regs());
    for (uint32_t r = 0; r < prog.num_regs(); ++r) identity_[r] = r;
    slot_ = identity_.data();
    rows = prog.num_regs();
  }
  regs_.assign(size_t{rows} * nthreads_, 0);
  touched_.assign(rows, 0);
  // Dynamic (extern) shared memory starts at the static size rounded up to 16 (link.cpp).
  const size_t dynamic_base = (size_t{prog.static_shared_bytes} + 15) / 16 * 16;
  shared_.assign(dynamic_base + geom.dynamic_shared_bytes, 0);
  local_.assign(size_t{local_bytes_} * nthreads_, 0);
  carry_.assign(nthreads_, 0);
}

void CtaState::check_ctaid(const Dim3& ctaid) const {
  for (int i = 0; i < 3; ++i)
    if (ctaid[i] >= geom_.grid[i])
      throw input_error("CTA id outside the grid for kernel '" + prog_->kernel + "'");
}

void CtaState::reset(Dim3 ctaid) {
  check_ctaid(ctaid);
  ctaid_ = ctaid;
  // Rows nobody could have written since they were last cleared are still zero.
  for (size_t r = 0; r < touched_.size(); ++r) {
    if (!touched_[r]) continue;
    touched_[r] = 0;
    std::fill_n(regs_.begin() + static_cast<std::ptrdiff_t>(r * nthreads_), nthreads_, 0);
  }
  std::fill(shared_.begin(), shared_.end(), 0);
  std::fill(local_.begin(), local_.end(), 0);
  std::fill(carry_.begin(), carry_.end(), 0);
  for (std::vector<uint8_t>& st : call_stacks_) st.clear();
  exited_.clear();
  sm_id = 0;
  warp_size = 32;
  clock = 0;
}

}  // namespace simt::func
