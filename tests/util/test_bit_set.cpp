// util::BitSet: the member sets the per-cycle steps walk instead of every
// slot. Its walks must give exactly the orders the scans they replace gave
// (ascending; round robin from a start), or results would change.
#define BOOST_TEST_MODULE bit_set
#include <boost/test/unit_test.hpp>

#include <vector>

#include "util/bit_set.h"

using simt::util::BitSet;

namespace {

std::vector<uint32_t> walk(const BitSet& s) {
  std::vector<uint32_t> out;
  s.for_each([&](uint32_t i) { out.push_back(i); });
  return out;
}

std::vector<uint32_t> walk_from(const BitSet& s, uint32_t first, size_t stop_after = ~size_t{0}) {
  std::vector<uint32_t> out;
  s.for_each_from(first, [&](uint32_t i) {
    out.push_back(i);
    return out.size() < stop_after;
  });
  return out;
}

// What a scan of every slot in round-robin order from `first` visits.
std::vector<uint32_t> scan_from(const BitSet& s, uint32_t first) {
  std::vector<uint32_t> out;
  for (uint32_t k = 0; k < s.size(); ++k) {
    const uint32_t i = (first + k) % s.size();
    if (s.test(i)) out.push_back(i);
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(set_reset_test_any) {
  BitSet s(130);
  BOOST_TEST(!s.any());
  s.set(0);
  s.set(64);
  s.set(129);
  BOOST_TEST(s.test(64));
  BOOST_TEST(!s.test(65));
  s.reset(64);
  BOOST_TEST(!s.test(64));
  BOOST_TEST(s.any());
  BOOST_TEST(walk(s) == (std::vector<uint32_t>{0, 129}));
  s.resize(10);  // empties
  BOOST_TEST(!s.any());
}

BOOST_AUTO_TEST_CASE(round_robin_matches_a_full_scan) {
  // Members around word boundaries; every start, including inside a word and
  // at its last bit.
  BitSet s(150);
  for (uint32_t i : {0u, 5u, 63u, 64u, 100u, 127u, 128u, 149u}) s.set(i);
  for (uint32_t first = 0; first < s.size(); ++first)
    BOOST_TEST(walk_from(s, first) == scan_from(s, first), "first " << first);
}

BOOST_AUTO_TEST_CASE(round_robin_stops_when_told) {
  BitSet s(100);
  for (uint32_t i : {3u, 40u, 70u, 90u}) s.set(i);
  BOOST_TEST(walk_from(s, 50, 2) == (std::vector<uint32_t>{70, 90}));
  bool done = s.for_each_from(95, [](uint32_t) { return false; });
  BOOST_TEST(!done);
  done = s.for_each_from(95, [](uint32_t) { return true; });
  BOOST_TEST(done);
  BOOST_TEST(BitSet().for_each_from(0, [](uint32_t) { return false; }));  // empty: nothing to stop
}

BOOST_AUTO_TEST_CASE(removing_the_visited_member_is_safe) {
  BitSet s(70);
  for (uint32_t i : {1u, 2u, 65u}) s.set(i);
  std::vector<uint32_t> seen;
  s.for_each([&](uint32_t i) {
    seen.push_back(i);
    s.reset(i);
  });
  BOOST_TEST(seen == (std::vector<uint32_t>{1, 2, 65}));
  BOOST_TEST(!s.any());
}
