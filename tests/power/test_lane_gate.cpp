// The lane gate FSM against hand-computed cycle counts: conventional gating
// (idle detect 5, BET 14, wake-up 3 unless a case says otherwise), a request
// before BET (a net loss), blackout, eager gating, holds while other domains
// wake, and seed 003's ideal oracle.
#define BOOST_TEST_MODULE lane_gate
#include <boost/test/unit_test.hpp>

#include "power/lane_gate.h"

using namespace simt::power;

namespace {

GateTiming conventional() {
  GateTiming t;
  t.mode = Gating::Conventional;
  t.idle_detect = 5;
  t.bet = 14;
  t.wakeup = 3;
  return t;
}

void check_sum(const LaneGate& g, uint64_t now) {
  BOOST_TEST(g.totals(now).cycles() == now, "every cycle of [0, " << now << ") is in exactly one state");
}

}  // namespace

BOOST_AUTO_TEST_CASE(conventional_gates_after_idle_detect_and_wakes_with_delay) {
  LaneGate g(conventional());
  g.use(0, 5);  // busy [0, 5)
  BOOST_TEST(g.state(4) == LaneState::On);
  BOOST_TEST(g.state(5) == LaneState::IdleDetect);
  BOOST_TEST(g.state(9) == LaneState::IdleDetect);
  BOOST_TEST(g.ready_at(9) == 9u);
  BOOST_TEST(g.state(10) == LaneState::GatedUncompensated);  // gated from 5 + 5
  BOOST_TEST(g.state(23) == LaneState::GatedUncompensated);  // 10 + 13
  BOOST_TEST(g.state(24) == LaneState::GatedCompensated);    // 10 + 14
  BOOST_TEST(g.ready_at(30) == 33u);
  BOOST_TEST(g.wake(30) == 33u);
  BOOST_TEST(g.state(31) == LaneState::Waking);
  BOOST_TEST(g.ready_at(31) == 33u);  // asking again while waking changes nothing
  BOOST_TEST(g.wake(31) == 33u);
  const GateTotals t = g.totals(33);
  BOOST_TEST(t.busy == 5u);
  BOOST_TEST(t.idle == 5u);           // [5, 10)
  BOOST_TEST(t.gated_uncomp == 14u);  // [10, 24)
  BOOST_TEST(t.gated_comp == 6u);     // [24, 30)
  BOOST_TEST(t.waking == 3u);         // [30, 33)
  BOOST_TEST(t.events == 1u);
  BOOST_TEST(t.delayed == 1u);
  BOOST_TEST(t.net_saved(14) == 6);  // 20 gated - 1 x 14
  check_sum(g, 33);
  // Mid wake-up the totals stop at `now`.
  BOOST_TEST(g.totals(31).waking == 1u);
  check_sum(g, 31);
  g.use(33, 38);
  BOOST_TEST(g.state(35) == LaneState::On);
  BOOST_TEST(g.totals(38).busy == 10u);
  check_sum(g, 38);
}

BOOST_AUTO_TEST_CASE(a_request_before_bet_is_a_net_loss) {
  LaneGate g(conventional());
  g.use(0, 5);
  BOOST_TEST(g.wake(17) == 20u);  // gated [10, 17): 7 < BET
  const GateTotals t = g.totals(20);
  BOOST_TEST(t.gated_uncomp == 7u);
  BOOST_TEST(t.gated_comp == 0u);
  BOOST_TEST(t.events == 1u);
  BOOST_TEST(t.net_saved(14) == -7);  // 7 gated - 14: gating cost more than it saved
  check_sum(g, 20);
}

BOOST_AUTO_TEST_CASE(blackout_holds_a_gated_lane_until_bet) {
  GateTiming tm = conventional();
  tm.blackout = true;
  LaneGate g(tm);
  g.use(0, 5);
  // Gated at 10; a request at 17 waits until 10 + 14 = 24, then wakes for 3.
  BOOST_TEST(g.ready_at(17) == 27u);
  BOOST_TEST(g.wake(17) == 27u);
  BOOST_TEST(g.state(20) == LaneState::GatedUncompensated);  // blacked out
  BOOST_TEST(g.state(25) == LaneState::Waking);
  GateTotals t = g.totals(27);
  BOOST_TEST(t.gated_uncomp == 14u);
  BOOST_TEST(t.waking == 3u);
  BOOST_TEST(t.net_saved(14) == 0);  // never a loss
  check_sum(g, 27);
  // Asked mid-blackout, the totals stop at `now` (still gated, within BET).
  t = g.totals(20);
  BOOST_TEST(t.gated_uncomp == 10u);
  BOOST_TEST(t.waking == 0u);
  check_sum(g, 20);
  // Gated beyond BET, blackout changes nothing.
  LaneGate h(tm);
  h.use(0, 5);
  BOOST_TEST(h.wake(40) == 43u);
}

BOOST_AUTO_TEST_CASE(eager_gating_skips_idle_detect) {
  LaneGate g(conventional());
  g.use(0, 5);
  g.gate_early(7);  // a folded instruction issues at 7: this idle lane gates at once
  BOOST_TEST(g.state(6) == LaneState::IdleDetect);
  BOOST_TEST(g.state(7) == LaneState::GatedUncompensated);
  BOOST_TEST(g.wake(30) == 33u);
  GateTotals t = g.totals(33);
  BOOST_TEST(t.idle == 2u);      // [5, 7)
  BOOST_TEST(t.gated() == 23u);  // [7, 30)
  check_sum(g, 33);
  // Asked right as the lane empties: it gates after its first idle cycle.
  g.use(33, 38);
  g.gate_early(38);
  BOOST_TEST(g.state(38) == LaneState::IdleDetect);
  BOOST_TEST(g.state(39) == LaneState::GatedUncompensated);
  // A busy lane ignores it, and the next idle period detects as usual.
  g.wake(50);   // ON at 53
  g.use(53, 60);
  g.gate_early(55);
  BOOST_TEST(g.state(64) == LaneState::IdleDetect);
  BOOST_TEST(g.state(65) == LaneState::GatedUncompensated);
  check_sum(g, 70);
}

BOOST_AUTO_TEST_CASE(overlapping_uses_extend_the_busy_period) {
  LaneGate g(conventional());
  g.use(0, 20);  // a long operation
  g.use(2, 7);   // a short one behind it: the pipeline is busy until 20
  BOOST_TEST(g.state(19) == LaneState::On);
  BOOST_TEST(g.state(20) == LaneState::IdleDetect);
  BOOST_TEST(g.ready_at(24) == 24u);
  BOOST_TEST(g.ready_at(25) == 28u);
  BOOST_TEST(g.totals(25).busy == 20u);
  check_sum(g, 25);
}

BOOST_AUTO_TEST_CASE(a_held_lane_stays_on_while_others_wake) {
  LaneGate a(conventional()), b(conventional());
  a.use(0, 5);  // gates at 10
  b.use(0, 8);  // would gate at 13
  BOOST_TEST(a.wake(12) == 15u);
  BOOST_TEST(b.ready_at(12) == 12u);  // still detecting idleness
  b.hold(15);   // the issue waits for `a` until 15
  BOOST_TEST(b.ready_at(15) == 15u);  // without the hold it would have gated at 13
  BOOST_TEST(b.state(19) == LaneState::IdleDetect);
  BOOST_TEST(b.state(20) == LaneState::GatedUncompensated);  // idle detection restarted at 15
  const GateTotals t = b.totals(21);
  BOOST_TEST(t.idle == 12u);  // [8, 20)
  BOOST_TEST(t.gated() == 1u);
  BOOST_TEST(t.events == 1u);
  check_sum(b, 21);
}

BOOST_AUTO_TEST_CASE(zero_wakeup_never_delays_but_still_counts_gatings) {
  GateTiming tm = conventional();
  tm.wakeup = 0;
  LaneGate g(tm);
  g.use(0, 5);
  BOOST_TEST(g.ready_at(30) == 30u);
  g.use(30, 35);
  const GateTotals t = g.totals(35);
  BOOST_TEST(t.events == 1u);
  BOOST_TEST(t.gated() == 20u);
  BOOST_TEST(t.delayed == 0u);
  check_sum(g, 35);
}

BOOST_AUTO_TEST_CASE(ideal_gates_exactly_the_idle_periods_of_at_least_bet) {
  GateTiming tm;
  tm.mode = Gating::Ideal;
  tm.bet = 10;
  LaneGate g(tm);
  g.use(0, 5);
  BOOST_TEST(g.ready_at(1000) == 1000u);  // the oracle never delays an issue
  g.use(20, 25);  // idle [5, 20): 15 >= 10, gated whole
  g.use(30, 35);  // idle [25, 30): 5 < 10, not gated
  g.use(45, 50);  // idle [35, 45): exactly BET, gated and saves nothing
  GateTotals t = g.totals(50);
  BOOST_TEST(t.busy == 20u);
  BOOST_TEST(t.idle == 5u);
  BOOST_TEST(t.gated() == 25u);
  BOOST_TEST(t.gated_uncomp == 20u);
  BOOST_TEST(t.events == 2u);
  BOOST_TEST(t.net_saved(10) == 5);
  BOOST_TEST(t.waking == 0u);
  check_sum(g, 50);
  // The trailing idle period counts as it stands.
  t = g.totals(55);
  BOOST_TEST(t.idle == 10u);
  t = g.totals(70);
  BOOST_TEST(t.gated() == 45u);
  BOOST_TEST(t.idle == 5u);
}

BOOST_AUTO_TEST_CASE(no_gating_counts_busy_and_idle_only) {
  LaneGate g(GateTiming{});
  g.use(0, 5);
  g.use(100, 105);
  const GateTotals t = g.totals(110);
  BOOST_TEST(t.busy == 10u);
  BOOST_TEST(t.idle == 100u);
  BOOST_TEST(t.gated() == 0u);
  BOOST_TEST(t.events == 0u);
}

BOOST_AUTO_TEST_CASE(longer_bet_never_saves_more) {
  // Same idle periods under the ideal oracle: net saving falls with BET.
  const uint64_t gaps[] = {3, 60, 120, 7, 250, 90, 40, 500};
  int64_t last = INT64_MAX;
  for (uint32_t bet : {14u, 50u, 100u, 200u}) {
    GateTiming tm;
    tm.mode = Gating::Ideal;
    tm.bet = bet;
    LaneGate g(tm);
    uint64_t t = 0;
    for (uint64_t gap : gaps) {
      g.use(t, t + 5);
      t += 5 + gap;
    }
    const int64_t net = g.totals(t).net_saved(bet);
    BOOST_TEST(net <= last, "BET " << bet);
    BOOST_TEST(net >= 0);  // the oracle never loses
    last = net;
  }
}

BOOST_AUTO_TEST_CASE(a_use_before_the_lane_is_on_is_a_model_bug) {
  LaneGate g(conventional());
  g.use(0, 5);
  g.wake(30);
  BOOST_CHECK_THROW(g.use(31, 36), std::logic_error);
}
