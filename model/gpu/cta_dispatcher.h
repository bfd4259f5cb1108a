// Hands the CTAs of a kernel to SMs as their resources allow: a CTA goes to
// an SM only while that SM stays within its limits on resident threads,
// CTAs, registers and shared memory (the occupancy rules of seed 001
// Table 2 / Fermi). CTAs are handed out in launch order (linear CTA id).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace simt::config { class ParamRegistry; }

namespace simt::gpu {

struct SmLimits {
  uint32_t max_threads = 1024;     // resident threads per SM
  uint32_t max_ctas = 8;           // resident CTAs per SM
  uint32_t registers = 16384;      // 32-bit registers per SM
  uint32_t shared_bytes = 16384;   // shared memory per SM
  uint32_t reg_alloc_unit = 64;    // registers are allocated per warp in units of this many
  uint32_t warp_size = 32;

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

// What one CTA of the kernel occupies.
struct CtaFootprint {
  uint32_t threads = 0;
  uint32_t regs_per_thread = 0;  // 32-bit registers
  uint32_t shared_bytes = 0;     // static + dynamic
};

// How many CTAs of a kernel fit on one SM, and the first limit that stops
// one more: "max_ctas", "threads", "registers" or "shared_bytes".
struct Occupancy {
  uint32_t ctas_per_sm = 0;
  const char* limited_by = "max_ctas";
};

class CtaDispatcher {
 public:
  CtaDispatcher(uint32_t num_sms, const SmLimits& limits);

  // Starts a kernel of `num_ctas` CTAs. Throws simt::Error(BadInput) naming
  // the limit when a single CTA cannot fit on an SM at all.
  void start_kernel(uint64_t num_ctas, const CtaFootprint& cta);

  // The next CTA for SM `sm` if it fits there now (its resources are then
  // taken), or nothing.
  std::optional<uint64_t> try_dispatch(uint32_t sm);
  // A CTA on SM `sm` finished: its resources return.
  void cta_done(uint32_t sm);

  bool all_dispatched() const { return next_ == num_ctas_; }
  bool finished() const { return next_ == num_ctas_ && resident_total_ == 0; }
  uint64_t dispatched() const { return next_; }
  uint32_t resident(uint32_t sm) const { return sms_[sm].ctas; }
  // How many CTAs of this kernel fit on one SM at once (occupancy).
  uint32_t max_resident_per_sm() const { return per_sm_; }
  // Registers one CTA takes: per warp, rounded up to the allocation unit.
  static uint32_t registers_per_cta(const CtaFootprint& cta, const SmLimits& limits);
  static Occupancy occupancy(const CtaFootprint& cta, const SmLimits& limits);

 private:
  struct SmUse {
    uint32_t ctas = 0, threads = 0, registers = 0, shared = 0;
  };
  SmLimits limits_;
  std::vector<SmUse> sms_;
  CtaFootprint cta_;
  uint32_t cta_regs_ = 0;
  uint32_t per_sm_ = 0;
  uint64_t num_ctas_ = 0, next_ = 0;
  uint64_t resident_total_ = 0;
};

}  // namespace simt::gpu
