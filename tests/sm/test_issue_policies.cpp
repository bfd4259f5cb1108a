#define BOOST_TEST_MODULE issue_policies
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <memory>
#include <ostream>
#include <random>
#include <vector>

#include "config/param_registry.h"
#include "sm/gates_policy.h"
#include "sm/gto_policy.h"
#include "sm/issue_policy_factory.h"
#include "sm/lpc_policy.h"
#include "sm/lrr_policy.h"
#include "sm/two_level_policy.h"
#include "util/error.h"
#include "common/policy_equivalence.h"

using namespace simt;
using namespace simt::sm;
using ptx::InstrClass;
using Cands = std::vector<WarpCandidate>;

namespace simt::ptx {
std::ostream& operator<<(std::ostream& os, InstrClass c) { return os << class_name(c); }
}  // namespace simt::ptx

namespace {
constexpr InstrClass I = InstrClass::Int, F = InstrClass::Fp, M = InstrClass::Ldst;

WarpCandidate C(uint32_t warp, bool ready, InstrClass cls = I, uint64_t age = ~0ull, bool long_wait = false) {
  WarpCandidate c;
  c.warp = warp;
  c.ready = ready;
  c.cls = cls;
  c.age = age == ~0ull ? warp : age;
  c.long_wait = long_wait;
  return c;
}
// All warps 0..n-1 ready, class Int.
Cands all(uint32_t n) {
  Cands c;
  for (uint32_t w = 0; w < n; ++w) c.push_back(C(w, true));
  return c;
}
Cands except(uint32_t n, std::initializer_list<uint32_t> not_ready) {
  Cands c = all(n);
  for (uint32_t w : not_ready) c[w].ready = false;
  return c;
}
// One issue slot: pick, and tell the policy what issued. Returns the warp id or -1.
int step(IssuePolicy& p, const Cands& c, uint64_t now) {
  int i = p.pick(c, now);
  if (i < 0) return -1;
  p.on_issue(c[i].warp, c[i].cls, now);
  return int(c[i].warp);
}
void add_warps(IssuePolicy& p, uint32_t n) {
  for (uint32_t w = 0; w < n; ++w) p.on_warp_added(w, w);
}
}  // namespace

BOOST_AUTO_TEST_CASE(lrr_starts_after_the_last_issued_warp) {
  LrrPolicy p;
  add_warps(p, 4);
  uint64_t t = 0;
  BOOST_TEST(step(p, all(4), t++) == 0);
  BOOST_TEST(step(p, all(4), t++) == 1);
  BOOST_TEST(step(p, all(4), t++) == 2);
  BOOST_TEST(step(p, all(4), t++) == 3);
  BOOST_TEST(step(p, all(4), t++) == 0);            // wraps
  BOOST_TEST(step(p, except(4, {1}), t++) == 2);    // skips the stalled warp
  BOOST_TEST(step(p, except(4, {3}), t++) == 0);    // after 2: 3 stalled, wrap to 0
  BOOST_TEST(step(p, all(4), t++) == 1);            // 1 did not lose its turn for good
  BOOST_TEST(step(p, except(4, {0, 1, 2, 3}), t++) == -1);
  BOOST_TEST(step(p, except(4, {0, 2, 3}), t++) == 1);
  // The candidate order does not matter, only warp ids.
  Cands rev = all(4);
  std::reverse(rev.begin(), rev.end());
  int i = p.pick(rev, t);
  BOOST_TEST(rev[i].warp == 2u);
}

BOOST_AUTO_TEST_CASE(gto_keeps_the_greedy_warp_then_takes_the_oldest) {
  GtoPolicy p;
  // Ages: w0 5, w1 2, w2 9, w3 2 (tie with w1: lower id wins).
  auto cands = [](std::initializer_list<uint32_t> not_ready) {
    Cands c{C(0, true, I, 5), C(1, true, I, 2), C(2, true, I, 9), C(3, true, I, 2)};
    for (uint32_t w : not_ready) c[w].ready = false;
    return c;
  };
  for (uint32_t w = 0; w < 4; ++w) p.on_warp_added(w, cands({})[w].age);
  uint64_t t = 0;
  BOOST_TEST(step(p, cands({}), t++) == 1);      // oldest
  BOOST_TEST(step(p, cands({}), t++) == 1);      // greedy
  BOOST_TEST(step(p, cands({1}), t++) == 3);     // greedy stalled: oldest ready
  BOOST_TEST(step(p, cands({}), t++) == 3);      // now 3 is greedy, although 1 is as old
  BOOST_TEST(step(p, cands({3}), t++) == 1);
  BOOST_TEST(step(p, cands({1, 3}), t++) == 0);  // age 5 before age 9
  BOOST_TEST(step(p, cands({0}), t++) == 1);
  p.on_warp_removed(1);
  Cands rest{C(0, true, I, 5), C(2, true, I, 9), C(3, true, I, 2)};
  BOOST_TEST(step(p, rest, t++) == 3);
  BOOST_TEST(step(p, cands({0, 1, 2, 3}), t++) == -1);
}

BOOST_AUTO_TEST_CASE(two_level_issues_only_from_the_active_set) {
  TwoLevelPolicy p(2);
  add_warps(p, 5);
  uint64_t t = 0;
  BOOST_TEST(step(p, all(5), t++) == 0);
  BOOST_TEST((p.active() == std::vector<uint32_t>{0, 1}));
  BOOST_TEST((p.pending() == std::vector<uint32_t>{2, 3, 4}));
  BOOST_TEST(step(p, all(5), t++) == 1);
  BOOST_TEST(step(p, all(5), t++) == 0);  // round robin inside the active set, 2..4 wait
  p.on_long_latency(0);                   // w0 issued a load: leaves for the pending FIFO's back
  BOOST_TEST((p.active() == std::vector<uint32_t>{1}));
  BOOST_TEST((p.pending() == std::vector<uint32_t>{2, 3, 4, 0}));
  BOOST_TEST(step(p, all(5), t++) == 1);  // 2 refills; after 0 comes 1
  BOOST_TEST((p.active() == std::vector<uint32_t>{1, 2}));
  BOOST_TEST(step(p, all(5), t++) == 2);
  // w1's next instruction waits on memory: it is replaced by 3 (FIFO front).
  Cands c = all(5);
  c[1] = C(1, false, I, 1, true);
  BOOST_TEST(step(p, c, t++) == 3);
  BOOST_TEST((p.active() == std::vector<uint32_t>{2, 3}));
  BOOST_TEST((p.pending() == std::vector<uint32_t>{4, 0, 1}));
  BOOST_TEST(step(p, c, t++) == 2);
  p.on_wakeup(0);
  c[1].long_wait = false;
  c[2] = C(2, false, I, 2, true);
  BOOST_TEST(step(p, c, t++) == 3);  // 2 leaves, 4 joins
  BOOST_TEST((p.active() == std::vector<uint32_t>{3, 4}));
  BOOST_TEST((p.pending() == std::vector<uint32_t>{0, 1, 2}));
  // Only pending warps are ready: a two-level scheduler issues nothing.
  BOOST_TEST(step(p, except(5, {2, 3, 4}), t++) == -1);
  p.on_warp_removed(3);  // frees a slot: the FIFO front (woken 0) refills it
  Cands left{C(0, true), C(1, true), C(2, true), C(4, true)};
  BOOST_TEST(step(p, left, t++) == 4);
  BOOST_TEST((p.active() == std::vector<uint32_t>{4, 0}));
  BOOST_TEST((p.pending() == std::vector<uint32_t>{1, 2}));
}

BOOST_AUTO_TEST_CASE(two_level_skips_sleeping_warps_when_refilling) {
  TwoLevelPolicy p(1);
  add_warps(p, 2);
  BOOST_TEST(step(p, all(2), 0) == 0);
  p.on_long_latency(0);
  Cands c{C(0, true), C(1, false, I, 1, true)};
  BOOST_TEST(step(p, c, 1) == -1);  // 1 waits on memory, 0 sleeps until on_wakeup
  BOOST_TEST(p.active().empty());
  p.on_wakeup(0);
  BOOST_TEST(step(p, c, 2) == 0);   // 1 is in front but still waits: 0 refills
  BOOST_TEST((p.pending() == std::vector<uint32_t>{1}));
  BOOST_CHECK_THROW(p.pick(Cands{C(7, true)}, 3), std::logic_error);  // never added
}

BOOST_AUTO_TEST_CASE(gates_prefers_the_favoured_type_and_switches_only_when_it_runs_dry) {
  GatesPolicy p(4);
  add_warps(p, 4);
  auto cands = [](InstrClass c0, InstrClass c1, InstrClass c2, InstrClass c3, bool w3_ready) {
    return Cands{C(0, true, c0), C(1, true, c1), C(2, true, c2), C(3, w3_ready, c3)};
  };
  uint64_t t = 0;
  BOOST_TEST(p.favoured() == I);
  BOOST_TEST(step(p, cands(F, I, F, M, true), t++) == 1);  // the only INT warp
  BOOST_TEST(step(p, cands(F, F, F, M, true), t++) == 3);  // no INT: LDST keeps both SP idle stretches
  BOOST_TEST(p.favoured() == I);
  BOOST_TEST(step(p, cands(F, F, F, M, false), t++) == 0); // only FP left: switch
  BOOST_TEST(p.favoured() == F);
  BOOST_TEST(p.type_switches() == 1u);
  BOOST_TEST(step(p, cands(I, F, F, M, false), t++) == 1); // round robin among FP warps
  BOOST_TEST(step(p, cands(I, I, F, M, false), t++) == 2); // FP although INT warps come first
  BOOST_TEST(step(p, cands(I, I, I, M, false), t++) == 0); // FP ran dry: back to INT
  BOOST_TEST(p.favoured() == I);
  BOOST_TEST(p.type_switches() == 2u);
  // Plain two-level would take w1 (next in round robin); GATES takes the INT warp.
  BOOST_TEST(step(p, cands(F, F, I, M, true), t++) == 2);
}

namespace {
// A random workload: each warp runs a fixed cyclic program of classes and is
// ready with probability 1/2 each cycle; long-latency waits come and go.
struct RandomRun {
  std::vector<std::vector<InstrClass>> prog;
  std::vector<size_t> pc;
  std::mt19937 rng{12345};
  uint64_t sp_issued = 0, type_changes = 0, issued = 0;
  InstrClass last_sp = I;
  bool have_last = false;

  explicit RandomRun(uint32_t warps) : prog(warps), pc(warps, 0) {
    std::mt19937 g(777);
    for (auto& p : prog)
      for (int k = 0; k < 24; ++k) {
        uint32_t r = g() % 10;
        p.push_back(r < 4 ? I : r < 8 ? F : M);
      }
  }
  Cands cycle() {
    Cands c;
    for (uint32_t w = 0; w < prog.size(); ++w) {
      uint32_t r = rng() % 8;
      c.push_back(C(w, r < 4, prog[w][pc[w] % prog[w].size()], w, r == 7));
    }
    return c;
  }
  void issued_warp(const WarpCandidate& c) {
    ++issued;
    ++pc[c.warp];
    if (c.cls == I || c.cls == F) {
      ++sp_issued;
      if (have_last && c.cls != last_sp) ++type_changes;
      last_sp = c.cls;
      have_last = true;
    }
  }
};

bool any_ready(const Cands& c) {
  return std::any_of(c.begin(), c.end(), [](const WarpCandidate& w) { return w.ready; });
}
}  // namespace

BOOST_AUTO_TEST_CASE(lpc_takes_the_lowest_pc_then_the_oldest) {
  LpcPolicy p;
  BOOST_TEST(p.wants_pc());
  // PCs in `priority`: w0 at 40, w1 at 12, w2 at 12 (older than w1), w3 at 7 but not ready.
  Cands c{C(0, true, I, 1), C(1, true, I, 5), C(2, true, I, 3), C(3, false, I, 0)};
  c[0].priority = 40;
  c[1].priority = 12;
  c[2].priority = 12;
  c[3].priority = 7;
  BOOST_TEST(step(p, c, 0) == 2);
  BOOST_TEST(step(p, c, 1) == 2);  // no greed: the same order again
  c[3].ready = true;
  BOOST_TEST(step(p, c, 2) == 3);
  BOOST_TEST(step(p, Cands{C(0, false), C(1, false)}, 3) == -1);
}

BOOST_AUTO_TEST_CASE(every_policy_picks_only_ready_warps_and_is_deterministic) {
  for (const std::string& name : issue_policy_names()) {
    std::vector<int> picks[2];
    for (int rep = 0; rep < 2; ++rep) {
      IssuePolicyParams prm;
      prm.policy = name;
      prm.active_warps = 4;
      auto p = make_issue_policy(prm);
      BOOST_TEST(std::string(p->name()) == name);
      add_warps(*p, 12);
      RandomRun run(12);
      for (uint64_t t = 0; t < 3000; ++t) {
        Cands c = run.cycle();
        int i = p->pick(c, t);
        picks[rep].push_back(i);
        if (i >= 0) {
          BOOST_REQUIRE(c[i].ready);
          p->on_issue(c[i].warp, c[i].cls, t);
          run.issued_warp(c[i]);
        }
        if (name == "lrr" || name == "gto" || name == "lpc") BOOST_REQUIRE((i >= 0) == any_ready(c));  // work-conserving
        if (auto* tl = dynamic_cast<TwoLevelPolicy*>(p.get())) {
          BOOST_REQUIRE(tl->active().size() <= 4u);
          if (i >= 0)
            BOOST_REQUIRE(std::count(tl->active().begin(), tl->active().end(), c[i].warp) == 1);
          BOOST_REQUIRE(tl->active().size() + tl->pending().size() == 12u);
        }
      }
      BOOST_TEST(run.issued > 1000u);
    }
    BOOST_TEST(picks[0] == picks[1]);
  }
}

BOOST_AUTO_TEST_CASE(gates_clusters_int_and_fp_issue_compared_with_two_level) {
  uint64_t changes[2], sp[2];
  for (int k = 0; k < 2; ++k) {
    std::unique_ptr<TwoLevelPolicy> p;
    if (k == 0) p = std::make_unique<TwoLevelPolicy>(8);
    else p = std::make_unique<GatesPolicy>(8);
    add_warps(*p, 16);
    RandomRun run(16);
    for (uint64_t t = 0; t < 5000; ++t) {
      Cands c = run.cycle();
      InstrClass fav = k ? static_cast<GatesPolicy&>(*p).favoured() : I;
      int i = p->pick(c, t);
      if (i < 0) continue;
      if (k == 1 && (c[i].cls == I || c[i].cls == F) && c[i].cls != fav) {
        // Switched: no active ready warp of the favoured type, nor of a non-SP type.
        for (uint32_t w : p->active())
          for (const auto& x : c)
            if (x.warp == w && x.ready) BOOST_REQUIRE(x.cls != fav && x.cls != M);
      }
      p->on_issue(c[i].warp, c[i].cls, t);
      run.issued_warp(c[i]);
    }
    changes[k] = run.type_changes;
    sp[k] = run.sp_issued;
  }
  BOOST_TEST_MESSAGE("INT/FP changes: two_level " << changes[0] << " of " << sp[0] << ", gates " << changes[1]
                                                   << " of " << sp[1]);
  BOOST_TEST(sp[1] > sp[0] / 2);              // GATES still issues about as much
  BOOST_TEST(changes[1] * 2 < changes[0]);    // but switches type far less often
}

BOOST_AUTO_TEST_CASE(factory_and_parameters) {
  config::ParamRegistry r;
  IssuePolicyParams prm;
  prm.bind(r, "sm.sched");
  r.set("sm.sched.policy", "two_level", "test");
  r.set("sm.sched.active_warps", "6", "test");
  BOOST_TEST(prm.policy == "two_level");
  auto p = make_issue_policy(prm, "sm.sched");
  BOOST_TEST(std::string(p->name()) == "two_level");
  BOOST_TEST(static_cast<TwoLevelPolicy&>(*p).active_size() == 6u);
  BOOST_CHECK_THROW(r.set("sm.sched.policy", "fifo", "test"), simt::Error);
  prm.policy = "fifo";
  BOOST_CHECK_THROW(make_issue_policy(prm), simt::Error);
  prm.policy = "gates";
  prm.active_warps = 0;
  BOOST_CHECK_THROW(make_issue_policy(prm), simt::Error);
}

// pick_incremental() picks what pick() picks (tests/common/policy_equivalence.h).
BOOST_AUTO_TEST_CASE(pick_incremental_picks_what_pick_picks) {
  for (const std::string& name : issue_policy_names()) {
    IssuePolicyParams prm;
    prm.policy = name;
    prm.active_warps = 3;
    auto plain = make_issue_policy(prm), inc = make_issue_policy(prm);
    simt::test::check_incremental_pick(*plain, *inc, name);
  }
}
