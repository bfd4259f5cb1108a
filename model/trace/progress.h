// Progress of a long run on stderr: every `period` seconds of wall time the
// owner's periodic check prints CTAs done/total of the current launch,
// simulated cycles, and the speed since the last line (cycles/s, thread
// instructions/s). The owner calls due() cheaply and often (every CTA,
// every 64K simulated cycles); it only reads the clock. Cycles and thread
// instructions passed to report() are totals since the run began (so a run
// of many short launches still reports). `simtlab --quiet` disables it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace simt::trace {

class Progress {
 public:
  explicit Progress(bool enabled, double period_seconds = 2.0, std::FILE* out = stderr);

  bool enabled() const { return enabled_; }
  // True when a line is due (enabled and `period` elapsed since the last one).
  bool due();
  // Prints one line; `cycles` is 0 in functional mode (no cycles printed).
  void report(uint64_t ctas_done, uint64_t ctas_total, uint64_t cycles, uint64_t thread_instructions);
  uint64_t lines() const { return lines_; }

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  double period_;
  std::FILE* out_;
  Clock::time_point last_;
  uint64_t last_cycles_ = 0, last_instr_ = 0;
  uint64_t lines_ = 0;
};

}  // namespace simt::trace
