#define BOOST_TEST_MODULE gang_issue_scheduler
#include <boost/test/unit_test.hpp>

// Seed 000's gang issue scheduler: BGTO (big gangs first) against LGTO
// (little gangs first), greedy-then-oldest ties, disjoint slices, the
// gangs-per-cycle limit, round robin and lowest PC.

#include <stdexcept>
#include <vector>

#include "vws/gang_issue_scheduler.h"

using simt::vws::GangCandidate;
using simt::vws::GangIssueScheduler;
using Policy = GangIssueScheduler::Policy;

namespace {

// Gangs of one original gang after a split (disjoint slices), plus one of
// another original gang (overlapping slices).
std::vector<GangCandidate> gangs() {
  return {
      {0, 0x03, 40, 5},  // 2 warps, slices 0-1
      {1, 0x3c, 30, 5},  // 4 warps, slices 2-5
      {2, 0xc0, 20, 5},  // 2 warps, slices 6-7
      {8, 0xff, 10, 1},  // 8 warps of an older original gang: every slice
  };
}

std::vector<uint32_t> ids(const std::vector<GangCandidate>& g, const std::vector<uint32_t>& picked) {
  std::vector<uint32_t> v;
  for (uint32_t i : picked) v.push_back(g[i].id);
  return v;
}

}  // namespace

BOOST_AUTO_TEST_CASE(big_gangs_first_against_little_gangs_first) {
  const std::vector<GangCandidate> g = gangs();
  GangIssueScheduler big(Policy::Bgto, 2);
  BOOST_TEST(ids(g, big.pick(g)) == (std::vector<uint32_t>{8}), boost::test_tools::per_element());
  GangIssueScheduler little(Policy::Lgto, 2);
  // The two 2-warp gangs (same size, same age: lower id first), on disjoint slices.
  BOOST_TEST(ids(g, little.pick(g)) == (std::vector<uint32_t>{0, 2}), boost::test_tools::per_element());
  // Unlimited: everything that fits beside them.
  GangIssueScheduler all_little(Policy::Lgto, 0);
  BOOST_TEST(ids(g, all_little.pick(g)) == (std::vector<uint32_t>{0, 2, 1}), boost::test_tools::per_element());
  // Without the 8-warp gang, BGTO takes the 4-warp gang then a 2-warp one.
  const std::vector<GangCandidate> split(g.begin(), g.begin() + 3);
  GangIssueScheduler big2(Policy::Bgto, 2);
  BOOST_TEST(ids(split, big2.pick(split)) == (std::vector<uint32_t>{1, 0}), boost::test_tools::per_element());
  GangIssueScheduler one(Policy::Bgto, 1);
  BOOST_TEST(one.pick(split).size() == 1u);
}

BOOST_AUTO_TEST_CASE(greedy_then_oldest) {
  const std::vector<GangCandidate> g = gangs();
  GangIssueScheduler s(Policy::Gto, 1);
  BOOST_TEST(ids(g, s.pick(g)) == (std::vector<uint32_t>{8}), boost::test_tools::per_element());  // oldest
  const std::vector<GangCandidate> young(g.begin(), g.begin() + 3);
  BOOST_TEST(ids(young, s.pick(young)) == (std::vector<uint32_t>{0}), boost::test_tools::per_element());
  // Gang 0 issued last: it stays first while ready, even against the older 8.
  BOOST_TEST(ids(g, s.pick(g)) == (std::vector<uint32_t>{0}), boost::test_tools::per_element());
  // Once it is not ready, the oldest goes.
  const std::vector<GangCandidate> rest(g.begin() + 1, g.end());
  BOOST_TEST(ids(rest, s.pick(rest)) == (std::vector<uint32_t>{8}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(round_robin_and_lowest_pc) {
  const std::vector<GangCandidate> all = gangs();
  const std::vector<GangCandidate> g(all.begin(), all.begin() + 3);
  GangIssueScheduler rr(Policy::Lrr, 1);
  BOOST_TEST(ids(g, rr.pick(g)) == (std::vector<uint32_t>{0}), boost::test_tools::per_element());
  BOOST_TEST(ids(g, rr.pick(g)) == (std::vector<uint32_t>{1}), boost::test_tools::per_element());
  BOOST_TEST(ids(g, rr.pick(g)) == (std::vector<uint32_t>{2}), boost::test_tools::per_element());
  BOOST_TEST(ids(g, rr.pick(g)) == (std::vector<uint32_t>{0}), boost::test_tools::per_element());
  GangIssueScheduler lpc(Policy::Lpc, 0);
  BOOST_TEST(ids(g, lpc.pick(g)) == (std::vector<uint32_t>{2, 1, 0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(policy_names) {
  for (const char* n : {"bgto", "lgto", "gto", "lrr", "lpc"})
    BOOST_TEST(GangIssueScheduler::name(GangIssueScheduler::parse(n)) == std::string(n));
  BOOST_CHECK_THROW(GangIssueScheduler::parse("oldest"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(claims_follow_the_priority_on_free_slices_and_keep_the_greedy_state) {
  const std::vector<GangCandidate> g = gangs();
  GangIssueScheduler s(Policy::Bgto, 2);
  // Slices 2-5 went to an issued gang: the 8-warp gang cannot claim; the
  // two 2-warp gangs can, oldest-then-lowest id first.
  BOOST_TEST(ids(g, s.claim(g, 0x3c)) == (std::vector<uint32_t>{0, 2}), boost::test_tools::per_element());
  // Claims do not make a gang "greedy": the next pick still takes the
  // 8-warp gang first.
  BOOST_TEST(ids(g, s.pick(g)) == (std::vector<uint32_t>{8}), boost::test_tools::per_element());
  GangIssueScheduler one(Policy::Bgto, 1);
  BOOST_TEST(one.claim(g, 0xff).empty());
}
