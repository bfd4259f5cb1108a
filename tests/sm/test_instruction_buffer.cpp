#define BOOST_TEST_MODULE instruction_buffer
#include <boost/test/unit_test.hpp>

#include <stdexcept>

#include "config/param_registry.h"
#include "ptx/ir.h"
#include "sm/instruction_buffer.h"
#include "util/error.h"

using namespace simt;
using sm::IBufferParams;
using sm::InstructionBuffer;

namespace {
IBufferParams entries(uint32_t n) {
  IBufferParams p;
  p.entries = n;
  return p;
}
}  // namespace

BOOST_AUTO_TEST_CASE(fifo_order_valid_and_ready_bits) {
  ptx::Instr code[8];
  InstructionBuffer ib(IBufferParams{}, 4);
  BOOST_TEST(ib.capacity() == 2u);
  BOOST_TEST(ib.space(1) == 2u);
  BOOST_TEST(ib.front(1) == nullptr);
  ib.push(1, 5, &code[5]);
  ib.push(1, 6, &code[6]);
  BOOST_TEST(ib.space(1) == 0u);
  BOOST_CHECK_THROW(ib.push(1, 7, &code[7]), std::logic_error);
  const auto* e = ib.front(1);
  BOOST_REQUIRE(e);
  BOOST_TEST(e->pc == 5u);
  BOOST_TEST(e->instr == &code[5]);
  BOOST_TEST(e->valid);
  BOOST_TEST(!ib.front_ready(1));
  ib.set_ready(1, true);
  BOOST_TEST(ib.front_ready(1));
  BOOST_TEST(!ib.front_ready(0));
  BOOST_TEST(!ib.front_ready(2));
  BOOST_TEST(ib.next_pc(1, 0) == 7u);
  ib.pop(1);
  BOOST_TEST(ib.front(1)->pc == 6u);
  BOOST_TEST(!ib.front_ready(1));  // readiness belongs to the entry, not the slot
  ib.set_ready(1, true);
  ib.flush(1);
  BOOST_TEST(!ib.front_ready(1));  // a flushed buffer has no ready entry
  ib.push(1, 7, &code[7]);
  BOOST_TEST(!ib.front_ready(1));
  // Other warps are untouched.
  BOOST_TEST(ib.empty(0));
  BOOST_TEST(ib.space(2) == 2u);
  BOOST_TEST(ib.next_pc(0, 42) == 42u);
  // Ready bits past the first 64 warps.
  InstructionBuffer big(IBufferParams{}, 70);
  big.push(65, 1, &code[1]);
  big.push(1, 1, &code[1]);
  big.set_ready(65, true);
  BOOST_TEST(big.front_ready(65));
  BOOST_TEST(!big.front_ready(1));
}

BOOST_AUTO_TEST_CASE(ring_wraps_around) {
  ptx::Instr code[16];
  InstructionBuffer ib(entries(3), 1);
  uint32_t pushed = 0, popped = 0;
  for (int round = 0; round < 10; ++round) {
    while (ib.space(0)) {
      ib.push(0, pushed, &code[pushed % 16]);
      ++pushed;
    }
    for (int k = 0; k < 2; ++k) {
      BOOST_REQUIRE(ib.front(0)->pc == popped);
      ib.pop(0);
      ++popped;
    }
  }
  BOOST_TEST(ib.size(0) == 1u);
  BOOST_TEST(ib.front(0)->pc == popped);
}

BOOST_AUTO_TEST_CASE(flush_on_a_taken_branch_then_refill) {
  ptx::Instr code[32];
  InstructionBuffer ib(entries(2), 2);
  ib.push(0, 10, &code[10]);  // the branch
  ib.push(0, 11, &code[11]);  // fall-through, fetched speculatively
  ib.push(1, 3, &code[3]);
  uint32_t gen = ib.generation(0);
  ib.pop(0);                    // the branch issues and is taken to 20
  BOOST_TEST(ib.flush(0) == 1u);
  BOOST_TEST(ib.empty(0));
  BOOST_TEST(ib.front(0) == nullptr);
  BOOST_TEST(ib.generation(0) == gen + 1);
  BOOST_TEST(ib.generation(1) == 0u);
  BOOST_TEST(ib.next_pc(0, 20) == 20u);
  ib.push(0, 20, &code[20]);
  ib.push(0, 21, &code[21]);
  BOOST_TEST(ib.front(0)->pc == 20u);
  ib.pop(0);
  BOOST_TEST(ib.front(0)->pc == 21u);
  BOOST_TEST(ib.front(1)->pc == 3u);  // warp 1 keeps its instruction
  BOOST_TEST(ib.flush(0) == 1u);
  BOOST_TEST(ib.flush(0) == 0u);      // flushing an empty buffer still starts a new generation
  BOOST_TEST(ib.generation(0) == gen + 3);
  BOOST_CHECK_THROW(ib.pop(0), std::logic_error);
  BOOST_CHECK_THROW(ib.set_ready(0, true), std::logic_error);
  BOOST_CHECK_THROW(ib.push(2, 0, &code[0]), std::logic_error);
}

BOOST_AUTO_TEST_CASE(parameters) {
  config::ParamRegistry r;
  IBufferParams p;
  p.bind(r, "sm.ibuffer");
  r.set("sm.ibuffer.entries", "4", "test");
  BOOST_TEST(p.entries == 4u);
  InstructionBuffer ib(p, 2);
  BOOST_TEST(ib.capacity() == 4u);
  BOOST_CHECK_THROW(r.set("sm.ibuffer.entries", "0", "test"), simt::Error);
  BOOST_CHECK_THROW(InstructionBuffer(entries(0), 1), simt::Error);
}
