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
  if (launch_ == base_ + 1) run_start_ = launch_start_;
  if (watch_) watch_->begin_launch();
}

void Progress::watch_waveform(const std::string& path, uint64_t threshold, double check_seconds) {
  watch_ = std::make_unique<VcdSizeWatch>(path, threshold, out_);
  watch_period_ = check_seconds;
  last_watch_ = Clock::now();
  if (launch_) watch_->begin_launch();
}

bool Progress::due() {
  const Clock::time_point now = Clock::now();
  return (enabled_ && std::chrono::duration<double>(now - last_).count() >= period_) ||
         (watch_ && std::chrono::duration<double>(now - last_watch_).count() >= watch_period_);
}

std::string Progress::line(uint64_t ctas_done, uint64_t ctas_total, uint64_t cycles, double cycles_per_second,
                           double instructions_per_second, double launch_seconds, double run_seconds) const {
  std::string s;
  char buf[160];
  // Launch k of N, counted from set_launch_count(); a run that makes more
  // launches than it announced falls back to "launch k".
  const uint64_t k = launch_ - base_;
  const bool count_known = launch_count_ && k >= 1 && k <= launch_count_;
  if (k) {
    if (count_known)
      std::snprintf(buf, sizeof buf, "launch %" PRIu64 "/%" PRIu64, k, launch_count_);
    else
      std::snprintf(buf, sizeof buf, "launch %" PRIu64, k);
    s += buf;
    if (!kernel_.empty()) s += " (" + kernel_ + ")";
    s += ", ";
  }
  const double frac = ctas_total ? std::min(1.0, static_cast<double>(ctas_done) / ctas_total) : 0.0;
  std::snprintf(buf, sizeof buf, "CTAs %" PRIu64 "/%" PRIu64 " (%.0f%%)", ctas_done, ctas_total, 100 * frac);
  s += buf;
  // Time left. With the number of launches N known, for the whole run: launch
  // k with a share f of its CTAs done puts the run (k - 1 + f) / N of the way
  // through, and the rest is assumed to go at the run's rate so far, i.e.
  // later launches are taken to cost what the earlier ones cost on average
  // (close for repeated steps such as hotspot's; rough where launches differ,
  // such as bfs levels, whose frontiers grow and shrink). With N unknown,
  // nothing tells how many launches follow: only this launch's time left can
  // be estimated (at its rate so far), and the line says so.
  if (count_known) {
    const double run_frac = (static_cast<double>(k - 1) + frac) / launch_count_;
    if (run_frac > 0) s += ", ETA " + duration_text(run_seconds * (1 - run_frac) / run_frac);
  } else if (frac > 0) {
    s += ", ETA " + duration_text(launch_seconds * (1 - frac) / frac) + (k ? " for this launch" : "");
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
  if (watch_ && std::chrono::duration<double>(now - last_watch_).count() >= watch_period_) {
    last_watch_ = now;
    const uint64_t k = launch_ - base_;
    const double frac = ctas_total ? std::min(1.0, static_cast<double>(ctas_done) / ctas_total) : 0.0;
    if (watch_->check(frac, k, launch_count_, cycles)) watch_.reset();  // warned once (or cannot measure)
  }
  if (!enabled_ || std::chrono::duration<double>(now - last_).count() < period_) return;
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
