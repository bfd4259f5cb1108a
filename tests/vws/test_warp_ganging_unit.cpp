#define BOOST_TEST_MODULE warp_ganging_unit
#include <boost/test/unit_test.hpp>

// Seed 000's warp ganging unit as the issue stage's lock-step unit, driven
// through a scripted view of the warps (no SystemC): original gangs at
// launch, issue only when every member is ready, splitting on the members'
// next PCs and on memory latency divergence, meets at warp-synchronous
// instructions, opportunistic reformation that leaves barrier waiters out.

#include <algorithm>
#include <vector>

#include "stats/stats.h"
#include "vws/warp_ganging_unit.h"

using simt::sm::LockstepGroup;
using simt::sm::LockstepView;
using simt::vws::GangingParams;
using simt::vws::WarpGangingUnit;

namespace {

constexpr uint32_t kSlices = 8, kSlots = 32;

// What the issue stage would say about each warp slot.
struct Script : LockstepView {
  std::vector<bool> run = std::vector<bool>(kSlots, true), elig = std::vector<bool>(kSlots, true),
                    rdy = std::vector<bool>(kSlots, true), mem = std::vector<bool>(kSlots, false),
                    sync = std::vector<bool>(kSlots, false), bar = std::vector<bool>(kSlots, false);
  std::vector<uint32_t> pcs = std::vector<uint32_t>(kSlots, 0);
  uint32_t lanes = 0xffffffffu;
  uint32_t reconvergence_pc = ~0u;  // the one PC that is a reconvergence point
  simt::util::BitSet every = [] {
    simt::util::BitSet b(kSlots);
    for (uint32_t i = 0; i < kSlots; ++i) b.set(i);
    return b;
  }();
  const simt::util::BitSet& maybe_sync() const override { return every; }
  bool running(uint32_t s) const override { return run[s]; }
  uint32_t pc(uint32_t s) const override { return pcs[s]; }
  bool eligible(uint32_t s) const override { return elig[s]; }
  bool ready(uint32_t s) const override { return elig[s] && rdy[s]; }
  // Scripts change any slot between cycles: every slot counts as touched,
  // and the pipes are always free.
  bool unblocked(uint32_t s) const override { return ready(s); }
  uint32_t pipe(uint32_t) const override { return 0; }
  uint64_t free_slices(uint32_t) const override { return free; }
  uint64_t free = ~uint64_t{0};  // slices whose pipe latch has room
  const simt::util::BitSet& touched() const override { return every; }
  bool waits_on_memory(uint32_t s) const override { return mem[s]; }
  bool at_barrier(uint32_t s) const override { return bar[s]; }
  bool at_reconvergence(uint32_t s) const override { return pcs[s] == reconvergence_pc; }
  bool sync_point(uint32_t s, uint32_t& l) const override {
    l = lanes;
    return sync[s];
  }
};

struct Fixture {
  simt::stats::Registry reg;
  Script v;
  std::vector<uint32_t> slots0 = {0, 1, 2, 3, 4, 5, 6, 7};  // one CTA of 32 threads: slot k on slice k
  std::unique_ptr<WarpGangingUnit> unit(GangingParams p = {}) {
    auto u = std::make_unique<WarpGangingUnit>(p, kSlots, kSlices);
    u->register_stats(reg, "sm0.ganging");
    u->start_cta(0, slots0, v);
    u->take_changed();
    return u;
  }
  uint64_t count(const char* name) { return reg.find_counter(std::string("sm0.ganging.") + name)->value; }
};

std::vector<uint32_t> members(const WarpGangingUnit& u, uint32_t leader) {
  std::vector<uint32_t> m;
  u.members(leader, m);
  return m;
}

}  // namespace

BOOST_FIXTURE_TEST_CASE(an_original_gang_issues_only_when_every_member_is_ready, Fixture) {
  auto u = unit();
  for (uint32_t s : slots0) {
    BOOST_TEST(u->holds(s));
    BOOST_TEST(u->fetch_leader(s) == 0u);
  }
  BOOST_TEST(members(*u, 0).size() == 8u);
  v.rdy[5] = false;
  BOOST_TEST(u->pick(v, 0).empty());
  v.rdy[5] = true;
  const std::vector<LockstepGroup>& g = u->pick(v, 1);
  BOOST_TEST_REQUIRE(g.size() == 1u);
  BOOST_TEST(g[0].gang);
  BOOST_TEST(g[0].slots == slots0, boost::test_tools::per_element());
}

BOOST_FIXTURE_TEST_CASE(control_divergence_splits_by_next_pc_and_lone_warps_go_to_their_slice, Fixture) {
  auto u = unit();
  for (uint32_t s : slots0) v.pcs[s] = s < 4 ? 10 : 20;
  v.pcs[7] = 30;
  u->moved(slots0, v);
  BOOST_TEST(count("control_splits") == 1u);
  BOOST_TEST(members(*u, 0) == (std::vector<uint32_t>{0, 1, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(members(*u, 4) == (std::vector<uint32_t>{4, 5, 6}), boost::test_tools::per_element());
  BOOST_TEST(!u->holds(7));  // alone on its PC: its slice schedules it
  BOOST_TEST(u->fetch_leader(5) == 4u);
  // Every member's grouping changed; none joined a gang, so none refetches.
  const auto& ch = u->take_changed();
  BOOST_TEST(ch.size() == 8u);
  BOOST_TEST(std::none_of(ch.begin(), ch.end(), [](const auto& c) { return c.refetch; }));
  // Both gangs issue in one cycle (disjoint slices, two gangs a cycle).
  BOOST_TEST(u->pick(v, 2).size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(gangs_per_cycle_limits_the_gangs_issued, Fixture) {
  GangingParams p;
  p.gangs_per_cycle = 1;
  auto u = unit(p);
  for (uint32_t s : slots0) v.pcs[s] = s < 4 ? 10 : 20;
  u->moved(slots0, v);
  u->take_changed();
  BOOST_TEST(u->pick(v, 0).size() == 1u);
}

// Slices 0-2 got their data, the others still wait on the load.
void loads_return_unevenly(Script& v, const std::vector<uint32_t>& slots) {
  for (uint32_t s : slots) {
    v.rdy[s] = s < 3;
    v.mem[s] = s >= 3;
  }
}

BOOST_FIXTURE_TEST_CASE(impatient_splitting_ungangs_every_member, Fixture) {
  GangingParams p;
  p.split_on_memory = "impatient";
  auto u = unit(p);
  loads_return_unevenly(v, slots0);
  u->pick(v, 0);
  BOOST_TEST(count("memory_splits") == 1u);
  for (uint32_t s : slots0) BOOST_TEST(!u->holds(s), "slot " << s);
}

BOOST_FIXTURE_TEST_CASE(group_splitting_keeps_the_ready_members_together, Fixture) {
  GangingParams p;
  p.split_on_memory = "group";
  auto u = unit(p);
  loads_return_unevenly(v, slots0);
  u->pick(v, 0);
  BOOST_TEST(count("memory_splits") == 1u);
  BOOST_TEST(members(*u, 0) == (std::vector<uint32_t>{0, 1, 2}), boost::test_tools::per_element());
  BOOST_TEST(members(*u, 3) == (std::vector<uint32_t>{3, 4, 5, 6, 7}), boost::test_tools::per_element());
}

BOOST_FIXTURE_TEST_CASE(without_memory_splitting_a_gang_waits_for_its_slowest_member, Fixture) {
  auto u = unit();
  loads_return_unevenly(v, slots0);
  BOOST_TEST(u->pick(v, 0).empty());
  BOOST_TEST(count("memory_splits") == 0u);
  BOOST_TEST(members(*u, 0).size() == 8u);
}

BOOST_FIXTURE_TEST_CASE(without_ganging_warps_meet_at_warp_synchronous_instructions, Fixture) {
  GangingParams p;
  p.ganging = false;
  auto u = unit(p);
  for (uint32_t s : slots0) BOOST_TEST(!u->holds(s));
  v.lanes = 0x000000ffu;  // lanes 0-7: slices 0 and 1 take part
  v.sync[0] = v.sync[1] = true;
  v.pcs[0] = v.pcs[1] = 12;
  v.pcs[1] = 13;  // not there yet
  BOOST_TEST(u->pick(v, 0).empty());
  v.pcs[1] = 12;
  const auto& g = u->pick(v, 1);
  BOOST_TEST_REQUIRE(g.size() == 1u);
  BOOST_TEST(g[0].slots == (std::vector<uint32_t>{0, 1}), boost::test_tools::per_element());
  BOOST_TEST(count("meets") == 1u);
}

BOOST_FIXTURE_TEST_CASE(a_gang_that_holds_every_lane_issues_a_shuffle_as_a_gang, Fixture) {
  auto u = unit();
  for (uint32_t s : slots0) v.sync[s] = true;
  const auto& g = u->pick(v, 0);
  BOOST_TEST_REQUIRE(g.size() == 1u);
  BOOST_TEST(g[0].gang);
  BOOST_TEST(count("meets") == 0u);
}

BOOST_FIXTURE_TEST_CASE(reformation_merges_equal_pcs_but_not_barrier_waiters, Fixture) {
  GangingParams p;
  p.reform = "opportunistic";
  auto u = unit(p);
  for (uint32_t s : slots0) v.pcs[s] = 10 + s;  // fully split: every warp alone
  u->moved(slots0, v);
  u->take_changed();
  for (uint32_t s : slots0) BOOST_TEST(!u->holds(s));
  // Slices 0, 1 and 2 stand at PC 40; slice 2 waits at a CTA barrier there.
  v.pcs[0] = v.pcs[1] = v.pcs[2] = 40;
  v.bar[2] = true;
  u->pick(v, 0);
  BOOST_TEST(count("reforms") == 1u);
  BOOST_TEST(members(*u, 0) == (std::vector<uint32_t>{0, 1}), boost::test_tools::per_element());
  BOOST_TEST(!u->holds(2));
  const auto& ch = u->take_changed();
  BOOST_TEST(std::all_of(ch.begin(), ch.end(), [](const auto& c) { return c.refetch; }));
}

BOOST_FIXTURE_TEST_CASE(sync_wait_holds_arrivals_at_a_reconvergence_point_for_n_cycles, Fixture) {
  GangingParams p;
  p.reform = "opportunistic";
  p.sync_wait = 5;
  auto u = unit(p);
  v.reconvergence_pc = 40;
  // Split in two gangs: slices 0-3 at PC 20, slices 4-7 at PC 30.
  for (uint32_t s : slots0) v.pcs[s] = s < 4 ? 20 : 30;
  u->moved(slots0, v);
  u->take_changed();
  BOOST_TEST(u->pick(v, 0).size() == 2u);  // neither waits
  BOOST_TEST(!u->held_back()->any());
  // The first gang reaches the reconvergence point at cycle 1 and is held
  // there until cycle 6, the second still elsewhere.
  const std::vector<uint32_t> first = {0, 1, 2, 3}, second = {4, 5, 6, 7};
  for (uint32_t s : first) v.pcs[s] = 40;
  u->moved(first, v);
  for (uint64_t now = 1; now < 6; ++now) {
    const auto& g = u->pick(v, now);
    BOOST_TEST(g.size() == 1u);
    BOOST_TEST(g[0].slots.front() == 4u, "cycle " << now << ": only the second gang issues");
    BOOST_TEST(u->held_back()->test(0));
  }
  BOOST_TEST(u->pick(v, 6).size() == 2u);  // waited 5 cycles: it goes on
  BOOST_TEST(count("sync_waits") == 5u * 4u);
  // Again at cycle 10; the second gang arrives at cycle 12 and reformation
  // (one set a cycle, this SM has one) merges them: whole again, nobody waits.
  for (uint32_t s : first) v.pcs[s] = 41;
  u->moved(first, v);
  u->pick(v, 9);
  v.reconvergence_pc = 41;
  u->pick(v, 10);
  u->pick(v, 11);
  BOOST_TEST(u->held_back()->test(0));
  for (uint32_t s : second) v.pcs[s] = 41;
  u->moved(second, v);
  const auto& g = u->pick(v, 12);
  BOOST_TEST(count("reforms") == 1u);
  BOOST_TEST(members(*u, 0).size() == 8u);
  BOOST_TEST(!u->held_back()->any());
  BOOST_TEST(g.empty());  // the merged gang refetches first
}

BOOST_FIXTURE_TEST_CASE(finished_warps_leave_and_their_sets_are_reused, Fixture) {
  auto u = unit();
  for (uint32_t s : slots0)
    if (s >= 2) v.run[s] = false;  // six warps exit
  u->moved(slots0, v);
  BOOST_TEST(members(*u, 0) == (std::vector<uint32_t>{0, 1}), boost::test_tools::per_element());
  for (uint32_t s : slots0) u->retired(s);
  BOOST_TEST(!u->holds(0));
  // The set is free again: a new CTA's gang takes it.
  std::fill(v.run.begin(), v.run.end(), true);
  u->start_cta(1, slots0, v);
  BOOST_TEST(members(*u, 0).size() == 8u);
}

BOOST_FIXTURE_TEST_CASE(a_gang_held_up_by_a_full_pipe_latch_claims_that_pipe_on_its_slices, Fixture) {
  auto u = unit();
  for (uint32_t s : slots0) v.pcs[s] = s < 4 ? 10 : 20;
  u->moved(slots0, v);
  u->take_changed();
  // Slice 2's latch is full: gang {0-3} waits and claims pipe 0 on slices
  // 0-3 (their own warps may not refill it); gang {4-7} issues and claims nothing.
  v.free = ~uint64_t{0} & ~(uint64_t{1} << 2);
  const std::vector<LockstepGroup>& g = u->pick(v, 1);
  BOOST_TEST_REQUIRE(g.size() == 1u);
  BOOST_TEST(g[0].slots.front() == 4u);
  const std::vector<uint8_t>* claimed = u->claimed_pipes();
  BOOST_TEST_REQUIRE(claimed != nullptr);
  for (uint32_t k = 0; k < kSlices; ++k) BOOST_TEST((*claimed)[k] == (k < 4 ? 1u : 0u), "slice " << k);
  // The latch drained: the gang issues, and no pipe stays claimed.
  v.free = ~uint64_t{0};
  BOOST_TEST(u->pick(v, 2).size() == 2u);
  for (uint32_t k = 0; k < kSlices; ++k) BOOST_TEST((*u->claimed_pipes())[k] == 0u, "slice " << k);
}

BOOST_FIXTURE_TEST_CASE(slice_only_machines_claim_no_pipes, Fixture) {
  GangingParams p;
  p.ganging = false;
  BOOST_TEST(unit(p)->claimed_pipes() == nullptr);
}

// 32 slots make 4 sets, one per original gang. A CTA of 11 warps takes two
// sets (the second holds 3 warps); a set frees only when all its warps
// retired, so slots freed on some slices do not make room by themselves.
BOOST_FIXTURE_TEST_CASE(ctas_need_a_free_set_per_original_gang, Fixture) {
  auto u = unit();  // slots 0-7: one set
  BOOST_TEST(u->has_room(24u));
  BOOST_TEST(!u->has_room(25u));
  u->start_cta(1, {8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}, v);
  BOOST_TEST(u->has_room(8u));
  BOOST_TEST(!u->has_room(9u));
  u->retired(8);  // one warp of a full set: the set stays
  u->retired(16);
  u->retired(17);
  BOOST_TEST(!u->has_room(9u));
  u->retired(18);  // the short set's last warp
  BOOST_TEST(u->has_room(9u));
  BOOST_TEST(!u->has_room(17u));
}
