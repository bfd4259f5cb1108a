// For end-to-end tests of lane power gating: the run report's power section
// accounts for every lane of every controller, every cycle, per pipeline type.
#pragma once

#include <cstdint>
#include <string>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

namespace simt::test {

// `lanes`: the gated lanes of the whole machine (SMs x SP lanes, or the VGIW
// grid's FP-ALUs); the per-state lane-cycles add up to lanes x cycles.
inline void check_lane_cycles(const nlohmann::json& r, uint64_t lanes, const std::string& what) {
  BOOST_TEST_REQUIRE(r.contains("power"), what);
  auto u = [](const nlohmann::json& j) { return j.get<uint64_t>(); };
  for (const char* type : {"int", "fp"}) {
    const nlohmann::json& t = r["power"][type];
    BOOST_TEST(u(t["lane_cycles"]) == lanes * u(r["cycles"]), what << " " << type);
    const uint64_t sum = u(t["busy_cycles"]) + u(t["idle_cycles"]) + u(t["gated_uncompensated_cycles"]) +
                         u(t["gated_compensated_cycles"]) + u(t["waking_cycles"]);
    BOOST_TEST(sum == u(t["lane_cycles"]), what << " " << type);
  }
}

}  // namespace simt::test
