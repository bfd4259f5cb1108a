// func::CtaState::reset: the functional runner reuses one state for every CTA
// of a launch, so a reset state must equal a freshly built one (nothing of
// the previous CTA may leak into the next), and a bad CTA id is refused.
#define BOOST_TEST_MODULE cta_state
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <vector>

#include "func/cta_state.h"
#include "ptx/ir.h"
#include "util/error.h"

using namespace simt;

namespace {

struct Launch {
  ptx::Program prog;
  func::LaunchGeometry geom;
  std::vector<uint8_t> params;
  Launch() {
    prog.kernel = "k";
    for (int i = 0; i < 3; ++i) prog.regs.push_back(ptx::RegInfo{"%r" + std::to_string(i), ptx::Type::U32});
    prog.static_shared_bytes = 40;
    prog.local_bytes = 16;
    geom.grid = {{4, 2, 1}};
    geom.block = {{70, 1, 1}};  // more than one 64-bit word of threads
    geom.dynamic_shared_bytes = 24;
  }
};

void scribble(func::CtaState& c) {
  for (uint32_t t = 0; t < c.threads(); ++t) {
    for (uint32_t r = 0; r < 3; ++r) c.reg(r, t) = 0xdead0000u + t + r;
    c.carry(t) = 1;
    std::memset(c.local(t), 0xab, c.local_bytes());
  }
  std::memset(c.shared().data(), 0xcd, c.shared().size());
  c.exited().set(3);
  c.exited().set(69);
  c.sm_id = 7;
  c.warp_size = 8;
  c.clock = 1234;
}

void check_same(func::CtaState& a, func::CtaState& b) {
  BOOST_TEST((a.ctaid() == b.ctaid()));
  BOOST_TEST(a.threads() == b.threads());
  for (uint32_t t = 0; t < a.threads(); ++t) {
    for (uint32_t r = 0; r < 3; ++r) BOOST_TEST(a.reg(r, t) == b.reg(r, t));
    BOOST_TEST(a.carry(t) == b.carry(t));
    BOOST_TEST(std::memcmp(a.local(t), b.local(t), a.local_bytes()) == 0);
  }
  BOOST_TEST(a.shared() == b.shared());
  BOOST_TEST((a.exited() == b.exited()));
  BOOST_TEST(a.sm_id == b.sm_id);
  BOOST_TEST(a.warp_size == b.warp_size);
  BOOST_TEST(a.clock == b.clock);
}

}  // namespace

BOOST_AUTO_TEST_CASE(reset_equals_a_fresh_state) {
  Launch l;
  func::CtaState used(l.prog, l.geom, {{0, 0, 0}}, l.params);
  scribble(used);
  used.reset({{3, 1, 0}});
  func::CtaState fresh(l.prog, l.geom, {{3, 1, 0}}, l.params);
  check_same(used, fresh);
  BOOST_TEST(used.shared().size() == 72u);  // static 40 rounded up to 48, plus 24 dynamic
}

BOOST_AUTO_TEST_CASE(reset_refuses_a_ctaid_outside_the_grid) {
  Launch l;
  func::CtaState c(l.prog, l.geom, {{0, 0, 0}}, l.params);
  BOOST_CHECK_THROW(c.reset({{4, 0, 0}}), Error);
  BOOST_CHECK_THROW(c.reset({{0, 0, 1}}), Error);
}

// reset() clears only the rows a writable reference was handed out for
// (reg() or reg_row()); rows written through reg_row() alone, in several
// CTAs in a row, must still come back as zero.
BOOST_AUTO_TEST_CASE(reset_clears_rows_written_through_reg_row) {
  Launch l;
  func::CtaState c(l.prog, l.geom, {{0, 0, 0}}, l.params);
  func::CtaState fresh(l.prog, l.geom, {{1, 0, 0}}, l.params);
  for (uint32_t round = 0; round < 3; ++round) {
    const uint32_t r = round % 3;
    uint64_t* row = c.reg_row(r);
    for (uint32_t t = 0; t < c.threads(); ++t) row[t] = 0xbeef0000u + t;
    c.reset({{1, 0, 0}});
    check_same(c, fresh);
  }
  // Reads through the const accessors change nothing and need no clearing.
  const func::CtaState& cc = c;
  BOOST_TEST(cc.reg_row(2)[5] == 0u);
  c.reset({{1, 0, 0}});
  check_same(c, fresh);
}
