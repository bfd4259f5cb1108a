#define BOOST_TEST_MODULE thread_compactor
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "tbc/thread_compactor.h"

using simt::func::ThreadMask;
using simt::tbc::CompactedWarp;
using simt::tbc::kNoThread;
using simt::tbc::ThreadCompactor;

namespace {

ThreadMask mask_of(std::initializer_list<uint32_t> threads) {
  ThreadMask m;
  for (uint32_t t : threads) m.set(t);
  return m;
}

// Runs one generation to the end, checking one warp per next() call.
std::vector<CompactedWarp> drain(ThreadCompactor& c, const ThreadMask& mask, uint32_t threads,
                                 uint32_t w) {
  c.start(mask, threads, w);
  std::vector<CompactedWarp> warps;
  CompactedWarp out;
  while (c.busy()) {
    const uint32_t before = c.warps_remaining();
    BOOST_REQUIRE(c.next(out));
    BOOST_REQUIRE_EQUAL(c.warps_remaining(), before - 1);
    warps.push_back(out);
  }
  BOOST_CHECK(!c.next(out));
  BOOST_CHECK_EQUAL(warps.size(), c.warps_needed());
  return warps;
}

// Largest number of active threads sharing one home lane, counted naively.
uint32_t max_lane_population(const ThreadMask& mask, uint32_t threads, uint32_t w) {
  uint32_t best = 0;
  for (uint32_t lane = 0; lane < w; ++lane) {
    uint32_t n = 0;
    for (uint32_t t = lane; t < threads; t += w) n += mask.test(t);
    best = std::max(best, n);
  }
  return best;
}

uint32_t active_static_warps(const ThreadMask& mask, uint32_t threads, uint32_t w) {
  uint32_t n = 0;
  for (uint32_t base = 0; base < threads; base += w)
    n += (mask & ThreadMask::range(base, std::min(w, threads - base))).any();
  return n;
}

// Invariants every generation must keep, compacted or not.
void check_common(const std::vector<CompactedWarp>& warps, const ThreadMask& mask, uint32_t w) {
  ThreadMask seen;
  for (const CompactedWarp& cw : warps) {
    BOOST_REQUIRE_EQUAL(cw.warp_size, w);
    BOOST_REQUIRE(cw.mask.any());  // never an empty warp
    ThreadMask from_lanes;
    for (uint32_t lane = 0; lane < simt::tbc::kMaxWarpSize; ++lane) {
      const uint32_t t = cw.lane_thread[lane];
      if (t == kNoThread) continue;
      BOOST_REQUIRE_LT(lane, w);
      BOOST_REQUIRE_EQUAL(t % w, lane);  // home lane kept
      BOOST_REQUIRE(!from_lanes.test(t));
      from_lanes.set(t);
    }
    // One slot per lane and mask == lane ids means at most one thread/lane.
    BOOST_REQUIRE(from_lanes == cw.mask);
    BOOST_REQUIRE((seen & cw.mask).none());  // no thread twice
    seen |= cw.mask;
  }
  BOOST_REQUIRE(seen == mask);  // every active thread, nothing else
}

}  // namespace

// Seed 001 Example 1 / Figure 7: 8 threads, warps of 4; the paper numbers
// threads 1..8, so its threads (1,6,7) going to block C are ids 0, 5, 6 and
// block B gets ids 1, 2, 3, 4, 7. By hand: C's ids sit in lanes 0, 1, 2 ->
// one compacted warp; B's ids sit in lanes 1, 2, 3, 0, 3 -> lane 3 holds two
// -> two warps. Without compaction both sides touch both static warps -> 2+2.
// A and D run 2 warps each, so 2+1+2+2 = 7 warp slots vs 2+2+2+2 = 8: the
// paper's 12.5%.
BOOST_AUTO_TEST_CASE(paper_figure7_example) {
  const ThreadMask c_side = mask_of({0, 5, 6});
  const ThreadMask b_side = mask_of({1, 2, 3, 4, 7});
  ThreadCompactor tbc(true), base(false);

  const auto c = drain(tbc, c_side, 8, 4);
  BOOST_REQUIRE_EQUAL(c.size(), 1u);
  BOOST_CHECK(c[0].mask == c_side);
  BOOST_CHECK_EQUAL(c[0].lane_thread[0], 0u);
  BOOST_CHECK_EQUAL(c[0].lane_thread[1], 5u);
  BOOST_CHECK_EQUAL(c[0].lane_thread[2], 6u);
  BOOST_CHECK_EQUAL(c[0].lane_thread[3], kNoThread);

  const auto b = drain(tbc, b_side, 8, 4);
  BOOST_REQUIRE_EQUAL(b.size(), 2u);
  BOOST_CHECK(b[0].mask == mask_of({4, 1, 2, 3}));  // lowest id per lane first
  BOOST_CHECK(b[1].mask == mask_of({7}));

  const auto c_static = drain(base, c_side, 8, 4);
  const auto b_static = drain(base, b_side, 8, 4);
  BOOST_REQUIRE_EQUAL(c_static.size(), 2u);
  BOOST_REQUIRE_EQUAL(b_static.size(), 2u);
  BOOST_CHECK(c_static[0].mask == mask_of({0}));
  BOOST_CHECK(c_static[1].mask == mask_of({5, 6}));
  BOOST_CHECK(b_static[0].mask == mask_of({1, 2, 3}));
  BOOST_CHECK(b_static[1].mask == mask_of({4, 7}));

  const uint32_t tbc_slots = 2 + c.size() + b.size() + 2;
  const uint32_t base_slots = 2 + c_static.size() + b_static.size() + 2;
  BOOST_CHECK_EQUAL(tbc_slots, 7u);
  BOOST_CHECK_EQUAL(base_slots, 8u);

  // Read with 0-based ids 1, 6, 7 instead, the counts are the same: lanes
  // 1, 2, 3 -> one warp; the rest (0, 2, 3, 4, 5) has lane 0 twice -> two.
  BOOST_CHECK_EQUAL(ThreadCompactor::count_warps(mask_of({1, 6, 7}), 8, 4, true), 1u);
  BOOST_CHECK_EQUAL(ThreadCompactor::count_warps(mask_of({0, 2, 3, 4, 5}), 8, 4, true), 2u);
  BOOST_CHECK_EQUAL(ThreadCompactor::count_warps(mask_of({1, 6, 7}), 8, 4, false), 2u);
  BOOST_CHECK_EQUAL(ThreadCompactor::count_warps(mask_of({0, 2, 3, 4, 5}), 8, 4, false), 2u);
}

// The encoder of each lane takes its lowest pending id first, so warp k
// holds every lane's k-th active thread.
BOOST_AUTO_TEST_CASE(lowest_thread_of_a_lane_goes_first) {
  ThreadCompactor c;
  const auto warps = drain(c, mask_of({8, 0, 4, 13, 1}), 16, 4);
  BOOST_REQUIRE_EQUAL(warps.size(), 3u);
  BOOST_CHECK(warps[0].mask == mask_of({0, 1}));
  BOOST_CHECK(warps[1].mask == mask_of({4, 13}));
  BOOST_CHECK(warps[2].mask == mask_of({8}));
  BOOST_CHECK_EQUAL(warps[1].lane_thread[1], 13u);
  BOOST_CHECK_EQUAL(warps[2].lane_thread[1], kNoThread);
}

BOOST_AUTO_TEST_CASE(random_masks_keep_lanes_cover_the_mask_and_need_max_lane_population) {
  std::mt19937 rng(20261121);
  const uint32_t warp_sizes[] = {4, 8, 32, 64};
  const uint32_t ctas[] = {1024, 1000, 96, 37, 1};
  const double densities[] = {0.02, 0.3, 0.7, 1.0};
  for (uint32_t w : warp_sizes)
    for (uint32_t threads : ctas)
      for (double p : densities)
        for (int rep = 0; rep < 5; ++rep) {
          std::bernoulli_distribution bit(p);
          ThreadMask mask;
          for (uint32_t t = 0; t < threads; ++t)
            if (bit(rng)) mask.set(t);
          BOOST_TEST_CONTEXT("W=" << w << " threads=" << threads << " p=" << p << " rep=" << rep) {
            ThreadCompactor tbc(true);
            const auto warps = drain(tbc, mask, threads, w);
            check_common(warps, mask, w);
            const uint32_t expect = max_lane_population(mask, threads, w);
            BOOST_REQUIRE_EQUAL(warps.size(), expect);
            BOOST_REQUIRE_EQUAL(ThreadCompactor::count_warps(mask, threads, w, true), expect);
            // Never more warps than the block has static warps (seed 001 §3.3).
            BOOST_REQUIRE_LE(warps.size(), (threads + w - 1) / w);
            // Within a lane, ids come out in ascending order.
            for (uint32_t lane = 0; lane < w; ++lane) {
              uint32_t last = 0;
              bool any = false;
              for (const auto& cw : warps) {
                const uint32_t t = cw.lane_thread[lane];
                if (t == kNoThread) continue;
                if (any) BOOST_REQUIRE_GT(t, last);
                last = t;
                any = true;
              }
            }
            // Lanes only go idle at the tail: a lane with n threads fills
            // exactly warps 0..n-1.
            for (uint32_t lane = 0; lane < w; ++lane) {
              bool idle = false;
              for (const auto& cw : warps) {
                if (cw.lane_thread[lane] == kNoThread) idle = true;
                else BOOST_REQUIRE(!idle);
              }
            }

            ThreadCompactor base(false);
            const auto statics = drain(base, mask, threads, w);
            check_common(statics, mask, w);
            const uint32_t active = active_static_warps(mask, threads, w);
            BOOST_REQUIRE_EQUAL(statics.size(), active);
            BOOST_REQUIRE_EQUAL(ThreadCompactor::count_warps(mask, threads, w, false), active);
            // Compaction never needs more warps than the static layout.
            BOOST_REQUIRE_LE(warps.size(), statics.size());
            // Each static-mode warp is exactly one original warp's active
            // threads, in ascending warp order.
            uint32_t prev_warp = 0;
            for (size_t i = 0; i < statics.size(); ++i) {
              const uint32_t sw = statics[i].mask.first() / w;
              if (i > 0) BOOST_REQUIRE_GT(sw, prev_warp);
              prev_warp = sw;
              const uint32_t base_t = sw * w;
              const ThreadMask original = ThreadMask::range(base_t, std::min(w, threads - base_t));
              BOOST_REQUIRE(statics[i].mask == (mask & original));
            }
          }
        }
}

// A full 1024-thread CTA has nothing to compact: both modes give back the
// 1024 / W original warps in order.
BOOST_AUTO_TEST_CASE(full_cta_of_1024_threads_gives_the_static_warps) {
  const ThreadMask full = ThreadMask::range(0, 1024);
  for (uint32_t w : {4u, 8u, 32u, 64u}) {
    for (bool compact : {true, false}) {
      ThreadCompactor c(compact);
      const auto warps = drain(c, full, 1024, w);
      BOOST_REQUIRE_EQUAL(warps.size(), 1024 / w);
      for (uint32_t i = 0; i < warps.size(); ++i)
        BOOST_REQUIRE(warps[i].mask == ThreadMask::range(i * w, w));
    }
  }
}

// One thread per static warp, each in its own lane: compaction folds 32
// static warps into a single warp (the best case); static mode keeps 32.
BOOST_AUTO_TEST_CASE(diagonal_mask_folds_into_one_warp) {
  ThreadMask diag;
  for (uint32_t i = 0; i < 32; ++i) diag.set(i * 32 + i);
  ThreadCompactor tbc(true), base(false);
  const auto warps = drain(tbc, diag, 1024, 32);
  BOOST_REQUIRE_EQUAL(warps.size(), 1u);
  BOOST_CHECK(warps[0].mask == diag);
  BOOST_CHECK_EQUAL(warps[0].active_lanes(), 32u);
  BOOST_CHECK_EQUAL(drain(base, diag, 1024, 32).size(), 32u);
}

// All threads in one lane: compaction cannot help (lane-bound), one warp per
// thread in both modes.
BOOST_AUTO_TEST_CASE(single_lane_mask_cannot_be_compacted) {
  ThreadMask lane3;
  for (uint32_t t = 3; t < 1024; t += 64) lane3.set(t);
  ThreadCompactor tbc(true);
  BOOST_CHECK_EQUAL(drain(tbc, lane3, 1024, 64).size(), 16u);
  BOOST_CHECK_EQUAL(ThreadCompactor::count_warps(lane3, 1024, 64, false), 16u);
}

// An empty target (all threads took the other side) yields no warp; the
// stack pops such an entry at once.
BOOST_AUTO_TEST_CASE(empty_mask_generates_nothing) {
  ThreadCompactor c;
  c.start(ThreadMask{}, 256, 32);
  BOOST_CHECK(!c.busy());
  BOOST_CHECK_EQUAL(c.warps_needed(), 0u);
  CompactedWarp out;
  BOOST_CHECK(!c.next(out));
  ThreadCompactor fresh;
  BOOST_CHECK(!fresh.busy());
  BOOST_CHECK(!fresh.next(out));
}

// The mode is latched at start(): switching mid-generation changes the next
// start() only.
BOOST_AUTO_TEST_CASE(mode_switch_applies_at_next_start) {
  const ThreadMask m = mask_of({0, 5, 6});
  ThreadCompactor c(true);
  c.start(m, 8, 4);
  c.set_compacting(false);
  BOOST_CHECK(!c.compacting());
  CompactedWarp out;
  BOOST_REQUIRE(c.next(out));
  BOOST_CHECK(out.mask == m);
  BOOST_CHECK(!c.busy());
  BOOST_CHECK_EQUAL(drain(c, m, 8, 4).size(), 2u);
}

// A restart drops what the previous generation had left.
BOOST_AUTO_TEST_CASE(restart_discards_the_rest) {
  ThreadCompactor c;
  c.start(ThreadMask::range(0, 64), 64, 4);  // 16 warps
  CompactedWarp out;
  BOOST_REQUIRE(c.next(out));
  const auto warps = drain(c, mask_of({2}), 64, 4);
  BOOST_REQUIRE_EQUAL(warps.size(), 1u);
  BOOST_CHECK(warps[0].mask == mask_of({2}));
}

BOOST_AUTO_TEST_CASE(bad_arguments_throw) {
  ThreadCompactor c;
  BOOST_CHECK_THROW(c.start(mask_of({0}), 64, 0), std::invalid_argument);
  BOOST_CHECK_THROW(c.start(mask_of({0}), 64, 65), std::invalid_argument);
  BOOST_CHECK_THROW(c.start(mask_of({0}), 1025, 32), std::invalid_argument);
  BOOST_CHECK_THROW(c.start(mask_of({40}), 40, 32), std::invalid_argument);  // past the CTA
  BOOST_CHECK_THROW(ThreadCompactor::count_warps(mask_of({0}), 8, 100, true), std::invalid_argument);
  BOOST_CHECK(!c.busy());
}
