// Issue 38 items 2 and 3: lane power gating on the VWS SM's slices and on
// the VGIW grid's FP-ALUs, on the default machine (configs/vws-baseline.toml):
//  - gating and issue control change timing, never results: I-VWS and VGIW
//    under every power overlay they take leave the functional run's memory;
//  - the report's lane-cycles add up: every lane of every slice (VWS: 32), or
//    every FP-ALU (VGIW), every cycle, per pipeline type;
//  - seed 003's oracle never changes timing, on either core;
//  - a slice-wide domain (power.domain = unit) gates less of the lanes' time
//    than per-lane domains;
//  - VWS's energy section reports the slice front ends ganging switched off,
//    and nothing for the same SM without ganging (WS4);
//  - VGIW refuses issue control, naming both overlays and the options.
#define BOOST_TEST_MODULE combined_gating
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/power_report_checks.h"
#include "common/sanitized.h"
#include "common/simtlab_stats.h"

using simt::test::check_lane_cycles;
using simt::test::require_stats;

namespace {

SIMT_TEST_SCRATCH("simtlab_combined_gating");

std::string cfg(const std::string& name) { return " --config " SIMT_SOURCE_DIR "/configs/" + name + ".toml"; }

nlohmann::json run(const std::string& workload, const std::string& configs, const std::string& tag) {
  return require_stats("--workload " + workload + configs, scratch(), workload + "_" + tag);
}

uint64_t u(const nlohmann::json& j) { return j.get<uint64_t>(); }

// Few and small: this suite also runs under the sanitizers (CI), where the
// loops take saxpy alone (bfs still runs there in the per-slice case).
std::vector<std::string> workloads() {
  if (simt::test::sanitized()) return {"saxpy"};
  return {"bfs", "saxpy"};
}

}  // namespace

BOOST_AUTO_TEST_CASE(vws_under_power_overlays_equals_functional) {
  for (const std::string& w : workloads()) {
    const nlohmann::json f = run(w, " --mode functional", "functional");
    for (const char* o : {"pg-conventional", "pg-ideal", "warped-gates", "tic-mix", "tic-adaptive", "origami"}) {
      const nlohmann::json t = run(w, cfg("i-vws") + cfg(o), std::string("ivws_") + o);
      BOOST_TEST(t["memory_checksum"] == f["memory_checksum"], w << " under i-vws + " << o);
      check_lane_cycles(t, 32, std::string(w) + " i-vws + " + o);
    }
  }
}

BOOST_AUTO_TEST_CASE(vws_slices_gate_per_lane_or_per_slice) {
  const nlohmann::json plain = run("bfs", cfg("i-vws"), "ivws");
  const nlohmann::json ideal = run("bfs", cfg("i-vws") + cfg("pg-ideal"), "ivws_ideal");
  BOOST_TEST(u(ideal["cycles"]) == u(plain["cycles"]));  // the oracle never delays
  const nlohmann::json lane = run("bfs", cfg("i-vws") + cfg("pg-conventional"), "ivws_lane");
  const nlohmann::json slice =
      run("bfs", cfg("i-vws") + cfg("pg-conventional") + " --set power.domain=unit", "ivws_slice");
  BOOST_TEST(lane["power"]["int"]["gated_share"].get<double>() > 0.0);
  BOOST_TEST(slice["power"]["int"]["gated_share"].get<double>() < lane["power"]["int"]["gated_share"].get<double>());
  // One controller per slice: 8 slices of 4 lanes on SM 0.
  BOOST_TEST(u(lane["counters"]["sm0.power.slice7.int.lane_cycles"]) == 4 * u(lane["cycles"]));
  // Gated energy: less lane leakage than ungated.
  BOOST_TEST(lane["energy"]["leakage"]["int_lanes"].get<double>() < plain["energy"]["leakage"]["int_lanes"].get<double>());
}

BOOST_AUTO_TEST_CASE(vws_energy_counts_the_front_ends_ganging_switches_off) {
  const nlohmann::json ganged = run("saxpy", cfg("i-vws"), "ivws_energy");
  const nlohmann::json ws4 = run("saxpy", cfg("ws4"), "ws4_energy");
  const nlohmann::json& s = ganged["energy"]["saved"];
  BOOST_TEST(s["slice_front_end_instructions"].get<double>() > 0.0);
  BOOST_TEST(s["slice_front_ends"].get<double>() == s["slice_front_end_instructions"].get<double>() * (1 + 1 + 20));
  BOOST_TEST(ws4["energy"]["saved"]["slice_front_ends"].get<double>() == 0.0);
}

BOOST_AUTO_TEST_CASE(vgiw_fp_alus_gate) {
  for (const std::string& w : workloads()) {
    const nlohmann::json f = run(w, " --mode functional", "functional_v");
    const nlohmann::json plain = run(w, cfg("vgiw"), "vgiw");
    const nlohmann::json ideal = run(w, cfg("vgiw") + cfg("pg-ideal"), "vgiw_ideal");
    const nlohmann::json conv = run(w, cfg("vgiw") + cfg("pg-conventional"), "vgiw_conv");
    BOOST_TEST(ideal["memory_checksum"] == f["memory_checksum"], w);
    BOOST_TEST(conv["memory_checksum"] == f["memory_checksum"], w);
    BOOST_TEST(u(ideal["cycles"]) == u(plain["cycles"]), w << ": the oracle never delays");
    const uint64_t alus = u(plain["config"]["vgiw.units.fp_alu"]);
    check_lane_cycles(ideal, alus, std::string(w) + " vgiw + pg-ideal");
    check_lane_cycles(conv, alus, std::string(w) + " vgiw + pg-conventional");
    BOOST_TEST(u(conv["power"]["int"]["gating_events"]) > 0u, w);
    BOOST_TEST(conv["power"].contains("grid_wakeup_stall_cycles"), w);
    BOOST_TEST(u(conv["cycles"]) >= u(plain["cycles"]), w);
  }
}

BOOST_AUTO_TEST_CASE(vgiw_refuses_issue_control_naming_both_overlays) {
  const simt::test::StatsRun r = simt::test::run_with_stats("--workload saxpy" + cfg("vgiw") + cfg("tic-mix"),
                                                            scratch(), "vgiw_tic");
  BOOST_TEST(r.proc.code == 2);
  BOOST_TEST(r.proc.err.find("vgiw.toml") != std::string::npos, r.proc.err);
  BOOST_TEST(r.proc.err.find("tic-mix.toml") != std::string::npos, r.proc.err);
  BOOST_TEST(r.proc.err.find("power.compaction") != std::string::npos, r.proc.err);
}
