#define BOOST_TEST_MODULE scoreboard
#include <boost/test/unit_test.hpp>

#include <ostream>
#include <stdexcept>

#include "common/ir_builder.h"
#include "ptx/opcode_table.h"
#include "sm/scoreboard.h"

using namespace simt;
using namespace simt::test;
using sm::Hazard;
using sm::Scoreboard;

namespace simt::sm {
std::ostream& operator<<(std::ostream& os, Hazard h) { return os << hazard_name(h); }
}  // namespace simt::sm

namespace {
Instr cls(Instr in) {
  in.cls = ptx::classify(in);
  return in;
}
Instr add(uint32_t d, uint32_t a, uint32_t b) { return cls(make(Op::Add, Type::S32, {R(d), R(a), R(b)})); }
Instr ld(uint32_t d, uint32_t base) { return cls(make(Op::Ld, Type::U32, {R(d), Addr(base)}, Space::Global)); }
// Static warp w of 32 threads: under PDOM a warp's scope.
func::ThreadMask W(uint32_t w) { return func::ThreadMask::range(w * 32, 32); }
}  // namespace

BOOST_AUTO_TEST_CASE(raw_on_a_dependent_chain_until_writeback) {
  Scoreboard sb(1, 16);
  Instr i1 = add(2, 0, 1), i2 = add(3, 2, 2), i3 = add(4, 3, 0);
  BOOST_TEST(sb.check(0, W(0), i1) == Hazard::None);
  sb.reserve(0, W(0), i1, false);
  BOOST_TEST(sb.pending(0) == 1u);
  BOOST_TEST(sb.is_pending(0, W(0), 2));
  BOOST_TEST(sb.check(0, W(0), i2) == Hazard::Raw);  // reads r2 in flight
  BOOST_TEST(!sb.release(0, W(0), 2));               // not a long-latency write
  BOOST_TEST(sb.check(0, W(0), i2) == Hazard::None);
  sb.reserve(0, W(0), i2, false);
  BOOST_TEST(sb.check(0, W(0), i3) == Hazard::Raw);  // chain continues through r3
  sb.release(0, W(0), 3);
  BOOST_TEST(sb.check(0, W(0), i3) == Hazard::None);
  BOOST_TEST(sb.pending(0) == 0u);
}

BOOST_AUTO_TEST_CASE(waw_blocks_a_second_writer_of_a_pending_register) {
  Scoreboard sb(1, 16);
  sb.reserve(0, W(0), ld(5, 1), true);
  // Writes r5 from independent sources: only the pending write blocks it.
  BOOST_TEST(sb.check(0, W(0), add(5, 6, 7)) == Hazard::Waw);
  // RAW is reported first when both apply.
  BOOST_TEST(sb.check(0, W(0), add(5, 5, 7)) == Hazard::Raw);
  // Reserving it anyway is a model bug.
  BOOST_CHECK_THROW(sb.reserve(0, W(0), add(5, 6, 7), false), std::logic_error);
}

BOOST_AUTO_TEST_CASE(independent_instructions_and_other_warps_do_not_wait) {
  Scoreboard sb(1, 70);
  sb.reserve(0, W(0), add(2, 0, 1), false);
  sb.reserve(0, W(0), add(65, 0, 1), false);  // second bit word
  BOOST_TEST(sb.check(0, W(0), add(6, 4, 5)) == Hazard::None);
  BOOST_TEST(sb.check(0, W(0), add(6, 65, 5)) == Hazard::Raw);
  BOOST_TEST(sb.check(0, W(1), add(6, 2, 65)) == Hazard::None);  // warp 1 has its own registers
  BOOST_TEST(sb.check(0, W(2), add(2, 2, 2)) == Hazard::None);
  BOOST_TEST(sb.pending(0) == 2u);  // per CTA
}

BOOST_AUTO_TEST_CASE(guard_predicate_is_a_source) {
  Scoreboard sb(1, 16);
  Instr setp = cls(make(Op::Setp, Type::S32, {R(9), R(0), R(1)}));
  sb.reserve(0, W(0), setp, false);
  Instr guarded = add(3, 0, 1);
  guarded.guard = R(9);
  BOOST_TEST(sb.check(0, W(0), guarded) == Hazard::Raw);
  BOOST_TEST(sb.check(0, W(0), add(3, 0, 1)) == Hazard::None);
}

BOOST_AUTO_TEST_CASE(vector_load_reserves_every_element_as_long_latency) {
  Scoreboard sb(1, 32);
  Instr ldv = cls(make(Op::Ld, Type::F32, {Vec({10, 11, 12, 13}), Addr(1)}, Space::Global));
  ldv.vec = 4;
  sb.reserve(0, W(1), ldv, true);
  BOOST_TEST(sb.pending(0) == 4u);
  Instr use12 = add(20, 12, 0), use0 = add(20, 0, 1);
  BOOST_TEST(sb.waits_on_long(0, W(1), ptx::def_use(use12)));
  BOOST_TEST(!sb.waits_on_long(0, W(1), ptx::def_use(use0)));
  // A short ALU write pending is not a long-latency wait.
  sb.reserve(0, W(1), add(21, 0, 1), false);
  BOOST_TEST(!sb.waits_on_long(0, W(1), ptx::def_use(add(22, 21, 0))));
  BOOST_TEST(sb.release(0, W(1), 12));  // memory result
  BOOST_TEST(!sb.waits_on_long(0, W(1), ptx::def_use(use12)));
  BOOST_TEST(!sb.release(0, W(1), 21));
  auto regs = sb.pending_regs(0, W(1));
  BOOST_TEST(regs == (std::vector<uint32_t>{10, 11, 13}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(store_reads_data_and_address_and_writes_nothing) {
  Scoreboard sb(1, 16);
  sb.reserve(0, W(0), ld(4, 1), true);
  Instr st = cls(make(Op::St, Type::U32, {Addr(2), R(4)}, Space::Global));
  BOOST_TEST(sb.check(0, W(0), st) == Hazard::Raw);  // data register in flight
  sb.reserve(0, W(0), cls(make(Op::St, Type::U32, {Addr(2), R(3)}, Space::Global)), false);
  BOOST_TEST(sb.pending(0) == 1u);  // the store itself reserved nothing
}

BOOST_AUTO_TEST_CASE(double_release_and_clear_cta) {
  Scoreboard sb(1, 8);
  sb.reserve(0, W(0), add(2, 0, 1), false);
  sb.reserve(0, W(0), ld(3, 1), true);
  sb.release(0, W(0), 2);
  BOOST_CHECK_THROW(sb.release(0, W(0), 2), std::logic_error);
  BOOST_CHECK_THROW(sb.release(0, W(0), 9), std::logic_error);  // out of range
  sb.clear_cta(0);
  BOOST_TEST(sb.pending(0) == 0u);
  BOOST_TEST(sb.check(0, W(0), add(4, 3, 3)) == Hazard::None);
  sb.configure(1, 4);
  BOOST_TEST(sb.ctas() == 1u);
  BOOST_TEST(sb.regs() == 4u);
}

// TBC and DWF warps are changing sets of threads: a pending write belongs to
// the threads that issued it, not to a warp slot.
BOOST_AUTO_TEST_CASE(pending_writes_belong_to_threads) {
  Scoreboard sb(2, 16);
  func::ThreadMask a, b;
  for (uint32_t t : {0u, 33u, 66u}) a.set(t);   // a compacted warp: lanes 0, 1, 2
  for (uint32_t t : {1u, 34u, 35u}) b.set(t);   // another one of the same CTA
  sb.reserve(0, a, ld(5, 1), true);
  BOOST_TEST(sb.check(0, b, add(6, 5, 5)) == Hazard::None);  // b's r5 is not in flight
  sb.reserve(0, b, ld(5, 1), true);                          // nor is writing it a WAW
  func::ThreadMask mixed;                                    // a warp formed later from both
  mixed.set(33);
  mixed.set(35);
  BOOST_TEST(sb.check(0, mixed, add(6, 5, 5)) == Hazard::Raw);
  BOOST_TEST(sb.waits_on_long(0, mixed, ptx::def_use(add(6, 5, 5))));
  BOOST_TEST(sb.check(1, mixed, add(6, 5, 5)) == Hazard::None);  // another CTA slot
  BOOST_TEST(sb.release(0, a, 5));
  BOOST_TEST(sb.check(0, mixed, add(6, 5, 5)) == Hazard::Raw);  // thread 35 still waits
  BOOST_CHECK_THROW(sb.release(0, a, 5), std::logic_error);    // a's write already back
  BOOST_TEST(sb.release(0, b, 5));
  BOOST_TEST(sb.check(0, mixed, add(6, 5, 5)) == Hazard::None);
  BOOST_TEST(sb.pending(0) == 0u);
}

// PDOM asks with the whole static warp: a diverged path waits on the other
// path's pending writes, as a per-warp scoreboard does.
BOOST_AUTO_TEST_CASE(a_static_warp_scope_sees_every_path_of_the_warp) {
  Scoreboard sb(1, 16);
  sb.reserve(0, func::ThreadMask::range(0, 4), add(3, 0, 1), false);  // taken side, threads 0-3
  BOOST_TEST(sb.check(0, W(0), add(4, 3, 3)) == Hazard::Raw);         // the other side of warp 0
  BOOST_TEST(sb.check(0, W(1), add(4, 3, 3)) == Hazard::None);        // warp 1
}
