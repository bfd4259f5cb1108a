// `simtlab run --trace-warps FILE [--trace-filter SPEC]`: a plain-text log
// of what every scheduler did, for debugging a run by hand.
//
// Lines (fields separated by one space):
//   <cycle> sm<S> s<sched> w<warp> pc=<pc> mask=<hex> <instruction text>
//       one per issued warp instruction; <warp> is the SM's warp slot (the
//       same number as the VCD's sm0.issue.w3_pc), mask bit i = lane i.
//   <first>[-<last>] sm<S> s<sched> stall <reason>
//       cycles in which that scheduler issued nothing; consecutive cycles
//       with the same reason are one line. Reasons: idle (no warp),
//       memory (every waiting warp waits for a load), scoreboard,
//       pipe-busy (the pipe's issue latch is full), barrier, ibuffer-empty,
//       not-picked (a warp was ready but the policy held it back).
// Lines of one scheduler are in cycle order; schedulers and SMs interleave.
//
// Filter SPEC: comma-separated key=value items; a bare value adds to the
// previous key. Keys: warps=N|N-M, sm=N|N-M, cycles=START:END (END may be
// empty). Example: "warps=0-3,8,sm=0,cycles=1000:2000". Warp filters apply
// to issue lines; sm and cycle filters to every line.
//
// The IssueUnit gets a pointer to the sink at construction (null = off) and
// calls it only when it is set, so a run without the option does no string
// work. Output is buffered and flushed by flush() (after every launch) and
// when the sink is destroyed; write errors are reported, never ignored.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace simt::trace {

struct WarpTraceFilter {
  std::vector<std::pair<uint64_t, uint64_t>> warps, sms;  // inclusive ranges; empty = all
  uint64_t first_cycle = 0, last_cycle = UINT64_MAX;

  // Throws simt::input_error naming --trace-filter on bad text.
  static WarpTraceFilter parse(const std::string& spec);
  bool wants_sm(uint64_t sm) const { return in(sms, sm); }
  bool wants_warp(uint64_t w) const { return in(warps, w); }
  bool wants_cycle(uint64_t c) const { return c >= first_cycle && c <= last_cycle; }

 private:
  static bool in(const std::vector<std::pair<uint64_t, uint64_t>>& r, uint64_t v) {
    if (r.empty()) return true;
    for (const auto& x : r)
      if (v >= x.first && v <= x.second) return true;
    return false;
  }
};

enum class StallReason : uint8_t { Idle, Memory, Scoreboard, PipeBusy, Barrier, IbufferEmpty, NotPicked };
const char* stall_reason_name(StallReason r);

class WarpTrace {
 public:
  // Opens `path` for writing (throws simt::input_error if it cannot);
  // messages name `shown_as` (the final name when `path` is a temporary).
  // A write error throws simt::output_error (from issue(), stall(), flush()).
  WarpTrace(const std::string& path, const WarpTraceFilter& filter, const std::string& shown_as = "");
  ~WarpTrace();
  WarpTrace(const WarpTrace&) = delete;
  WarpTrace& operator=(const WarpTrace&) = delete;

  const WarpTraceFilter& filter() const { return filter_; }

  // Registers an SM's schedulers (call once per SM at construction).
  void add_sm(uint32_t sm, uint32_t schedulers);
  // One issued instruction (written if the filter wants it; it ends the
  // scheduler's stall run either way).
  void issue(uint64_t cycle, uint32_t sm, uint32_t sched, uint32_t warp, uint32_t pc, uint64_t mask,
             const std::string& text);
  // Scheduler `sched` issued nothing in cycles [first, last].
  void stall(uint32_t sm, uint32_t sched, uint64_t first, uint64_t last, StallReason why);
  // Writes pending stall runs and the buffer to the file.
  void flush();
  uint64_t issue_lines() const { return issue_lines_; }

 private:
  struct Run {
    bool open = false;
    StallReason why = StallReason::Idle;
    uint64_t first = 0, last = 0;
  };
  Run& run_of(uint32_t sm, uint32_t sched);
  void end_run(uint32_t sm, uint32_t sched, Run& r);
  void put(const char* s, size_t n);
  void write_out();
  [[noreturn]] void fail();

  WarpTraceFilter filter_;
  std::string shown_as_;
  std::FILE* file_ = nullptr;
  bool failed_ = false;  // reported once; later writes are dropped
  std::string buf_;
  std::vector<std::vector<Run>> runs_;  // [sm][sched]
  uint64_t issue_lines_ = 0;
};

}  // namespace simt::trace
