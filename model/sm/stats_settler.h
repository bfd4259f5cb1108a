// A block that keeps some of its counters lazily (a lane power controller
// classifies an idle period only when it ends) brings them up to date when
// the SM asks, at the end of every kernel (Sm::sample_until).
#pragma once

#include <cstdint>

namespace simt::sm {

class StatsSettler {
 public:
  virtual ~StatsSettler() = default;
  virtual void settle_stats(uint64_t now) = 0;
};

}  // namespace simt::sm
