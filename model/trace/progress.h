// Progress of a long run on stderr: every `period` seconds of wall time the
// owner's periodic check prints which launch is running (k of N when the
// number of launches is known: a manifest, or a workload that says how many
// it makes), CTAs done/total of that launch with a percentage, an estimate of
// the time left (for the whole run when N is known, else for this launch,
// and the line says which), simulated cycles, and the speed since the last
// line (cycles/s, thread instructions/s). It also drives a VcdSizeWatch.
// The owner calls due() cheaply and often (every CTA, every 64K simulated
// cycles); it only reads the clock. Cycles and thread instructions passed to
// report() are totals since the run began (so a run of many short launches
// still reports). `simtlab --quiet` disables it.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "trace/vcd_size_watch.h"

namespace simt::trace {

class Progress {
 public:
  explicit Progress(bool enabled, double period_seconds = 2.0, std::FILE* out = stderr);

  // Lines are printed, or a waveform is watched: the owner should call due().
  bool enabled() const { return enabled_ || watch_ != nullptr; }
  // The run makes `n` launches from now on (0 = unknown: lines say "launch k"
  // and give the ETA of the current launch only). Launches are counted from
  // here, so a device that ran other launches before still shows 1/n first.
  void set_launch_count(uint64_t n) {
    launch_count_ = n;
    base_ = launch_;
  }
  // Watches the waveform at `path` as it grows (--vcd without a window) and
  // warns once when it heads past `threshold` bytes (vcd_size_watch.h);
  // works with the lines off too (--quiet).
  void watch_waveform(const std::string& path, uint64_t threshold = VcdSizeWatch::kDefaultThreshold,
                      double check_seconds = 0.5);
  // A launch of `kernel` starts (the device calls it for every launch).
  void begin_launch(const std::string& kernel);
  // True when a line is due (enabled and `period` elapsed since the last
  // one) or the waveform watch wants a look.
  bool due();
  // Prints one line if one is due, and lets the watch look; `cycles` is 0 in
  // functional mode (no cycles printed).
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
  uint64_t base_ = 0;  // launches begun before set_launch_count()
  std::string kernel_;
  std::unique_ptr<VcdSizeWatch> watch_;
  double watch_period_ = 0.5;
  Clock::time_point last_watch_;
};

}  // namespace simt::trace
