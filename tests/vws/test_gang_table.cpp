#define BOOST_TEST_MODULE gang_table
#include <boost/test/unit_test.hpp>

// Seed 000's gang table (§4.3-4.5) on scripted PC streams: splitting on
// control and memory divergence, reformation, the four-entry sets.

#include <vector>

#include "vws/gang_table.h"

using simt::vws::GangChange;
using simt::vws::GangTable;

namespace {

std::vector<uint32_t> pcs(std::initializer_list<uint32_t> l) { return std::vector<uint32_t>(l); }

}  // namespace

BOOST_AUTO_TEST_CASE(an_original_gang_starts_as_one_entry) {
  GangTable t(32, 8);
  const GangChange c = t.start(3, 0xff, 0);
  BOOST_TEST(c.ways == 1u);
  BOOST_TEST(t.entry(3, 0).mask == 0xffu);
  BOOST_TEST(t.gang_id(3, 0) == 12u);
  BOOST_TEST(t.gangs(3) == 1u);
  BOOST_TEST(t.way_of(3, 5) == 0);
  // A CTA whose last warp has 4 threads fills one slice: that warp is unganged.
  const GangChange one = t.start(4, 0x01, 0);
  BOOST_TEST(one.left == 0x01u);
  BOOST_TEST(t.gangs(4) == 0u);
  BOOST_CHECK_THROW(t.start(3, 0xff, 0), std::logic_error);
}

BOOST_AUTO_TEST_CASE(control_divergence_splits_by_pc) {
  GangTable t(2, 8);
  t.start(0, 0xff, 10);
  // Same next PC everywhere: no split, the gang moves on.
  BOOST_TEST(t.split_on_pcs(0, 0, pcs({11, 11, 11, 11, 11, 11, 11, 11})).ways == 0u);
  BOOST_TEST(t.entry(0, 0).pc == 11u);
  // Slices 0-2 to 20, 3 alone to 30, 4-7 to 12: two gangs, slice 3 leaves.
  const GangChange c = t.split_on_pcs(0, 0, pcs({20, 20, 20, 30, 12, 12, 12, 12}));
  BOOST_TEST(c.left == 0x08u);
  BOOST_TEST(t.gangs(0) == 2u);
  BOOST_TEST(t.entry(0, 0).mask == 0x07u);
  BOOST_TEST(t.entry(0, 0).pc == 20u);
  BOOST_TEST(t.entry(0, 1).mask == 0xf0u);
  BOOST_TEST(t.entry(0, 1).pc == 12u);
  BOOST_TEST(t.way_of(0, 3) == -1);
  // Eight warps split at most into four gangs of two.
  GangTable u(1, 8);
  u.start(0, 0xff, 0);
  u.split_on_pcs(0, 0, pcs({1, 1, 2, 2, 3, 3, 4, 4}));
  BOOST_TEST(u.gangs(0) == 4u);
  for (uint32_t w = 0; w < GangTable::kWays; ++w) BOOST_TEST(__builtin_popcount(u.entry(0, w).mask) == 2);
  // Then each pair splits: every warp is unganged and every entry free.
  uint8_t left = 0;
  for (uint32_t w = 0; w < GangTable::kWays; ++w) left |= u.split_on_pcs(0, w, pcs({5, 6, 5, 6, 5, 6, 5, 6})).left;
  BOOST_TEST(left == 0xffu);
  BOOST_TEST(u.gangs(0) == 0u);
}

BOOST_AUTO_TEST_CASE(memory_divergence_splits_impatiently_or_by_group) {
  GangTable t(1, 8);
  t.start(0, 0xff, 7);
  // Group: the warps ready in the same cycle form a gang at the same PC.
  const GangChange g = t.split_group(0, 0, 0x0f);
  BOOST_TEST(g.left == 0u);
  BOOST_TEST(t.gangs(0) == 2u);
  BOOST_TEST(t.entry(0, 0).mask == 0xf0u);
  BOOST_TEST(t.entry(0, 1).mask == 0x0fu);
  BOOST_TEST(t.entry(0, 1).pc == 7u);
  BOOST_TEST(t.entry(0, 1).ready == 0x0fu);
  // One warp ready alone leaves; a remainder of one leaves too.
  BOOST_TEST(t.split_group(0, 1, 0x01).left == 0x01u);
  BOOST_TEST(t.entry(0, 1).mask == 0x0eu);
  GangTable p(1, 8);
  p.start(0, 0x03, 7);
  BOOST_TEST(p.split_group(0, 0, 0x01).left == 0x03u);
  BOOST_TEST(p.gangs(0) == 0u);
  // Everyone ready at once is no divergence.
  BOOST_TEST(t.split_group(0, 0, 0xf0).ways == 0u);
  // Impatient: every member leaves.
  BOOST_TEST(t.split_impatient(0, 0).left == 0xf0u);
  BOOST_TEST(!t.entry(0, 0).used);
}

BOOST_AUTO_TEST_CASE(opportunistic_reform_merges_gangs_and_warps_on_a_pc) {
  GangTable t(1, 8);
  t.start(0, 0xff, 0);
  t.split_on_pcs(0, 0, pcs({20, 20, 30, 40, 12, 12, 50, 50}));  // gangs {0,1}@20, {4,5}@12, {6,7}@50
  BOOST_TEST(t.gangs(0) == 3u);
  t.set_valid(0, 0, true);
  // Warps 2 and 3 are unganged; now warp 2 is at 12 and warp 3 at 20, and
  // the {6,7} gang reached 20 too.
  t.split_on_pcs(0, 2, pcs({0, 0, 0, 0, 0, 0, 20, 20}));  // no divergence: moves to 20
  const GangChange c = t.reform(0, 0x0c, pcs({20, 20, 12, 20, 12, 12, 20, 20}));
  BOOST_TEST(c.joined == 0x0cu);
  BOOST_TEST(t.gangs(0) == 2u);
  BOOST_TEST(t.entry(0, 0).mask == 0xcbu);  // {0,1,3,6,7} at 20 keep way 0
  BOOST_TEST(t.entry(0, 0).pc == 20u);
  BOOST_TEST(!t.entry(0, 0).valid);  // a reformed gang refetches
  BOOST_TEST(t.entry(0, 1).mask == 0x34u);  // {2,4,5} at 12
  BOOST_TEST(!t.entry(0, 2).used);
  // Two unganged warps alone on a PC form a gang.
  GangTable u(1, 4);
  u.start(0, 0x0f, 0);
  u.split_on_pcs(0, 0, pcs({1, 2, 3, 4}));
  const GangChange d = u.reform(0, 0x0f, pcs({9, 8, 9, 7}));
  BOOST_TEST(d.joined == 0x05u);
  BOOST_TEST(u.entry(0, 0).mask == 0x05u);
  BOOST_TEST(u.entry(0, 0).pc == 9u);
}

BOOST_AUTO_TEST_CASE(finished_warps_leave_and_gangs_of_one_dissolve) {
  GangTable t(1, 8);
  t.start(0, 0xff, 0);
  t.split_on_pcs(0, 0, pcs({1, 1, 1, 1, 2, 2, 2, 2}));
  t.set_ready(0, 1, 0xf0);
  const GangChange c = t.remove(0, 0x70);  // three warps of the second gang finished
  BOOST_TEST(c.left == 0x80u);            // the fourth is alone now
  BOOST_TEST(!t.entry(0, 1).used);
  BOOST_TEST(t.entry(0, 0).mask == 0x0fu);
  t.clear(0);
  BOOST_TEST(t.gangs(0) == 0u);
  BOOST_CHECK_THROW(GangTable(1, 1), std::invalid_argument);
  BOOST_CHECK_THROW(t.entry(1, 0), std::out_of_range);
}
