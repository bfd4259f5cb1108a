// util::RingQueue: the FIFO that replaced std::deque in the model's busy
// queues. It must hand items out in exactly a deque's order through growth
// and wrap-around (or results would change), and let go of what a popped
// item held.
#define BOOST_TEST_MODULE ring_queue
#include <boost/test/unit_test.hpp>

#include <deque>
#include <memory>
#include <random>
#include <utility>

#include "util/ring_queue.h"

using simt::util::RingQueue;

BOOST_AUTO_TEST_CASE(same_order_as_a_deque_through_growth_and_wrap_around) {
  RingQueue<std::pair<uint64_t, uint32_t>> ring;
  std::deque<std::pair<uint64_t, uint32_t>> ref;
  std::mt19937 rng(7);
  uint32_t next = 0;
  for (int step = 0; step < 20000; ++step) {
    // Phases that grow the queue, then drain it, so that the ring wraps at
    // many sizes and grows while wrapped.
    const bool grow = (step / 1000) % 2 == 0;
    if (ref.empty() || rng() % 4 < (grow ? 3u : 1u)) {
      if (rng() % 2) {
        ring.push_back({next, next * 3});
      } else {
        ring.emplace_back(next, next * 3);
      }
      ref.emplace_back(next, next * 3);
      ++next;
    } else {
      BOOST_REQUIRE(ring.front() == ref.front());
      ring.pop_front();
      ref.pop_front();
    }
    BOOST_REQUIRE_EQUAL(ring.size(), ref.size());
    BOOST_REQUIRE_EQUAL(ring.empty(), ref.empty());
    if (!ref.empty()) {
      BOOST_REQUIRE(ring.back() == ref.back());
      const size_t i = rng() % ref.size();
      BOOST_REQUIRE(ring[i] == ref[i]);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_popped_item_lets_go_of_what_it_held) {
  RingQueue<std::shared_ptr<int>> ring;
  auto p = std::make_shared<int>(5);
  ring.push_back(p);
  ring.push_back(p);
  BOOST_CHECK_EQUAL(p.use_count(), 3);
  ring.pop_front();
  BOOST_CHECK_EQUAL(p.use_count(), 2);
  ring.clear();
  BOOST_CHECK_EQUAL(p.use_count(), 1);
  BOOST_CHECK(ring.empty());
  ring.push_back(p);  // usable again after clear()
  BOOST_CHECK_EQUAL(*ring.front(), 5);
}
