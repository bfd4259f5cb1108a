#include "trace/warp_trace.h"

#include <algorithm>
#include <sys/stat.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>

#include "util/error.h"

namespace simt::trace {

namespace {

constexpr size_t kFlushBytes = 1 << 16;

[[noreturn]] void bad_filter(const std::string& spec, const std::string& why) {
  throw input_error("--trace-filter " + spec + ": " + why +
                    " (expected e.g. warps=0-3,8,sm=0,cycles=1000:2000)");
}

uint64_t number(const std::string& spec, const std::string& t) {
  if (t.empty()) bad_filter(spec, "missing number");
  for (char c : t)
    if (c < '0' || c > '9') bad_filter(spec, "'" + t + "' is not a number");
  try {
    return std::stoull(t);
  } catch (const std::exception&) {
    bad_filter(spec, "'" + t + "' is out of range");
  }
}

}  // namespace

WarpTraceFilter WarpTraceFilter::parse(const std::string& spec) {
  WarpTraceFilter f;
  std::string key;
  bool cycles_set = false;
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    std::string item = spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? spec.size() + 1 : comma + 1;
    if (item.empty()) continue;
    std::string value = item;
    size_t eq = item.find('=');
    if (eq != std::string::npos) {
      key = item.substr(0, eq);
      value = item.substr(eq + 1);
    } else if (key.empty()) {
      bad_filter(spec, "'" + item + "' has no key");
    }
    if (key == "warps" || key == "sm") {
      size_t dash = value.find('-');
      uint64_t lo = number(spec, value.substr(0, dash));
      uint64_t hi = dash == std::string::npos ? lo : number(spec, value.substr(dash + 1));
      if (hi < lo) bad_filter(spec, "range " + value + " is empty");
      (key == "warps" ? f.warps : f.sms).emplace_back(lo, hi);
    } else if (key == "cycles") {
      if (cycles_set) bad_filter(spec, "cycles given twice");
      cycles_set = true;
      size_t colon = value.find(':');
      if (colon == std::string::npos) bad_filter(spec, "cycles needs START:END");
      f.first_cycle = colon == 0 ? 0 : number(spec, value.substr(0, colon));
      f.last_cycle = colon + 1 == value.size() ? UINT64_MAX : number(spec, value.substr(colon + 1));
      if (f.last_cycle < f.first_cycle) bad_filter(spec, "cycle window " + value + " is empty");
    } else {
      bad_filter(spec, "unknown key '" + key + "' (keys: warps, sm, cycles)");
    }
  }
  return f;
}

const char* stall_reason_name(StallReason r) {
  switch (r) {
    case StallReason::Idle: return "idle";
    case StallReason::Memory: return "memory";
    case StallReason::Scoreboard: return "scoreboard";
    case StallReason::PipeBusy: return "pipe-busy";
    case StallReason::Barrier: return "barrier";
    case StallReason::IbufferEmpty: return "ibuffer-empty";
    case StallReason::NotPicked: return "not-picked";
  }
  return "?";
}

WarpTrace::WarpTrace(const std::string& path, const WarpTraceFilter& filter, const std::string& shown_as)
    : filter_(filter), shown_as_(shown_as.empty() ? path : shown_as) {
  // A device or FIFO (/dev/stdout) is appended to: truncating it could cut
  // a file the shell redirected stdout to.
  struct stat st {};
  const bool regular = ::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode);
  file_ = std::fopen(path.c_str(), regular ? "w" : "a");
  if (!file_) throw input_error("--trace-warps " + shown_as_ + ": cannot create the file: " + std::strerror(errno));
  buf_.reserve(2 * kFlushBytes);
  const char* head =
      "# simtlab warp trace: <cycle> sm<S> s<sched> w<warp> pc=<pc> mask=<hex lanes> <instruction>\n"
      "#                     <first>[-<last>] sm<S> s<sched> stall <reason>\n";
  put(head, std::char_traits<char>::length(head));
}

WarpTrace::~WarpTrace() {
  // Runs flush() after every launch, so errors were reported there; a
  // destructor must not throw.
  try {
    flush();
  } catch (const Error&) {
  }
  std::fclose(file_);
}

void WarpTrace::write_out() {
  if (!buf_.empty() && !failed_ && std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size()) fail();
  buf_.clear();
}

void WarpTrace::fail() {
  failed_ = true;
  throw output_error("--trace-warps " + shown_as_ + ": write failed: " + std::strerror(errno));
}

void WarpTrace::add_sm(uint32_t sm, uint32_t schedulers) {
  if (runs_.size() <= sm) runs_.resize(sm + 1);
  runs_[sm].assign(schedulers, Run{});
}

WarpTrace::Run& WarpTrace::run_of(uint32_t sm, uint32_t sched) {
  if (sm >= runs_.size()) runs_.resize(sm + 1);
  if (sched >= runs_[sm].size()) runs_[sm].resize(sched + 1);
  return runs_[sm][sched];
}

void WarpTrace::put(const char* s, size_t n) {
  buf_.append(s, n);
  if (buf_.size() >= kFlushBytes) write_out();
}

void WarpTrace::end_run(uint32_t sm, uint32_t sched, Run& r) {
  if (!r.open) return;
  r.open = false;
  // Clip to the cycle window.
  const uint64_t first = std::max(r.first, filter_.first_cycle), last = std::min(r.last, filter_.last_cycle);
  if (first > last || !filter_.wants_sm(sm)) return;
  char line[128];
  int n = first == last
              ? std::snprintf(line, sizeof line, "%" PRIu64 " sm%u s%u stall %s\n", first, sm, sched,
                              stall_reason_name(r.why))
              : std::snprintf(line, sizeof line, "%" PRIu64 "-%" PRIu64 " sm%u s%u stall %s\n", first, last, sm,
                              sched, stall_reason_name(r.why));
  put(line, static_cast<size_t>(n));
}

void WarpTrace::issue(uint64_t cycle, uint32_t sm, uint32_t sched, uint32_t warp, uint32_t pc, uint64_t mask,
                      const std::string& text) {
  end_run(sm, sched, run_of(sm, sched));
  if (!filter_.wants_sm(sm) || !filter_.wants_warp(warp) || !filter_.wants_cycle(cycle)) return;
  char line[128];
  int n = std::snprintf(line, sizeof line, "%" PRIu64 " sm%u s%u w%u pc=%u mask=%" PRIx64 " ", cycle, sm, sched,
                        warp, pc, mask);
  put(line, static_cast<size_t>(n));
  put(text.data(), text.size());
  put("\n", 1);
  ++issue_lines_;
}

void WarpTrace::stall(uint32_t sm, uint32_t sched, uint64_t first, uint64_t last, StallReason why) {
  Run& r = run_of(sm, sched);
  if (r.open && r.why == why && first == r.last + 1) {
    r.last = last;
    return;
  }
  end_run(sm, sched, r);
  r.open = true;
  r.why = why;
  r.first = first;
  r.last = last;
}

void WarpTrace::flush() {
  for (uint32_t sm = 0; sm < runs_.size(); ++sm)
    for (uint32_t s = 0; s < runs_[sm].size(); ++s) end_run(sm, s, runs_[sm][s]);
  write_out();
  if (!failed_ && std::fflush(file_) != 0) fail();
}

}  // namespace simt::trace
