// Issue 35 item 1: nanosleep suspends the warp for the requested time at
// the SM's clock (sm.clock_mhz), at most 1 ms, in every core that runs the
// SIMT issue stage; %globaltimer and %clock64 advance with simulated time.
// tests/e2e/data/sleep_wait.ptx: 31 warps spin on a shared flag with a
// nanosleep back-off while the last warp works and then sets it. Without
// the suspension, the greedy (GTO) scheduler of the default machine picks
// the older spinning warps every cycle and the worker never runs (the run
// stops at --max-warp-instructions).
#define BOOST_TEST_MODULE nanosleep
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using namespace simt;

namespace {

SIMT_TEST_SCRATCH("simtlab_nanosleep");

constexpr uint32_t kThreads = 1024;

// The manifest with `backoff` ns of nanosleep, in its own folder.
fs::path manifest(const std::string& tag, uint32_t backoff) {
  const fs::path dir = scratch() / tag;
  fs::create_directories(dir);
  fs::copy_file(SIMT_SOURCE_DIR "/tests/e2e/data/sleep_wait.ptx", dir / "sleep_wait.ptx",
                fs::copy_options::overwrite_existing);
  std::ifstream in(SIMT_SOURCE_DIR "/tests/e2e/data/sleep_wait.json");
  nlohmann::json m = nlohmann::json::parse(in);
  m["launches"][0]["args"][3] = {{"u32", backoff}};
  std::ofstream(dir / "m.json") << m.dump();
  return dir;
}

struct Result {
  test::StatsRun run;
  std::vector<uint32_t> out;
};

// One run; the limit stops a starved worker in about a second.
Result run(const std::string& tag, uint32_t backoff, const std::string& extra) {
  const fs::path dir = manifest(tag, backoff);
  Result r;
  r.run = test::run_with_stats("--manifest " + (dir / "m.json").string() + " --out-dir " + (dir / "result").string() +
                                   " --max-warp-instructions 2000000 --quiet " + extra,
                               dir, "stats");
  r.out = test::read_words(dir / "result" / "out.bin");
  return r;
}

void check_finished(const Result& r) {
  BOOST_TEST_REQUIRE(r.run.proc.code == 0, r.run.cmd << "\n" << r.run.proc.err);
  BOOST_TEST(test::mismatches(r.out, kThreads, [](uint32_t i) { return i + 1; }).empty());
}

}  // namespace

BOOST_AUTO_TEST_CASE(spin_wait_with_backoff_finishes_on_the_default_machine) {
  const Result r = run("default", 1000, "");
  check_finished(r);
  // One 1000 ns nanosleep at 1400 MHz: 1400 cycles asleep, read on both clocks
  // (plus the few cycles the timer reads themselves take).
  BOOST_TEST(r.out[kThreads] >= 1000u);
  BOOST_TEST(r.out[kThreads] < 1500u);
  BOOST_TEST(r.out[kThreads + 1] >= 1400u);
  BOOST_TEST(r.out[kThreads + 1] < 2100u);
  BOOST_TEST(test::counter_sum(r.run.stats, ".sleep_warp_cycles") >= 31u * 1400u);
}

BOOST_AUTO_TEST_CASE(a_zero_backoff_starves_the_worker) {
  // The same loop without a back-off: the direction the sleep is for. The
  // worker never runs, so the run stops as a runaway (the spin watch or
  // the instruction limit, whichever comes first).
  const Result r = run("zero", 0, "");
  BOOST_TEST(r.run.proc.code == 3);
  BOOST_TEST(r.run.proc.err.find("runaway kernel") != std::string::npos, r.run.proc.err);
}

BOOST_AUTO_TEST_CASE(the_sleep_follows_the_machine_clock) {
  // Fermi counts cycles at 700 MHz: the same 1000 ns are 700 cycles.
  const Result r = run("fermi", 1000, "--config " SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml");
  check_finished(r);
  BOOST_TEST(r.out[kThreads] >= 1000u);
  BOOST_TEST(r.out[kThreads + 1] >= 700u);
  BOOST_TEST(r.out[kThreads + 1] < 1400u);
}

BOOST_AUTO_TEST_CASE(a_sleep_is_bounded_at_one_millisecond_and_does_not_trip_the_watchdog) {
  // 0xffffffff ns asks for 4.3 s; PTX bounds a nanosleep at 1 ms, which at
  // 1400 MHz is 1.4 M cycles: longer than the 1 M-cycle deadlock watchdog,
  // which must not mistake sleeping warps for a deadlock.
  const Result r = run("long", 0xffffffffu, "");
  check_finished(r);
  BOOST_TEST(r.out[kThreads] >= 1000000u);
  BOOST_TEST(r.out[kThreads] < 1001000u);
}

BOOST_AUTO_TEST_CASE(slices_mode_sleeps_too) {
  // The VWS SM (slices of 4 lanes, I-VWS ganging): 8 slice warps per PTX warp.
  const Result r = run("ivws", 1000, "--config " SIMT_SOURCE_DIR "/configs/i-vws.toml");
  check_finished(r);
  BOOST_TEST(r.out[kThreads + 1] >= 1400u);
  BOOST_TEST(test::counter_sum(r.run.stats, ".sleep_warp_cycles") > 0u);
}

BOOST_AUTO_TEST_CASE(functional_mode_finishes_without_time) {
  const Result r = run("functional", 1000, "--mode functional");
  check_finished(r);
  BOOST_TEST(r.out[kThreads] == 0u);  // no simulated time passes there
}

BOOST_AUTO_TEST_CASE(the_vgiw_core_refuses_it_by_name) {
  // VGIW's basic-block scheduler has no sleeping thread: it would starve the
  // worker, so the kernel is refused at load rather than left to spin.
  const Result r = run("vgiw", 1000,
                       "--config " SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml --config " SIMT_SOURCE_DIR
                       "/configs/vgiw.toml");
  BOOST_TEST(r.run.proc.code == 2);
  BOOST_TEST(r.run.proc.err.find("nanosleep is not modelled on the grid") != std::string::npos, r.run.proc.err);
}
