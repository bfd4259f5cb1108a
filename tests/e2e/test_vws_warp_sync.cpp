// Warp-synchronous PTX keeps its 32-thread meaning on seed 000's VWS SM
// (issue 12 item 9): in tests/e2e/data/split_shuffle.ptx each 32-thread warp
// diverges by lane bit 2, so on the VWS SM its gang splits into the even and
// the odd slices' warps, which leave their loops at different times; the
// shfl.sync and vote.sync after the join must still see all 32 lanes. The
// split warps meet there (sm0.ganging.meets), on every VWS machine, and the
// output equals the SIMT SM's and the functional run's.
// Also: a CTA starts only when the gang table has a set for each of its
// original gangs (tests/e2e/data/early_exit_cta.ptx, ISPASS NN's 169-thread
// CTAs at 4-wide warps).
#define BOOST_TEST_MODULE vws_warp_sync
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

SIMT_TEST_SCRATCH("simtlab_vws_warp_sync");

constexpr uint32_t kCtas = 4, kThreads = 64;
const std::string kConfigs = SIMT_SOURCE_DIR "/configs";
const std::string kData = SIMT_SOURCE_DIR "/tests/e2e/data/";

// split_shuffle, thread by thread.
std::vector<uint32_t> shuffled() {
  std::vector<uint32_t> v(kCtas * kThreads), out(v.size());
  for (uint32_t c = 0; c < kCtas; ++c)
    for (uint32_t t = 0; t < kThreads; ++t) {
      uint32_t a = 0;
      const bool long_side = (t & 4) != 0;
      for (uint32_t i = 0; i < (long_side ? 40u : 5u); ++i) a = long_side ? a * 5 + c : a * 3 + t;
      v[c * kThreads + t] = a;
    }
  for (uint32_t g = 0; g < v.size(); g += 32) {  // shfl.bfly 4, then 16, then the ballot, per 32 lanes
    uint32_t x[32], y[32], ballot = 0;
    for (uint32_t l = 0; l < 32; ++l) x[l] = v[g + l] + v[g + (l ^ 4)];
    for (uint32_t l = 0; l < 32; ++l) y[l] = x[l] + x[l ^ 16];
    for (uint32_t l = 0; l < 32; ++l) ballot |= (y[l] & 1) << l;
    for (uint32_t l = 0; l < 32; ++l) out[g + l] = y[l] ^ ballot;
  }
  return out;
}

// early_exit_cta: its first 12 threads store their global index, the rest
// 40 steps of a = 3a + tid.
std::vector<uint32_t> early_exits() {
  constexpr uint32_t kEarlyCtas = 24, kEarlyThreads = 169;
  std::vector<uint32_t> v(kEarlyCtas * kEarlyThreads);
  for (uint32_t g = 0; g < v.size(); ++g) {
    const uint32_t t = g % kEarlyThreads;
    uint32_t a = 0;
    for (uint32_t i = 0; i < 40; ++i) a = a * 3 + t;
    v[g] = t < 12 ? g : a;
  }
  return v;
}

nlohmann::json run(const std::string& tag, const std::string& machine, const std::string& kernel = "split_shuffle") {
  const fs::path out = scratch() / tag;
  const simt::test::StatsRun r =
      run_with_stats("--quiet " + machine + " --set sm.watchdog_cycles=100000 --manifest " + kData + kernel + ".json" +
                         " --out-dir " + out.string(),
                     scratch(), tag);
  BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.err);
  const std::vector<uint32_t> want = kernel == "split_shuffle" ? shuffled() : early_exits();
  const std::vector<uint32_t> got = simt::test::read_words(out / "out.bin");
  BOOST_TEST_REQUIRE(got.size() == want.size());
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) bad += got[i] != want[i];
  BOOST_TEST(bad == 0u, tag << ": " << bad << " wrong words");
  return r.stats;
}

std::string vws(const std::string& overlay) {
  return "--config " + kConfigs + "/vws-baseline.toml --config " + kConfigs + "/" + overlay + ".toml";
}

}  // namespace

BOOST_AUTO_TEST_CASE(functional_and_simt_sm_agree_with_the_reference) {
  run("functional", "--mode functional");
  run("ws32", vws("ws32"));
}

BOOST_AUTO_TEST_CASE(split_gangs_meet_at_shuffles_and_votes) {
  for (const char* m : {"i-vws", "e-vws", "e-vws-impatientmem", "i-vws-lgto"}) {
    const nlohmann::json s = run(m, vws(m));
    BOOST_TEST(counter_sum(s, "ganging.control_splits") > 0u, m << ": the gangs must split");
    // Three warp-synchronous instructions, each a meet of the two halves of
    // each of the 8 original gangs (unless a reform joined them first).
    BOOST_TEST(counter_sum(s, "ganging.meets") > 0u, m);
  }
}

BOOST_AUTO_TEST_CASE(narrow_warps_without_ganging_meet_too) {
  for (const char* m : {"ws4", "ws8", "ws16"}) {
    const nlohmann::json s = run(m, vws(m));
    BOOST_TEST(counter_sum(s, "ganging.meets") >= 3u * kCtas * kThreads / 32, m << ": one meet per instruction and warp");
  }
}

BOOST_AUTO_TEST_CASE(ctas_wait_for_a_gang_table_set_per_original_gang) {
  for (const char* m : {"ws4", "i-vws", "e-vws"}) {
    const nlohmann::json s = run(std::string("early-") + m, vws(m), "early_exit_cta");
    BOOST_TEST(s["counters"]["sm0.ctas_launched"].get<uint64_t>() == 24u, m);
  }
}
