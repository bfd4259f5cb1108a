// Lane power gating end to end on configs/fermi-gtx480.toml (issue 13):
//  - gating changes timing, never results: every overlay leaves the memory
//    of the functional run;
//  - the ideal oracle (seed 003) never changes timing; conventional gating
//    delays issues on wake-ups and shows them;
//  - the report's lane-cycles add up (every lane of every SM, every cycle)
//    and its net saving is gated - events x BET;
//  - a longer BET lowers the savings monotonically, at the same timing;
//  - a machine without gating carries no power counters at all;
//  - issue control moves threads, never results: every overlay of seeds 003
//    and 004 leaves the functional run's memory;
//  - seed 003's direction: compaction keeps the timing and saves at least as
//    much as no issue control, splitting saves more than compaction on a
//    divergent kernel and more again with both ("mix"); splitting (two
//    issues per warp) slows a kernel that keeps its schedulers busy, hardly
//    an idle one; adaptive splitting splits less than static splitting
//    there and still saves more than no issue control;
//  - warp folding saves more INT leakage than conventional gating; on
//    hotspot (enough warps to hide the 2 extra stages) Origami saves more
//    than conventional gating at < 2% slowdown, and Warped-Gates is slower;
//  - the VCD shows each lane going through ON, IDLE-DETECT, GATED (both
//    kinds) and WAKING, and recording it changes no statistic.
#define BOOST_TEST_MODULE power_gating
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "common/power_report_checks.h"
#include "common/sanitized.h"
#include "common/simtlab_stats.h"

using simt::test::require_stats;

namespace {

SIMT_TEST_SCRATCH("simtlab_power_gating");

nlohmann::json run(const std::string& workload, const std::string& overlay, const std::string& extra = "",
                   const std::string& tag = "") {
  return require_stats("--workload " + workload + " --config " SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml --config " +
                           SIMT_SOURCE_DIR "/configs/" + overlay + ".toml " + extra,
                       scratch(), workload + "_" + overlay + tag);
}

uint64_t u(const nlohmann::json& j) { return j.get<uint64_t>(); }

// The report's power section is consistent with the machine and itself.
void check_power_section(const nlohmann::json& r, const std::string& what) {
  simt::test::check_lane_cycles(r, 15 * 2 * 32, what);  // SMs x SP units x lanes
  for (const char* type : {"int", "fp"}) {
    const nlohmann::json& t = r["power"][type];
    const int64_t gated = static_cast<int64_t>(u(t["gated_uncompensated_cycles"]) + u(t["gated_compensated_cycles"]));
    const int64_t bet = static_cast<int64_t>(u(r["config"]["power.bet"]));
    BOOST_TEST(t["net_saved_cycles"].get<int64_t>() == gated - static_cast<int64_t>(u(t["gating_events"])) * bet);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(gating_changes_timing_never_results) {
  const char* workloads[] = {"bfs", "blackscholes", "matmul"};
  const char* overlays[] = {"warped-gates", "tic-compaction", "tic-splitting", "tic-mix", "tic-adaptive", "folding"};
  for (size_t wi = 0; wi < std::size(workloads); ++wi) {
    const char* w = workloads[wi];
    const nlohmann::json f = require_stats(std::string("--workload ") + w + " --mode functional", scratch(),
                                           std::string(w) + "_functional");
    const nlohmann::json none = run(w, "pg-none");
    const nlohmann::json ideal = run(w, "pg-ideal");
    const nlohmann::json conv = run(w, "pg-conventional");
    for (const auto* r : {&none, &ideal, &conv}) BOOST_TEST((*r)["memory_checksum"] == f["memory_checksum"], w);
    // Under the sanitizers (tests/common/sanitized.h) each workload takes two
    // of the six schedulers, every scheduler one workload.
    for (size_t oi = 0; oi < std::size(overlays); ++oi)
      if (!simt::test::sanitized() || oi % std::size(workloads) == wi)
        BOOST_TEST(run(w, overlays[oi])["memory_checksum"] == f["memory_checksum"], w << " under " << overlays[oi]);
    BOOST_TEST(!none.contains("power"), w << ": no controllers without gating");
    for (const auto& [k, v] : none["counters"].items()) BOOST_TEST(k.find(".power.") == std::string::npos, k);
    check_power_section(ideal, std::string(w) + " ideal");
    check_power_section(conv, std::string(w) + " conventional");
    // The oracle never delays anything.
    BOOST_TEST(u(ideal["cycles"]) == u(none["cycles"]), w);
    BOOST_TEST(u(ideal["power"]["wakeup_stall_cycles"]) == 0u, w);
    BOOST_TEST(u(ideal["power"]["int"]["delayed_issues"]) == 0u, w);
    // Conventional gating wakes lanes for issues, and the issues wait.
    BOOST_TEST(u(conv["power"]["int"]["delayed_issues"]) > 0u, w);
    BOOST_TEST(u(conv["power"]["wakeup_stall_cycles"]) > 0u, w);
    BOOST_TEST(u(conv["power"]["int"]["waking_cycles"]) > 0u, w);
    BOOST_TEST(conv["power"]["int"]["net_saving_share"].get<double>() > 0.0, w);
    BOOST_TEST(conv["power"]["int"]["net_saving_share"].get<double>() < 1.0, w);
  }
}

BOOST_AUTO_TEST_CASE(fp_lanes_of_an_integer_kernel_sleep_almost_always) {
  // reduction sums ints: its FP pipelines never run, so they gate once and stay gated.
  const nlohmann::json r = run("reduction", "pg-conventional");
  const nlohmann::json& fp = r["power"]["fp"];
  BOOST_TEST(u(fp["busy_cycles"]) == 0u);
  BOOST_TEST(u(fp["gating_events"]) == 15u * 64u);
  BOOST_TEST(fp["net_saving_share"].get<double>() > 0.9);
}

BOOST_AUTO_TEST_CASE(longer_bet_lowers_savings_at_the_same_timing) {
  for (const char* overlay : {"pg-ideal", "pg-conventional"}) {
    double last = 2.0;
    uint64_t cycles = 0;
    for (uint32_t bet : {14u, 50u, 100u, 200u}) {
      const nlohmann::json r =
          run("bfs", overlay, "--set power.bet=" + std::to_string(bet), "_bet" + std::to_string(bet));
      const double share = r["power"]["int"]["net_saving_share"].get<double>();
      BOOST_TEST(share < last, overlay << " BET " << bet);
      last = share;
      if (!cycles) cycles = u(r["cycles"]);
      BOOST_TEST(u(r["cycles"]) == cycles, overlay << ": BET only prices gatings (no blackout)");
    }
  }
}

BOOST_AUTO_TEST_CASE(blackout_and_unit_domains_cost_more_time) {
  const nlohmann::json lane = run("bfs", "pg-conventional");
  const nlohmann::json blackout = run("bfs", "pg-conventional", "--set power.blackout=true", "_blackout");
  const nlohmann::json unit = run("bfs", "pg-conventional", "--set power.domain=unit", "_unit");
  check_power_section(blackout, "blackout");
  check_power_section(unit, "unit");
  BOOST_TEST(u(blackout["cycles"]) >= u(lane["cycles"]));
  // Blackout never gates for less than BET: no gating ends with a loss.
  BOOST_TEST(blackout["power"]["int"]["net_saved_cycles"].get<int64_t>() >= 0);
  // A whole unit gates only when all its lanes idle: less of the lanes' time gated.
  BOOST_TEST(unit["power"]["int"]["gated_share"].get<double>() < lane["power"]["int"]["gated_share"].get<double>());
}

BOOST_AUTO_TEST_CASE(vcd_shows_every_lane_state) {
  const std::string vcd = (scratch() / "lanes.vcd").string();
  const nlohmann::json plain = run("saxpy", "pg-conventional", "", "_plain");
  const nlohmann::json traced =
      run("saxpy", "pg-conventional", "--vcd " + vcd + " --vcd-signals 'sm0.power.sp0.int.lane*' --vcd-window 0:3000",
          "_vcd");
  BOOST_TEST(u(traced["cycles"]) == u(plain["cycles"]));
  BOOST_TEST(traced["counters"] == plain["counters"]);
  // Identifier -> lane signal, then every value each one takes.
  std::ifstream in(vcd);
  BOOST_TEST_REQUIRE(in.good(), vcd);
  std::map<std::string, std::string> lane_of;
  std::map<std::string, std::set<int>> seen;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string a, b, c, d, e;
    ls >> a >> b >> c >> d >> e;
    if (a == "$var" && e.find("_state") != std::string::npos) lane_of[d] = e;
    if (!a.empty() && a[0] == 'b' && lane_of.count(b)) seen[b].insert(std::stoi(a.substr(1), nullptr, 2));
  }
  BOOST_TEST(lane_of.size() == 32u);
  std::set<int> all;
  for (const auto& [id, values] : seen) all.insert(values.begin(), values.end());
  BOOST_TEST((all == std::set<int>{0, 1, 2, 3, 4}), "states seen: " << all.size());
}

namespace {
double int_saving(const nlohmann::json& r) { return r["power"]["int"]["net_saving_share"].get<double>(); }
}  // namespace

BOOST_AUTO_TEST_CASE(seed_003_thread_issue_control_directions) {
  // bfs: divergent, and its SP units are mostly idle.
  const nlohmann::json normal = run("bfs", "pg-ideal");
  const nlohmann::json comp = run("bfs", "tic-compaction");
  const nlohmann::json split = run("bfs", "tic-splitting");
  const nlohmann::json mix = run("bfs", "tic-mix");
  BOOST_TEST(u(comp["cycles"]) == u(normal["cycles"]), "compaction never changes timing");
  BOOST_TEST(int_saving(comp) > int_saving(normal));
  BOOST_TEST(int_saving(split) > int_saving(comp));
  BOOST_TEST(int_saving(mix) >= int_saving(split));
  BOOST_TEST(u(split["cycles"]) < 1.05 * u(normal["cycles"]), "splitting an idle kernel costs little time");
  BOOST_TEST(u(comp["counters"]["sm0.sp.issue_control.compacted_instructions"]) > 0u);
  // blackscholes: its schedulers issue often; a split warp takes two issue slots.
  const nlohmann::json busy = run("blackscholes", "pg-ideal");
  const nlohmann::json busy_split = run("blackscholes", "tic-splitting");
  const nlohmann::json busy_adaptive = run("blackscholes", "tic-adaptive");
  BOOST_TEST(u(busy_split["cycles"]) > u(busy["cycles"]));
  const char* split_count = "sm0.sp.issue_control.split_instructions";
  BOOST_TEST(u(busy_adaptive["counters"][split_count]) < u(busy_split["counters"][split_count]));
  BOOST_TEST(u(busy_adaptive["counters"][split_count]) > 0u);
  BOOST_TEST(int_saving(busy_adaptive) > int_saving(busy));
}

BOOST_AUTO_TEST_CASE(seed_004_folding_saves_more_than_conventional_gating) {
  for (const char* w : {"blackscholes", "hotspot"}) {
    const nlohmann::json conv = run(w, "pg-conventional");
    const nlohmann::json fold = run(w, "folding");
    BOOST_TEST(int_saving(fold) > int_saving(conv), w);
    BOOST_TEST(u(fold["counters"]["sm0.sp.issue_control.int_folded"]) > 0u, w);
  }
}

BOOST_AUTO_TEST_CASE(seed_004_origami_against_conventional_gating_and_warped_gates) {
  const nlohmann::json none = run("hotspot", "pg-none");
  const nlohmann::json conv = run("hotspot", "pg-conventional");
  const nlohmann::json origami = run("hotspot", "origami");
  const nlohmann::json gates = run("hotspot", "warped-gates");
  BOOST_TEST(int_saving(origami) > int_saving(conv));
  BOOST_TEST(u(origami["cycles"]) < 1.02 * u(none["cycles"]));
  BOOST_TEST(u(gates["cycles"]) > u(origami["cycles"]));
  BOOST_TEST(origami["memory_checksum"] == none["memory_checksum"]);
}

BOOST_AUTO_TEST_CASE(energy_section_on_every_timing_run) {
  const nlohmann::json none = run("hotspot", "pg-none");
  const nlohmann::json origami = run("hotspot", "origami");
  for (const auto* r : {&none, &origami}) {
    const nlohmann::json& e = (*r)["energy"];
    BOOST_TEST(e["dynamic_total"].get<double>() > 0.0);
    BOOST_TEST(e["total"].get<double>() == e["dynamic_total"].get<double>() + e["leakage_total"].get<double>() +
                                              e["gating_overhead_total"].get<double>(),
               boost::test_tools::tolerance(1e-9));
  }
  // Without controllers every lane leaks every cycle: 15 SMs x 64 lanes.
  BOOST_TEST(none["energy"]["leakage"]["int_lanes"].get<double>() ==
                 15.0 * 64.0 * static_cast<double>(u(none["cycles"])) * 0.05,
             boost::test_tools::tolerance(1e-9));
  // Origami's lanes leak less, gating overhead included.
  const auto lanes = [](const nlohmann::json& r) {
    const nlohmann::json& e = r["energy"];
    return e["leakage"]["int_lanes"].get<double>() + e["leakage"]["fp_lanes"].get<double>() +
           e["gating_overhead_total"].get<double>();
  };
  BOOST_TEST(lanes(origami) < 0.8 * lanes(none));
  // A functional run has no timing, so no energy.
  const nlohmann::json f = require_stats("--workload hotspot --mode functional", scratch(), "hotspot_functional_energy");
  BOOST_TEST(!f.contains("energy"));
}

BOOST_AUTO_TEST_CASE(per_lane_gated_cycle_series_of_sm0) {
  const nlohmann::json r = run("hotspot", "origami");
  const nlohmann::json& series = r["series"];
  uint32_t lanes = 0;
  for (const auto& [name, v] : series.items())
    if (name.find(".lane") != std::string::npos) {
      BOOST_TEST(name.rfind("sm0.power.sp", 0) == 0u, name << ": only SM 0 keeps lane series");
      ++lanes;
    }
  BOOST_TEST(lanes == 2u * 2u * 32u);  // units x types x lanes
  // Each interval holds at most its length; the full intervals hold at most the lane's total.
  const nlohmann::json& s = series["sm0.power.sp0.int.lane31_gated"];
  const uint64_t interval = s["interval"].get<uint64_t>();
  double sum = 0;
  for (const auto& v : s["values"]) {
    BOOST_TEST(v.get<double>() <= static_cast<double>(interval));
    sum += v.get<double>();
  }
  const nlohmann::json& h = r["histograms"];
  const double total = static_cast<double>(h["sm0.power.sp0.int.gated_uncompensated_cycles_by_lane"]["bins"][31].get<uint64_t>() +
                                           h["sm0.power.sp0.int.gated_compensated_cycles_by_lane"]["bins"][31].get<uint64_t>());
  BOOST_TEST(sum <= total);
  BOOST_TEST(sum > 0.5 * total);
}
