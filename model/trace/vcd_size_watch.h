// A VCD of a whole run (`--vcd` without `--vcd-window`) can reach gigabytes
// and slow the run several times (bfs large: 7.7 GB, 4x slower). Before the
// run nothing tells how long it will be, so the watch measures instead: as
// the run goes, it reads the file's size and, as soon as the share of the
// run's CTAs already done allows an estimate of the final size, warns once on
// stderr when that estimate (or the size already reached) passes a threshold,
// saying it is an estimate and how to record less. Progress drives it (it
// knows the launches and the CTAs done), every half second of wall time.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace simt::trace {

// The final size estimated from the size now. With the number of launches N
// known, launch k with a share f of its CTAs done puts the run (k - 1 + f) / N
// of the way through, counting every launch alike (as the progress ETA does).
// Without N only the current launch can be projected: the size when it began
// plus what it wrote so far / f, a lower bound for the run.
struct VcdEstimate {
  bool known = false;        // false: no CTA done yet, nothing to project from
  double bytes = 0;
  bool lower_bound = false;  // the number of launches is unknown
  // What it was made from, for the warning's text.
  uint64_t launch = 0, launches = 0;
  double launch_frac = 0;
};
VcdEstimate estimate_vcd_size(uint64_t bytes_now, uint64_t bytes_at_launch_start, double launch_frac,
                              uint64_t launch, uint64_t launches);

class VcdSizeWatch {
 public:
  static constexpr uint64_t kDefaultThreshold = 1000000000;  // 1 GB

  // `path` is the file being written (a device or FIFO cannot be measured:
  // the watch then stays silent).
  explicit VcdSizeWatch(std::string path, uint64_t threshold = kDefaultThreshold, std::FILE* out = stderr);

  void begin_launch();
  // `launch_frac`: share of the current launch's CTAs done; launch k of
  // `launches` (0 = unknown); `cycles`: the simulated cycle now. Prints the
  // warning at most once; returns true once it has (or cannot measure).
  bool check(double launch_frac, uint64_t launch, uint64_t launches, uint64_t cycles);
  bool done() const { return done_; }

  // The warning's text (without the "simtlab: warning: " prefix). Launches
  // may differ (bfs's first levels are light, its middle ones heavy), so the
  // text says what the estimate assumed, not only its result.
  static std::string warning(uint64_t bytes_now, uint64_t cycles, const VcdEstimate& e);

 private:
  uint64_t size_now();  // 0 and done() when the file cannot be measured

  std::string path_;
  uint64_t threshold_;
  std::FILE* out_;
  uint64_t at_launch_start_ = 0;
  bool done_ = false;
};

}  // namespace simt::trace
