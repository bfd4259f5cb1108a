// A block that keeps some of its counters lazily (a lane power controller
// classifies an idle period only when it ends) brings them up to date when
// the SM asks, at the end of every kernel (Sm::sample_until).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

namespace simt::sm {

class StatsSettler {
 public:
  virtual ~StatsSettler() = default;
  virtual void settle_stats(uint64_t now) = 0;
};

// Settles those of a core's technique blocks that keep lazy counters (the
// SIMT, VWS and VGIW cores' sample_until()).
inline void settle_blocks(const std::vector<std::unique_ptr<sc_core::sc_module>>& blocks, uint64_t now) {
  for (const auto& b : blocks)
    if (auto* s = dynamic_cast<StatsSettler*>(b.get())) s->settle_stats(now);
}

}  // namespace simt::sm
