#define BOOST_TEST_MODULE block_stack
#include <boost/test/unit_test.hpp>

#include <initializer_list>
#include <ostream>

#include "tbc/block_stack.h"

// Boost.Test prints both sides of a failed comparison: list the threads.
namespace simt::func {
std::ostream& operator<<(std::ostream& os, const ThreadMask& m) {
  os << '{';
  m.for_each([&](uint32_t t) { os << ' ' << t; });
  return os << " }";
}
}  // namespace simt::func

using simt::func::ThreadMask;
using namespace simt::tbc;

namespace {
ThreadMask mask_of(std::initializer_list<uint32_t> ts) {
  ThreadMask m;
  for (uint32_t t : ts) m.set(t);
  return m;
}
}  // namespace

// Seed 001 Figure 7 (Example 1), paper threads 1..8 are 0..7 here, warps of 4.
// C (taken) = paper {1,6,7}, B (not taken) = paper {2,3,4,5,8}.
// Warps arrive in Figure 9's style, the second static warp first.
BOOST_AUTO_TEST_CASE(figure7_push_pop_and_compactor_order) {
  enum : uint32_t { A = 0, B = 1, C = 2, D = 3 };
  const ThreadMask all = ThreadMask::range(0, 8);
  const ThreadMask w1 = ThreadMask::range(0, 4), w2 = ThreadMask::range(4, 4);
  const ThreadMask c_threads = mask_of({0, 5, 6});
  const ThreadMask b_threads = mask_of({1, 2, 3, 4, 7});
  BlockStack s(4, all, A);
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.top().wcnt == 2u);  // (1)/(2): two full warps execute A

  // (3)/(4): W2 arrives first and creates both target entries; nothing to compact yet.
  Dispatch d = s.arrive_branch(A, w2 & c_threads, w2, D, kNoPc, C, B);
  BOOST_TEST(!d.valid);
  BOOST_TEST(s.depth() == 3u);
  BOOST_TEST(s.sync_pending());
  BOOST_TEST(s.entry(0).wcnt == 1u);
  BOOST_TEST((s.entry(1).pc == B && s.entry(1).rpc == D && s.entry(1).mask == mask_of({4, 7})));
  BOOST_TEST((s.entry(2).pc == C && s.entry(2).rpc == D && s.entry(2).mask == mask_of({5, 6})));

  // W1 completes the masks; WCnt hits 0 and the taken side C goes to the compactor (5).
  d = s.arrive_branch(A, w1 & c_threads, w1, D, kNoPc, C, B);
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == uint32_t{C});
  BOOST_TEST(d.mask == c_threads);
  BOOST_TEST(d.warps == 1u);  // lanes 0,1,2 distinct: a single compacted warp (11)
  BOOST_TEST(s.entry(0).pc == uint32_t{D});  // the original entry will resume at D
  BOOST_TEST(s.entry(1).mask == b_threads);
  BOOST_TEST(!s.sync_pending());

  // (6)/(7): C's warp reaches D, C pops, B is compacted into two warps (8).
  BOOST_TEST(s.is_reconv_point(D));
  d = s.arrive_reconv(D, c_threads);
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == uint32_t{B});
  BOOST_TEST(d.mask == b_threads);
  BOOST_TEST(d.warps == 2u);  // threads 3 and 7 share home lane 3
  BOOST_TEST(s.depth() == 2u);

  // (9)/(10): both B warps reach D; B pops and all 8 threads resume in two warps.
  const ThreadMask bw1 = mask_of({4, 1, 2, 3}), bw2 = mask_of({7});
  BOOST_TEST(!s.arrive_reconv(D, bw1).valid);
  d = s.arrive_reconv(D, bw2);
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == uint32_t{D});
  BOOST_TEST(d.mask == all);
  BOOST_TEST(d.warps == 2u);
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.stats().max_depth == 3u);
  BOOST_TEST(s.stats().pushes == 3u);
  BOOST_TEST(s.stats().pops == 2u);
  BOOST_TEST(s.stats().empty_pops == 0u);
}

// Seed 001 Example 2 / Figure 10: A->{B,C}, B->E, C->{D,E}, D->F, E->{A,F}.
// IPDOM of A and C is F; their likely-convergence point is E. Paper threads
// 1..4 are 0..3 in one warp: 0 goes A->B->E, 1 goes A->C->E, 2 and 3 break (C->D->F).
namespace example2 {
enum : uint32_t { A = 0, B = 1, C = 2, D = 3, E = 4, F = 5 };
}

BOOST_AUTO_TEST_CASE(example2_likely_convergence_at_E_before_F) {
  using namespace example2;
  const ThreadMask all = ThreadMask::range(0, 4);
  BlockStack s(4, all, A);

  // (1)/(2): divergence at A pushes the likely entry E plus the two sides; C on top.
  Dispatch d = s.arrive_branch(A, mask_of({1, 2, 3}), all, F, E, C, B);
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == uint32_t{C});
  BOOST_TEST(d.mask == mask_of({1, 2, 3}));
  BOOST_TEST(s.depth() == 4u);
  BOOST_TEST((s.entry(1).pc == E && s.entry(1).rpc == F && s.entry(1).mask.none()));
  BOOST_TEST((s.entry(2).pc == B && s.entry(2).lpc == E && s.entry(2).lpos == 1u));
  BOOST_TEST((s.top().lpc == E && s.top().lpos == 1u));

  // (3)/(4): divergence at C reuses the likely entry: only two entries pushed.
  // Thread 1 goes to E, which is the LPC, so it merges into the likely entry at once (5);
  // threads 2,3 execute D.
  // The paper's Figure 10 keeps C's entry (now at F = its RPC) below them, 6
  // entries; like GPGPU-Sim's stack we drop it at once (nothing is left for
  // it to do: A's entry resumes at F), so the stack is 5 deep.
  d = s.arrive_branch(C, mask_of({1}), mask_of({1, 2, 3}), F, E, E, D);
  BOOST_TEST(s.stats().max_depth == 5u);
  BOOST_TEST(s.depth() == 4u);  // D on top; E's side merged into the likely entry
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == uint32_t{D});
  BOOST_TEST(d.mask == mask_of({2, 3}));
  BOOST_TEST(s.entry(1).mask == mask_of({1}));
  BOOST_TEST(s.stats().likely_merges == 1u);

  // (6)/(7): threads 2,3 reach F = RPC; D pops, C's leftover (now at F) pops, B runs (8).
  d = s.arrive_reconv(F, mask_of({2, 3}));
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == uint32_t{B});
  BOOST_TEST(d.mask == mask_of({0}));

  // (9): thread 0 reaches E = LPC: merged; threads 0 and 1 execute E together.
  BOOST_TEST(s.is_likely_point(E));
  d = s.arrive_likely(E, mask_of({0}));
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == uint32_t{E});
  BOOST_TEST(d.mask == mask_of({0, 1}));
  BOOST_TEST(d.warps == 1u);
  BOOST_TEST(s.depth() == 2u);

  // E->{A,F}: both leave the loop; the empty A side and the F side pop, then (10)
  // the likely entry (now at its IPDOM) pops and all four threads resume at F.
  d = s.arrive_branch(E, ThreadMask{}, mask_of({0, 1}), F, kNoPc, A, F);
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == uint32_t{F});
  BOOST_TEST(d.mask == all);
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.stats().max_depth == 5u);
  BOOST_TEST(s.stats().likely_merges == 2u);
  BOOST_TEST(s.stats().pushes == s.stats().pops + 1);  // the bottom entry stays
}

// Without a likely point the same paths run E twice: once per side, each reaching F on its own.
BOOST_AUTO_TEST_CASE(example2_without_lcp_executes_E_separately) {
  using namespace example2;
  const ThreadMask all = ThreadMask::range(0, 4);
  BlockStack s(4, all, A);
  Dispatch d = s.arrive_branch(A, mask_of({1, 2, 3}), all, F, kNoPc, C, B);
  BOOST_TEST(d.pc == uint32_t{C});
  d = s.arrive_branch(C, mask_of({1}), mask_of({1, 2, 3}), F, kNoPc, E, D);
  BOOST_TEST(d.pc == uint32_t{E});
  BOOST_TEST(d.mask == mask_of({1}));  // thread 1 alone at E
  BOOST_TEST(!s.is_likely_point(E));
  BOOST_TEST(s.stats().max_depth == 4u);  // C's finished entry is not kept (see above)
  BOOST_TEST(s.stats().likely_merges == 0u);
}

// Two warps with a likely point: warps of one entry count down WCnt at the LPC
// and merge only once all of them are there.
BOOST_AUTO_TEST_CASE(likely_merge_waits_for_all_warps_of_the_entry) {
  using namespace example2;
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, A);
  // Threads 0,4 (same lane) take C; everyone else goes to B.
  const ThreadMask c = mask_of({0, 4});
  BOOST_TEST(!s.arrive_branch(A, c & ThreadMask::range(0, 4), ThreadMask::range(0, 4), F, E, C, B).valid);
  Dispatch d = s.arrive_branch(A, c & ThreadMask::range(4, 4), ThreadMask::range(4, 4), F, E, C, B);
  BOOST_TEST(d.pc == uint32_t{C});
  BOOST_TEST(d.warps == 2u);  // both threads sit in lane 0
  BOOST_TEST(!s.arrive_likely(E, mask_of({0})).valid);
  BOOST_TEST(s.entry(1).mask.none());  // not merged before the second warp arrives
  d = s.arrive_likely(E, mask_of({4}));
  BOOST_TEST(d.pc == uint32_t{B});
  BOOST_TEST(s.entry(1).mask == c);
}

BOOST_AUTO_TEST_CASE(uniform_branch_pushes_nothing) {
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, 0);
  Dispatch d = s.arrive_branch(0, ThreadMask::range(0, 4), ThreadMask::range(0, 4), 3, kNoPc, 2, 1, true);
  BOOST_TEST(!d.valid);
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(!s.sync_pending());
  BOOST_TEST(s.top().wcnt == 2u);  // no synchronisation: WCnt untouched
  BOOST_TEST(s.stats().uniform_branches == 1u);
  BOOST_TEST(s.stats().max_depth == 1u);
}

// All threads take the branch: both entries are still created, the empty
// not-taken one is popped when it becomes top.
BOOST_AUTO_TEST_CASE(empty_side_is_popped) {
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, 0);
  BOOST_TEST(!s.arrive_branch(0, ThreadMask::range(0, 4), ThreadMask::range(0, 4), 3, kNoPc, 2, 1).valid);
  BOOST_TEST(s.depth() == 3u);
  Dispatch d = s.arrive_branch(0, ThreadMask::range(4, 4), ThreadMask::range(4, 4), 3, kNoPc, 2, 1);
  BOOST_TEST(d.pc == 2u);
  BOOST_TEST(d.mask == all);
  BOOST_TEST(s.entry(1).mask.none());
  BOOST_TEST(!s.arrive_reconv(3, ThreadMask::range(0, 4)).valid);
  d = s.arrive_reconv(3, ThreadMask::range(4, 4));
  BOOST_TEST(d.pc == 3u);  // straight to the reconvergence point: side 1 never runs
  BOOST_TEST(d.mask == all);
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.stats().empty_pops == 1u);

  // Nobody takes it: the empty taken entry pops at once when WCnt reaches 0.
  d = s.arrive_branch(3, ThreadMask{}, ThreadMask::range(0, 4), 9, kNoPc, 8, 4);
  d = s.arrive_branch(3, ThreadMask{}, ThreadMask::range(4, 4), 9, kNoPc, 8, 4);
  BOOST_TEST(d.pc == 4u);
  BOOST_TEST(s.depth() == 2u);
  BOOST_TEST(s.stats().empty_pops == 2u);
}

// Nested divergence: depth grows by two per level and max_depth remembers the peak.
BOOST_AUTO_TEST_CASE(max_depth_tracks_nesting) {
  const ThreadMask all = ThreadMask::range(0, 4);
  BlockStack s(4, all, 0);
  // 0: t0,t1 -> 10, t2,t3 -> 1; IPDOM 100.
  Dispatch d = s.arrive_branch(0, mask_of({0, 1}), all, 100, kNoPc, 10, 1);
  BOOST_TEST(d.pc == 10u);
  // 10: t0 -> 20, t1 -> 11; IPDOM 50.
  d = s.arrive_branch(10, mask_of({0}), mask_of({0, 1}), 50, kNoPc, 20, 11);
  BOOST_TEST(d.pc == 20u);
  BOOST_TEST(s.depth() == 5u);
  d = s.arrive_reconv(50, mask_of({0}));
  BOOST_TEST(d.pc == 11u);
  d = s.arrive_reconv(50, mask_of({1}));
  BOOST_TEST(d.pc == 50u);
  BOOST_TEST(d.mask == mask_of({0, 1}));
  d = s.arrive_reconv(100, mask_of({0, 1}));
  BOOST_TEST(d.pc == 1u);
  d = s.arrive_reconv(100, mask_of({2, 3}));
  BOOST_TEST(d.pc == 100u);
  BOOST_TEST(d.mask == all);
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.stats().max_depth == 5u);
}

BOOST_AUTO_TEST_CASE(misuse_is_rejected) {
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, 0);
  BOOST_CHECK_THROW(s.arrive_reconv(7, ThreadMask::range(0, 4)), std::logic_error);
  s.arrive_branch(0, ThreadMask{}, ThreadMask::range(0, 4), 3, kNoPc, 2, 1);
  // The other warp must come to the same branch.
  BOOST_CHECK_THROW(s.arrive_branch(5, ThreadMask{}, ThreadMask::range(4, 4), 3, kNoPc, 2, 1), SyncConflict);
  // A warp outside the executing entry is a caller bug.
  BOOST_CHECK_THROW(s.arrive_branch(0, ThreadMask{}, ThreadMask::range(8, 4), 3, kNoPc, 2, 1), std::logic_error);
}

// ---- thread exit ----------------------------------------------------------

// Early return in divergent code: Figure 7's C side (threads 0,5,6) returns
// instead of reaching D. C's warp exits, C pops, B runs and reconverges at D
// without the exited threads.
BOOST_AUTO_TEST_CASE(side_entry_exits_and_is_popped) {
  enum : uint32_t { A = 0, B = 1, C = 2, D = 3 };
  const ThreadMask all = ThreadMask::range(0, 8);
  const ThreadMask c_threads = mask_of({0, 5, 6}), b_threads = mask_of({1, 2, 3, 4, 7});
  BlockStack s(4, all, A);
  s.arrive_branch(A, mask_of({0}), ThreadMask::range(0, 4), D, kNoPc, C, B);
  Dispatch d = s.arrive_branch(A, mask_of({5, 6}), ThreadMask::range(4, 4), D, kNoPc, C, B);
  BOOST_TEST(d.pc == uint32_t{C});
  BOOST_TEST(d.warps == 1u);

  s.exit_threads(c_threads);  // the issue stage's order: remove, then count the warp
  BOOST_TEST(s.entry(0).mask == b_threads);
  d = s.arrive_exit(c_threads);
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == uint32_t{B});
  BOOST_TEST(d.mask == b_threads);
  BOOST_TEST(d.warps == 2u);
  BOOST_TEST(s.stats().empty_pops == 0u);  // C had threads: a normal pop

  BOOST_TEST(!s.arrive_reconv(D, mask_of({1, 2, 3, 4})).valid);
  d = s.arrive_reconv(D, mask_of({7}));
  BOOST_TEST(d.pc == uint32_t{D});
  BOOST_TEST(d.mask == b_threads);
  BOOST_TEST(d.warps == 2u);  // threads 3 and 7 share lane 3
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(!s.finished());
}

// arrive_exit removes the warp's threads itself: exit_threads first is optional.
BOOST_AUTO_TEST_CASE(all_threads_exit_finishes_the_stack) {
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, 0);
  BOOST_TEST(!s.arrive_exit(ThreadMask::range(4, 4)).valid);
  BOOST_TEST(s.top().mask == ThreadMask::range(0, 4));
  BOOST_TEST(!s.finished());
  Dispatch d = s.arrive_exit(ThreadMask::range(0, 4));
  BOOST_TEST(d.valid);
  BOOST_TEST(d.warps == 0u);
  BOOST_TEST(d.mask.none());
  BOOST_TEST(s.finished());
  BOOST_TEST(s.exited() == all);
  BOOST_CHECK_THROW(s.arrive_exit(ThreadMask::range(0, 4)), std::logic_error);  // nothing left to count
}

// Threads exiting in every entry, down to the bottom one.
BOOST_AUTO_TEST_CASE(exits_on_both_sides_finish_the_stack) {
  const ThreadMask all = ThreadMask::range(0, 4);
  BlockStack s(4, all, 0);
  Dispatch d = s.arrive_branch(0, mask_of({0, 1}), all, 9, kNoPc, 5, 1);
  BOOST_TEST(d.pc == 5u);
  d = s.arrive_exit(mask_of({0, 1}));
  BOOST_TEST(d.pc == 1u);
  BOOST_TEST(d.mask == mask_of({2, 3}));
  d = s.arrive_exit(mask_of({2, 3}));
  BOOST_TEST(d.valid);
  BOOST_TEST(d.warps == 0u);
  BOOST_TEST(s.finished());
  BOOST_TEST(s.depth() == 1u);
}

// A warp that only partly exits goes on: the count does not change, and the
// exited threads are gone from the entries below when they resume.
BOOST_AUTO_TEST_CASE(partial_exit_keeps_the_warp_counted) {
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, 0);
  s.arrive_branch(0, ThreadMask::range(0, 4), ThreadMask::range(0, 4), 9, kNoPc, 5, 1);
  Dispatch d = s.arrive_branch(0, ThreadMask{}, ThreadMask::range(4, 4), 9, kNoPc, 5, 1);
  BOOST_TEST(d.pc == 5u);
  BOOST_TEST(d.warps == 1u);
  s.exit_threads(mask_of({1, 2}));  // @p exit: two threads leave, the warp goes on
  BOOST_TEST(s.top().wcnt == 1u);
  BOOST_TEST(s.top().mask == mask_of({0, 3}));
  d = s.arrive_reconv(9, ThreadMask::range(0, 4));  // its threads incl. the exited ones: tolerated
  BOOST_TEST(d.pc == 1u);
  BOOST_TEST(d.mask == ThreadMask::range(4, 4));
  d = s.arrive_reconv(9, ThreadMask::range(4, 4));
  BOOST_TEST(d.pc == 9u);
  BOOST_TEST(d.mask == mask_of({0, 3, 4, 5, 6, 7}));
  BOOST_TEST(d.warps == 2u);  // lanes 0 and 3 hold two threads each
}

// A warp exiting while the others synchronise at a branch counts as arrived.
BOOST_AUTO_TEST_CASE(exit_during_branch_sync_completes_it) {
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, 0);
  BOOST_TEST(!s.arrive_branch(6, mask_of({1}), ThreadMask::range(0, 4), 9, kNoPc, 8, 7).valid);
  Dispatch d = s.arrive_exit(ThreadMask::range(4, 4));
  BOOST_TEST(d.valid);
  BOOST_TEST(d.pc == 8u);
  BOOST_TEST(d.mask == mask_of({1}));
  BOOST_TEST(s.entry(0).mask == ThreadMask::range(0, 4));
}

// Likely point with an exiting warp: only the arrived threads merge.
BOOST_AUTO_TEST_CASE(likely_round_completed_by_an_exit_merges) {
  enum : uint32_t { A = 0, B = 1, C = 2, E = 4, F = 5 };
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, A);
  s.arrive_branch(A, mask_of({0}), ThreadMask::range(0, 4), F, E, C, B);
  Dispatch d = s.arrive_branch(A, mask_of({4}), ThreadMask::range(4, 4), F, E, C, B);
  BOOST_TEST(d.pc == uint32_t{C});
  BOOST_TEST(d.warps == 2u);
  BOOST_TEST(!s.arrive_likely(E, mask_of({0})).valid);
  d = s.arrive_exit(mask_of({4}));
  BOOST_TEST(d.pc == uint32_t{B});
  BOOST_TEST(s.entry(1).mask == mask_of({0}));
  BOOST_TEST(s.stats().likely_merges == 1u);
}

// Warps of one entry must gather at one PC: a branch vs the RPC is a conflict.
BOOST_AUTO_TEST_CASE(different_sync_points_are_a_conflict) {
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, 0);
  s.arrive_branch(0, ThreadMask::range(0, 4), ThreadMask::range(0, 4), 9, kNoPc, 2, 1);
  s.arrive_branch(0, ThreadMask::range(4, 4), ThreadMask::range(4, 4), 9, kNoPc, 2, 1);
  // Both warps run the taken side at 2; one reaches the RPC, the other a branch.
  BOOST_TEST(!s.arrive_reconv(9, ThreadMask::range(0, 4)).valid);
  BOOST_CHECK_THROW(s.arrive_branch(3, ThreadMask{}, ThreadMask::range(4, 4), 9, kNoPc, 8, 4), SyncConflict);
}

// ---- compactor off, depth peak ---------------------------------------------

// With the compactor off WCnt counts static warps: Figure 7's C side needs
// two warps instead of one.
BOOST_AUTO_TEST_CASE(static_mode_counts_static_warps) {
  enum : uint32_t { A = 0, B = 1, C = 2, D = 3 };
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(4, all, A, false);
  BOOST_TEST(s.top().wcnt == 2u);
  s.arrive_branch(A, mask_of({0}), ThreadMask::range(0, 4), D, kNoPc, C, B);
  Dispatch d = s.arrive_branch(A, mask_of({5, 6}), ThreadMask::range(4, 4), D, kNoPc, C, B);
  BOOST_TEST(d.warps == 2u);
  BOOST_TEST(s.warp_count(mask_of({1, 2, 3, 4, 7})) == 2u);
  BOOST_TEST(s.warp_count(mask_of({1, 10})) == 2u);
  BOOST_TEST(compacted_warp_count(mask_of({1, 10}), 4) == 1u);
}

BOOST_AUTO_TEST_CASE(take_peak_sees_transient_pushes) {
  const ThreadMask all = ThreadMask::range(0, 4);
  BlockStack s(4, all, 0);
  BOOST_TEST(s.take_peak() == 1u);
  s.arrive_branch(0, ThreadMask{}, all, 9, kNoPc, 5, 1);  // taken side empty: popped at once
  BOOST_TEST(s.depth() == 2u);
  BOOST_TEST(s.take_peak() == 3u);
  BOOST_TEST(s.take_peak() == 2u);  // restarts from the current depth
}

// A loop whose back edge diverges in every iteration: the branch reconverges
// at the loop exit, where the executing (taken-side) entry also reconverges,
// so that entry leaves the stack when the round ends, and the exit side
// starts at the reconvergence point, so it gets no entry. The stack stays 2
// deep however many iterations diverge (it grew by 2 per iteration before).
BOOST_AUTO_TEST_CASE(a_diverging_loop_back_edge_does_not_grow_the_stack) {
  // 0 body; 1 @p bra 0 (IPDOM 2); 2 exit. One warp of 8 threads.
  const ThreadMask all = ThreadMask::range(0, 8);
  BlockStack s(8, all, 0);
  ThreadMask in_loop = all;
  for (uint32_t left = 7; left >= 1; --left) {
    const ThreadMask stay = ThreadMask::range(0, left);
    const Dispatch d = s.arrive_branch(1, stay, in_loop, 2, kNoPc, 0, 2);
    BOOST_TEST(d.valid);
    BOOST_TEST(d.pc == 0u);
    BOOST_TEST(d.mask == stay);
    BOOST_TEST(s.depth() == 2u);
    in_loop = stay;
  }
  BOOST_TEST(s.stats().max_depth == 2u);
  const Dispatch d = s.arrive_branch(1, ThreadMask{}, in_loop, 2, kNoPc, 0, 2);
  BOOST_TEST(d.pc == 2u);
  BOOST_TEST(d.mask == all);
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.stats().pushes == s.stats().pops + 1);  // the bottom entry stays
}
