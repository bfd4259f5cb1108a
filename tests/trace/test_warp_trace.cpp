#define BOOST_TEST_MODULE warp_trace
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "trace/progress.h"
#include "trace/warp_trace.h"
#include "util/error.h"

using namespace simt::trace;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
fs::path tmp(const std::string& n) { return fs::temp_directory_path() / (n + std::to_string(::getpid())); }
}  // namespace

BOOST_AUTO_TEST_CASE(filter_syntax) {
  WarpTraceFilter f = WarpTraceFilter::parse("warps=0-3,8,sm=1,cycles=1000:2000");
  BOOST_TEST(f.wants_warp(0));
  BOOST_TEST(f.wants_warp(3));
  BOOST_TEST(!f.wants_warp(4));
  BOOST_TEST(f.wants_warp(8));
  BOOST_TEST(!f.wants_sm(0));
  BOOST_TEST(f.wants_sm(1));
  BOOST_TEST(!f.wants_cycle(999));
  BOOST_TEST(f.wants_cycle(2000));
  BOOST_TEST(!f.wants_cycle(2001));
  WarpTraceFilter all = WarpTraceFilter::parse("");
  BOOST_TEST(all.wants_warp(63));
  BOOST_TEST(all.wants_cycle(UINT64_MAX));
  WarpTraceFilter open_end = WarpTraceFilter::parse("cycles=5:");
  BOOST_TEST(!open_end.wants_cycle(4));
  BOOST_TEST(open_end.wants_cycle(1u << 30));
  for (const char* bad : {"warps=3-1", "color=red", "7", "cycles=9:1", "warps=x", "cycles=5"})
    BOOST_CHECK_THROW(WarpTraceFilter::parse(bad), simt::Error);
}

BOOST_AUTO_TEST_CASE(stall_runs_merge_and_clip_to_the_window) {
  const fs::path p = tmp("simtlab_wt_");
  {
    WarpTrace t(p.string(), WarpTraceFilter::parse("warps=1,cycles=10:30"));
    t.add_sm(0, 2);
    t.stall(0, 0, 5, 12, StallReason::Memory);  // merges with the next: 5..14, clipped to 10..14
    t.stall(0, 0, 13, 14, StallReason::Memory);
    t.stall(0, 0, 15, 15, StallReason::Scoreboard);
    t.issue(16, 0, 0, 1, 7, 0xff, "add.s32 %r1, %r2, %r3;");
    t.issue(17, 0, 1, 2, 7, 0xff, "filtered out");  // warp 2 not wanted
    t.stall(0, 1, 40, 50, StallReason::Idle);        // outside the window
    t.issue(18, 0, 0, 1, 8, 0x1, "bra.uni L;");
    BOOST_TEST(t.issue_lines() == 2u);
  }
  const std::string text = slurp(p);
  BOOST_TEST(text.find("10-14 sm0 s0 stall memory\n") != std::string::npos, text);
  BOOST_TEST(text.find("15 sm0 s0 stall scoreboard\n") != std::string::npos, text);
  BOOST_TEST(text.find("16 sm0 s0 w1 pc=7 mask=ff add.s32 %r1, %r2, %r3;\n") != std::string::npos, text);
  BOOST_TEST(text.find("18 sm0 s0 w1 pc=8 mask=1 bra.uni L;\n") != std::string::npos, text);
  BOOST_TEST(text.find("filtered") == std::string::npos);
  BOOST_TEST(text.find("idle") == std::string::npos);
  fs::remove(p);
}

BOOST_AUTO_TEST_CASE(progress_lines) {
  const fs::path p = tmp("simtlab_progress_");
  std::FILE* f = std::fopen(p.c_str(), "w");
  {
    Progress off(false, 0.0, f);
    BOOST_TEST(!off.due());
    Progress on(true, 0.0, f);  // period 0: always due
    BOOST_TEST(on.due());
    on.report(3, 10, 65536, 1000);
    on.report(4, 10, 0, 2000);  // functional mode: no cycles
    BOOST_TEST(on.lines() == 2u);
    Progress slow(true, 3600.0, f);
    BOOST_TEST(!slow.due());
  }
  std::fclose(f);
  const std::string text = slurp(p);
  BOOST_TEST(text.find("progress: CTAs 3/10 (30%), ETA ") != std::string::npos, text);
  BOOST_TEST(text.find(", cycle 65536, ") != std::string::npos, text);
  BOOST_TEST(text.find("cycles/s") != std::string::npos, text);
  BOOST_TEST(text.find("progress: CTAs 4/10 (40%), ") != std::string::npos, text);
  fs::remove(p);
}

BOOST_AUTO_TEST_CASE(progress_shows_launch_percent_and_eta) {
  Progress p(true, 0.0, stderr);
  // Before any launch: no launch number; nothing done yet: no estimate.
  BOOST_TEST(p.line(0, 8, 0, 0, 1e6, 0, 0) == "CTAs 0/8 (0%), 1e+06 thread instructions/s");
  p.begin_launch("k1");
  // A quarter done in 10 s: 30 s left of this launch; the number of launches
  // is unknown, so the line says the estimate covers this launch only.
  BOOST_TEST(p.line(2, 8, 500, 50, 1e6, 10, 10) ==
             "launch 1 (k1), CTAs 2/8 (25%), ETA 30 s for this launch, cycle 500, 50 cycles/s, "
             "1e+06 thread instructions/s");
  // A workload says 4 launches follow: they count from 1 again (the device ran k1 before).
  // Launch 2 of 4, half done, 90 s into the run: 1.5 of 4 launches in 90 s, 150 s left for the run.
  p.set_launch_count(4);
  p.begin_launch("k2");
  p.begin_launch("k3");
  BOOST_TEST(p.line(4, 8, 0, 0, 2e6, 30, 90) ==
             "launch 2/4 (k3), CTAs 4/8 (50%), ETA 2 min 30 s, 2e+06 thread instructions/s");
  // Launch 3 of 4 not yet past its first CTA, 120 s in: the run is half done, 120 s left.
  p.begin_launch("k4");
  BOOST_TEST(p.line(0, 8, 0, 0, 2e6, 0, 120) ==
             "launch 3/4 (k4), CTAs 0/8 (0%), ETA 2 min 0 s, 2e+06 thread instructions/s");
  // More launches than announced: no total, and the ETA is the launch's own again.
  for (const char* k : {"k5", "k6"}) p.begin_launch(k);
  BOOST_TEST(p.line(4, 8, 0, 0, 2e6, 30, 90) ==
             "launch 5 (k6), CTAs 4/8 (50%), ETA 30 s for this launch, 2e+06 thread instructions/s");
  // Long estimates are in hours and minutes.
  Progress q(true, 0.0, stderr);
  q.begin_launch("k");
  BOOST_TEST(q.line(1, 100, 0, 0, 1, 100, 100).find("ETA 2 h 45 min") != std::string::npos);
}
