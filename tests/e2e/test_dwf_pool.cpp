// DWF's warp pool with more warp slots than static warps (dwf.extra_slots,
// issue 11 item 4), on nqueens at small size: 64-thread CTAs, so two static
// warps per CTA, and DWF forms many more warps than that at its divergent
// branches. With no extra slots the formed warps wait in the overflow list
// for one of the CTA's two slots; with extra slots they issue, so the SM
// has more warps to hide latency with. Results stay verified, and DWF's
// pathologies (seed 001 §2.3) still show against PDOM: lower SIMD
// efficiency and more warp instructions for the same work. The SM-wide
// pool (dwf.pool = sm) fills warps with threads of other CTAs and keeps the
// pathologies too.
#define BOOST_TEST_MODULE dwf_pool
#include <boost/test/unit_test.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"

using simt::test::counter_sum;
using simt::test::run_with_stats;
using simt::test::StatsRun;

namespace {

SIMT_TEST_SCRATCH("simtlab_dwf_pool");

const std::string kConfigs = SIMT_SOURCE_DIR "/configs";

nlohmann::json run(const std::string& scheme, const std::string& extra, const std::string& tag) {
  const StatsRun r = run_with_stats("--quiet --workload nqueens --size small --config " + kConfigs +
                                        "/tbc-baseline.toml --config " + kConfigs + "/" + scheme + ".toml " + extra,
                                    scratch(), tag);
  BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.err);
  BOOST_TEST(r.stats["verified"].get<bool>(), r.cmd);
  return r.stats;
}

double resident_warps(const nlohmann::json& s) { return s["derived"]["mean_resident_warps"].get<double>(); }
uint64_t cycles(const nlohmann::json& s) { return s["cycles"].get<uint64_t>(); }
double simd(const nlohmann::json& s) { return s["simd_efficiency"].get<double>(); }
uint64_t warp_instr(const nlohmann::json& s) { return s["warp_instructions"].get<uint64_t>(); }

}  // namespace

BOOST_AUTO_TEST_CASE(extra_slots_let_formed_warps_issue_instead_of_waiting) {
  const nlohmann::json pdom = run("pdom", "", "pdom");
  const nlohmann::json dwf = run("dwf", "--set sm.max_warps=64", "dwf");
  const nlohmann::json pool = run("dwf", "--set sm.max_warps=64 --set dwf.extra_slots=8", "dwf_pool");
  BOOST_TEST(pool["memory_checksum"] == dwf["memory_checksum"]);

  // Each resident CTA holds 2 + 8 slots (mostly one CTA per SM at this size).
  BOOST_TEST(resident_warps(dwf) < 2.5);
  BOOST_TEST(resident_warps(pool) > 4 * resident_warps(dwf));
  // Formed warps wait for a slot far less often, and the kernel runs faster.
  BOOST_TEST(counter_sum(pool, ".dwf_overflow_events") * 2 < counter_sum(dwf, ".dwf_overflow_events"));
  BOOST_TEST(cycles(pool) < cycles(dwf));

  // Fewer threads regroup when the formed warps run ahead of each other:
  // DWF's SIMD efficiency stays below PDOM's, and it issues more warp
  // instructions, with or without the extra slots.
  for (const nlohmann::json* d : {&dwf, &pool}) {
    BOOST_TEST(simd(*d) < simd(pdom));
    BOOST_TEST(warp_instr(*d) > warp_instr(pdom));
  }
  BOOST_TEST(simd(pool) <= simd(dwf));
}

BOOST_AUTO_TEST_CASE(extra_slots_never_exceed_the_sms_warp_slots) {
  // 2 static warps + 100 extra on a 32-slot SM: the CTA takes all 32.
  const nlohmann::json s = run("dwf", "--set dwf.extra_slots=100", "clamped");
  BOOST_TEST(resident_warps(s) <= 32.0);
  BOOST_TEST(resident_warps(s) > 16.0);
}

// dwf.pool = sm on two SMs, so each holds three nqueens CTAs whose threads
// merge: warps fill up far better than in per-CTA pools, but the pathologies
// of seed 001 §2.3 stay against PDOM: lower SIMD efficiency (starvation
// eddies), more warp instructions, more memory pipeline stalls (regrouped
// threads coalesce worse), and more cycles.
BOOST_AUTO_TEST_CASE(sm_pool_fills_warps_but_keeps_dwfs_pathologies_on_nqueens) {
  const std::string two_sms = "--set gpu.num_sms=2";
  const nlohmann::json pdom = run("pdom", two_sms, "pdom_2sm");
  const nlohmann::json cta = run("dwf", two_sms, "dwf_cta_2sm");
  const nlohmann::json sm = run("dwf", two_sms + " --config " + kConfigs + "/dwf-sm-pool.toml", "dwf_sm_2sm");
  BOOST_TEST(sm["memory_checksum"] == pdom["memory_checksum"]);
  BOOST_TEST(counter_sum(sm, ".dwf_cross_cta_merges") > 0u);
  BOOST_TEST(simd(sm) > simd(cta) + 0.05);
  BOOST_TEST(warp_instr(sm) < warp_instr(cta));
  BOOST_TEST(simd(sm) < simd(pdom));
  BOOST_TEST(warp_instr(sm) > warp_instr(pdom));
  BOOST_TEST(sm["memory_pipeline_stalls"].get<uint64_t>() > 2 * pdom["memory_pipeline_stalls"].get<uint64_t>());
  BOOST_TEST(cycles(sm) > cycles(pdom));
}
