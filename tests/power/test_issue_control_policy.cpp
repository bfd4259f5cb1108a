// The issue control policy on scripted instruction streams: static and
// adaptive splitting, compaction, typed and adaptive folding per phase,
// lane shifting and the pipeline stages it adds.
#define BOOST_TEST_MODULE issue_control_policy
#include <boost/test/unit_test.hpp>

#include "power/issue_control_policy.h"
#include "stats/stats.h"

using namespace simt;
using sm::LaneMap;
using ptx::InstrClass;

namespace {
power::PowerParams params() {
  power::PowerParams p;
  p.split_window = 100;
  p.fold_phase = 100;
  return p;
}
}  // namespace

BOOST_AUTO_TEST_CASE(static_splitting_and_compaction) {
  stats::Registry reg;
  power::PowerParams p = params();
  p.compaction = true;
  power::IssueControlPolicy compact(p, 2, reg, "a");
  BOOST_TEST(compact.choose(InstrClass::Int, 0) == LaneMap::Compact);
  BOOST_TEST(compact.extra_latency() == 0u);
  p.split = "static";
  power::IssueControlPolicy mix(p, 2, reg, "b");
  BOOST_TEST(mix.choose(InstrClass::Fp, 5) == LaneMap::CompactHalf);
  p.compaction = false;
  power::IssueControlPolicy split(p, 2, reg, "c");
  BOOST_TEST(split.choose(InstrClass::Int, 12345) == LaneMap::Half);
  split.on_accept(InstrClass::Int, LaneMap::Half, 2, 12345);
  BOOST_TEST(reg.value("c.split_instructions") == 1u);
  BOOST_TEST(reg.value("c.int_instructions") == 1u);
}

BOOST_AUTO_TEST_CASE(adaptive_splitting_follows_the_last_window) {
  stats::Registry reg;
  power::PowerParams p = params();
  p.split = "adaptive";
  p.split_below = 0.5;  // 2 units x 100 cycles: split after a window busy < 100 cycles
  power::IssueControlPolicy pol(p, 2, reg, "s");
  BOOST_TEST(pol.splitting(0));  // nothing measured yet
  for (uint64_t t = 0; t < 100; t += 1) pol.on_accept(InstrClass::Int, LaneMap::Home, 2, t);  // busy 200 >= 100
  BOOST_TEST(!pol.splitting(100));
  BOOST_TEST(pol.choose(InstrClass::Int, 150) == LaneMap::Home);
  for (uint64_t t = 100; t < 200; t += 10) pol.on_accept(InstrClass::Int, LaneMap::Home, 2, t);  // busy 20
  BOOST_TEST(pol.splitting(200));
  BOOST_TEST(pol.choose(InstrClass::Fp, 250) == LaneMap::Half);
  // Long silence: windows without work split.
  for (uint64_t t = 200; t < 300; ++t) pol.on_accept(InstrClass::Int, LaneMap::Half, 2, t);
  BOOST_TEST(!pol.splitting(300));
  BOOST_TEST(pol.splitting(100000));
}

BOOST_AUTO_TEST_CASE(typed_folding_folds_the_minority_longer) {
  stats::Registry reg;
  power::PowerParams p = params();
  p.fold = "typed";  // minority 70 cycles of each 100, majority 40
  power::IssueControlPolicy pol(p, 2, reg, "f");
  BOOST_TEST(pol.extra_latency() == 2u);
  // Phase 0: INT is taken as the majority.
  BOOST_TEST(pol.folding(InstrClass::Int, 39));
  BOOST_TEST(!pol.folding(InstrClass::Int, 40));
  BOOST_TEST(pol.folding(InstrClass::Fp, 69));
  BOOST_TEST(!pol.folding(InstrClass::Fp, 70));
  BOOST_TEST(pol.choose(InstrClass::Fp, 10) == LaneMap::Fold);
  BOOST_TEST(pol.choose(InstrClass::Fp, 80) == LaneMap::Home);
  // Phase 0 issues more FP: in phase 1 FP is the majority.
  for (uint64_t t = 0; t < 30; ++t) pol.on_accept(InstrClass::Fp, LaneMap::Home, 2, t);
  for (uint64_t t = 30; t < 40; ++t) pol.on_accept(InstrClass::Int, LaneMap::Home, 2, t);
  BOOST_TEST(pol.folding(InstrClass::Int, 169));   // minority now
  BOOST_TEST(!pol.folding(InstrClass::Fp, 140));   // majority now
  BOOST_TEST(pol.folding(InstrClass::Fp, 139));
  // Phase 0's enabled cycles: INT (majority) 40, FP 70.
  BOOST_TEST(reg.value("f.int_fold_enabled_cycles") == 40u);
  BOOST_TEST(reg.value("f.fp_fold_enabled_cycles") == 70u);
}

BOOST_AUTO_TEST_CASE(adaptive_folding_stops_after_a_busy_phase) {
  stats::Registry reg;
  power::PowerParams p = params();
  p.fold = "adaptive";
  p.fold_busy = 0.9;  // 2 units x 100: no folding after a phase busy >= 180
  p.lane_shift = true;
  power::IssueControlPolicy pol(p, 2, reg, "g");
  BOOST_TEST(pol.choose(InstrClass::Int, 0) == LaneMap::FoldShift);
  for (uint64_t t = 0; t < 100; ++t) pol.on_accept(InstrClass::Int, LaneMap::FoldShift, 2, t);  // busy 200
  BOOST_TEST(!pol.folding(InstrClass::Int, 100));
  BOOST_TEST(pol.choose(InstrClass::Int, 100) == LaneMap::Shift);  // shifting goes on
  BOOST_TEST(reg.value("g.int_folded") == 100u);
  // A quiet phase enables folding again.
  BOOST_TEST(pol.folding(InstrClass::Int, 200));
}

BOOST_AUTO_TEST_CASE(always_folds_and_combinations_are_checked) {
  stats::Registry reg;
  power::PowerParams p = params();
  p.fold = "always";
  power::IssueControlPolicy pol(p, 2, reg, "h");
  BOOST_TEST(pol.choose(InstrClass::Int, 99999) == LaneMap::Fold);
  p.compaction = true;
  BOOST_CHECK_THROW(p.validate(), std::exception);
  p.compaction = false;
  p.split = "static";
  BOOST_CHECK_THROW(p.validate(), std::exception);
}

BOOST_AUTO_TEST_CASE(folding_phases_must_cover_n_fold) {
  power::PowerParams p = params();
  p.gating = "conventional";
  p.fold = "adaptive";
  p.fold_phase = 300;  // 0.4 x 300 = 120 >= N_fold = 19 + 5 + 14 = 38
  BOOST_TEST(p.n_fold() == 38u);
  p.validate();
  p.fold_phase = 90;  // 36 < 38: the folded stretch cannot pay back a gating
  BOOST_CHECK_EXCEPTION(p.validate(), std::exception, [](const std::exception& e) {
    return std::string(e.what()).find("power.fold_phase") != std::string::npos &&
           std::string(e.what()).find("N_fold") != std::string::npos;
  });
  p.fold = "always";  // no phases: nothing to check
  p.validate();
}
