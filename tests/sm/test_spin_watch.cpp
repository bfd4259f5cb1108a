#define BOOST_TEST_MODULE spin_watch
// sm/spin_watch.h: what counts as a spin-wait that cannot end.
#include <boost/test/unit_test.hpp>

#include "sm/spin_watch.h"

using simt::sm::SpinWatch;

BOOST_AUTO_TEST_CASE(rereading_a_few_lines_without_progress_is_a_spin_after_the_window) {
  SpinWatch w(1000, 0);
  for (uint64_t t = 0; t < 999; ++t) w.load(t % 3, t);
  BOOST_TEST(!w.spinning(999));
  w.load(1, 1000);
  BOOST_TEST(w.spinning(1000));
  BOOST_TEST(!w.spinning(1001));  // reported once: every SM shares the watch
}

BOOST_AUTO_TEST_CASE(stores_atomics_exits_and_barriers_restart_the_window) {
  SpinWatch w(1000, 0);
  w.load(7, 10);
  w.progress(900);
  BOOST_TEST(!w.spinning(1500));
  w.load(7, 1600);
  BOOST_TEST(w.last_progress() == 900u);
  BOOST_TEST(w.spinning(1900));
}

BOOST_AUTO_TEST_CASE(a_loop_without_loads_is_not_a_wait) {
  // Registers only (a long compute loop): the per-launch limits are for that.
  SpinWatch w(1000, 0);
  BOOST_TEST(!w.spinning(1000000));
}

BOOST_AUTO_TEST_CASE(reading_through_more_lines_than_a_wait_would_is_progress) {
  SpinWatch w(1000, 0);
  for (uint64_t line = 0; line <= SpinWatch::kMaxLines; ++line) w.load(line, 500);
  BOOST_TEST(w.last_progress() == 500u);
  BOOST_TEST(!w.spinning(1400));
  // The same lines again do not: the set restarted at the progress.
  for (uint64_t line = 0; line < 10; ++line) w.load(line, 1500);
  BOOST_TEST(w.spinning(1500));
}

BOOST_AUTO_TEST_CASE(zero_turns_it_off) {
  SpinWatch w(0, 0);
  w.load(1, 1);
  BOOST_TEST(!w.spinning(~uint64_t{0} >> 1));
}
