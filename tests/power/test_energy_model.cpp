// The energy model on hand-made counters: each component is its count times
// its energy; lanes leak every cycle without gating and a documented share
// while gated; each gating costs BET cycles of a lane's leakage.
#define BOOST_TEST_MODULE energy_model
#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include "power/energy_model.h"
#include "stats/stats.h"

using namespace simt;

namespace {
// A registry holding `c`'s counters, as a run leaves them.
void fill(stats::Registry& reg, const nlohmann::json& c) {
  for (const auto& [name, v] : c.items()) reg.counter(name).value = v.get<uint64_t>();
}
nlohmann::json counters() {
  return {{"sm0.fetch.fetches", 10},  {"sm1.fetch.fetches", 5},   {"sm0.gang0.fetch.fetches", 1},
          {"sm0.decode.decoded", 15}, {"sm0.l1i.accesses", 4},    {"sm0.rf_reads", 100},
          {"sm0.rf_writes", 40},      {"sm0.int_thread_instructions", 64}, {"sm0.fp_thread_instructions", 32},
          {"sm0.sfu_thread_instructions", 8}, {"sm0.shmem.words", 16}, {"sm0.l1d.accesses", 3},
          {"l2.0.accesses", 2},       {"l2.5.accesses", 1},       {"dram.bytes", 256}};
}
nlohmann::json machine() { return {{"gpu.num_sms", 2}, {"sp.lanes", 32}, {"sp.units", 2}, {"power.bet", 14}}; }
}  // namespace

BOOST_AUTO_TEST_CASE(dynamic_energy_is_count_times_price) {
  stats::Registry reg;
  fill(reg, counters());
  const nlohmann::json r = power::energy_report(reg, machine(), 100);
  const nlohmann::json& d = r["dynamic"];
  BOOST_TEST(d["fetch"].get<double>() == 16.0 * 1.0);  // every SM and front end
  BOOST_TEST(d["decode"].get<double>() == 15.0);
  BOOST_TEST(d["icache"].get<double>() == 4.0 * 20.0);
  BOOST_TEST(d["register_file"].get<double>() == 100.0 * 5.0 + 40.0 * 5.0);
  BOOST_TEST(d["int"].get<double>() == 64.0 * 0.1, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(d["fp"].get<double>() == 32.0 * 4.6, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(d["sfu"].get<double>() == 8.0 * 18.4, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(d["shared_memory"].get<double>() == 160.0);
  BOOST_TEST(d["l1d"].get<double>() == 960.0);
  BOOST_TEST(d["l2"].get<double>() == 3.0 * 1600.0);
  BOOST_TEST(d["dram"].get<double>() == 256.0 * 250.0);
  double sum = 0;
  for (const auto& [k, v] : d.items()) sum += v.get<double>();
  BOOST_TEST(r["dynamic_total"].get<double>() == sum, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(r["total"].get<double>() ==
                 sum + r["leakage_total"].get<double>() + r["gating_overhead_total"].get<double>(),
             boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(lanes_leak_every_cycle_without_gating) {
  stats::Registry reg;
  fill(reg, counters());
  const nlohmann::json r = power::energy_report(reg, machine(), 100);
  // 2 SMs x 64 lanes x 100 cycles.
  BOOST_TEST(r["leakage"]["int_lanes"].get<double>() == 12800.0 * 0.05, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(r["leakage"]["fp_lanes"].get<double>() == 12800.0 * 2.3, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(r["gating_overhead_total"].get<double>() == 0.0);
}

BOOST_AUTO_TEST_CASE(gated_lanes_leak_a_share_and_gatings_cost_bet) {
  nlohmann::json c = counters();
  c["sm0.power.int.lane_cycles"] = 1000;
  c["sm0.power.int.gated_uncompensated_cycles"] = 100;
  c["sm0.power.int.gated_compensated_cycles"] = 300;
  c["sm0.power.int.gating_events"] = 5;
  c["sm0.power.fp.lane_cycles"] = 1000;
  nlohmann::json cfg = machine();
  cfg["energy.gated_leak_share"] = 0.1;
  stats::Registry reg;
  fill(reg, c);
  const nlohmann::json r = power::energy_report(reg, cfg, 100);
  BOOST_TEST(r["leakage"]["int_lanes"].get<double>() == (600.0 + 400.0 * 0.1) * 0.05, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(r["leakage"]["fp_lanes"].get<double>() == 1000.0 * 2.3, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(r["gating_overhead"]["int"].get<double>() == 5.0 * 14.0 * 0.05, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(configured_prices_are_used) {
  nlohmann::json cfg = machine();
  cfg["energy.dram_byte"] = 1.0;
  cfg["energy.sm_leakage"] = 2.0;
  stats::Registry reg;
  fill(reg, counters());
  const nlohmann::json r = power::energy_report(reg, cfg, 100);
  BOOST_TEST(r["dynamic"]["dram"].get<double>() == 256.0);
  BOOST_TEST(r["leakage"]["sm_other"].get<double>() == 2.0 * 2.0 * 100.0);
  power::EnergyParams p;
  p.gated_leak_share = 1.5;
  BOOST_CHECK_THROW(p.validate(), std::exception);
}

BOOST_AUTO_TEST_CASE(edp_is_total_times_cycles) {
  stats::Registry reg;
  fill(reg, counters());
  const nlohmann::json r = power::energy_report(reg, machine(), 100);
  BOOST_TEST(r["edp"].get<double>() == r["total"].get<double>() * 100.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(!r.contains("saved"));  // only the VWS SM reports what ganging saved
}

BOOST_AUTO_TEST_CASE(vws_reports_the_slice_front_ends_ganging_switched_off) {
  nlohmann::json c = counters();
  c["sm0.group_issues"] = 10;           // 10 gang issues
  c["sm0.group_warp_instructions"] = 70;  // of 70 member warp instructions: 60 fetched by no slice
  nlohmann::json cfg = machine();
  cfg["gpu.core"] = "vws";
  stats::Registry reg;
  fill(reg, c);
  const nlohmann::json r = power::energy_report(reg, cfg, 100);
  BOOST_TEST(r["saved"]["slice_front_end_instructions"].get<double>() == 60.0);
  BOOST_TEST(r["saved"]["slice_front_ends"].get<double>() == 60.0 * (1.0 + 1.0 + 20.0));
  // Already absent from the dynamic energy: the total does not count it.
  double sum = 0;
  for (const auto& [k, v] : r["dynamic"].items()) sum += v.get<double>();
  BOOST_TEST(r["total"].get<double>() == sum + r["leakage_total"].get<double>() + r["gating_overhead_total"].get<double>(),
             boost::test_tools::tolerance(1e-9));
}
