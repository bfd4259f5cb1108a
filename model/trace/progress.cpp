#include "trace/progress.h"

#include <algorithm>
#include <cinttypes>

namespace simt::trace {

Progress::Progress(bool enabled, double period_seconds, std::FILE* out)
    : enabled_(enabled), period_(period_seconds), out_(out), last_(Clock::now()) {}

bool Progress::due() {
  return enabled_ && std::chrono::duration<double>(Clock::now() - last_).count() >= period_;
}

void Progress::report(uint64_t ctas_done, uint64_t ctas_total, uint64_t cycles, uint64_t thread_instructions) {
  const Clock::time_point now = Clock::now();
  const double dt = std::max(1e-9, std::chrono::duration<double>(now - last_).count());
  const double ips = (thread_instructions - last_instr_) / dt;
  if (cycles)
    std::fprintf(out_, "simtlab: progress: CTAs %" PRIu64 "/%" PRIu64 ", cycle %" PRIu64
                       ", %.3g cycles/s, %.3g thread instructions/s\n",
                 ctas_done, ctas_total, cycles, (cycles - last_cycles_) / dt, ips);
  else
    std::fprintf(out_, "simtlab: progress: CTAs %" PRIu64 "/%" PRIu64 ", %.3g thread instructions/s\n", ctas_done,
                 ctas_total, ips);
  std::fflush(out_);
  last_ = now;
  last_cycles_ = cycles;
  last_instr_ = thread_instructions;
  ++lines_;
}

}  // namespace simt::trace
