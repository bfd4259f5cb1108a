#define BOOST_TEST_MODULE simt_stack
#include <boost/test/unit_test.hpp>

#include "runtime/simt_stack.h"

using simt::func::ThreadMask;
using simt::runtime::SimtStack;

namespace {
ThreadMask bits(std::initializer_list<uint32_t> ts) {
  ThreadMask m;
  for (uint32_t t : ts) m.set(t);
  return m;
}
}  // namespace

BOOST_AUTO_TEST_CASE(uniform_branch_pushes_nothing) {
  SimtStack s;
  s.reset(0, ThreadMask::range(0, 4));
  s.branch(ThreadMask::range(0, 4), 10, 1, 20);
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.top().pc == 10u);
  s.branch(ThreadMask{}, 30, 11, 40);
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.top().pc == 11u);
}

BOOST_AUTO_TEST_CASE(divergent_branch_runs_taken_then_fallthrough_then_reconverges) {
  ThreadMask none;
  SimtStack s;
  s.reset(0, ThreadMask::range(0, 4));
  s.branch(bits({1, 2}), 10, 1, 20);
  BOOST_TEST(s.depth() == 3u);
  BOOST_TEST(s.top().pc == 10u);
  BOOST_TEST((s.top().mask == bits({1, 2})));
  s.top().pc = 20;  // taken side reaches the reconvergence point
  BOOST_TEST(s.settle(none));
  BOOST_TEST(s.top().pc == 1u);
  BOOST_TEST((s.top().mask == bits({0, 3})));
  s.top().pc = 20;
  BOOST_TEST(s.settle(none));
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.top().pc == 20u);
  BOOST_TEST((s.top().mask == ThreadMask::range(0, 4)));
  BOOST_TEST(s.max_depth() == 3u);
}

BOOST_AUTO_TEST_CASE(nested_divergence_depth) {
  ThreadMask none;
  SimtStack s;
  s.reset(0, ThreadMask::range(0, 8));
  s.branch(ThreadMask::range(0, 4), 10, 1, 50);   // outer
  s.branch(ThreadMask::range(0, 2), 20, 11, 40);  // inner, on the taken side
  BOOST_TEST(s.depth() == 5u);
  s.top().pc = 40;
  BOOST_TEST(s.settle(none));
  BOOST_TEST(s.top().pc == 11u);
  s.top().pc = 40;
  BOOST_TEST(s.settle(none));
  BOOST_TEST(s.top().pc == 40u);  // inner reconvergence entry, threads 0-3
  BOOST_TEST((s.top().mask == ThreadMask::range(0, 4)));
  s.top().pc = 50;
  BOOST_TEST(s.settle(none));
  BOOST_TEST((s.top().mask == ThreadMask::range(4, 4)));
}

BOOST_AUTO_TEST_CASE(exited_threads_pop_entries) {
  SimtStack s;
  s.reset(0, ThreadMask::range(0, 4));
  s.branch(bits({0}), 10, 1, simt::ptx::kNoPc);
  ThreadMask exited = bits({0});
  BOOST_TEST(s.settle(exited));
  BOOST_TEST(s.top().pc == 1u);  // the taken entry had only thread 0
  exited = ThreadMask::range(0, 4);
  BOOST_TEST(!s.settle(exited));
  BOOST_TEST(s.empty());
}

BOOST_AUTO_TEST_CASE(call_returns_to_caller_entry) {
  ThreadMask none;
  SimtStack s;
  s.reset(5, ThreadMask::range(0, 4));
  s.call(100, 6, ThreadMask::range(0, 4));
  BOOST_TEST(s.depth() == 2u);
  BOOST_TEST(s.top().pc == 100u);
  s.top().pc = 6 | simt::ptx::kReturnTag;  // ret
  BOOST_TEST(s.settle(none));
  BOOST_TEST(s.depth() == 1u);
  BOOST_TEST(s.top().pc == 6u);
}

// A loop whose back edge keeps diverging: the branch reconverges at the loop
// exit, where the taken side's entry also reconverges, so the new taken side
// replaces that entry, and the exit side starts at the reconvergence point,
// so it gets no entry. The stack stays 2 deep however many iterations
// diverge (it grew by 2 per iteration before).
BOOST_AUTO_TEST_CASE(a_diverging_loop_back_edge_does_not_grow_the_stack) {
  // 0 body; 1 @p bra 0 (IPDOM 2); 2 exit
  SimtStack s;
  ThreadMask none;
  s.reset(0, ThreadMask::range(0, 8));
  for (uint32_t left = 7; left >= 1; --left) {
    s.top().pc = 1;
    s.branch(ThreadMask::range(0, left), 0, 2, 2);  // threads [left, ...) leave the loop
    BOOST_TEST(s.settle(none));
    BOOST_TEST(s.top().pc == 0u);
    BOOST_TEST((s.top().mask == ThreadMask::range(0, left)));
    BOOST_TEST(s.depth() == 2u);
  }
  BOOST_TEST(s.max_depth() == 2u);
  s.top().pc = 1;
  s.branch(ThreadMask{}, 0, 2, 2);  // the last thread leaves
  BOOST_TEST(s.settle(none));
  BOOST_TEST(s.top().pc == 2u);
  BOOST_TEST((s.top().mask == ThreadMask::range(0, 8)));
  BOOST_TEST(s.depth() == 1u);
}
