#define BOOST_TEST_MODULE pipeline_unit
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <vector>

#include "common/ir_builder.h"
#include "config/param_registry.h"
#include "func/thread_mask.h"
#include "ptx/opcode_table.h"
#include "sm/pipeline_unit.h"
#include "sm/scoreboard.h"
#include "util/error.h"

using namespace simt;
using namespace simt::test;
using sm::OpLatencyTable;
using sm::PipelineUnit;
using sm::PipeParams;

namespace {
constexpr uint64_t kFull32 = 0xffffffffull;

PipeParams pipe(uint32_t lanes, uint32_t units, uint32_t latency, uint32_t ii) {
  PipeParams p;
  p.lanes = lanes;
  p.units = units;
  p.latency = latency;
  p.ii = ii;
  return p;
}
Instr cls(Instr in) {
  in.cls = ptx::classify(in);
  return in;
}

// One warp running `prog` in order through one pipeline with a scoreboard:
// an instruction issues when it has no hazard and a unit is free; its
// destination is released in the cycle its result is ready. Returns the
// cycle the last result is ready; `issue` gets each issue cycle.
uint64_t run(const std::vector<Instr>& prog, PipelineUnit& u, uint32_t warp_width,
             std::vector<uint64_t>* issue = nullptr) {
  sm::Scoreboard sb(1, 64);
  const func::ThreadMask warp = func::ThreadMask::range(0, 32);
  std::vector<std::pair<uint64_t, uint32_t>> inflight;  // (ready cycle, register)
  size_t next = 0;
  uint64_t last = 0;
  for (uint64_t now = 0; next < prog.size() || !inflight.empty(); ++now) {
    for (size_t k = 0; k < inflight.size();)
      if (inflight[k].first == now) {
        sb.release(0, warp, inflight[k].second);
        inflight.erase(inflight.begin() + long(k));
      } else {
        ++k;
      }
    if (next < prog.size() && sb.can_issue(0, warp, ptx::def_use(prog[next])) && u.can_accept(now)) {
      uint64_t done = u.accept(now, prog[next], kFull32, warp_width);
      sb.reserve(0, warp, prog[next], false);
      inflight.push_back({done, prog[next].ops[0].reg});
      if (issue) issue->push_back(now);
      last = std::max(last, done);
      ++next;
    }
    BOOST_REQUIRE(now < 100000);
  }
  return last;
}
std::vector<Instr> chain(int n, bool dependent) {
  std::vector<Instr> p;
  for (int k = 0; k < n; ++k) {
    uint32_t src = dependent ? uint32_t(k + 1) : 0;
    p.push_back(cls(make(Op::Add, Type::S32, {R(uint32_t(k + 2)), R(src), R(src)})));
  }
  if (dependent) p[0].ops[1] = p[0].ops[2] = R(1);
  return p;
}
}  // namespace

BOOST_AUTO_TEST_CASE(warp_of_32_on_8_lanes_holds_the_unit_4_cycles) {
  stats::Registry reg;
  PipelineUnit u(pipe(8, 1, 10, 1), OpLatencyTable{}, reg, "sm0.sp");
  BOOST_TEST(u.passes(32) == 4u);
  BOOST_TEST(u.can_accept(0));
  BOOST_TEST(u.accept(0, kFull32, 32) == 13u);  // last pass enters at 3, +10
  for (uint64_t t = 1; t < 4; ++t) BOOST_TEST(!u.can_accept(t));
  BOOST_TEST(u.next_free(1) == 4u);
  BOOST_TEST(u.can_accept(4));
  BOOST_CHECK_THROW(u.accept(2, kFull32, 32), std::logic_error);
  BOOST_TEST(reg.value("sm0.sp.instructions") == 1u);
  BOOST_TEST(reg.value("sm0.sp.busy_cycles") == 4u);
  BOOST_TEST(reg.value("sm0.sp.active_lane_cycles") == 32u);
}

BOOST_AUTO_TEST_CASE(independent_ops_are_spaced_by_the_initiation_interval) {
  stats::Registry reg;
  PipelineUnit u(pipe(32, 1, 10, 2), OpLatencyTable{}, reg, "fp");
  BOOST_TEST(u.accept(0, kFull32, 32) == 10u);
  BOOST_TEST(!u.can_accept(1));
  BOOST_TEST(u.can_accept(2));
  BOOST_TEST(u.accept(2, kFull32, 32) == 12u);
  // Uneven width: 32 threads on 12 lanes are 3 passes of ii 2.
  stats::Registry reg2;
  PipelineUnit v(pipe(12, 1, 5, 2), OpLatencyTable{}, reg2, "v");
  BOOST_TEST(v.passes(32) == 3u);
  BOOST_TEST(v.accept(0, kFull32, 32) == 9u);  // 2 * 2 + 5
  BOOST_TEST(v.next_free(0) == 6u);
}

BOOST_AUTO_TEST_CASE(dependent_chain_pays_full_latency_independent_chain_only_occupancy) {
  for (uint32_t lanes : {8u, 32u}) {
    stats::Registry reg;
    PipelineUnit dep_u(pipe(lanes, 1, 10, 1), OpLatencyTable{}, reg, "dep");
    PipelineUnit ind_u(pipe(lanes, 1, 10, 1), OpLatencyTable{}, reg, "ind");
    uint64_t occ = 32 / lanes;  // cycles per warp instruction
    uint64_t per = occ - 1 + 10;  // issue to result of one instruction
    std::vector<uint64_t> issue;
    BOOST_TEST(run(chain(5, true), dep_u, 32, &issue) == 5 * per);
    BOOST_TEST(issue == (std::vector<uint64_t>{0, per, 2 * per, 3 * per, 4 * per}),
               boost::test_tools::per_element());
    issue.clear();
    BOOST_TEST(run(chain(5, false), ind_u, 32, &issue) == 4 * occ + per);
    BOOST_TEST(issue == (std::vector<uint64_t>{0, occ, 2 * occ, 3 * occ, 4 * occ}),
               boost::test_tools::per_element());
    BOOST_TEST(reg.value("ind.busy_cycles") == 5 * occ);
  }
}

BOOST_AUTO_TEST_CASE(two_units_take_two_warps_at_once) {
  stats::Registry reg;
  PipelineUnit u(pipe(16, 2, 4, 1), OpLatencyTable{}, reg, "sp");  // Fermi: 2 x 16 lanes
  BOOST_TEST(u.accept(0, kFull32, 32) == 5u);
  BOOST_TEST(u.last_unit() == 0u);
  BOOST_TEST(u.can_accept(0));
  BOOST_TEST(u.accept(0, kFull32, 32) == 5u);
  BOOST_TEST(u.last_unit() == 1u);
  BOOST_TEST(!u.can_accept(1));
  BOOST_TEST(u.can_accept(2));
  u.accept(2, kFull32, 32);
  BOOST_TEST(u.last_unit() == 0u);  // lowest free unit first
}

BOOST_AUTO_TEST_CASE(lane_activity_follows_the_passes_of_the_active_mask) {
  stats::Registry reg;
  PipelineUnit u(pipe(8, 2, 6, 2), OpLatencyTable{}, reg, "sp");
  uint64_t mask = 0x00ff000full;  // threads 0-3 and 16-23 of a 32-wide warp
  u.accept(10, mask, 32);
  // Pass p covers threads 8p..8p+7 and holds the input for 2 cycles.
  uint64_t expect[] = {0x0f, 0x0f, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00};
  for (uint64_t t = 0; t < 8; ++t) BOOST_TEST(u.lane_activity(0, 10 + t) == expect[t]);
  BOOST_TEST(u.lane_activity(0, 18) == 0u);
  BOOST_TEST(u.lane_activity(0, 9) == 0u);
  BOOST_TEST(u.lane_activity(1, 11) == 0u);  // the other unit idles
  BOOST_TEST(reg.value("sp.active_lane_cycles") == 12u * 2);
  BOOST_TEST(reg.value("sp.busy_cycles") == 8u);
  // Bits beyond the warp width are ignored.
  u.accept(10, ~0ull, 8);
  BOOST_TEST(u.lane_activity(1, 10) == 0xffu);
  BOOST_TEST(u.passes(8) == 1u);
}

BOOST_AUTO_TEST_CASE(warp_bits_from_a_cta_thread_mask) {
  func::ThreadMask m = func::ThreadMask::range(40, 30);  // threads 40..69
  BOOST_TEST(PipelineUnit::warp_bits(m, 32, 32) == 0xffffff00ull);     // threads 40..63 of 32..63
  BOOST_TEST(PipelineUnit::warp_bits(m, 64, 32) == 0x3full);            // 64..69
  BOOST_TEST(PipelineUnit::warp_bits(m, 36, 8) == 0xf0ull);             // crosses no word
  BOOST_TEST(PipelineUnit::warp_bits(m, 60, 16) == 0x3ffull);           // crosses a word boundary
  BOOST_TEST(PipelineUnit::warp_bits(m, 0, 64) == 0xffffff0000000000ull);
}

BOOST_AUTO_TEST_CASE(per_opcode_latency_and_ii) {
  stats::Registry reg;
  PipelineUnit u(pipe(32, 1, 10, 1), OpLatencyTable{}, reg, "sp");
  auto in = [](Op op, Type ty, uint32_t flags = 0) {
    Instr i = make(op, ty, {R(1), R(2), R(3)});
    i.flags = flags;
    return cls(i);
  };
  BOOST_TEST(u.latency_for(in(Op::Add, Type::S32)) == 10u);
  BOOST_TEST(u.latency_for(in(Op::Mul, Type::S32, ptx::kLo)) == 10u);
  BOOST_TEST(u.timing_for(in(Op::Div, Type::S32)).latency == 145u);
  BOOST_TEST(u.timing_for(in(Op::Div, Type::S32)).ii == 8u);
  BOOST_TEST(u.timing_for(in(Op::Rem, Type::U64)).latency == 145u);
  BOOST_TEST(u.timing_for(in(Op::Div, Type::F32)).latency == 39u);       // div.rn.f32
  BOOST_TEST(u.timing_for(in(Op::Div, Type::F32, ptx::kApprox)).latency == 10u);  // SFU op
  BOOST_TEST(u.timing_for(in(Op::Add, Type::F64)).latency == 10u);
  BOOST_TEST(u.timing_for(in(Op::Add, Type::F64)).ii == 8u);
  BOOST_TEST(u.timing_for(in(Op::Div, Type::F64)).latency == 330u);
  BOOST_TEST(u.timing_for(in(Op::Sqrt, Type::F64)).ii == 130u);
  BOOST_TEST(u.timing_for(in(Op::Sin, Type::F32, ptx::kApprox)).latency == 10u);
  Instr cvt = make(Op::Cvt, Type::F32, {R(1), R(2)});
  cvt.type2 = Type::F64;
  BOOST_TEST(u.timing_for(cls(cvt)).ii == 8u);
  BOOST_TEST(u.timing_for(cls(make(Op::Ld, Type::F64, {R(1), Addr(2)}, Space::Global))).ii == 1u);
  // The override shapes occupancy: an integer division holds the unit for ii 8.
  BOOST_TEST(u.accept(0, in(Op::Div, Type::S32), kFull32, 32) == 145u);
  BOOST_TEST(!u.can_accept(7));
  BOOST_TEST(u.can_accept(8));
}

BOOST_AUTO_TEST_CASE(parameters_bind_and_validate) {
  config::ParamRegistry r;
  PipeParams p;
  OpLatencyTable ops;
  p.bind(r, "sm.sp");
  ops.bind(r, "sm.op");
  r.set("sm.sp.lanes", "16", "test");
  r.set("sm.sp.units", "2", "test");
  r.set("sm.op.int_div.latency", "40", "test");
  BOOST_TEST(p.lanes == 16u);
  BOOST_TEST(p.units == 2u);
  BOOST_TEST(r.has("sm.op.f64_div.ii"));
  BOOST_CHECK_THROW(r.set("sm.sp.lanes", "0", "test"), simt::Error);
  stats::Registry reg;
  PipelineUnit u(p, ops, reg, "sp");
  BOOST_TEST(u.latency_for(cls(make(Op::Div, Type::S32, {R(1), R(2), R(3)}))) == 40u);
  PipeParams bad;
  bad.lanes = 65;
  BOOST_CHECK_THROW(bad.validate("sm.sp"), simt::Error);
  BOOST_CHECK_THROW(PipelineUnit(bad, ops, reg, "x"), simt::Error);
  bad.lanes = 8;
  bad.ii = 0;
  BOOST_CHECK_THROW(bad.validate("sm.sp"), simt::Error);
}
