// DWF's SM-wide warp pool (dwf.pool = sm, issue 11 item 4): threads of every
// CTA of a kernel on the SM merge, as in Fung et al.'s warp pool. The kernel
// (tests/e2e/data/mirrored_divergence.ptx) diverges so that each CTA's sides
// are half warps on the same lanes, mirrored in odd CTAs: a per-CTA pool can
// only run half-empty warps, the SM pool fills them with another CTA's
// threads. Both pools must give the same, correct output (shared memory and
// the barrier stay per CTA while warps mix CTAs), and only the SM pool packs
// the loops into full warps.
#define BOOST_TEST_MODULE dwf_sm_pool
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

SIMT_TEST_SCRATCH("simtlab_dwf_sm_pool");

constexpr uint32_t kCtas = 8, kThreads = 64;

const std::string kConfigs = SIMT_SOURCE_DIR "/configs";
const std::string kManifest = SIMT_SOURCE_DIR "/tests/e2e/data/mirrored_divergence.json";

// The kernel's accumulator: side A loops 20 times acc = acc * 5 + ctaid,
// side B 12 times acc = acc * 3 + tid (u32 arithmetic).
uint32_t acc(uint32_t c, uint32_t t) {
  const bool side_a = ((t & 16) ^ ((c & 1) << 4)) == 0;
  uint32_t a = 0;
  for (uint32_t i = 0; i < (side_a ? 20u : 12u); ++i) a = side_a ? a * 5 + c : a * 3 + t;
  return a;
}

uint32_t expected(uint32_t i) {
  const uint32_t c = i / kThreads, t = i % kThreads;
  return acc(c, t) + acc(c, t ^ 63);
}

// One SM holds all 8 CTAs, so the SM pool has partners to merge.
nlohmann::json run(const std::string& tag, const std::string& extra) {
  const fs::path out = scratch() / tag;
  const simt::test::StatsRun r = run_with_stats(
      "--quiet --config " + kConfigs + "/tbc-baseline.toml --config " + kConfigs +
          "/dwf.toml --set gpu.num_sms=1 --set sm.watchdog_cycles=100000 " + extra + " --manifest " + kManifest +
          " --out-dir " + out.string(),
      scratch(), tag);
  BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.err);
  const std::vector<uint32_t> v = simt::test::read_words(out / "out.bin");
  const std::vector<uint32_t> bad = simt::test::mismatches(v, kCtas * kThreads, expected);
  BOOST_TEST(bad.empty(), tag << ": " << bad.size() << " wrong words, the first at out["
                              << (bad.empty() ? 0 : bad[0]) << "]");
  return r.stats;
}

uint64_t warp_instr(const nlohmann::json& s) { return s["warp_instructions"].get<uint64_t>(); }
double simd(const nlohmann::json& s) { return s["simd_efficiency"].get<double>(); }

}  // namespace

BOOST_AUTO_TEST_CASE(sm_pool_merges_threads_of_different_ctas) {
  const nlohmann::json cta = run("cta", "--set dwf.pool=cta");
  const nlohmann::json sm = run("sm", "--set dwf.pool=sm");
  BOOST_TEST(cta["thread_instructions"] == sm["thread_instructions"]);
  // Per CTA, each side's loop runs in half warps; across CTAs in whole ones.
  BOOST_TEST(counter_sum(sm, ".dwf_cross_cta_merges") > 0u);
  BOOST_TEST(warp_instr(sm) * 10 < warp_instr(cta) * 7);
  BOOST_TEST(simd(sm) > simd(cta) + 0.2);
  // Threads still meet their own CTA at the barrier: 2 static warps per CTA wait.
  BOOST_TEST(counter_sum(sm, ".barrier_waits") == kCtas * 2u);
}

BOOST_AUTO_TEST_CASE(sm_pool_keeps_dwf_wb_and_extra_slots_correct) {
  run("sm_wb", "--set dwf.pool=sm --set dwf.warp_barrier=true");
  run("sm_extra", "--set dwf.pool=sm --set dwf.extra_slots=4 --set sm.max_warps=64");
  run("sm_one_scheduler", "--set dwf.pool=sm --set sm.schedulers=1 --set sm.max_ctas=3");
}
