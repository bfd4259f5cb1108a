// The Origami scheduler on scripted warps: the lane-aware group with more
// warps goes first, a group is selected at most M phases in a row, and the
// favoured SP type goes first inside the group (seed 004 §3.2).
#define BOOST_TEST_MODULE origami_policy
#include <boost/test/unit_test.hpp>

#include <vector>

#include "common/policy_equivalence.h"
#include "power/origami_policy.h"

using namespace simt;
using ptx::InstrClass;

namespace {

sm::WarpCandidate warp(uint32_t id, uint32_t active, InstrClass cls, bool ready = true) {
  sm::WarpCandidate c;
  c.warp = id;
  c.age = id;
  c.priority = active;
  c.cls = cls;
  c.ready = ready;
  return c;
}

power::OrigamiPolicy make(uint32_t warps) {
  power::OrigamiPolicy p(8, 32, 100, 2);
  for (uint32_t w = 0; w < warps; ++w) p.on_warp_added(w, w);
  return p;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_bigger_group_goes_first_and_the_favoured_type_inside_it) {
  power::OrigamiPolicy p = make(4);
  // Three partial warps, one full: the "< 32" group is selected.
  std::vector<sm::WarpCandidate> c = {warp(0, 32, InstrClass::Int), warp(1, 7, InstrClass::Fp),
                                      warp(2, 12, InstrClass::Int), warp(3, 30, InstrClass::Fp)};
  BOOST_TEST(p.pick(c, 0) == 2);  // partial and INT (favoured at start)
  BOOST_TEST(!p.full_group());
  p.on_issue(2, InstrClass::Int, 0);
  c[2].ready = false;
  // No partial INT warp ready: a partial FP one (round robin after warp 2:
  // warp 3) before the full INT one.
  BOOST_TEST(p.pick(c, 1) == 3);
  p.on_issue(3, InstrClass::Fp, 1);
  BOOST_TEST((p.favoured() == InstrClass::Fp));
  c[3].ready = false;
  c[2].ready = true;  // INT again, but FP is favoured now
  BOOST_TEST(p.pick(c, 2) == 1);
  p.on_issue(1, InstrClass::Fp, 2);
  c[1].ready = false;
  c[2].ready = false;
  // Nothing of the selected group is ready: the other group issues.
  BOOST_TEST(p.pick(c, 3) == 0);
}

BOOST_AUTO_TEST_CASE(a_group_is_selected_at_most_m_phases_in_a_row) {
  power::OrigamiPolicy p = make(4);
  std::vector<sm::WarpCandidate> c = {warp(0, 32, InstrClass::Int), warp(1, 32, InstrClass::Int),
                                      warp(2, 32, InstrClass::Int), warp(3, 5, InstrClass::Int)};
  BOOST_TEST(p.pick(c, 0) >= 0);
  BOOST_TEST(p.full_group());       // phase 0: the full group is bigger
  p.pick(c, 150);
  BOOST_TEST(p.full_group());       // phase 1: still (2 phases in a row)
  const int i = p.pick(c, 250);     // phase 2: forced switch
  BOOST_TEST(!p.full_group());
  BOOST_TEST(i == 3);
  BOOST_TEST(p.forced_switches() == 1u);
  p.pick(c, 350);                   // phase 3: the full group again (it is bigger)
  BOOST_TEST(p.full_group());
  BOOST_TEST(p.group_switches() == 2u);
}

// The issue stage calls pick_incremental(): Origami's phases (before_pick)
// and group choice must come out as through pick().
BOOST_AUTO_TEST_CASE(pick_incremental_picks_what_pick_picks) {
  power::OrigamiPolicy plain(3, 32, 7, 2), inc(3, 32, 7, 2);
  test::check_incremental_pick(plain, inc, "origami");
  BOOST_TEST(plain.group_switches() == inc.group_switches());
  BOOST_TEST(plain.group_switches() > 0u);
}
