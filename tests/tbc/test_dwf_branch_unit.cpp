#define BOOST_TEST_MODULE dwf_branch_unit
#include <boost/test/unit_test.hpp>

#include <functional>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>

#include "ptx/cfg.h"
#include "ptx/cfg_program_builder.h"
#include "stats/stats.h"
#include "tbc/dwf_branch_unit.h"
#include "util/error.h"

// Boost.Test prints both sides of a failed comparison: list the threads.
namespace simt::func {
std::ostream& operator<<(std::ostream& os, const ThreadMask& m) {
  os << '{';
  m.for_each([&](uint32_t t) { os << ' ' << t; });
  return os << " }";
}
}  // namespace simt::func

using simt::func::Control;
using simt::func::StepResult;
using simt::func::ThreadMask;
using simt::ptx::Op;
using simt::sm::SlotState;
using simt::tbc::DwfBranchUnit;
using simt::test::CfgProgramBuilder;

namespace {

ThreadMask mask_of(std::initializer_list<uint32_t> ts) {
  ThreadMask m;
  for (uint32_t t : ts) m.set(t);
  return m;
}
ThreadMask range(uint32_t first, uint32_t count) { return ThreadMask::range(first, count); }

// A linked program and its CFG, kept at a stable address.
struct Kernel {
  simt::ptx::Program prog;
  std::unique_ptr<simt::ptx::Cfg> cfg;
  explicit Kernel(simt::ptx::Program p) : prog(std::move(p)), cfg(std::make_unique<simt::ptx::Cfg>(prog)) {}
  simt::sm::BranchKernel bk() const { return {&prog, cfg.get()}; }
};

using Body = std::function<void(CfgProgramBuilder&, uint32_t pred)>;
std::unique_ptr<Kernel> build(const Body& body) {
  CfgProgramBuilder b;
  const uint32_t p = b.reg("%p", simt::ptx::Type::Pred);
  body(b, p);
  return std::make_unique<Kernel>(b.build());
}

// 0 setp; 1 @p bra ELSE; 2 then; 3 bra JOIN; 4 ELSE; 5 JOIN; 6 exit
// (the IPDOM of the branch at 1 is JOIN = 5). `join_op` is JOIN's opcode.
std::unique_ptr<Kernel> diamond(Op join_op = Op::Add) {
  return build([&](CfgProgramBuilder& b, uint32_t p) {
    b.op(Op::Setp, {});
    b.bra("ELSE", p);
    b.op(Op::Add, {});
    b.bra("JOIN");
    b.label("ELSE");
    b.op(Op::Add, {});
    b.label("JOIN");
    if (join_op == Op::Bar) b.op(Op::Bar, {CfgProgramBuilder::I(0)});
    else b.op(join_op, {});
    b.exit();
  });
}
constexpr uint32_t kBranch = 1, kThen = 2, kThenJump = 3, kElse = 4, kJoin = 5, kEnd = 6;

StepResult next() { return StepResult{}; }
StepResult branch(const ThreadMask& taken, uint32_t target) {
  StepResult r;
  r.control = Control::Branch;
  r.taken = taken;
  r.target = target;
  return r;
}
StepResult exit_of(const ThreadMask& taken) {
  StepResult r;
  r.control = Control::Exit;
  r.taken = taken;
  return r;
}
StepResult barrier() {
  StepResult r;
  r.control = Control::Barrier;
  return r;
}

// Drives a unit the way the issue stage does: the instruction at the slot's
// PC executes with a hand-made result; exits are remembered per CTA.
struct Harness {
  DwfBranchUnit unit;
  std::vector<ThreadMask> exited;
  std::vector<const Kernel*> kernel_of;

  Harness(uint32_t slots, uint32_t warp_size, bool wb, DwfBranchUnit::Pool pool = DwfBranchUnit::Pool::Cta)
      : unit(slots, warp_size, wb, 0, pool), exited(8), kernel_of(8) {}

  void start(uint32_t cta, const Kernel& k, uint32_t threads, std::vector<uint32_t> slots) {
    kernel_of[cta] = &k;
    unit.start_cta(cta, k.bk(), range(0, threads), slots);
  }
  void exec(uint32_t s, const StepResult& r) {
    const simt::sm::WarpSlot& w = unit.slot(s);
    BOOST_REQUIRE(w.state == SlotState::Running);
    if (r.control == Control::Exit) exited[w.cta] |= r.taken;
    unit.executed(s, kernel_of[w.cta]->prog.code[w.pc], r, exited[w.cta]);
  }
  // A warp holding threads of several CTAs (SM pool): `r[k]` is part k's
  // result (part 0 = slot(s).cta, part k = slot(s).others[k - 1]).
  void exec_parts(uint32_t s, const std::vector<StepResult>& r) {
    const simt::sm::WarpSlot& w = unit.slot(s);
    BOOST_REQUIRE(w.state == SlotState::Running);
    BOOST_REQUIRE(r.size() == 1 + w.others.size());
    std::vector<simt::sm::PartStep> parts;
    for (size_t k = 0; k < r.size(); ++k) {
      const uint32_t cta = k == 0 ? w.cta : w.others[k - 1].cta;
      if (r[k].control == Control::Exit) exited[cta] |= r[k].taken;
      parts.push_back(simt::sm::PartStep{cta, &r[k], &exited[cta]});
    }
    unit.executed_parts(s, kernel_of[w.cta]->prog.code[w.pc], parts);
  }
  const simt::sm::WarpSlot& slot(uint32_t s) const { return unit.slot(s); }
};

}  // namespace

// Two static warps of 4 diverge at the same branch; their taken and their
// not-taken threads use disjoint lanes, so DWF packs them into two full warps.
BOOST_AUTO_TEST_CASE(diverged_threads_of_two_warps_merge_into_full_warps) {
  auto k = diamond();
  Harness h(2, 4, false);
  h.start(0, *k, 8, {0, 1});
  h.exec(0, next());
  h.exec(1, next());
  const uint32_t v0 = h.slot(0).version;
  h.exec(0, branch(mask_of({0, 1}), kElse));
  // Taken threads keep slot 0; the not-taken ones find no free slot yet.
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1}));
  BOOST_TEST(h.slot(0).pc == kElse);
  BOOST_TEST(h.slot(0).version != v0);
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);

  const uint32_t v0b = h.slot(0).version, v1 = h.slot(1).version;
  h.exec(1, branch(mask_of({6, 7}), kElse));
  // (Slot 1 now runs other threads at pc + 1 of its branch: for the issue
  // stage that is a plain advance, its I-buffer holds the right code.)
  // Slot 1 took the waiting warp {2,3}; 4,5 (lanes 0,1) joined it, 6,7 (lanes 2,3) joined slot 0.
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1, 6, 7}));
  BOOST_TEST(h.slot(0).pc == kElse);
  BOOST_TEST(h.slot(1).mask == mask_of({2, 3, 4, 5}));
  BOOST_TEST(h.slot(1).pc == kThen);
  BOOST_TEST(h.slot(0).scope == h.slot(0).mask);
  BOOST_TEST(h.unit.overflow_warps(0) == 0u);
  // Slot 0 only received threads at its own PC: no refetch.
  BOOST_TEST(h.slot(0).version == v0b);
  BOOST_TEST(h.slot(1).version == v1);
  const auto c = h.unit.counts();
  BOOST_TEST(c.merges == 4u);
  BOOST_TEST(c.new_warps == 2u);
  BOOST_TEST(c.overflow_events == 1u);

  // A sequential advance keeps the warp and its version.
  const uint32_t v1b = h.slot(1).version;
  h.exec(1, next());
  BOOST_TEST(h.slot(1).pc == kThenJump);
  BOOST_TEST(h.slot(1).version == v1b);
  // Reconvergence by merging: the jump to JOIN lands in slot 0's warp? No:
  // slot 0 is still at ELSE, so the jumping warp keeps its own slot.
  h.exec(1, branch(mask_of({2, 3, 4, 5}), kJoin));
  BOOST_TEST(h.slot(1).pc == kJoin);
  BOOST_TEST(h.slot(1).mask == mask_of({2, 3, 4, 5}));
  BOOST_TEST(h.slot(1).version != v1b);
}

// dwf.pool = sm: two CTAs of one warp each diverge on mirrored lanes. Each
// side of one CTA fills the other CTA's free lanes, so the SM runs two full
// warps of both CTAs; they move on as one warp, regroup at the join and
// retire both CTAs when every thread exited.
BOOST_AUTO_TEST_CASE(sm_pool_merges_threads_of_two_ctas) {
  auto k = diamond();
  Harness h(2, 4, false, DwfBranchUnit::Pool::Sm);
  BOOST_TEST(h.unit.mixes_ctas());
  h.start(0, *k, 4, {0});
  h.start(1, *k, 4, {1});
  h.exec(0, next());
  h.exec(1, next());
  // CTA 0: lanes 0,1 go to ELSE, 2,3 fall through; slot 1 is busy, so the
  // fall-through side waits for a slot.
  h.exec(0, branch(mask_of({0, 1}), kElse));
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1}));
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);
  // CTA 1 mirrored: its slot frees for CTA 0's waiting warp, and each of its
  // sides joins the CTA 0 warp at the same PC on the free lanes.
  h.exec(1, branch(mask_of({2, 3}), kElse));
  BOOST_TEST(h.slot(0).pc == kElse);
  BOOST_TEST(h.slot(0).cta == 0u);
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1}));
  BOOST_TEST_REQUIRE(h.slot(0).others.size() == 1u);
  BOOST_TEST(h.slot(0).others[0].cta == 1u);
  BOOST_TEST(h.slot(0).others[0].mask == mask_of({2, 3}));
  BOOST_TEST(h.slot(1).pc == kThen);
  BOOST_TEST(h.slot(1).cta == 0u);  // CTA 0's warp took CTA 1's free slot
  BOOST_TEST(h.slot(1).mask == mask_of({2, 3}));
  BOOST_TEST_REQUIRE(h.slot(1).others.size() == 1u);
  BOOST_TEST(h.slot(1).others[0].mask == mask_of({0, 1}));
  BOOST_TEST(h.unit.counts().cross_cta_merges == 4u);
  BOOST_TEST(h.unit.overflow_warps(0) == 0u);
  BOOST_TEST(h.unit.priority(0) == 4u);  // majority counts both CTAs' threads

  // A plain advance keeps the two parts together and the version.
  const uint32_t v0 = h.slot(0).version;
  h.exec_parts(0, {next(), next()});
  BOOST_TEST(h.slot(0).pc == kJoin);
  BOOST_TEST(h.slot(0).others.size() == 1u);
  BOOST_TEST(h.slot(0).version == v0);
  // The other warp jumps to the join, where slot 0's lanes are all taken:
  // it stays a warp of its own (in its slot).
  h.exec_parts(1, {next(), next()});
  h.exec_parts(1, {branch(mask_of({2, 3}), kJoin), branch(mask_of({0, 1}), kJoin)});
  BOOST_TEST(h.slot(1).pc == kJoin);
  BOOST_TEST(h.slot(1).mask.count() + h.slot(1).others[0].mask.count() == 4u);
  // Exits: each CTA retires when all its threads exited, wherever they ran.
  h.exec_parts(0, {next(), next()});
  h.exec_parts(0, {exit_of(mask_of({0, 1})), exit_of(mask_of({2, 3}))});
  BOOST_TEST((h.slot(0).state == SlotState::Waiting));
  BOOST_TEST((h.slot(1).state == SlotState::Running));
  h.exec_parts(1, {next(), next()});
  h.exec_parts(1, {exit_of(mask_of({2, 3})), exit_of(mask_of({0, 1}))});
  BOOST_TEST((h.slot(0).state == SlotState::Retired));
  BOOST_TEST((h.slot(1).state == SlotState::Retired));
}

// A warp of one CTA never takes threads of another with dwf.pool = cta.
BOOST_AUTO_TEST_CASE(cta_pool_keeps_ctas_apart) {
  auto k = diamond();
  Harness h(2, 4, false);
  BOOST_TEST(!h.unit.mixes_ctas());
  h.start(0, *k, 4, {0});
  h.start(1, *k, 4, {1});
  h.exec(0, next());
  h.exec(1, next());
  h.exec(0, branch(mask_of({0, 1}), kElse));
  h.exec(1, branch(mask_of({2, 3}), kElse));
  for (uint32_t s : {0u, 1u}) BOOST_TEST(h.slot(s).others.empty());
  BOOST_TEST(h.unit.counts().cross_cta_merges == 0u);
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);
  BOOST_TEST(h.unit.overflow_warps(1) == 1u);
}

// Threads whose lanes are taken in every warp at the target form new warps;
// with both slots busy they wait in the overflow list and take the next
// slot that frees up, oldest first.
BOOST_AUTO_TEST_CASE(lane_conflicts_form_new_warps_that_wait_for_a_slot) {
  auto k = diamond();
  Harness h(2, 4, false);
  h.start(0, *k, 8, {0, 1});
  h.exec(0, next());
  h.exec(1, next());
  h.exec(0, branch(mask_of({0, 1}), kElse));
  h.exec(1, branch(mask_of({4, 5}), kElse));  // lanes 0,1 again: conflicts everywhere
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1}));
  BOOST_TEST(h.slot(1).mask == mask_of({2, 3}));
  BOOST_TEST(h.slot(1).pc == kThen);
  BOOST_TEST(h.unit.overflow_warps(0) == 2u);  // {4,5}@ELSE, {6,7}@THEN
  auto c = h.unit.counts();
  BOOST_TEST(c.merges == 0u);
  BOOST_TEST(c.new_warps == 4u);
  BOOST_TEST(c.overflow_events == 3u);

  // Slot 1's warp jumps to JOIN: its slot goes to the oldest waiting warp.
  h.exec(1, next());
  h.exec(1, branch(mask_of({2, 3}), kJoin));
  BOOST_TEST(h.slot(1).mask == mask_of({4, 5}));
  BOOST_TEST(h.slot(1).pc == kElse);
  BOOST_TEST(h.unit.overflow_warps(0) == 2u);  // {6,7}@THEN, {2,3}@JOIN

  // Slot 0's warp finishes: {6,7} (older than {2,3}) takes its slot.
  h.exec(0, next());
  h.exec(0, next());
  BOOST_TEST(h.slot(0).pc == kEnd);
  const uint32_t v0 = h.slot(0).version;
  h.exec(0, exit_of(mask_of({0, 1})));
  BOOST_TEST(h.slot(0).mask == mask_of({6, 7}));
  BOOST_TEST(h.slot(0).pc == kThen);
  BOOST_TEST(h.slot(0).version != v0);
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);

  // {6,7} jumps to JOIN, where {2,3} waits in the overflow list with lanes
  // 2,3 taken: a new warp, and the freed slot goes to {2,3} first.
  h.exec(0, next());
  h.exec(0, branch(mask_of({6, 7}), kJoin));
  BOOST_TEST(h.slot(0).mask == mask_of({2, 3}));
  BOOST_TEST(h.slot(0).pc == kJoin);
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);
}

// Threads merge into a waiting overflow warp at their PC when its lanes are
// free and no warp in a slot has room.
BOOST_AUTO_TEST_CASE(threads_merge_into_overflow_warps) {
  auto k = diamond();
  Harness h(3, 4, false);
  h.start(0, *k, 12, {0, 1, 2});
  for (uint32_t s : {0u, 1u, 2u}) h.exec(s, next());
  h.exec(0, branch(mask_of({0, 1}), kElse));  // {0,1}@ELSE in slot 0; {2,3}@THEN waits
  // Slot 1 dissolves and takes {2,3}; 4 (lane 0) conflicts at ELSE and waits;
  // 5 (lane 1) joins {2,3}; 6,7 (lanes 2,3) conflict and wait.
  h.exec(1, branch(mask_of({4}), kElse));
  BOOST_TEST(h.slot(1).mask == mask_of({2, 3, 5}));
  BOOST_TEST(h.unit.overflow_warps(0) == 2u);  // {4}@ELSE, {6,7}@THEN
  // Slot 2 dissolves and takes {4}@ELSE; 10,11 join it there. At THEN, 8
  // (lane 0) joins slot 1, 9 (lane 1) finds slot 1 full there and joins
  // the waiting {6,7}.
  h.exec(2, branch(mask_of({10, 11}), kElse));
  BOOST_TEST(h.slot(2).mask == mask_of({4, 10, 11}));
  BOOST_TEST(h.slot(2).pc == kElse);
  BOOST_TEST(h.slot(1).mask == mask_of({2, 3, 5, 8}));
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);
  BOOST_TEST(h.unit.counts().merges == 5u);
  // Slot 1 jumps to JOIN: the waiting warp, now {6,7,9}, takes the slot.
  h.exec(1, next());
  h.exec(1, branch(mask_of({2, 3, 5, 8}), kJoin));
  BOOST_TEST(h.slot(1).mask == mask_of({6, 7, 9}));
  BOOST_TEST(h.slot(1).pc == kThen);
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);  // {2,3,5,8}@JOIN
}

// DWF's warp LUT: a thread joins the warp that last received threads at the
// PC before trying the other warps there in slot order.
BOOST_AUTO_TEST_CASE(threads_prefer_the_warp_that_last_received_threads_at_the_pc) {
  auto k = diamond();
  Harness h(3, 4, false);
  h.start(0, *k, 12, {0, 1, 2});
  for (uint32_t s : {0u, 1u, 2u}) h.exec(s, next());
  h.exec(0, branch(mask_of({0, 1}), kElse));  // slot 0: {0,1}@ELSE
  h.exec(1, branch(mask_of({4}), kElse));     // {4}@ELSE conflicts with slot 0 and waits
  // Slot 2 dissolves and takes {4}@ELSE (the latest warp there); 10 (lane 2)
  // fits both slot 0 and slot 2 and joins slot 2.
  h.exec(2, branch(mask_of({10}), kElse));
  BOOST_TEST(h.slot(2).mask == mask_of({4, 10}));
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1}));
}

// Majority scheduling: a warp's priority is the number of live threads of
// the SM's CTAs of the same kernel in warps at its PC.
BOOST_AUTO_TEST_CASE(majority_priority_counts_the_kernels_threads_at_the_pc) {
  auto k = diamond();
  auto other = diamond();  // same code, another kernel
  Harness h(6, 4, false);
  h.start(0, *k, 8, {0, 1});
  h.start(1, *k, 8, {2, 3});
  h.start(2, *other, 8, {4, 5});
  BOOST_TEST(h.unit.priority(0) == 16u);
  BOOST_TEST(h.unit.priority(4) == 8u);
  h.exec(0, next());
  BOOST_TEST(h.unit.priority(0) == 4u);
  BOOST_TEST(h.unit.priority(1) == 12u);
  BOOST_TEST(h.unit.priority(3) == 12u);
  BOOST_TEST(h.unit.priority(4) == 8u);
  h.exec(2, next());
  BOOST_TEST(h.unit.priority(0) == 8u);
  // Threads waiting for a slot do not count; exited threads neither.
  h.exec(0, branch(mask_of({0, 1}), kElse));
  BOOST_TEST(h.unit.priority(0) == 2u);
  BOOST_TEST(h.unit.priority(2) == 4u);
  h.exec(3, next());
  h.exec(3, branch(mask_of({4, 5}), kElse));  // CTA 1: {4,5}@ELSE in slot 3, {6,7} waits
  BOOST_TEST(h.unit.priority(0) == 4u);
  BOOST_TEST(h.unit.priority(3) == 4u);
  BOOST_TEST(h.unit.priority(1) == 4u);  // CTA 0's second warp, still at the branch
  h.exec(0, next());
  BOOST_TEST(h.unit.priority(0) == 2u);
  BOOST_TEST(h.unit.priority(3) == 2u);
}

// Exits: a warp whose threads all exited leaves its slot Waiting; the CTA's
// slots retire when its last thread exits.
BOOST_AUTO_TEST_CASE(exits_empty_slots_and_retire_the_cta) {
  auto k = build([](CfgProgramBuilder& b, uint32_t p) {
    b.op(Op::Add, {});
    b.exit();
    b.guard_last(p);
    b.exit();
  });
  Harness h(2, 4, false);
  h.start(0, *k, 8, {0, 1});
  h.exec(0, next());
  const uint32_t v0 = h.slot(0).version;
  h.exec(0, exit_of(mask_of({0, 1})));
  BOOST_TEST(h.slot(0).mask == mask_of({2, 3}));
  BOOST_TEST(h.slot(0).pc == 2u);
  BOOST_TEST(h.unit.priority(0) == 2u);  // exited threads do not count
  BOOST_TEST(h.slot(0).version == v0);  // a plain advance
  h.exec(0, exit_of(mask_of({2, 3})));
  BOOST_TEST((h.slot(0).state == SlotState::Waiting));
  BOOST_TEST(h.slot(0).version != v0);
  BOOST_TEST((h.slot(1).state == SlotState::Running));
  h.exec(1, next());
  h.exec(1, exit_of(range(4, 4)));
  BOOST_TEST((h.slot(0).state == SlotState::Retired));
  BOOST_TEST((h.slot(1).state == SlotState::Retired));
  BOOST_TEST(h.unit.priority(1) == 0u);
  // The slots can be released and reused by a new CTA.
  h.unit.release(0);
  h.unit.release(1);
  h.start(1, *k, 4, {1});
  BOOST_TEST((h.slot(1).state == SlotState::Running));
  BOOST_TEST(h.unit.priority(1) == 4u);
}

// DWF-WB: a static warp that does not diverge keeps its threads and takes
// no one in; a top-level divergence sets a warp barrier at the IPDOM, where
// the static warp is restored once all its threads arrived.
BOOST_AUTO_TEST_CASE(warp_barrier_restores_the_static_warp_at_the_ipdom) {
  auto k = diamond();
  Harness h(2, 4, true);
  BOOST_TEST(std::string(h.unit.name()) == "dwf-wb");
  h.start(0, *k, 6, {0, 1});  // static warps {0..3}, {4,5}
  h.exec(0, next());
  h.exec(1, next());
  // Static warp 1 does not diverge: it jumps whole, no warp barrier.
  h.exec(1, branch(mask_of({4, 5}), kElse));
  BOOST_TEST(h.slot(1).mask == mask_of({4, 5}));
  BOOST_TEST(h.slot(1).pc == kElse);
  BOOST_TEST(h.unit.warp_barrier_pc(0, 1) == simt::ptx::kNoPc);
  // Static warp 0 diverges (top level): barrier at the IPDOM. Its taken
  // threads do not join the coherent warp at ELSE although lanes 2,3 are free.
  h.exec(0, branch(mask_of({2, 3}), kElse));
  BOOST_TEST(h.unit.warp_barrier_pc(0, 0) == kJoin);
  BOOST_TEST(h.unit.counts().warp_barrier_waits == 1u);
  BOOST_TEST(h.slot(0).mask == mask_of({2, 3}));
  BOOST_TEST(h.slot(0).pc == kElse);
  BOOST_TEST(h.slot(1).mask == mask_of({4, 5}));
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);  // {0,1}@THEN
  h.exec(1, next());
  BOOST_TEST(h.slot(1).pc == kJoin);  // no barrier for a coherent warp

  // {2,3} reaches the barrier and waits; {0,1} gets the slot.
  h.exec(0, next());
  BOOST_TEST(h.unit.waiting_threads(0) == mask_of({2, 3}));
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1}));
  BOOST_TEST(h.slot(0).pc == kThen);
  h.exec(0, next());
  h.exec(0, branch(mask_of({0, 1}), kJoin));
  // All of static warp 0 is at JOIN: it resumes there as one warp, coherent.
  BOOST_TEST(h.slot(0).mask == range(0, 4));
  BOOST_TEST(h.slot(0).pc == kJoin);
  BOOST_TEST(h.unit.waiting_threads(0).none());
  BOOST_TEST(h.unit.warp_barrier_pc(0, 0) == simt::ptx::kNoPc);
  h.exec(0, next());
  BOOST_TEST(h.slot(0).pc == kEnd);
}

// DWF-WB: a top-level divergence whose IPDOM is the function exit sets no
// barrier; the diverged threads regroup freely.
BOOST_AUTO_TEST_CASE(divergence_to_separate_exits_sets_no_warp_barrier) {
  // 0 setp; 1 @p bra L; 2 exit; 3 L: add; 4 exit
  auto k = build([](CfgProgramBuilder& b, uint32_t p) {
    b.op(Op::Setp, {});
    b.bra("L", p);
    b.exit();
    b.label("L");
    b.op(Op::Add, {});
    b.exit();
  });
  BOOST_TEST(k->cfg->branch(1)->reconv_pc == simt::ptx::kNoPc);
  Harness h(2, 4, true);
  h.start(0, *k, 8, {0, 1});
  h.exec(0, next());
  h.exec(1, next());
  h.exec(0, branch(mask_of({0, 1}), 3));
  BOOST_TEST(h.unit.warp_barrier_pc(0, 0) == simt::ptx::kNoPc);
  BOOST_TEST(h.unit.counts().warp_barrier_waits == 0u);
  h.exec(1, branch(mask_of({6, 7}), 3));
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1, 6, 7}));
  BOOST_TEST(h.slot(0).pc == 3u);
}

// DWF-WB: a coherent warp that jumps while warps wait for a slot yields its
// slot to the oldest of them and waits itself, still one static warp.
BOOST_AUTO_TEST_CASE(coherent_warps_yield_their_slot_to_waiting_warps) {
  auto k = diamond();
  Harness h(2, 4, true);
  h.start(0, *k, 8, {0, 1});
  h.exec(0, next());
  h.exec(1, next());
  h.exec(0, branch(mask_of({0, 1}), kElse));  // {0,1}@ELSE in slot 0, {2,3}@THEN waits
  h.exec(1, branch(range(4, 4), kElse));      // coherent jump
  BOOST_TEST(h.slot(1).mask == mask_of({2, 3}));
  BOOST_TEST(h.slot(1).pc == kThen);
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);  // {4..7}@ELSE
  h.exec(0, next());                           // {0,1} waits at its barrier (JOIN)
  BOOST_TEST(h.slot(0).mask == range(4, 4));
  BOOST_TEST(h.slot(0).pc == kElse);
  BOOST_TEST(h.unit.overflow_warps(0) == 0u);
}

// The same steps under plain DWF merge the two static warps' threads at ELSE.
BOOST_AUTO_TEST_CASE(plain_dwf_merges_where_dwf_wb_does_not) {
  auto k = diamond();
  Harness h(2, 4, false);
  BOOST_TEST(std::string(h.unit.name()) == "dwf");
  h.start(0, *k, 6, {0, 1});
  h.exec(0, next());
  h.exec(1, next());
  h.exec(1, branch(mask_of({4, 5}), kElse));
  h.exec(0, branch(mask_of({2, 3}), kElse));
  BOOST_TEST(h.slot(1).mask == mask_of({2, 3, 4, 5}));
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1}));
  BOOST_TEST(h.slot(0).pc == kThen);
  BOOST_TEST(h.unit.counts().warp_barrier_waits == 0u);
}

// DWF-WB: threads that exit count as arrived at their warp barrier. (The CFG
// puts no barrier on a branch whose region can exit, so a hand-made exit
// inside the region checks the rule.)
BOOST_AUTO_TEST_CASE(warp_barrier_counts_exited_threads_as_arrived) {
  auto k = diamond();
  Harness h(1, 4, true);
  h.start(0, *k, 4, {0});
  h.exec(0, next());
  h.exec(0, branch(mask_of({0, 1}), kElse));
  BOOST_TEST(h.unit.warp_barrier_pc(0, 0) == kJoin);
  h.exec(0, next());  // {0,1} waits at JOIN, {2,3} gets the slot
  BOOST_TEST(h.unit.waiting_threads(0) == mask_of({0, 1}));
  BOOST_TEST(h.slot(0).mask == mask_of({2, 3}));
  h.exec(0, exit_of(mask_of({2, 3})));
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1}));
  BOOST_TEST(h.slot(0).pc == kJoin);
  BOOST_TEST(h.unit.waiting_threads(0).none());
  BOOST_TEST(h.unit.warp_barrier_pc(0, 0) == simt::ptx::kNoPc);
}

// Warp-synchronous instructions: threads of a 32-thread group wait for each
// other and resume as one warp; groups already whole pass.
BOOST_AUTO_TEST_CASE(warp_sync_instruction_regroups_32_thread_groups) {
  // 0 @p bra L; 1 add; 2 bra J; 3 L: add; 4 J: shfl; 5 exit
  auto k = build([](CfgProgramBuilder& b, uint32_t p) {
    const uint32_t r = b.reg("%r");
    b.bra("L", p);
    b.op(Op::Add, {});
    b.bra("J");
    b.label("L");
    b.op(Op::Add, {});
    b.label("J");
    b.op(Op::Shfl, {b.R(r), b.R(r), b.I(1), b.I(31), b.R(r)});
    b.exit();
  });
  Harness h(2, 32, false);
  h.start(0, *k, 64, {0, 1});
  h.exec(0, branch(range(0, 16), 3));
  h.exec(1, branch(range(48, 16), 3));
  BOOST_TEST(h.slot(0).mask == (range(0, 16) | range(48, 16)));
  BOOST_TEST(h.slot(1).mask == range(16, 32));
  // The mixed warp reaches the shfl: both halves wait for their groups.
  h.exec(0, next());
  BOOST_TEST((h.slot(0).state == SlotState::Waiting));
  BOOST_TEST(h.unit.waiting_threads(0) == (range(0, 16) | range(48, 16)));
  h.exec(1, next());
  h.exec(1, branch(range(16, 32), 4));
  BOOST_TEST(h.unit.waiting_threads(0).none());
  BOOST_TEST(h.slot(0).mask == range(0, 32));
  BOOST_TEST(h.slot(0).pc == 4u);
  BOOST_TEST(h.slot(1).mask == range(32, 32));
  BOOST_TEST(h.slot(1).pc == 4u);
  BOOST_TEST(h.unit.counts().warp_sync_regroups == 2u);
  BOOST_CHECK_NO_THROW(h.exec(0, next()));
  BOOST_CHECK_NO_THROW(h.exec(1, next()));
}

// An immediate membermask limits whom a group waits for; exits complete a group.
BOOST_AUTO_TEST_CASE(warp_sync_members_and_exits) {
  // 0 @p bra S; 1 exit; 2 S: shfl ..., 0xffff; 3 shfl ..., %r; 4 exit
  auto k = build([](CfgProgramBuilder& b, uint32_t p) {
    const uint32_t r = b.reg("%r");
    b.bra("S", p);
    b.exit();
    b.label("S");
    b.op(Op::Shfl, {b.R(r), b.R(r), b.I(1), b.I(31), b.I(0xffff)});
    b.op(Op::Shfl, {b.R(r), b.R(r), b.I(1), b.I(31), b.R(r)});
    b.exit();
  });
  Harness h(1, 32, false);
  h.start(0, *k, 32, {0});
  h.exec(0, branch(range(0, 16), 2));
  // Lanes 0..15 are all the members of the first shfl: no waiting.
  BOOST_TEST(h.slot(0).mask == range(0, 16));
  BOOST_TEST(h.slot(0).pc == 2u);
  BOOST_TEST(h.unit.overflow_warps(0) == 1u);
  // At the second shfl (all lanes) they wait for 16..31 ...
  h.exec(0, next());
  BOOST_TEST(h.unit.waiting_threads(0) == range(0, 16));
  BOOST_TEST(h.slot(0).mask == range(16, 16));
  BOOST_TEST(h.slot(0).pc == 1u);
  // ... until those exit.
  h.exec(0, exit_of(range(16, 16)));
  BOOST_TEST(h.slot(0).mask == range(0, 16));
  BOOST_TEST(h.slot(0).pc == 3u);
  BOOST_TEST(h.unit.counts().warp_sync_regroups == 1u);
}

// A warp executing a warp-synchronous instruction without all live members
// of its group is a model bug, reported rather than silently computed.
BOOST_AUTO_TEST_CASE(warp_sync_with_a_partial_group_is_refused) {
  // 0 @p bra 2; 1 add; 2 add; 3 shfl; 4 exit
  auto k = build([](CfgProgramBuilder& b, uint32_t p) {
    const uint32_t r = b.reg("%r");
    b.bra("T", p);
    b.op(Op::Add, {});
    b.label("T");
    b.op(Op::Add, {});
    b.op(Op::Shfl, {b.R(r), b.R(r), b.I(1), b.I(31), b.R(r)});
    b.exit();
  });
  Harness h(1, 32, false);
  h.start(0, *k, 32, {0});
  h.exec(0, branch(range(0, 16), 2));
  // After a barrier the warp is not checked at pc + 1 (see the header): a
  // hand-made Barrier result puts the half group on the shfl.
  h.exec(0, barrier());
  BOOST_TEST(h.slot(0).pc == 3u);
  BOOST_CHECK_THROW(h.exec(0, next()), std::logic_error);
}

// CTA barriers: threads gather at the barrier PC and resume as their static
// warps once no warp can issue, so a CTA with waiting overflow warps cannot
// deadlock with every slot blocked at the barrier.
BOOST_AUTO_TEST_CASE(cta_barrier_gathers_threads_and_restores_static_warps) {
  auto k = diamond(Op::Bar);  // JOIN = bar.sync 0
  Harness h(2, 4, false);
  h.start(0, *k, 8, {0, 1});
  h.exec(0, next());
  h.exec(1, next());
  h.exec(0, branch(mask_of({0, 1}), kElse));
  h.exec(1, branch(mask_of({4, 5}), kElse));
  BOOST_TEST(h.unit.overflow_warps(0) == 2u);  // as in lane_conflicts_...
  h.exec(0, next());  // {0,1} reaches the barrier: gathered; {4,5}@ELSE takes slot 0
  BOOST_TEST(h.unit.waiting_threads(0) == mask_of({0, 1}));
  BOOST_TEST(h.slot(0).mask == mask_of({4, 5}));
  h.exec(0, next());  // {4,5} gathered; {6,7}@THEN takes slot 0
  BOOST_TEST(h.slot(0).mask == mask_of({6, 7}));
  h.exec(1, next());
  h.exec(1, branch(mask_of({2, 3}), kJoin));
  BOOST_TEST((h.slot(1).state == SlotState::Waiting));
  BOOST_TEST(h.unit.waiting_threads(0) == mask_of({0, 1, 2, 3, 4, 5}));
  h.exec(0, next());
  h.exec(0, branch(mask_of({6, 7}), kJoin));
  // Everyone arrived: the static warps resume at the barrier.
  BOOST_TEST(h.unit.waiting_threads(0).none());
  BOOST_TEST(h.slot(0).mask == range(0, 4));
  BOOST_TEST(h.slot(1).mask == range(4, 4));
  BOOST_TEST(h.slot(0).pc == kJoin);
  BOOST_TEST(h.slot(1).pc == kJoin);
  // Executing the barrier keeps the warp (the issue stage counts and blocks it).
  const uint32_t v0 = h.slot(0).version;
  h.exec(0, barrier());
  BOOST_TEST(h.slot(0).pc == kEnd);
  BOOST_TEST(h.slot(0).version == v0);
  BOOST_TEST(h.unit.barrier_weight(0, ThreadMask{}) == 4u);
}

// Gathered threads are also released when the threads still missing exited.
BOOST_AUTO_TEST_CASE(cta_barrier_releases_when_the_others_exited) {
  // 0 @p exit; 1 bar.sync 0; 2 exit
  auto k = build([](CfgProgramBuilder& b, uint32_t p) {
    b.exit();
    b.guard_last(p);
    b.op(Op::Bar, {CfgProgramBuilder::I(0)});
    b.exit();
  });
  Harness h(2, 4, false);
  h.start(0, *k, 8, {0, 1});
  h.exec(0, exit_of(mask_of({0})));
  BOOST_TEST((h.slot(0).state == SlotState::Waiting));  // {1,2,3} gathered
  h.exec(1, exit_of(range(4, 4)));
  BOOST_TEST(h.slot(0).mask == mask_of({1, 2, 3}));
  BOOST_TEST(h.slot(0).pc == 1u);
  BOOST_TEST((h.slot(1).state == SlotState::Waiting));
}

// After a CTA barrier the released warps regroup as after a branch:
// partial warps whose lanes do not clash merge (Fung et al. regroup at
// every point where threads wait; the issue stage calls barrier_released).
BOOST_AUTO_TEST_CASE(warps_released_by_a_cta_barrier_regroup) {
  // 0 @p exit; 1 bar.sync 0; 2 add; 3 exit
  auto k = build([](CfgProgramBuilder& b, uint32_t p) {
    b.exit();
    b.guard_last(p);
    b.op(Op::Bar, {CfgProgramBuilder::I(0)});
    b.op(Op::Add, {});
    b.exit();
  });
  Harness h(2, 4, false);
  simt::stats::Registry reg;
  h.unit.register_stats(reg, "sm0.branch");
  h.start(0, *k, 8, {0, 1});
  h.exec(0, exit_of(mask_of({2, 3})));  // {0,1} gathered at the barrier
  h.exec(1, exit_of(mask_of({4, 5})));  // {6,7} too: both go on as their static warps
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1}));
  BOOST_TEST(h.slot(1).mask == mask_of({6, 7}));
  BOOST_TEST(h.slot(1).pc == 1u);
  // The issue stage blocks each warp at the barrier, then releases both.
  for (uint32_t s : {0u, 1u}) {
    h.unit.set_blocked(s, true);
    h.exec(s, barrier());
  }
  BOOST_TEST(h.slot(1).pc == 2u);
  const uint64_t new_warps = reg.value("sm0.branch.dwf_new_warps");
  const uint64_t merges = reg.value("sm0.branch.dwf_merges");
  const uint32_t v1 = h.slot(1).version;
  for (uint32_t s : {0u, 1u}) h.unit.set_blocked(s, false);
  h.unit.barrier_released(0, {0, 1});
  // Lanes 0-1 and 2-3 now share one warp; the other slot is empty.
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1, 6, 7}));
  BOOST_TEST(h.slot(0).pc == 2u);
  BOOST_TEST((h.slot(1).state == SlotState::Waiting));
  BOOST_TEST(h.slot(1).version != v1);
  BOOST_TEST(reg.value("sm0.branch.dwf_barrier_regroups") == 2u);
  BOOST_TEST(reg.value("sm0.branch.dwf_merges") == merges + 2);
  BOOST_TEST(reg.value("sm0.branch.dwf_new_warps") == new_warps);  // formed at branches only
  // A release that finds nothing to regroup (blocked or foreign slots) changes nothing.
  h.unit.set_blocked(0, true);
  const uint32_t v0 = h.slot(0).version;
  h.unit.barrier_released(0, {0});
  BOOST_TEST(h.slot(0).version == v0);
  BOOST_TEST(h.slot(0).mask == mask_of({0, 1, 6, 7}));
}

BOOST_AUTO_TEST_CASE(start_cta_refuses_what_dwf_cannot_run) {
  // A call to a function.
  CfgProgramBuilder b;
  b.func("k");
  b.call("f");
  b.exit();
  b.func("f");
  b.ret();
  Kernel calls(b.build());
  Harness h(2, 32, false);
  try {
    h.start(0, calls, 32, {0});
    BOOST_FAIL("a kernel with a call was accepted");
  } catch (const simt::Error& e) {
    BOOST_TEST((e.code() == simt::ExitCode::BadInput));
    BOOST_TEST(std::string(e.what()).find("kernel 'k'") != std::string::npos);
    BOOST_TEST(std::string(e.what()).find("line") != std::string::npos);
  }
  BOOST_TEST((h.slot(0).state == SlotState::Free));  // nothing was set up
  BOOST_CHECK_THROW(h.unit.check_kernel(calls.bk()), simt::Error);  // and before the launch
  // Builtins (vprintf) are plain instructions.
  Kernel printf_kernel(calls.prog);
  printf_kernel.prog.calls[0].builtin = simt::ptx::Builtin::Vprintf;
  BOOST_CHECK_NO_THROW(h.start(0, printf_kernel, 32, {0}));
  BOOST_CHECK_NO_THROW(h.unit.check_kernel(printf_kernel.bk()));

  // Warp-synchronous instructions with warps narrower than a PTX warp.
  auto k = build([](CfgProgramBuilder& b2, uint32_t) {
    const uint32_t r = b2.reg("%r");
    b2.op(Op::Vote, {b2.R(r), b2.R(r)});
    b2.exit();
  });
  Harness narrow(2, 8, false);
  BOOST_CHECK_THROW(narrow.start(0, *k, 8, {0}), simt::Error);
  // DWF-WB with warps that are not whole PTX warps.
  Harness wb48(2, 48, true), dwf48(2, 48, false);
  BOOST_CHECK_THROW(wb48.start(0, *k, 48, {0}), simt::Error);
  BOOST_CHECK_NO_THROW(dwf48.start(0, *k, 48, {0}));
  BOOST_CHECK_THROW(narrow.unit.check_kernel(k->bk()), simt::Error);
  BOOST_CHECK_THROW(wb48.unit.check_kernel(k->bk()), simt::Error);
  BOOST_CHECK_NO_THROW(dwf48.unit.check_kernel(k->bk()));
}

BOOST_AUTO_TEST_CASE(depth_and_statistics) {
  auto k = diamond();
  Harness h(2, 4, false);
  simt::stats::Registry reg;
  h.unit.register_stats(reg, "sm0.branch");
  BOOST_TEST(h.unit.take_max_depth() == 0u);
  h.start(0, *k, 8, {0, 1});
  BOOST_TEST(h.slot(0).depth == 1u);
  BOOST_TEST(h.unit.take_max_depth() == 1u);
  BOOST_TEST(h.unit.take_max_depth() == 0u);
  h.exec(0, next());
  h.exec(1, next());
  h.exec(0, branch(mask_of({0, 1}), kElse));
  h.exec(1, branch(mask_of({6, 7}), kElse));
  BOOST_TEST(reg.value("sm0.branch.dwf_merges") == 4u);
  BOOST_TEST(reg.value("sm0.branch.dwf_new_warps") == 2u);
  BOOST_TEST(reg.value("sm0.branch.dwf_overflow_events") == 1u);
  BOOST_TEST(reg.value("sm0.branch.warp_barrier_waits") == 0u);
  BOOST_TEST(reg.value("sm0.branch.warp_sync_regroups") == 0u);
  BOOST_TEST(h.unit.take_max_depth() == 1u);
}
