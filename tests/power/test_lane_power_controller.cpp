// The lane power controller of one SP unit, driven through its socket as the
// SP pipe drives it: TryUse records passes on ON lanes, refuses while lanes
// are gated; Wake starts the wake-up of every domain the passes need and
// holds the others ON; domains of one, four or all lanes gate together; the
// counters after settle_stats add up to lanes x cycles.
#define BOOST_TEST_MODULE lane_power_controller
#include <boost/test/unit_test.hpp>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "power/lane_power_controller.h"
#include "stats/stats.h"

using namespace simt;

namespace {

struct Driver : sc_core::sc_module {
  util::PacketInitiator<Driver, sm::LaneUseRequest> out;
  explicit Driver(sc_core::sc_module_name n) : sc_core::sc_module(n), out("out") {}
  // Passes of 16 lanes, ii 1, latency 5.
  sm::LaneUseRequest send(sm::LaneUseRequest::Kind kind, uint64_t now, std::vector<uint64_t> passes, bool fp = false,
                          uint32_t latency = 5) {
    lanes_ = std::move(passes);
    sm::LaneUseRequest r;
    r.kind = kind;
    r.fp = fp;
    r.now = now;
    r.pass_lanes = lanes_.data();
    r.passes = static_cast<uint32_t>(lanes_.size());
    r.ii = 1;
    r.latency = latency;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(r, t);
    return r;
  }
  std::vector<uint64_t> lanes_;
};

power::PowerParams conventional(const std::string& domain) {
  power::PowerParams p;
  p.gating = "conventional";
  p.domain = domain;
  return p;
}

// One netlist per test process: SystemC elaborates once.
struct Bench {
  stats::Registry reg;
  power::LanePowerController lane_ctl{"lanes", conventional("lane"), 16, reg, "sm0.power.sp0", "sm0.power"};
  power::LanePowerController cluster_ctl{"clusters", conventional("cluster"), 16, reg, "sm0.power.sp1", "sm0.power"};
  Driver to_lanes{"to_lanes"}, to_clusters{"to_clusters"};
  Bench() {
    to_lanes.out.bind(lane_ctl.in);
    to_clusters.out.bind(cluster_ctl.in);
  }
};
Bench& bench() {
  static Bench b;
  return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(lanes_and_clusters) {
  Bench& b = bench();
  using K = sm::LaneUseRequest::Kind;
  // Cycle 0: every lane was idle since 0 and gates at 5; a use at 0 is fine.
  auto r = b.to_lanes.send(K::TryUse, 0, {0x00ff, 0x00ff});  // lanes 0-7, two passes
  BOOST_TEST(r.accepted);
  BOOST_TEST(b.lane_ctl.state(false, 3, 3) == power::LaneState::On);  // passes at 0 and 1, drain at 6
  BOOST_TEST(b.lane_ctl.state(false, 3, 6) == power::LaneState::IdleDetect);
  BOOST_TEST(b.lane_ctl.state(false, 8, 6) == power::LaneState::GatedUncompensated);  // never used: gated at 5
  BOOST_TEST(b.lane_ctl.state(true, 3, 3) == power::LaneState::IdleDetect);  // the FP pipelines saw nothing

  // Cycle 20: lanes 0-3 and 12 wanted; all gated (0-3 since 11, 12 since 5).
  r = b.to_lanes.send(K::TryUse, 20, {0x100f});
  BOOST_TEST(!r.accepted);
  BOOST_TEST(r.ready_at > 20u);  // refused: a lower bound only
  BOOST_TEST(r.until_woken);     // gated: only a Wake changes the answer
  BOOST_TEST(!r.changed);
  r = b.to_lanes.send(K::Wake, 20, {0x100f});
  BOOST_TEST(r.ready_at == 23u);
  BOOST_TEST(r.changed);
  BOOST_TEST(b.lane_ctl.state(false, 12, 21) == power::LaneState::Waking);
  BOOST_TEST(b.lane_ctl.state(false, 13, 21) == power::LaneState::GatedCompensated);  // not asked for
  r = b.to_lanes.send(K::Wake, 21, {0x100f});  // asked again while waking: same answer, nothing changes
  BOOST_TEST(r.ready_at == 23u);
  BOOST_TEST(!r.changed);
  r = b.to_lanes.send(K::TryUse, 22, {0x100f});
  BOOST_TEST(!r.accepted);
  BOOST_TEST(!r.until_woken);  // waking: time alone turns them ON
  r = b.to_lanes.send(K::TryUse, 23, {0x100f});
  BOOST_TEST(r.accepted);
  BOOST_TEST(r.changed);

  // Clusters: lane 1 in use keeps lanes 0-3 ON; lanes 4-15 gate as three clusters.
  r = b.to_clusters.send(K::TryUse, 0, {0x0002});
  BOOST_TEST(r.accepted);
  for (uint32_t l = 0; l < 4; ++l) BOOST_TEST(b.cluster_ctl.state(false, l, 2) == power::LaneState::On);
  BOOST_TEST(b.cluster_ctl.state(false, 4, 6) == power::LaneState::GatedUncompensated);
  // Lane 5 wanted at 30: cluster 1 wakes; cluster 0 (ON? it gated at 10) too? No: only lane 5's cluster.
  r = b.to_clusters.send(K::Wake, 30, {0x0020});
  BOOST_TEST(r.ready_at == 33u);
  BOOST_TEST(b.cluster_ctl.state(false, 7, 31) == power::LaneState::Waking);
  BOOST_TEST(b.cluster_ctl.state(false, 0, 31) == power::LaneState::GatedCompensated);

  b.lane_ctl.settle_stats(40);
  b.cluster_ctl.settle_stats(40);
  const uint64_t lane_cycles = b.reg.value("sm0.power.sp0.int.lane_cycles");
  BOOST_TEST(lane_cycles == 16u * 40u);
  BOOST_TEST(b.reg.value("sm0.power.sp0.fp.lane_cycles") == 16u * 40u);
  // SM sums: both units.
  BOOST_TEST(b.reg.value("sm0.power.int.lane_cycles") == 2u * 16u * 40u);
  BOOST_TEST(b.reg.value("sm0.power.sp0.int.delayed_issues") == 5u);  // lanes 0-3 and 12 woke once
  BOOST_TEST(b.reg.value("sm0.power.sp1.int.delayed_issues") == 4u);  // cluster 1: its 4 lanes
  BOOST_TEST(b.reg.value("sm0.power.sp1.int.waking_cycles") == 4u * 3u);
  // Per-lane histogram: lane 12 woke and was used; lane 13 was gated all along but the first 5 cycles.
  stats::Histogram& h = b.reg.histogram("sm0.power.sp0.int.gated_compensated_cycles_by_lane", 0, 1, 16);
  BOOST_TEST(h.bins[13] == 40u - 5u - 14u);
  // Settling twice with the same cycle changes nothing; later cycles only add.
  b.lane_ctl.settle_stats(40);
  BOOST_TEST(b.reg.value("sm0.power.int.lane_cycles") == 2u * 16u * 40u);
  b.lane_ctl.settle_stats(50);
  BOOST_TEST(b.reg.value("sm0.power.int.lane_cycles") == 16u * 40u + 16u * 50u);
  const uint64_t sum = b.reg.value("sm0.power.sp0.int.busy_cycles") + b.reg.value("sm0.power.sp0.int.idle_cycles") +
                       b.reg.value("sm0.power.sp0.int.gated_uncompensated_cycles") +
                       b.reg.value("sm0.power.sp0.int.gated_compensated_cycles") +
                       b.reg.value("sm0.power.sp0.int.waking_cycles");
  BOOST_TEST(sum == 16u * 50u);
}

BOOST_AUTO_TEST_CASE(bad_parameters_name_the_option) {
  power::PowerParams p;
  p.gating = "sometimes";
  BOOST_CHECK_EXCEPTION(p.validate(), std::exception,
                        [](const std::exception& e) { return std::string(e.what()).find("power.gating") != std::string::npos; });
  p.gating = "ideal";
  p.blackout = true;
  BOOST_CHECK_EXCEPTION(p.validate(), std::exception,
                        [](const std::exception& e) { return std::string(e.what()).find("power.blackout") != std::string::npos; });
  power::PowerParams u;
  u.domain = "unit";
  BOOST_TEST(u.domain_lanes(16) == 16u);
  u.domain = "cluster";
  BOOST_TEST(u.domain_lanes(16) == 4u);
}
