#define BOOST_TEST_MODULE l1_fetch_arbiter
#include <boost/test/unit_test.hpp>

// Seed 000 §4.6: the gang fetch scheduler has priority on the L1 I-cache's
// ports; the slices share the rest fairly.

#include <array>

#include "vws/l1_fetch_arbiter.h"

using simt::vws::L1FetchArbiter;

BOOST_AUTO_TEST_CASE(gangs_go_first) {
  L1FetchArbiter a(2, 8);
  L1FetchArbiter::Grant g = a.arbitrate(1, 0xff);
  BOOST_TEST(g.gangs == 1u);
  BOOST_TEST(__builtin_popcount(g.slices) == 1);
  g = a.arbitrate(2, 0xff);
  BOOST_TEST(g.gangs == 2u);
  BOOST_TEST(g.slices == 0u);
  g = a.arbitrate(3, 0x00);
  BOOST_TEST(g.gangs == 2u);  // never more than the ports
}

BOOST_AUTO_TEST_CASE(slices_that_keep_asking_are_served_in_turn) {
  L1FetchArbiter a(2, 8);
  std::array<int, 8> served{};
  for (int cycle = 0; cycle < 40; ++cycle) {
    const L1FetchArbiter::Grant g = a.arbitrate(0, 0xff);
    BOOST_TEST(__builtin_popcount(g.slices) == 2);
    for (int k = 0; k < 8; ++k) served[k] += (g.slices >> k) & 1;
  }
  for (int k = 0; k < 8; ++k) BOOST_TEST(served[k] == 10);
  // Two slices asking every cycle on one port alternate.
  L1FetchArbiter b(1, 8);
  std::array<int, 8> one{};
  for (int cycle = 0; cycle < 10; ++cycle) {
    const L1FetchArbiter::Grant g = b.arbitrate(0, 0x21);
    for (int k = 0; k < 8; ++k) one[k] += (g.slices >> k) & 1;
  }
  BOOST_TEST(one[0] == 5);
  BOOST_TEST(one[5] == 5);
}

BOOST_AUTO_TEST_CASE(unlimited_ports_grant_everything) {
  L1FetchArbiter a(0, 8);
  const L1FetchArbiter::Grant g = a.arbitrate(3, 0xff);
  BOOST_TEST(g.gangs == 3u);
  BOOST_TEST(g.slices == 0xffu);
  // Requests of slices that do not exist are ignored.
  L1FetchArbiter four(0, 4);
  BOOST_TEST(four.arbitrate(0, 0xff).slices == 0x0fu);
  BOOST_CHECK_THROW(L1FetchArbiter(2, 0), std::invalid_argument);
  BOOST_CHECK_THROW(L1FetchArbiter(2, 9), std::invalid_argument);
}
