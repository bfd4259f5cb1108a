#include "trace/vcd_size_watch.h"

#include <cinttypes>
#include <filesystem>
#include <system_error>

namespace simt::trace {

namespace {

// "850 MB", "7.7 GB": decimal units, two significant digits are plenty.
std::string size_text(double bytes) {
  char buf[32];
  if (bytes >= 1e9)
    std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  else if (bytes >= 1e6)
    std::snprintf(buf, sizeof buf, "%.0f MB", bytes / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.0f kB", bytes / 1e3);
  return buf;
}

}  // namespace

VcdEstimate estimate_vcd_size(uint64_t bytes_now, uint64_t bytes_at_launch_start, double launch_frac,
                              uint64_t launch, uint64_t launches) {
  VcdEstimate e;
  e.launch = launch;
  e.launches = launches;
  e.launch_frac = launch_frac;
  if (!(launch_frac > 0) || launch == 0) return e;
  e.known = true;
  if (launches && launch <= launches) {
    const double run_frac = (static_cast<double>(launch - 1) + launch_frac) / static_cast<double>(launches);
    e.bytes = static_cast<double>(bytes_now) / run_frac;
  } else {
    const uint64_t before = bytes_at_launch_start <= bytes_now ? bytes_at_launch_start : bytes_now;
    e.bytes = static_cast<double>(before) + static_cast<double>(bytes_now - before) / launch_frac;
    e.lower_bound = true;
  }
  return e;
}

VcdSizeWatch::VcdSizeWatch(std::string path, uint64_t threshold, std::FILE* out)
    : path_(std::move(path)), threshold_(threshold), out_(out) {}

uint64_t VcdSizeWatch::size_now() {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path_, ec)) {
    done_ = true;  // /dev/null, a FIFO: nothing to measure, nothing stored
    return 0;
  }
  const uintmax_t n = std::filesystem::file_size(path_, ec);
  if (ec) {
    done_ = true;
    return 0;
  }
  return static_cast<uint64_t>(n);
}

void VcdSizeWatch::begin_launch() {
  if (!done_) at_launch_start_ = size_now();
}

bool VcdSizeWatch::check(double launch_frac, uint64_t launch, uint64_t launches, uint64_t cycles) {
  if (done_) return true;
  const uint64_t now = size_now();
  if (done_) return true;
  const VcdEstimate e = estimate_vcd_size(now, at_launch_start_, launch_frac, launch, launches);
  if (now < threshold_ && (!e.known || e.bytes < threshold_)) return false;
  std::fprintf(out_, "simtlab: warning: %s\n", warning(now, cycles, e).c_str());
  std::fflush(out_);
  done_ = true;
  return true;
}

std::string VcdSizeWatch::warning(uint64_t bytes_now, uint64_t cycles, const VcdEstimate& e) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "after %" PRIu64 " cycles the file holds %s", cycles,
                size_text(static_cast<double>(bytes_now)).c_str());
  std::string s = std::string("--vcd records every cycle of the run (no --vcd-window): ") + buf;
  if (cycles) {
    const double rate = static_cast<double>(bytes_now) / static_cast<double>(cycles);
    std::snprintf(buf, sizeof buf, rate < 10 ? " (about %.1f bytes per cycle)" : " (about %.0f bytes per cycle)", rate);
    s += buf;
  }
  if (e.known && e.bytes > static_cast<double>(bytes_now)) {
    const int pct = static_cast<int>(100 * e.launch_frac + 0.5);
    if (e.lower_bound) {
      std::snprintf(buf, sizeof buf, "launch %" PRIu64 " so far (%d%% of its CTAs)", e.launch, pct);
      s += std::string("; an estimate from ") + buf + ", the number of launches not being known in advance, puts the "
           "whole run at " + size_text(e.bytes) + " or more";
    } else {
      std::snprintf(buf, sizeof buf, "launch %" PRIu64 " of %" PRIu64 ", %d%% of its CTAs", e.launch, e.launches, pct);
      s += std::string("; an estimate from the share of the run done (") + buf +
           (e.launches > 1 ? "; later launches taken to cost what the earlier ones did" : "") +
           ") puts the whole run at about " + size_text(e.bytes) +
           (e.launches > 1 ? ", more if later launches do more work" : "");
    }
  }
  return s +
         ". Recording also slows the run several times. To record a slice, give --vcd-window START:END in cycles "
         "(e.g. --vcd-window 0:100000) and/or fewer signals with --vcd-signals GLOBS";
}

}  // namespace simt::trace
