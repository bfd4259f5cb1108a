// --vcd without --vcd-window records the whole run: the watch estimates the
// final size from the file so far and the share of the run done, and warns
// once (on the progress stream, also with progress lines off) when it heads
// past the threshold.
#define BOOST_TEST_MODULE vcd_size_watch
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "trace/progress.h"
#include "trace/vcd_size_watch.h"

using namespace simt::trace;
namespace fs = std::filesystem;

namespace {

fs::path tmp(const std::string& n) { return fs::temp_directory_path() / (n + std::to_string(::getpid())); }

void write_bytes(const fs::path& p, size_t n) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << std::string(n, 'x');
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_CASE(estimate_from_the_share_of_the_run_done) {
  // Nothing done yet: no estimate.
  BOOST_TEST(!estimate_vcd_size(1000, 0, 0.0, 1, 4).known);
  // Launch 2 of 4, half done: 1.5 / 4 of the run wrote 3 MB, 8 MB in all.
  VcdEstimate e = estimate_vcd_size(3000000, 2000000, 0.5, 2, 4);
  BOOST_TEST(e.known);
  BOOST_TEST(!e.lower_bound);
  BOOST_TEST(e.bytes == 8e6);
  // Launch count unknown: earlier launches' 2 MB plus this launch's 1 MB / 0.25, at least.
  e = estimate_vcd_size(3000000, 2000000, 0.25, 3, 0);
  BOOST_TEST(e.known);
  BOOST_TEST(e.lower_bound);
  BOOST_TEST(e.bytes == 6e6);
  // More launches than announced: the same lower bound.
  BOOST_TEST(estimate_vcd_size(3000000, 2000000, 0.25, 5, 4).lower_bound);
}

BOOST_AUTO_TEST_CASE(warns_once_with_the_estimate_and_the_way_out) {
  const fs::path vcd = tmp("simtlab_watch_vcd_"), log = tmp("simtlab_watch_log_");
  write_bytes(vcd, 2000);
  std::FILE* out = std::fopen(log.c_str(), "w");
  {
    VcdSizeWatch w(vcd.string(), 10000, out);
    w.begin_launch();
    // 2 kB after a tenth of launch 1 of 1: 20 kB expected, past the threshold.
    BOOST_TEST(!w.check(0.0, 1, 1, 100));  // no CTA done: nothing to go on, still small
    BOOST_TEST(w.check(0.1, 1, 1, 20));
    BOOST_TEST(w.done());
    BOOST_TEST(w.check(0.2, 1, 1, 9000));  // once only
    // A small run stays silent.
    VcdSizeWatch quiet(vcd.string(), 10000, out);
    BOOST_TEST(!quiet.check(0.5, 1, 1, 100));
    // A device or FIFO cannot be measured: silent.
    VcdSizeWatch dev("/dev/null", 0, out);
    BOOST_TEST(dev.check(0.5, 1, 1, 100));
  }
  std::fclose(out);
  const std::string text = slurp(log);
  BOOST_TEST(count(text, "simtlab: warning: ") == 1, text);
  BOOST_TEST(text.find("after 20 cycles the file holds 2 kB (about 100 bytes per cycle); an estimate from the "
                       "share of the run done (launch 1 of 1, 10% of its CTAs) puts the whole run at about 20 kB. ") !=
                 std::string::npos,
             text);
  BOOST_TEST(text.find("--vcd-window START:END") != std::string::npos, text);
  fs::remove(vcd);
  fs::remove(log);
}

BOOST_AUTO_TEST_CASE(unknown_launch_count_gives_a_lower_bound_and_a_full_file_warns_anyway) {
  VcdEstimate e = estimate_vcd_size(3000000000ull, 1000000000ull, 0.5, 2, 0);
  std::string text = VcdSizeWatch::warning(3000000000ull, 123, e);
  BOOST_TEST(text.find("an estimate from launch 2 so far (50% of its CTAs), the number of launches not being known "
                       "in advance, puts the whole run at 5.0 GB or more") != std::string::npos,
             text);
  // Past the threshold already, before any CTA finished: the size so far, no projection.
  const fs::path vcd = tmp("simtlab_watch_full_"), log = tmp("simtlab_watch_full_log_");
  write_bytes(vcd, 5000);
  std::FILE* out = std::fopen(log.c_str(), "w");
  {
    VcdSizeWatch w(vcd.string(), 4000, out);
    BOOST_TEST(w.check(0.0, 1, 0, 77));
  }
  std::fclose(out);
  text = slurp(log);
  BOOST_TEST(text.find("after 77 cycles the file holds 5 kB (about 65 bytes per cycle). Recording also slows") !=
                 std::string::npos,
             text);
  fs::remove(vcd);
  fs::remove(log);
}

BOOST_AUTO_TEST_CASE(progress_drives_the_watch_even_without_progress_lines) {
  const fs::path vcd = tmp("simtlab_watch_progress_"), log = tmp("simtlab_watch_progress_log_");
  write_bytes(vcd, 3000);
  std::FILE* out = std::fopen(log.c_str(), "w");
  {
    Progress p(false, 2.0, out);  // --quiet: no lines
    BOOST_TEST(!p.enabled());
    p.set_launch_count(3);
    p.watch_waveform(vcd.string(), 10000, 0.0);
    BOOST_TEST(p.enabled());  // the owner must keep calling due()/report()
    p.begin_launch("k");
    BOOST_TEST(p.due());
    p.report(1, 4, 1000, 0);  // a quarter of launch 1 of 3: 3 kB x 12 = 36 kB
    BOOST_TEST(p.lines() == 0u);
    BOOST_TEST(!p.enabled());  // warned: the watch is gone
  }
  std::fclose(out);
  const std::string text = slurp(log);
  BOOST_TEST(count(text, "simtlab: warning: ") == 1, text);
  BOOST_TEST(text.find("(launch 1 of 3, 25% of its CTAs; later launches taken to cost what the earlier ones did) "
                       "puts the whole run at about 36 kB, more if later launches do more work") != std::string::npos,
             text);
  BOOST_TEST(text.find("progress:") == std::string::npos, text);
  fs::remove(vcd);
  fs::remove(log);
}
