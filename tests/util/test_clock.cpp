// util::Clock: the one method that steps every clocked block. Blocks due in
// a cycle run in attach order, at most once (unless woken for this cycle
// again); wake_at always fires, sleep_until is cancelled by an earlier run;
// nothing runs, and SystemC has nothing pending, while every block sleeps.
// Running ahead (several cycles per SystemC activation) changes none of
// that, and yields to any other process due before the next cycle.
// The clock is one per process, so the cases share it and its time.
#define BOOST_TEST_MODULE clock
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <boost/test/unit_test.hpp>

#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "util/clock.h"
#include "util/cycle.h"

using namespace simt;

namespace {

using Log = std::vector<std::pair<uint64_t, std::string>>;

// Records each step; `then` decides what it does next.
struct Block : util::Clocked {
  Block(std::string n, Log& l) : name(std::move(n)), log(l) { util::Clock::get().attach(*this, false); }
  void on_cycle(uint64_t now) override {
    log.emplace_back(now, name);
    if (then) then(now);
  }
  std::string name;
  Log& log;
  std::function<void(uint64_t)> then;
};

util::Clock& clk() { return util::Clock::get(); }
uint64_t now() { return util::now_cycle(); }
void run_cycles(uint64_t n) { sc_core::sc_start(util::cycles(n)); }

std::string show(const Log& log) {
  std::string s;
  for (const auto& [c, n] : log) s += std::to_string(c) + ":" + n + " ";
  return s;
}

// The expected log, written as {cycle, block} pairs.
std::string runs(std::initializer_list<std::pair<uint64_t, const char*>> want) {
  Log log;
  for (const auto& [c, n] : want) log.emplace_back(c, n);
  return show(log);
}

}  // namespace

BOOST_AUTO_TEST_CASE(blocks_due_together_run_in_attach_order) {
  Log log;
  Block a("a", log), b("b", log), c("c", log);
  const uint64_t t = now();
  clk().wake_next(c);
  clk().wake_at(b, t + 1);
  clk().wake_next(a);
  run_cycles(3);
  BOOST_TEST(show(log) == runs({{t + 1, "a"}, {t + 1, "b"}, {t + 1, "c"}}));
}

BOOST_AUTO_TEST_CASE(a_block_runs_once_per_cycle_and_stays_busy_only_when_it_asks) {
  Log log;
  Block a("a", log);
  int left = 3;
  a.then = [&](uint64_t) {
    if (--left > 0) clk().wake_next(a);
  };
  const uint64_t t = now();
  clk().wake_next(a);
  clk().wake_next(a);
  clk().wake_at(a, t + 1);
  run_cycles(10);
  BOOST_TEST(show(log) == runs({{t + 1, "a"}, {t + 2, "a"}, {t + 3, "a"}}));
}

BOOST_AUTO_TEST_CASE(wake_at_always_fires_but_an_earlier_run_cancels_sleep_until) {
  Log log;
  Block a("a", log), b("b", log);
  const uint64_t t = now();
  clk().wake_at(a, t + 5);      // an arrival: fires whatever happens before
  clk().sleep_until(b, t + 5);  // a deadline: the run at t+2 cancels it
  clk().wake_at(a, t + 2);
  clk().wake_at(b, t + 2);
  run_cycles(10);
  BOOST_TEST(show(log) == runs({{t + 2, "a"}, {t + 2, "b"}, {t + 5, "a"}}));
}

BOOST_AUTO_TEST_CASE(the_earliest_deadline_of_one_sleep_counts) {
  Log log;
  Block a("a", log);
  const uint64_t t = now();
  clk().sleep_until(a, t + 7);
  clk().sleep_until(a, t + 4);
  clk().sleep_until(a, t + 9);
  run_cycles(12);
  BOOST_TEST(show(log) == runs({{t + 4, "a"}}));
}

BOOST_AUTO_TEST_CASE(wake_now_runs_a_block_again_in_the_same_cycle) {
  Log log;
  Block a("a", log), b("b", log);
  // a hands b something during its step; b has run already (b is after a
  // in the order, but due only through wake_now here), and must show it now.
  a.then = [&](uint64_t) { clk().wake_now(b); };
  const uint64_t t = now();
  clk().wake_next(a);
  run_cycles(3);
  BOOST_TEST(show(log) == runs({{t + 1, "a"}, {t + 1, "b"}}));
}

BOOST_AUTO_TEST_CASE(wake_now_from_outside_a_step_runs_in_a_delta_of_this_cycle) {
  Log log;
  Block a("a", log);
  const uint64_t t = now();
  clk().wake_at(a, t + 6);  // pending later: the delta must not lose it
  clk().wake_now(a);
  run_cycles(10);
  BOOST_TEST(show(log) == runs({{t, "a"}, {t + 6, "a"}}));
}

BOOST_AUTO_TEST_CASE(sleeping_blocks_cost_no_steps_and_leave_nothing_pending) {
  Log log;
  Block a("a", log), b("b", log);
  run_cycles(5);  // let earlier cases' wakes drain
  const uint64_t steps = clk().steps();
  run_cycles(1000);
  BOOST_TEST(clk().steps() == steps);
  BOOST_TEST(!sc_core::sc_pending_activity_at_future_time());
  BOOST_TEST(log.empty());
}

BOOST_AUTO_TEST_CASE(wakes_near_and_far_ahead_fire_in_their_cycles) {
  // Near wakes sit in a ring of 1024 per-cycle buckets, farther ones in a
  // queue: both kinds, either side of the ring's size, and one per bucket
  // position that the ring reuses.
  Log log;
  Block a("a", log), b("b", log);
  const uint64_t t = now();
  for (uint64_t d : {5000u, 1023u, 2u, 1024u, 1025u, 2049u}) clk().wake_at(a, t + d);
  clk().wake_at(b, t + 1025);
  clk().wake_at(b, t + 1);
  run_cycles(6000);
  BOOST_TEST(show(log) == runs({{t + 1, "b"}, {t + 2, "a"}, {t + 1023, "a"}, {t + 1024, "a"},
                                {t + 1025, "a"}, {t + 1025, "b"}, {t + 2049, "a"}, {t + 5000, "a"}}));
}

BOOST_AUTO_TEST_CASE(a_detached_block_is_never_run) {
  Log log;
  Block a("a", log);
  const uint64_t t = now();
  {
    Block gone("gone", log);
    clk().wake_next(gone);
    clk().wake_at(gone, t + 3);
  }
  clk().wake_at(a, t + 3);
  run_cycles(5);
  BOOST_TEST(show(log) == runs({{t + 3, "a"}}));
}

// Cases below let the clock run ahead; each turns it off again.
struct RunAhead {
  explicit RunAhead(uint64_t until) { clk().set_run_ahead(until); }
  ~RunAhead() { clk().set_run_ahead(0); }
};

BOOST_AUTO_TEST_CASE(running_ahead_steps_the_same_cycles_in_far_fewer_activations) {
  Log log;
  Block a("a", log), b("b", log);
  int left = 40;
  a.then = [&](uint64_t) {
    if (--left > 0) clk().wake_next(a);
  };
  const uint64_t t = now();
  clk().wake_next(a);
  clk().wake_at(b, t + 10);
  clk().wake_at(b, t + 100);  // beyond a's busy stretch: a jump, not a cycle-by-cycle walk
  const uint64_t acts = clk().activations();
  const RunAhead on(~uint64_t{0});
  sc_core::sc_start();  // until nothing is pending
  Log want;
  for (uint64_t c = t + 1; c <= t + 40; ++c) {
    want.emplace_back(c, "a");
    if (c == t + 10) want.emplace_back(c, "b");
  }
  want.emplace_back(t + 100, "b");
  BOOST_TEST(show(log) == show(want));
  BOOST_TEST(clk().activations() - acts <= 3u);  // the first, and one to bring SystemC's time along
  BOOST_TEST(now() == t + 100);
  BOOST_TEST(sc_core::sc_time_stamp() == util::cycles(t + 100));  // SystemC's time caught up
}

BOOST_AUTO_TEST_CASE(running_ahead_yields_to_a_process_due_before_the_next_cycle) {
  Log log;
  Block a("a", log);
  int left = 30;
  a.then = [&](uint64_t) {
    if (--left > 0) clk().wake_next(a);
  };
  const uint64_t t = now();
  // Another SystemC process, due at t + 12 by SystemC's own time.
  sc_core::sc_event at;
  uint64_t seen_cycle = 0, seen_last_step = 0;
  sc_core::sc_spawn_options opt;
  opt.spawn_method();
  opt.set_sensitivity(&at);
  opt.dont_initialize();
  sc_core::sc_spawn(
      [&] {
        seen_cycle = now();
        seen_last_step = log.empty() ? 0 : log.back().first;
      },
      "probe", &opt);
  at.notify(util::cycles(12));
  clk().wake_next(a);
  const RunAhead on(~uint64_t{0});
  sc_core::sc_start();
  BOOST_TEST(seen_cycle == t + 12);
  // The clock stopped before cycle t + 12, or ran it in the same time step.
  BOOST_TEST(seen_last_step >= t + 11);
  BOOST_TEST(seen_last_step <= t + 12);
  BOOST_TEST(log.size() == 30u);
  BOOST_TEST(log.back().first == t + 30);
}

BOOST_AUTO_TEST_CASE(running_ahead_stops_at_its_last_cycle) {
  Log log;
  Block a("a", log);
  a.then = [&](uint64_t) { clk().wake_next(a); };  // busy for ever
  const uint64_t t = now();
  clk().wake_next(a);
  {
    const RunAhead on(t + 20);
    sc_core::sc_start(util::cycles(20));  // SystemC stops here; the clock must not pass it
  }
  BOOST_TEST(log.back().first == t + 20);
  a.then = nullptr;
  run_cycles(3);  // its last wake runs without running ahead
  BOOST_TEST(log.back().first == t + 21);
}
