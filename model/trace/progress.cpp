#include "trace/progress.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>

namespace simt::trace {

namespace {

// "42 s", "3 min 5 s", "2 h 10 min": coarse on purpose, it is an estimate.
std::string duration_text(double s) {
  char buf[48];
  if (!std::isfinite(s) || s < 0) return "?";
  const uint64_t t = static_cast<uint64_t>(s + 0.5);
  if (t < 60)
    std::snprintf(buf, sizeof buf, "%" PRIu64 " s", t);
  else if (t < 3600)
    std::snprintf(buf, sizeof buf, "%" PRIu64 " min %" PRIu64 " s", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%" PRIu64 " h %" PRIu64 " min", t / 3600, t % 3600 / 60);
  return buf;
}

}  // namespace

Progress::Progress(bool enabled, double period_seconds, std::FILE* out)
    : enabled_(enabled), period_(period_seconds), out_(out), last_(Clock::now()), run_start_(last_),
      launch_start_(last_) {}

void Progress::begin_launch(const std::string& kernel) {
  ++launch_;
  kernel_ = kernel;
  launch_start_ = Clock::now();
  if (launch_ == 1) run_start_ = launch_start_;
}

bool Progress::due() {
  return enabled_ && std::chrono::duration<double>(Clock::now() - last_).count() >= period_;
}

std::string Progress::line(uint64_t ctas_done, uint64_t ctas_total, uint64_t cycles, double cycles_per_second,
                           double instructions_per_second, double launch_seconds, double run_seconds) const {
  std::string s;
  char buf[160];
  if (launch_) {
    if (launch_count_)
      std::snprintf(buf, sizeof buf, "launch %" PRIu64 "/%" PRIu64, launch_, launch_count_);
    else
      std::snprintf(buf, sizeof buf, "launch %" PRIu64, launch_);
    s += buf;
    if (!kernel_.empty()) s += " (" + kernel_ + ")";
    s += ", ";
  }
  const double frac = ctas_total ? std::min(1.0, static_cast<double>(ctas_done) / ctas_total) : 0.0;
  std::snprintf(buf, sizeof buf, "CTAs %" PRIu64 "/%" PRIu64 " (%.0f%%)", ctas_done, ctas_total, 100 * frac);
  s += buf;
  // Time left: this launch's rate so far; with the number of launches known,
  // the whole run's, assuming later launches take as long as earlier ones.
  if (frac > 0) {
    double left = launch_seconds * (1 - frac) / frac;
    if (launch_count_ > 1 && launch_ >= 1 && launch_ <= launch_count_) {
      const double run_frac = (static_cast<double>(launch_ - 1) + frac) / launch_count_;
      left = run_seconds * (1 - run_frac) / run_frac;
    }
    s += ", ETA " + duration_text(left);
  }
  if (cycles) {
    std::snprintf(buf, sizeof buf, ", cycle %" PRIu64 ", %.3g cycles/s", cycles, cycles_per_second);
    s += buf;
  }
  std::snprintf(buf, sizeof buf, ", %.3g thread instructions/s", instructions_per_second);
  return s + buf;
}

void Progress::report(uint64_t ctas_done, uint64_t ctas_total, uint64_t cycles, uint64_t thread_instructions) {
  const Clock::time_point now = Clock::now();
  const double dt = std::max(1e-9, std::chrono::duration<double>(now - last_).count());
  const std::string text =
      line(ctas_done, ctas_total, cycles, (cycles - last_cycles_) / dt, (thread_instructions - last_instr_) / dt,
           std::chrono::duration<double>(now - launch_start_).count(),
           std::chrono::duration<double>(now - run_start_).count());
  std::fprintf(out_, "simtlab: progress: %s\n", text.c_str());
  std::fflush(out_);
  last_ = now;
  last_cycles_ = cycles;
  last_instr_ = thread_instructions;
  ++lines_;
}

}  // namespace simt::trace
