#include "gpu/cta_dispatcher.h"

#include <algorithm>

#include "config/param_registry.h"
#include "util/error.h"

namespace simt::gpu {

void SmLimits::bind(config::ParamRegistry& r, const std::string& p) {
  r.add(p + ".max_threads", max_threads, "resident threads per SM", 1, 65536);
  r.add(p + ".max_ctas", max_ctas, "resident CTAs (thread blocks) per SM", 1, 1024);
  r.add(p + ".registers", registers, "32-bit registers per SM", 1, 1u << 24);
  r.add(p + ".shared_bytes", shared_bytes, "shared memory per SM in bytes", 0, 1u << 30);
  r.add(p + ".reg_alloc_unit", reg_alloc_unit, "registers are allocated per warp in multiples of this", 1, 4096);
  r.add(p + ".warp_size", warp_size, "threads per warp", 4, 64);
}

void SmLimits::validate(const std::string& p) const {
  if (warp_size < 4 || warp_size > 64)
    throw input_error("option " + p + ".warp_size: " + std::to_string(warp_size) + " is out of range (4 to 64)");
  if (max_threads < warp_size)
    throw input_error("option " + p + ".max_threads: must hold at least one warp (" + std::to_string(warp_size) + ")");
  if (reg_alloc_unit == 0) throw input_error("option " + p + ".reg_alloc_unit: must be at least 1");
}

uint32_t CtaDispatcher::registers_per_cta(const CtaFootprint& cta, const SmLimits& l) {
  const uint32_t warps = (cta.threads + l.warp_size - 1) / l.warp_size;
  const uint32_t per_warp = cta.regs_per_thread * l.warp_size;
  const uint32_t rounded = (per_warp + l.reg_alloc_unit - 1) / l.reg_alloc_unit * l.reg_alloc_unit;
  return warps * rounded;
}

Occupancy CtaDispatcher::occupancy(const CtaFootprint& cta, const SmLimits& l) {
  Occupancy o{l.max_ctas, "max_ctas"};
  auto cap = [&](uint32_t n, const char* what) {
    if (n < o.ctas_per_sm) o = Occupancy{n, what};
  };
  cap(l.max_threads / std::max(1u, cta.threads), "threads");
  if (const uint32_t regs = registers_per_cta(cta, l)) cap(l.registers / regs, "registers");
  if (cta.shared_bytes) cap(l.shared_bytes / cta.shared_bytes, "shared_bytes");
  return o;
}

CtaDispatcher::CtaDispatcher(uint32_t num_sms, const SmLimits& limits)
    : limits_(limits), sms_(num_sms) {}

void CtaDispatcher::start_kernel(uint64_t num_ctas, const CtaFootprint& cta) {
  const SmLimits& l = limits_;
  cta_ = cta;
  cta_regs_ = registers_per_cta(cta, l);
  auto too_big = [](const std::string& what, uint64_t need, uint64_t have) {
    throw input_error("a CTA needs " + std::to_string(need) + " " + what + " but an SM has only " +
                      std::to_string(have) + "; it can never run");
  };
  if (cta.threads > l.max_threads) too_big("threads", cta.threads, l.max_threads);
  if (cta_regs_ > l.registers) too_big("registers", cta_regs_, l.registers);
  if (cta.shared_bytes > l.shared_bytes) too_big("bytes of shared memory", cta.shared_bytes, l.shared_bytes);
  per_sm_ = occupancy(cta, l).ctas_per_sm;
  num_ctas_ = num_ctas;
  next_ = 0;
  resident_total_ = 0;
  for (auto& s : sms_) s = SmUse{};
}

std::optional<uint64_t> CtaDispatcher::try_dispatch(uint32_t sm) {
  if (next_ == num_ctas_) return std::nullopt;
  SmUse& u = sms_.at(sm);
  const SmLimits& l = limits_;
  if (u.ctas + 1 > l.max_ctas || u.threads + cta_.threads > l.max_threads ||
      u.registers + cta_regs_ > l.registers || u.shared + cta_.shared_bytes > l.shared_bytes)
    return std::nullopt;
  ++u.ctas;
  u.threads += cta_.threads;
  u.registers += cta_regs_;
  u.shared += cta_.shared_bytes;
  ++resident_total_;
  return next_++;
}

void CtaDispatcher::cta_done(uint32_t sm) {
  SmUse& u = sms_.at(sm);
  if (u.ctas == 0) throw Error(ExitCode::Internal, "CTA finished on SM " + std::to_string(sm) + " with none resident");
  --u.ctas;
  u.threads -= cta_.threads;
  u.registers -= cta_regs_;
  u.shared -= cta_.shared_bytes;
  --resident_total_;
}

}  // namespace simt::gpu
