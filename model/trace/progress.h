// Progress of a long run on stderr: every `period` seconds of wall time the
// owner's periodic check prints which launch is running (i of n when the
// number of launches is known, e.g. for a manifest), CTAs done/total of that
// launch with a percentage, an estimate of the time left, simulated cycles,
// and the speed since the last line (cycles/s, thread instructions/s).
// The owner calls due() cheaply and often (every CTA, every 64K simulated
// cycles); it only reads the clock. Cycles and thread instructions passed to
// report() are totals since the run began (so a run of many short launches
// still reports). `simtlab --quiet` disables it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace simt::trace {

class Progress {
 public:
  explicit Progress(bool enabled, double period_seconds = 2.0, std::FILE* out = stderr);

  bool enabled() const { return enabled_; }
  // How many launches the run will make (0 = unknown: lines say "launch i").
  void set_launch_count(uint64_t n) { launch_count_ = n; }
  // A launch of `kernel` starts (the device calls it for every launch).
  void begin_launch(const std::string& kernel);
  // True when a line is due (enabled and `period` elapsed since the last one).
  bool due();
  // Prints one line; `cycles` is 0 in functional mode (no cycles printed).
  void report(uint64_t ctas_done, uint64_t ctas_total, uint64_t cycles, uint64_t thread_instructions);
  uint64_t lines() const { return lines_; }
  // The line report() would print (without the "simtlab: progress: " prefix
  // and the line break), for a given wall time since the launch began.
  std::string line(uint64_t ctas_done, uint64_t ctas_total, uint64_t cycles, double cycles_per_second,
                   double instructions_per_second, double launch_seconds, double run_seconds) const;

 private:
  using Clock = std::chrono::steady_clock;
  bool enabled_;
  double period_;
  std::FILE* out_;
  Clock::time_point last_;
  Clock::time_point run_start_, launch_start_;
  uint64_t last_cycles_ = 0, last_instr_ = 0;
  uint64_t lines_ = 0;
  uint64_t launch_ = 0, launch_count_ = 0;
  std::string kernel_;
};

}  // namespace simt::trace
