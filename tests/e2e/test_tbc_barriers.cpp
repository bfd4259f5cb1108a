// CTA barriers under TBC's block-wide stack (issue 11, item 5). A bar.sync
// without a thread count inside a divergent branch waits for the threads of
// the executing stack entry. When it sits just before the join, the last
// warp's arrival also completes the entry: the barrier must be judged
// against that entry (64 threads), not against the merged entry the stack
// pops to (128), or the two warps stay blocked in slots the compactor
// refills, and the CTA deadlocks at the next sync point. The kernel
// (tests/e2e/data/divergent_barrier.ptx) exchanges values through shared
// memory across both barriers, so a barrier released early or late shows
// in its output too.
#define BOOST_TEST_MODULE tbc_barriers
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"
#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using simt::test::counter_sum;
using simt::test::run_with_stats;

namespace {

SIMT_TEST_SCRATCH("simtlab_tbc_barriers");

constexpr uint32_t kCtas = 8, kThreads = 128;

const std::string kConfigs = SIMT_SOURCE_DIR "/configs";
const std::string kManifest = SIMT_SOURCE_DIR "/tests/e2e/data/divergent_barrier.json";

// out[c * 128 + t] = c * 1000 + (127 - t), plus t's neighbour's value from
// the first exchange ((t ^ 1) + 1) for the 64 threads that took the branch.
uint32_t expected(uint32_t i) {
  const uint32_t c = i / kThreads, t = i % kThreads;
  return c * 1000 + (kThreads - 1 - t) + (t < 64 ? (t ^ 1) + 1 : 0);
}

void check_setup(const std::string& tag, const std::string& machine) {
  const fs::path out = scratch() / tag;
  const simt::test::StatsRun r = run_with_stats(
      "--quiet " + machine + " --set sm.watchdog_cycles=100000 --manifest " + kManifest + " --out-dir " + out.string(),
      scratch(), tag);
  BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.err);
  const std::vector<uint32_t> v = simt::test::read_words(out / "out.bin");
  const std::vector<uint32_t> bad = simt::test::mismatches(v, kCtas * kThreads, expected);
  BOOST_TEST(bad.empty(), tag << ": " << bad.size() << " wrong words, the first at out["
                              << (bad.empty() ? 0 : bad[0]) << "]");
  // Per CTA: the two warps of the branch wait at the first barrier (the
  // last one's arrival completes it, but it counts as a wait as every
  // arriving warp does), all four at the second.
  BOOST_TEST(counter_sum(r.stats, ".barrier_waits") == kCtas * 6u, tag);
}

}  // namespace

BOOST_AUTO_TEST_CASE(count_less_barrier_before_a_join_releases_on_the_entrys_threads) {
  const std::string base = "--config " + kConfigs + "/tbc-baseline.toml --config " + kConfigs;
  check_setup("tbc", base + "/tbc.toml");
  check_setup("tbc_lcp", base + "/tbc-lcp.toml");
  check_setup("tbc_static", base + "/tbc-lcp.toml --set tbc.compaction=false");
  check_setup("tbc_paper", base + "/tbc-lcp.toml --config " + kConfigs + "/tbc-paper.toml");
}
