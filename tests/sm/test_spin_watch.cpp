#define BOOST_TEST_MODULE spin_watch
// sm/spin_watch.h: what counts as a spin-wait that cannot end.
#include <boost/test/unit_test.hpp>

#include "sm/spin_watch.h"

using simt::sm::SpinWatch;

namespace {

// A load instruction of one thread: line `line`, poll `poll`.
void load(SpinWatch& w, uint64_t line, uint64_t poll, uint64_t now) {
  w.poll(poll);
  w.line(line, now);
}

}  // namespace

BOOST_AUTO_TEST_CASE(polling_a_few_lines_without_progress_is_a_spin_after_the_window) {
  SpinWatch w(1000, 0);
  for (uint64_t t = 0; t < SpinWatch::kMinRereads + 3; ++t) load(w, t % 3, t % 3, t / 2);
  BOOST_TEST(!w.spinning(999));
  BOOST_TEST(w.spinning(1000));
  BOOST_TEST(!w.spinning(1001));  // reported once: every SM shares the watch
}

BOOST_AUTO_TEST_CASE(stores_atomics_exits_and_barriers_restart_the_window) {
  SpinWatch w(1000, 0);
  for (uint64_t i = 0; i <= SpinWatch::kMinRereads; ++i) load(w, 7, 7, 10);
  w.progress(900);
  BOOST_TEST(!w.spinning(1500));
  for (uint64_t i = 0; i <= SpinWatch::kMinRereads; ++i) load(w, 7, 7, 1600);
  BOOST_TEST(w.last_progress() == 900u);
  BOOST_TEST(w.spinning(1900));
}

BOOST_AUTO_TEST_CASE(a_loop_without_loads_is_not_a_wait) {
  // Registers only (a long compute loop): the per-launch limits are for that.
  SpinWatch w(1000, 0);
  w.progress(0);
  BOOST_TEST(!w.spinning(1000000));
}

BOOST_AUTO_TEST_CASE(reading_through_more_lines_than_a_wait_would_is_progress) {
  SpinWatch w(1000, 0);
  for (uint64_t line = 0; line <= SpinWatch::kMaxLines; ++line) load(w, line, line, 500);
  BOOST_TEST(w.last_progress() == 500u);
  BOOST_TEST(!w.spinning(1400));
  // Polling a few lines afterwards is a spin again.
  for (uint64_t i = 0; i < SpinWatch::kMinRereads + 10; ++i) load(w, i % 10, i % 10, 1500);
  BOOST_TEST(w.spinning(1500));
}

BOOST_AUTO_TEST_CASE(threads_scanning_shared_lines_once_each_are_not_spinning) {
  // particles' neighbour scan: many threads read the same 16 lines, each
  // word once per thread, for far longer than the window before storing.
  SpinWatch w(1000, 0);
  for (uint64_t thread = 0; thread < 256; ++thread)
    for (uint64_t word = 0; word < 64; ++word) load(w, word / 4, thread * 64 + word, 10 + thread);
  BOOST_TEST(w.last_progress() == 0u);  // a small set of lines: not reading through data
  BOOST_TEST(!w.spinning(1000000));
}

BOOST_AUTO_TEST_CASE(more_polls_than_it_remembers_still_count_their_rereads) {
  SpinWatch w(1000, 0);
  for (uint64_t p = 0; p < 2 * SpinWatch::kMaxPolls; ++p) load(w, 0, p, 1);
  BOOST_TEST(!w.spinning(5000));
  for (uint64_t i = 0; i < SpinWatch::kMinRereads; ++i) load(w, 0, i % 8, 2);
  BOOST_TEST(w.spinning(5000));
}

BOOST_AUTO_TEST_CASE(warps_waiting_on_a_long_memory_latency_are_not_spinning) {
  // A few loads each, then nothing issues for longer than the window.
  SpinWatch w(1000, 0);
  for (uint64_t line = 0; line < 64; ++line) load(w, line, line, 1);
  load(w, 3, 3, 2);
  BOOST_TEST(!w.spinning(1000000));
}

BOOST_AUTO_TEST_CASE(zero_turns_it_off) {
  SpinWatch w(0, 0);
  for (uint64_t i = 0; i <= SpinWatch::kMinRereads; ++i) load(w, 1, 1, 1);
  BOOST_TEST(!w.spinning(~uint64_t{0} >> 1));
}

// The device reuses one watch for every launch (restart) instead of building
// one: a restarted watch must behave as a new one.
BOOST_AUTO_TEST_CASE(a_restarted_watch_is_a_new_one) {
  SpinWatch w(1000, 0);
  for (uint64_t t = 0; t < SpinWatch::kMinRereads + 3; ++t) load(w, t % 3, t % 3, 5);
  BOOST_TEST(w.spinning(1000));
  w.restart(5000);
  BOOST_TEST(w.last_progress() == 5000u);
  BOOST_TEST(!w.spinning(7000));  // no re-reads since the restart
  // The polls of the last launch are forgotten: the first read of each is new again.
  for (uint64_t t = 0; t < 3; ++t) load(w, t, t, 5001);
  for (uint64_t t = 0; t < SpinWatch::kMinRereads - 1; ++t) load(w, t % 3, t % 3, 5001);
  BOOST_TEST(!w.spinning(7000));  // one re-read short
  load(w, 0, 0, 5001);
  BOOST_TEST(!w.spinning(5999));
  BOOST_TEST(w.spinning(6000));  // reported again, once
  BOOST_TEST(!w.spinning(6001));
}
