#define BOOST_TEST_MODULE tb_issue_watchdog
#include <boost/test/unit_test.hpp>

// A SystemC testbench of its own (one elaboration per process): the two
// warps of a CTA wait at different barriers, so nothing can ever issue; the
// issue unit's watchdog must stop the simulation and report every warp.

#include <cstring>
#include <deque>
#include <memory>

#include "func/global_memory.h"
#include "ptx/cfg.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "sm/issue_unit.h"
#include "stats/stats.h"
#include "util/cycle.h"
#include "util/error.h"

using namespace simt;

namespace {

const char* kKernel = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry split(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra A;
  bar.sync 2;
  bra.uni E;
A:
  bar.sync 1;
E:
  ret;
}
)";

using util::PacketInitiator;
using util::PacketTarget;

// Answers every credit in the next cycle.
struct FetchStub : sc_core::sc_module {
  PacketTarget<FetchStub, sm::FetchCredit> in{"in", this, &FetchStub::on_credit};
  PacketInitiator<FetchStub, sm::FetchedInstr> out{"out"};
  std::deque<sm::FetchCredit> q;
  sc_core::sc_event ev;
  SC_CTOR(FetchStub) { SC_METHOD(run); }
  void on_credit(sm::FetchCredit& c, sc_core::sc_time&) {
    c.accepted = true;
    q.push_back(c);
    ev.notify(util::cycle_time());
  }
  void run() {
    while (!q.empty()) {
      sm::FetchedInstr f;
      f.warp = q.front().warp;
      f.pc = q.front().pc;
      f.gen = q.front().gen;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      out->b_transport(f, t);
      q.pop_front();
    }
    next_trigger(ev);
  }
};

// Accepts everything and writes it back in the next cycle.
struct PipeSink : sc_core::sc_module {
  PacketTarget<PipeSink, sm::IssuePacket> in{"in", this, &PipeSink::on_issue};
  PacketInitiator<PipeSink, sm::WritebackPacket> wb{"wb"};
  std::deque<sm::WritebackPacket> q;
  sc_core::sc_event ev;
  uint64_t packets = 0;
  SC_CTOR(PipeSink) { SC_METHOD(run); }
  void on_issue(sm::IssuePacket& p, sc_core::sc_time&) {
    p.accepted = true;
    ++packets;
    sm::WritebackPacket w;
    w.warp = p.warp;
    w.instr = p.instr;
    w.ticket = p.ticket;
    q.push_back(w);
    ev.notify(util::cycle_time());
  }
  void run() {
    while (!q.empty()) {
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      wb->b_transport(q.front(), t);
      q.pop_front();
    }
    next_trigger(ev);
  }
};

struct DispatcherStub : sc_core::sc_module {
  PacketInitiator<DispatcherStub, sm::CtaLaunch> out{"out"};
  PacketTarget<DispatcherStub, sm::CtaDone> done{"done", this, &DispatcherStub::on_done};
  std::shared_ptr<const sm::KernelContext> kernel;
  bool launched = false, finished = false;
  SC_CTOR(DispatcherStub) { SC_METHOD(run); }
  void on_done(sm::CtaDone& d, sc_core::sc_time&) { d.accepted = finished = true; }
  void run() {
    sm::CtaLaunch l;
    l.kernel = kernel;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(l, t);
    launched = l.accepted;
    if (!launched) next_trigger(util::cycle_time());
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(watchdog_reports_a_barrier_deadlock_with_every_warp) {
  const ptx::Module mod = ptx::parse(kKernel, "split.ptx");
  const ptx::Program prog = ptx::link(mod, "split", ptx::SymbolAddresses(mod.globals.size(), 0));
  const ptx::Cfg cfg(prog);
  const func::Executor exec(prog);
  func::GlobalMemory mem;
  auto k = std::make_shared<sm::KernelContext>();
  k->prog = &prog;
  k->cfg = &cfg;
  k->exec = &exec;
  k->geom.block = {{64, 1, 1}};
  k->params.assign(prog.param_bytes, 0);
  k->env.global = &mem;

  sm::IssueParams p;
  p.max_warps = 8;
  p.watchdog_cycles = 300;
  stats::Registry reg;
  sm::IssueUnit issue("issue", p, reg, "sm0");
  FetchStub fetch("fetch");
  PipeSink sp("sp"), sfu("sfu"), ldst("ldst");
  DispatcherStub disp("disp");
  disp.kernel = k;
  disp.out.bind(issue.launch);
  issue.done.bind(disp.done);
  issue.credits.bind(fetch.in);
  fetch.out.bind(issue.fetched);
  issue.to_sp.bind(sp.in);
  issue.to_sfu.bind(sfu.in);
  issue.to_ldst.bind(ldst.in);
  sp.wb.bind(issue.wb_sp);
  sfu.wb.bind(issue.wb_sfu);
  ldst.wb.bind(issue.wb_ldst);

  sc_core::sc_start(sc_core::sc_time(100000, sc_core::SC_NS), sc_core::SC_EXIT_ON_STARVATION);
  const uint64_t end = util::now_cycle();
  BOOST_TEST(disp.launched);
  BOOST_TEST(!disp.finished);
  BOOST_TEST(issue.faulted());
  // Stopped by the watchdog shortly after the last issue, not at the time limit.
  BOOST_TEST(end >= 300u);
  BOOST_TEST(end < 400u);
  BOOST_TEST(reg.value("sm0.barrier_waits") == 2u);
  BOOST_TEST(sp.packets == 4u);  // mov and setp of both warps
  std::string msg;
  try {
    issue.rethrow_fault();
  } catch (const Error& e) {
    BOOST_TEST(static_cast<int>(e.code()) == static_cast<int>(ExitCode::KernelFault));
    msg = e.what();
  }
  BOOST_TEST_MESSAGE(msg);
  BOOST_TEST(msg.find("deadlock watchdog") != std::string::npos);
  BOOST_TEST(msg.find("barrier 1: 32 of 64 threads arrived") != std::string::npos);
  BOOST_TEST(msg.find("barrier 2: 32 of 64 threads arrived") != std::string::npos);
  BOOST_TEST(msg.find("warp 0: waits at barrier 1") != std::string::npos);
  BOOST_TEST(msg.find("warp 1: waits at barrier 2") != std::string::npos);
  BOOST_TEST(msg.find("stack depth") != std::string::npos);
}
