// Lane maps against hand-worked examples: a 32-thread warp on a 16-lane unit
// (Fermi's SP units), pass by pass.
#define BOOST_TEST_MODULE lane_map
#include <boost/test/unit_test.hpp>

#include <vector>

#include "sm/lane_map.h"

using namespace simt::sm;

namespace {
std::vector<uint64_t> passes(LaneMap m, uint64_t active, uint32_t width = 32, uint32_t lanes = 16) {
  uint64_t out[128] = {};
  const uint32_t n = map_lanes(m, active, width, lanes, out);
  BOOST_TEST(n <= max_lane_passes(width, lanes));
  return std::vector<uint64_t>(out, out + n);
}
using V = std::vector<uint64_t>;
}  // namespace

BOOST_AUTO_TEST_CASE(home_keeps_threads_on_their_lanes) {
  BOOST_TEST(passes(LaneMap::Home, 0xFFFFFFFF) == (V{0xFFFF, 0xFFFF}));
  BOOST_TEST(passes(LaneMap::Home, 0x80000001) == (V{0x0001, 0x8000}));
  BOOST_TEST(passes(LaneMap::Home, 0x0) == (V{0, 0}));
  BOOST_TEST(passes(LaneMap::Home, 0xF, 4, 16) == (V{0xF}));
}

BOOST_AUTO_TEST_CASE(compaction_packs_active_threads_low_and_keeps_the_timing) {
  BOOST_TEST(passes(LaneMap::Compact, 0x80000001) == (V{0x3, 0x0}));
  BOOST_TEST(passes(LaneMap::Compact, 0xFFFF0000) == (V{0xFFFF, 0x0}));
  BOOST_TEST(passes(LaneMap::Compact, 0xFFFFFFFF) == (V{0xFFFF, 0xFFFF}));
}

BOOST_AUTO_TEST_CASE(splitting_runs_half_warps_on_the_low_half) {
  BOOST_TEST(passes(LaneMap::Half, 0xFFFFFFFF) == (V{0xFF, 0xFF, 0xFF, 0xFF}));
  BOOST_TEST(passes(LaneMap::Half, 0x0000FFFF) == (V{0xFF, 0xFF}));      // half-warp 1 empty: not issued
  BOOST_TEST(passes(LaneMap::Half, 0x00010000) == (V{0x01, 0x00}));      // only thread 16
  BOOST_TEST(passes(LaneMap::Half, 0x80008000) == (V{0x00, 0x80, 0x00, 0x80}));
  BOOST_TEST(passes(LaneMap::Half, 0x0) == (V{0x00, 0x00}));             // nothing active: one half's time
  BOOST_TEST(passes(LaneMap::CompactHalf, 0xF000000F) == (V{0xFF, 0, 0, 0}));
  BOOST_TEST(passes(LaneMap::CompactHalf, 0x00000F0F) == (V{0xFF, 0}));  // one half-warp: its two passes
}

BOOST_AUTO_TEST_CASE(lane_shifting_moves_threads_to_the_low_lanes_of_their_cluster) {
  BOOST_TEST(passes(LaneMap::Shift, 0x0000000A) == (V{0x3, 0x0}));
  BOOST_TEST(passes(LaneMap::Shift, 0x00480000) == (V{0x0, 0x11}));  // threads 19, 22: lanes 3 and 6 -> 0 and 4
  BOOST_TEST(passes(LaneMap::Shift, 0xFFFFFFFF) == (V{0xFFFF, 0xFFFF}));
}

BOOST_AUTO_TEST_CASE(folding_runs_two_sub_warps_on_the_low_pairs) {
  BOOST_TEST(passes(LaneMap::Fold, 0xFFFFFFFF) == (V{0x3333, 0x3333, 0x3333, 0x3333}));
  BOOST_TEST(passes(LaneMap::Fold, 0x00000009) == (V{0x1, 0x0, 0x2, 0x0}));  // thread 3 shifted from lane 3 to 1
  BOOST_TEST(passes(LaneMap::FoldShift, 0x00000009) == (V{0x1, 0x0, 0x1, 0x0}));
  // One sub-warp empty: no folding, the other runs on the low lanes.
  BOOST_TEST(passes(LaneMap::Fold, 0x33333333) == (V{0x3333, 0x3333}));
  BOOST_TEST(passes(LaneMap::Fold, 0xCCCCCCCC) == (V{0x3333, 0x3333}));
  BOOST_TEST(passes(LaneMap::FoldShift, 0x88888888) == (V{0x1111, 0x1111}));
  // Lanes not a multiple of 4: no clusters, home.
  BOOST_TEST(passes(LaneMap::Fold, 0xFF, 8, 6) == (V{0x3F, 0x03}));
}

BOOST_AUTO_TEST_CASE(names_round_trip) {
  for (const std::string& n : lane_map_names()) {
    LaneMap m;
    BOOST_TEST(parse_lane_map(n, &m));
    BOOST_TEST(lane_map_name(m) == n);
  }
  LaneMap m;
  BOOST_TEST(!parse_lane_map("sideways", &m));
}
