// Architectural state of one CTA: registers stored [row][thread],
// shared memory, per-thread local memory, and the launch geometry the
// special registers read. Threads are numbered linearly
// (x fastest, then y, then z), as CUDA does.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "func/thread_mask.h"
#include "ptx/ir.h"

namespace simt::func {

using Dim3 = std::array<uint32_t, 3>;

// Default size of each thread's call stack (CtaState::call_stack).
inline constexpr uint32_t kDefaultCallStackBytes = 64 * 1024;

struct LaunchGeometry {
  Dim3 grid{{1, 1, 1}};
  Dim3 block{{1, 1, 1}};
  uint32_t dynamic_shared_bytes = 0;
  // A cooperative launch's grid-synchronisation word (device address, 0 for
  // an ordinary launch): what CUDA passes in %envreg1 (high) / %envreg2 (low)
  // and cooperative_groups' grid.sync() counts arrivals in.
  uint64_t grid_workspace = 0;
  uint32_t threads_per_cta() const { return block[0] * block[1] * block[2]; }
  uint64_t ctas() const { return uint64_t{grid[0]} * grid[1] * grid[2]; }
};

class CtaState {
 public:
  // `params` is the launch's kernel parameter buffer (Program::param_bytes long).
  CtaState(const ptx::Program& prog, const LaunchGeometry& geom, Dim3 ctaid,
           const std::vector<uint8_t>& params);
  // slot_ may point into identity_: moving keeps the vector's buffer, a copy would not.
  CtaState(const CtaState&) = delete;
  CtaState& operator=(const CtaState&) = delete;
  CtaState(CtaState&&) = default;
  CtaState& operator=(CtaState&&) = default;

  // Makes this the state of a fresh CTA `ctaid` of the same launch, as the
  // constructor would, but keeping the buffers: a launch of many CTAs
  // allocates (and faults in) its register file and memories once.
  void reset(Dim3 ctaid);

  const ptx::Program& program() const { return *prog_; }
  const LaunchGeometry& geometry() const { return geom_; }
  const Dim3& ctaid() const { return ctaid_; }
  uint32_t threads() const { return nthreads_; }
  Dim3 tid(uint32_t t) const {
    return {{t % geom_.block[0], (t / geom_.block[0]) % geom_.block[1],
             t / (geom_.block[0] * geom_.block[1])}};
  }

  // Writable access marks the register's row as possibly written, so
  // reset() clears only those rows (the others are still zero).
  // Register r lives in row slot_[r] (ptx/register_slots.h: registers never
  // live at once may share a row).
  uint64_t& reg(uint32_t r, uint32_t t) { return reg_row(r)[t]; }
  uint64_t reg(uint32_t r, uint32_t t) const { return reg_row(r)[t]; }
  uint64_t* reg_row(uint32_t r) {
    const uint32_t s = slot_[r];
    touched_[s] = 1;
    return &regs_[size_t{s} * nthreads_];
  }
  const uint64_t* reg_row(uint32_t r) const { return &regs_[size_t{slot_[r]} * nthreads_]; }

  std::vector<uint8_t>& shared() { return shared_; }
  const std::vector<uint8_t>& shared() const { return shared_; }
  const std::vector<uint8_t>& params() const { return *params_; }
  uint8_t* local(uint32_t t) { return local_.data() + size_t{t} * local_bytes_; }
  uint32_t local_bytes() const { return local_bytes_; }

  // Thread t's call stack: the frames that recursive calls saved (see
  // ptx::FuncRange), innermost last. Allocated on first use.
  std::vector<uint8_t>& call_stack(uint32_t t) {
    if (call_stacks_.size() < nthreads_) call_stacks_.resize(nthreads_);
    return call_stacks_[t];
  }

  // Carry flag written by add.cc/sub.cc/mad.cc and read by addc/subc/madc.
  uint8_t& carry(uint32_t t) { return carry_[t]; }

  // Threads that executed exit (or ret from the entry).
  ThreadMask& exited() { return exited_; }
  const ThreadMask& exited() const { return exited_; }
  ThreadMask all_threads() const { return ThreadMask::range(0, nthreads_); }

  // Values for %smid, %warpid, %clock: set by whatever runs the CTA.
  uint32_t sm_id = 0;
  uint32_t warp_size = 32;   // hardware warp width, for %warpid / %nwarpid
  uint64_t clock = 0;
  uint32_t clock_mhz = 1000;  // converts `clock` to the ns of %globaltimer
  uint64_t globaltimer_ns() const { return clock * 1000 / clock_mhz; }

 private:
  void check_ctaid(const Dim3& ctaid) const;

  const ptx::Program* prog_;
  LaunchGeometry geom_;
  Dim3 ctaid_;
  uint32_t nthreads_;
  const uint32_t* slot_;          // per register: its row (the program's table, or identity_)
  std::vector<uint32_t> identity_;  // one row per register, for a program without a slot table
  std::vector<uint64_t> regs_;    // [row][thread]
  std::vector<uint8_t> touched_;  // per row: a writable reference was handed out since the last clear
  std::vector<uint8_t> shared_;
  uint32_t local_bytes_;
  std::vector<uint8_t> local_;
  const std::vector<uint8_t>* params_;
  std::vector<uint8_t> carry_;
  std::vector<std::vector<uint8_t>> call_stacks_;
  ThreadMask exited_;
};

}  // namespace simt::func
