#define BOOST_TEST_MODULE tb_gated_exec_pipe
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

#include "power/lane_power_controller.h"
#include "ptx/opcode_table.h"
#include "sm/exec_pipe.h"
#include "stats/stats.h"
#include "util/cycle.h"

// An SP pipe of two 32-lane units, each with its lane power controller
// (conventional gating, idle detect 5, wake-up 3), driven by a stub issue
// stage that offers a refused instruction again every cycle, as the issue
// stage does. The pipe answers such repeats from its refusal memo
// (exec_pipe.h); these runs pin down what the answers must be, including a
// unit that frees while an instruction waits for another unit's lanes.
using namespace simt;
using sm::IssuePacket;
using util::cycles;
using util::now_cycle;

namespace {

ptx::Instr make_add() {
  ptx::Instr in;
  in.op = ptx::Op::Add;
  in.type = ptx::Type::S32;
  in.cls = ptx::classify(in);
  return in;
}
const ptx::Instr kAdd = make_add();

void wait_until(uint64_t cycle) {
  if (cycles(cycle) > sc_core::sc_time_stamp()) sc_core::wait(cycles(cycle) - sc_core::sc_time_stamp());
}

struct Offer {
  uint64_t cycle = 0;
  bool accepted = false;
  uint32_t unit = 0;       // when accepted
  uint64_t retry_at = 0;   // when refused
};

struct Issue : sc_core::sc_module {
  util::PacketInitiator<Issue, IssuePacket> out{"out"};
  const sm::ExecPipe* pipe = nullptr;
  IssuePacket d, c, b, a, h;  // the latched packets (the memo knows a packet by its place)
  std::vector<Offer> offers_a, offers_h;
  bool d_ok = false, c_ok = false, b_ok = false;
  uint32_t c_unit = 9, b_unit = 9;
  SC_CTOR(Issue) { SC_THREAD(run); }

  void make(IssuePacket& p, uint32_t warp, uint64_t lanes) {
    p = IssuePacket{};
    p.warp = warp;
    p.ticket = warp;
    p.instr = &kAdd;
    p.lanes = lanes;
    p.active_lanes = static_cast<uint32_t>(__builtin_popcountll(lanes));
    p.warp_width = 32;
    p.issue_cycle = now_cycle();
  }
  Offer offer(IssuePacket& p) {
    p.accepted = false;
    p.retry_at = 0;
    p.refusals = nullptr;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(p, t);
    return Offer{now_cycle(), p.accepted, pipe->unit().last_unit(), p.retry_at};
  }
  // Offers `p` every cycle until the pipe takes it (at most 20 cycles).
  void until_taken(IssuePacket& p, std::vector<Offer>& log) {
    for (int i = 0; i < 20; ++i) {
      log.push_back(offer(p));
      if (log.back().accepted) return;
      sc_core::wait(util::cycle_time());
    }
  }

  void run() {
    // Cycle 1: every lane is ON (idle since 0, gating at 5). D takes unit 0
    // on lanes 0-3; C (lanes 8-11) then finds unit 0 busy and takes unit 1.
    wait_until(1);
    make(d, 0, 0x0000000f);
    d_ok = offer(d).accepted;
    make(c, 1, 0x00000f00);
    const Offer oc = offer(c);
    c_ok = oc.accepted;
    c_unit = oc.unit;
    // Cycle 8: unit 0's lanes 8-11 gated at 5; unit 1's are idle-detecting
    // until 11. B takes unit 1. A, the same lanes, finds unit 0 gated and
    // unit 1 busy: unit 0's lanes start waking (ON at 11).
    wait_until(8);
    make(b, 2, 0x00000f00);
    const Offer ob = offer(b);
    b_ok = ob.accepted;
    b_unit = ob.unit;
    make(a, 3, 0x00000f00);
    until_taken(a, offers_a);  // cycle 9: unit 1 is free again, its lanes ON: A must go there
    // Cycle 30: lanes 16-19 gated on both units since 5. H wakes unit 0's
    // and waits for them (refused at 30, 31, 32), taking unit 0 at 33.
    wait_until(30);
    make(h, 4, 0x000f0000);
    until_taken(h, offers_h);
  }
};

power::PowerParams conventional() {
  power::PowerParams p;
  p.gating = "conventional";
  p.domain = "lane";
  return p;
}

sm::PipeParams sp_pipe() {
  sm::PipeParams p;
  p.lanes = 32;
  p.units = 2;
  p.latency = 5;
  p.ii = 1;
  return p;
}

struct Sink : sc_core::sc_module {
  util::PacketTarget<Sink, sm::WritebackPacket> in{"in", this, &Sink::receive};
  SC_CTOR(Sink) {}
  void receive(sm::WritebackPacket& w, sc_core::sc_time&) { w.accepted = true; }
};

}  // namespace

BOOST_AUTO_TEST_CASE(wakeup_refusals_repeat_and_a_freed_unit_takes_the_waiting_instruction) {
  stats::Registry reg;
  sm::OpLatencyTable ops;
  sm::ExecPipe pipe("sp", sp_pipe(), ops, reg, "sm0.sp");
  power::LanePowerController ctl0("ctl0", conventional(), 32, reg, "sm0.power.sp0", "sm0.power");
  power::LanePowerController ctl1("ctl1", conventional(), 32, reg, "sm0.power.sp1", "sm0.power");
  Issue issue("issue");
  Sink sink("sink");
  issue.pipe = &pipe;
  issue.out.bind(pipe.in);
  pipe.writeback.bind(sink.in);
  pipe.power[0].bind(ctl0.in);
  pipe.power[1].bind(ctl1.in);

  sc_core::sc_start(cycles(60));

  BOOST_TEST(issue.d_ok);
  BOOST_TEST(issue.c_ok);
  BOOST_TEST(issue.c_unit == 1u);
  BOOST_TEST(issue.b_ok);
  BOOST_TEST(issue.b_unit == 1u);

  // A: refused at 8 (unit 0 waking until 11), taken at 9 by unit 1, whose
  // lanes stayed ON: a memo of the refusal must not hide a unit that frees.
  BOOST_TEST_REQUIRE(issue.offers_a.size() == 2u);
  BOOST_TEST(issue.offers_a[0].cycle == 8u);
  BOOST_TEST(!issue.offers_a[0].accepted);
  BOOST_TEST(issue.offers_a[0].retry_at == 11u);
  BOOST_TEST(issue.offers_a[1].cycle == 9u);
  BOOST_TEST(issue.offers_a[1].accepted);
  BOOST_TEST(issue.offers_a[1].unit == 1u);

  // H: the same refusal three times (the repeats from the memo), then unit 0.
  BOOST_TEST_REQUIRE(issue.offers_h.size() == 4u);
  for (size_t i = 0; i < 3; ++i) {
    BOOST_TEST(issue.offers_h[i].cycle == 30u + i);
    BOOST_TEST(!issue.offers_h[i].accepted);
    BOOST_TEST(issue.offers_h[i].retry_at == 33u);
  }
  BOOST_TEST(issue.offers_h[3].cycle == 33u);
  BOOST_TEST(issue.offers_h[3].accepted);
  BOOST_TEST(issue.offers_h[3].unit == 0u);

  BOOST_TEST(reg.value("sm0.sp.wakeup_stall_cycles") == 4u);  // A once, H three times
  ctl0.settle_stats(60);
  ctl1.settle_stats(60);
  BOOST_TEST(reg.value("sm0.power.sp0.int.delayed_issues") == 8u);  // lanes 8-11 (for A) and 16-19 (for H)
  BOOST_TEST(reg.value("sm0.power.sp1.int.delayed_issues") == 0u);
  // Unit 0's lanes 8-11 woke for A although A went elsewhere: ON at 11.
  BOOST_TEST(ctl0.state(false, 9, 11) == power::LaneState::IdleDetect);
}
