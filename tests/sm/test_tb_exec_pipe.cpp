#define BOOST_TEST_MODULE tb_exec_pipe
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "ptx/opcode_table.h"
#include "sm/exec_pipe.h"
#include "stats/stats.h"
#include "util/cycle.h"

// One SystemC world: three ExecPipes, each driven by a stub issue stage.
//  "sp8":   8 lanes, latency 10; a 32-wide warp, then a second one offered
//           every cycle until it is taken; the first write-back is refused once.
//  "trace": 8 lanes, traced; a partly active warp to watch the lanes.
//  "dep":   32 lanes, latency 4; a dependent chain (next instruction waits
//           for the previous write-back), then an integer divide (per-opcode latency).
using namespace simt;
using sm::ExecPipe;
using sm::IssuePacket;
using sm::WritebackPacket;
using util::cycles;
using util::now_cycle;

namespace {

ptx::Instr make(ptx::Op op, ptx::Type t) {
  ptx::Instr in;
  in.op = op;
  in.type = t;
  in.cls = ptx::classify(in);
  return in;
}
const ptx::Instr kAdd = make(ptx::Op::Add, ptx::Type::S32);
const ptx::Instr kDiv = make(ptx::Op::Div, ptx::Type::S32);

sm::PipeParams pipe(uint32_t lanes, uint32_t latency) {
  sm::PipeParams p;
  p.lanes = lanes;
  p.units = 1;
  p.latency = latency;
  p.ii = 1;
  return p;
}

IssuePacket packet(uint32_t warp, const ptx::Instr& in, const func::ThreadMask& active) {
  IssuePacket p;
  p.warp = warp;
  p.instr = &in;
  p.active = active;
  active.for_each([&](uint32_t t) { p.lanes |= uint64_t{1} << (t % 32); });
  p.active_lanes = active.count();
  p.warp_width = 32;
  p.issue_cycle = now_cycle();
  return p;
}

void wait_until(uint64_t cycle) {
  if (cycles(cycle) > sc_core::sc_time_stamp()) sc_core::wait(cycles(cycle) - sc_core::sc_time_stamp());
}

// Receives write-backs; refuses the first offer when `refuse_first`.
struct WbSink : sc_core::sc_module {
  simt::util::PacketTarget<WbSink, WritebackPacket> in{"in", this, &WbSink::receive};
  std::vector<std::pair<uint64_t, uint32_t>> got;  // (cycle, warp)
  std::vector<uint64_t> refused_at;
  bool refuse_first = false;
  sc_core::sc_event arrived;
  SC_CTOR(WbSink) {}
  void receive(WritebackPacket& w, sc_core::sc_time&) {
    if (refuse_first) {
      refuse_first = false;
      refused_at.push_back(now_cycle());
      return;
    }
    w.accepted = true;
    got.push_back({now_cycle(), w.warp});
    arrived.notify(sc_core::SC_ZERO_TIME);
  }
};

// Structural hazard: warp 0 at cycle 2, then warp 1 offered every cycle from 2 on.
struct HazardIssue : sc_core::sc_module {
  simt::util::PacketInitiator<HazardIssue, IssuePacket> out{"out"};
  uint64_t first_issue = 0, second_issue = 0;
  std::vector<uint64_t> refused;
  SC_CTOR(HazardIssue) { SC_THREAD(run); }
  void run() {
    wait_until(2);
    IssuePacket a = packet(0, kAdd, func::ThreadMask::range(0, 32));
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(a, t);
    if (a.accepted) first_issue = now_cycle();
    for (;;) {
      IssuePacket b = packet(1, kAdd, func::ThreadMask::range(32, 32));
      out->b_transport(b, t);
      if (b.accepted) break;
      refused.push_back(now_cycle());
      sc_core::wait(util::cycle_time());
    }
    second_issue = now_cycle();
  }
};

// A partly active warp (threads 0-3 and 8-15 of warp 1 of the CTA) at cycle 3.
struct TraceIssue : sc_core::sc_module {
  simt::util::PacketInitiator<TraceIssue, IssuePacket> out{"out"};
  bool accepted = false;
  SC_CTOR(TraceIssue) { SC_THREAD(run); }
  void run() {
    wait_until(3);
    func::ThreadMask m = func::ThreadMask::range(32, 4) | func::ThreadMask::range(40, 8);
    IssuePacket p = packet(1, kAdd, m);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(p, t);
    accepted = p.accepted;
  }
};

// Records every change of the traced pipe's lane activity (unit 0).
struct LaneMonitor : sc_core::sc_module {
  const ExecPipe& pipe;
  std::vector<std::pair<uint64_t, uint64_t>> changes;  // (cycle, lanes)
  LaneMonitor(sc_core::sc_module_name n, const ExecPipe& p) : sc_core::sc_module(n), pipe(p) {
    SC_HAS_PROCESS(LaneMonitor);
    SC_METHOD(sample);
    dont_initialize();
    sensitive << pipe.lane_activity_event();
  }
  void sample() { changes.push_back({now_cycle(), pipe.lane_activity()[0]}); }
};

// Dependent chain: add, add, add, div; each issued the cycle after the
// previous write-back arrived (the result is visible then).
struct ChainIssue : sc_core::sc_module {
  simt::util::PacketInitiator<ChainIssue, IssuePacket> out{"out"};
  WbSink* sink = nullptr;
  std::vector<uint64_t> issued;
  SC_CTOR(ChainIssue) { SC_THREAD(run); }
  void run() {
    wait_until(1);
    const ptx::Instr* prog[] = {&kAdd, &kAdd, &kAdd, &kDiv};
    for (const ptx::Instr* in : prog) {
      IssuePacket p = packet(0, *in, func::ThreadMask::range(0, 32));
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      out->b_transport(p, t);
      if (!p.accepted) return;  // a free pipe must take it: leaves `issued` short
      issued.push_back(now_cycle());
      sc_core::wait(sink->arrived);
      sc_core::wait(util::cycle_time());
    }
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(exec_pipe_hazards_writeback_timing_lanes_and_chains) {
  stats::Registry reg;
  sm::OpLatencyTable ops;  // defaults: int div 145 cycles, ii 8

  ExecPipe sp8("sp8", pipe(8, 10), ops, reg, "sm0.sp8");
  HazardIssue hz("hz");
  WbSink hz_sink("hz_sink");
  hz_sink.refuse_first = true;
  hz.out.bind(sp8.in);
  sp8.writeback.bind(hz_sink.in);

  ExecPipe traced("trace", pipe(8, 10), ops, reg, "sm0.trace");
  traced.set_tracing(true);
  TraceIssue ti("ti");
  WbSink tr_sink("tr_sink");
  LaneMonitor mon("mon", traced);
  ti.out.bind(traced.in);
  traced.writeback.bind(tr_sink.in);

  ExecPipe dep("dep", pipe(32, 4), ops, reg, "sm0.dep");
  ChainIssue ch("ch");
  WbSink ch_sink("ch_sink");
  ch.sink = &ch_sink;
  ch.out.bind(dep.in);
  dep.writeback.bind(ch_sink.in);

  sc_core::sc_start(cycles(400));

  // A 32-wide warp holds 8 lanes for 4 cycles: the second issue is refused
  // in cycles 2..5 (including the first's own cycle) and taken in cycle 6.
  BOOST_TEST(hz.first_issue == 2u);
  BOOST_TEST(hz.refused == (std::vector<uint64_t>{2, 3, 4, 5}));
  BOOST_TEST(hz.second_issue == 6u);
  BOOST_TEST(reg.value("sm0.sp8.structural_stalls") == 4u);
  // Result of the last pass: issue + (4 - 1) + 10. The first write-back is
  // refused in cycle 15 and retried in 16; the second is due at 6 + 13 = 19.
  BOOST_TEST(hz_sink.refused_at == (std::vector<uint64_t>{15}));
  BOOST_TEST((hz_sink.got == std::vector<std::pair<uint64_t, uint32_t>>{{16, 0}, {19, 1}}));
  BOOST_TEST(reg.value("sm0.sp8.writeback_stall_cycles") == 1u);
  BOOST_TEST(reg.value("sm0.sp8.instructions") == 2u);
  BOOST_TEST(sp8.writebacks_pending() == 0u);
  BOOST_TEST(sp8.lane_activity()[0] == 0u);  // not traced: stays zero

  // Lanes of the traced pipe: pass 0 has threads 0-3, pass 1 threads 8-15,
  // passes 2 and 3 nothing; idle again from cycle 7.
  BOOST_TEST(ti.accepted);
  using Change = std::pair<uint64_t, uint64_t>;
  BOOST_TEST((mon.changes == std::vector<Change>{{3, 0x0f}, {4, 0xff}, {5, 0x00}}));
  BOOST_TEST((tr_sink.got == std::vector<std::pair<uint64_t, uint32_t>>{{16, 1}}));
  BOOST_TEST(reg.value("sm0.trace.active_lane_cycles") == 12u);

  // Dependent chain on a 32-lane pipe of latency 4: a write-back in cycle c
  // lets the next instruction issue in c + 1, so one step takes 5 cycles;
  // the integer divide takes its own 145 cycles.
  BOOST_TEST(ch.issued == (std::vector<uint64_t>{1, 6, 11, 16}));
  std::vector<std::pair<uint64_t, uint32_t>> want{{5, 0}, {10, 0}, {15, 0}, {161, 0}};
  BOOST_TEST((ch_sink.got == want));
  // Idle pipes sleep: over 400 cycles the chain's pipe only wakes for its
  // write-backs, not every cycle.
  BOOST_TEST(dep.activations() <= 8u);
  BOOST_TEST(sp8.activations() <= 8u);
}
