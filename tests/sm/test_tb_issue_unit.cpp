#define BOOST_TEST_MODULE tb_issue_unit
#include <boost/test/unit_test.hpp>

// A SystemC testbench of its own (one elaboration per process): the issue
// unit with stub fetch, stub pipes and a stub CTA dispatcher runs a small
// divergent kernel; its memory and instruction counts must equal the
// functional runner's.

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <set>
#include <vector>

#include "func/global_memory.h"
#include "ptx/cfg.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "sm/issue_unit.h"
#include "stats/stats.h"
#include "util/cycle.h"
#include "util/error.h"

// The functional reference lives in simt_runtime, which tests/sm executables
// do not link (tests/<family> links simt_<family> only); it needs nothing
// beyond simt_func, so its one source file is compiled in here.
#include "runtime/functional_runner.cpp"

using namespace simt;

namespace {

// 64-thread CTAs: a loop whose trip count and body depend on the thread
// (nested divergence), a shared-memory exchange across both warps behind a
// barrier, an SFU op, a store to global memory.
const char* kKernel = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry tb(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<10>;
  .shared .align 4 .b32 buf[64];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  and.b32 %r3, %r1, 5;
  mov.u32 %r4, 1;
  mov.u32 %r5, 0;
LOOP:
  setp.ge.u32 %p1, %r5, %r3;
  @%p1 bra END;
  and.b32 %r6, %r5, 1;
  setp.ne.u32 %p2, %r6, 0;
  @%p2 bra ODD;
  mul.lo.u32 %r4, %r4, 3;
  bra.uni CONT;
ODD:
  add.u32 %r4, %r4, %r1;
CONT:
  add.u32 %r5, %r5, 1;
  bra.uni LOOP;
END:
  add.u32 %r4, %r4, %r2;
  mov.u64 %rd5, buf;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd5, %rd6;
  st.shared.u32 [%rd7], %r4;
  bar.sync 0;
  xor.b32 %r10, %r1, 63;
  mul.wide.u32 %rd8, %r10, 4;
  add.s64 %rd9, %rd5, %rd8;
  ld.shared.u32 %r11, [%rd9];
  cvt.rn.f32.u32 %f1, %r11;
  sqrt.approx.f32 %f2, %f1;
  cvt.rzi.u32.f32 %r12, %f2;
  mul.lo.u32 %r13, %r11, 1000;
  add.u32 %r14, %r13, %r12;
  mad.lo.u32 %r15, %r2, 64, %r1;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r15, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r14;
  ret;
}
)";

constexpr uint32_t kCtas = 3;
constexpr uint32_t kThreads = 64;

using util::PacketInitiator;
using util::PacketTarget;

// Answers every credit one cycle later.
struct FetchStub : sc_core::sc_module {
  PacketTarget<FetchStub, sm::FetchCredit> in{"in", this, &FetchStub::on_credit};
  PacketInitiator<FetchStub, sm::FetchedInstr> out{"out"};
  std::deque<std::pair<uint64_t, sm::FetchCredit>> q;
  sc_core::sc_event ev;
  uint64_t credits = 0;
  SC_CTOR(FetchStub) { SC_METHOD(run); }
  void on_credit(sm::FetchCredit& c, sc_core::sc_time&) {
    c.accepted = true;
    ++credits;
    q.emplace_back(util::now_cycle() + 1, c);
    ev.notify(util::cycle_time());
  }
  void run() {
    const uint64_t now = util::now_cycle();
    while (!q.empty() && q.front().first <= now) {
      sm::FetchedInstr f;
      f.warp = q.front().second.warp;
      f.pc = q.front().second.pc;
      f.gen = q.front().second.gen;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      out->b_transport(f, t);
      if (!f.accepted) break;
      q.pop_front();
    }
    if (q.empty()) next_trigger(ev); else next_trigger(util::cycle_time());
  }
};

// A pipe: accepts at most one packet every `interval` cycles (refusals
// exercise the issue latches), writes back `latency` cycles later.
struct PipeStub : sc_core::sc_module {
  PacketTarget<PipeStub, sm::IssuePacket> in{"in", this, &PipeStub::on_issue};
  PacketInitiator<PipeStub, sm::WritebackPacket> wb{"wb"};
  uint64_t latency, interval;
  uint64_t last_accept = ~uint64_t{0};
  std::deque<std::pair<uint64_t, sm::WritebackPacket>> q;
  sc_core::sc_event ev;
  std::set<ptx::InstrClass> classes;
  uint64_t packets = 0, refused = 0, accesses = 0;
  SC_HAS_PROCESS(PipeStub);
  PipeStub(sc_core::sc_module_name n, uint64_t lat, uint64_t ii)
      : sc_core::sc_module(n), latency(lat), interval(ii) { SC_METHOD(run); }
  void on_issue(sm::IssuePacket& p, sc_core::sc_time&) {
    const uint64_t now = util::now_cycle();
    if (last_accept != ~uint64_t{0} && now < last_accept + interval) { ++refused; return; }
    last_accept = now;
    p.accepted = true;
    ++packets;
    accesses += p.accesses.size();
    classes.insert(p.instr->cls);
    sm::WritebackPacket w;
    w.warp = p.warp;
    w.instr = p.instr;
    w.ticket = p.ticket;
    w.long_latency = p.long_latency;
    q.emplace_back(now + latency, w);
    ev.notify(util::cycle_time());
  }
  void run() {
    const uint64_t now = util::now_cycle();
    while (!q.empty() && q.front().first <= now) {
      sm::WritebackPacket w = q.front().second;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      wb->b_transport(w, t);
      if (!w.accepted) break;
      q.pop_front();
    }
    if (q.empty()) next_trigger(ev);
    else next_trigger(util::cycles(std::max<uint64_t>(1, q.front().first > now ? q.front().first - now : 1)));
  }
};

// Offers CTAs in order, retrying refused launches every cycle.
struct DispatcherStub : sc_core::sc_module {
  PacketInitiator<DispatcherStub, sm::CtaLaunch> out{"out"};
  PacketTarget<DispatcherStub, sm::CtaDone> done{"done", this, &DispatcherStub::on_done};
  std::shared_ptr<const sm::KernelContext> kernel;
  uint32_t next = 0, refusals = 0;
  std::vector<uint64_t> finished;
  std::vector<uint64_t> done_cycle;
  SC_CTOR(DispatcherStub) { SC_METHOD(run); }
  void on_done(sm::CtaDone& d, sc_core::sc_time&) {
    d.accepted = true;
    finished.push_back(d.cta_index);
    done_cycle.push_back(util::now_cycle());
  }
  void run() {
    if (next == kCtas) return;
    sm::CtaLaunch l;
    l.kernel = kernel;
    l.cta_index = next;
    l.ctaid = {{next, 0, 0}};
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(l, t);
    if (l.accepted) ++next; else ++refusals;
    next_trigger(util::cycle_time());
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(issue_unit_runs_a_divergent_kernel_like_the_functional_runner) {
  const ptx::Module mod = ptx::parse(kKernel, "tb.ptx");
  const ptx::Program prog = ptx::link(mod, "tb", ptx::SymbolAddresses(mod.globals.size(), 0));
  const ptx::Cfg cfg(prog);
  const func::Executor exec(prog);

  func::LaunchGeometry geom;
  geom.grid = {{kCtas, 1, 1}};
  geom.block = {{kThreads, 1, 1}};
  const uint64_t words = uint64_t{kCtas} * kThreads;

  // Reference: the functional runner on its own memory.
  func::GlobalMemory ref_mem;
  const uint64_t ref_out = ref_mem.allocate(words * 4);
  std::vector<uint8_t> ref_params(prog.param_bytes, 0);
  std::memcpy(ref_params.data(), &ref_out, 8);
  runtime::DeviceOptions opts;
  runtime::FunctionalRunner runner(prog, cfg, exec, opts);
  runtime::RunnerStats rs;
  func::ExecEnv ref_env;
  ref_env.global = &ref_mem;
  for (uint32_t x = 0; x < kCtas; ++x) {
    func::CtaState cta(prog, geom, {{x, 0, 0}}, ref_params);
    runner.run_cta(cta, ref_env, x, rs);
  }
  std::vector<uint32_t> expected(words);
  ref_mem.read(ref_out, expected.data(), words * 4);
  BOOST_TEST_REQUIRE(rs.max_stack_depth >= 3u);  // the kernel really diverges (nested)

  // Timing: the same kernel through the issue unit.
  func::GlobalMemory mem;
  const uint64_t out = mem.allocate(words * 4);
  auto k = std::make_shared<sm::KernelContext>();
  k->prog = &prog;
  k->cfg = &cfg;
  k->exec = &exec;
  k->geom = geom;
  k->params.assign(prog.param_bytes, 0);
  std::memcpy(k->params.data(), &out, 8);
  k->env.global = &mem;

  sm::IssueParams p;
  p.warp_size = 32;
  p.max_warps = 4;   // two CTAs resident at a time: the third waits for a slot
  p.max_ctas = 2;
  p.schedulers = 2;
  p.policy.policy = "gto";
  p.watchdog_cycles = 5000;
  stats::Registry reg;
  sm::IssueUnit issue("issue", p, reg, "sm0", 7);
  FetchStub fetch("fetch");
  PipeStub sp("sp", 4, 1), sfu("sfu", 8, 2), ldst("ldst", 20, 3);
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
  issue.set_tracing(true);

  sc_core::sc_start(sc_core::sc_time(200000, sc_core::SC_NS), sc_core::SC_EXIT_ON_STARVATION);
  issue.rethrow_fault();
  const uint64_t end = util::now_cycle();

  // Every CTA ran and reported; the unit drained.
  BOOST_TEST(disp.next == kCtas);
  BOOST_TEST(disp.refusals > 0u);  // the third launch waited for room
  std::vector<uint64_t> fin = disp.finished;
  std::sort(fin.begin(), fin.end());
  BOOST_TEST(fin == (std::vector<uint64_t>{0, 1, 2}), boost::test_tools::per_element());
  BOOST_TEST(issue.idle());
  BOOST_TEST(end < 20000u);  // finished long before the time limit (simulation starved)

  // Same memory, same instruction counts as the functional runner.
  std::vector<uint32_t> got(words);
  mem.read(out, got.data(), words * 4);
  BOOST_TEST(got == expected, boost::test_tools::per_element());
  BOOST_TEST(reg.value("sm0.warp_instructions") == rs.warp_instructions);
  BOOST_TEST(reg.value("sm0.thread_instructions") == rs.thread_instructions);
  BOOST_TEST(reg.value("sm0.max_stack_depth") == rs.max_stack_depth);
  BOOST_TEST(reg.value("sm0.ctas_done") == kCtas);
  BOOST_TEST(reg.value("sm0.ctas_launched") == kCtas);
  BOOST_TEST(reg.value("sm0.barrier_waits") == 2u * kCtas);  // both warps of each CTA wait at bar.sync
  BOOST_TEST(reg.value("sm0.ibuffer_flushes") > 0u);

  // Instructions went to the pipe of their class; LDST refusals were absorbed by the latches.
  BOOST_TEST((sp.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Int, ptx::InstrClass::Fp}));
  BOOST_TEST((sfu.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Sfu}));
  BOOST_TEST((ldst.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Ldst}));
  BOOST_TEST(ldst.refused > 0u);
  BOOST_TEST(reg.value("sm0.latch_stalls") == sp.refused + sfu.refused + ldst.refused);
  // Per warp: ld.param, st.shared, ld.shared, st.global; 32 accesses each except ld.param.
  BOOST_TEST(ldst.packets == 4u * 2 * kCtas);
  BOOST_TEST(ldst.accesses == (32u + 3 * 32u) * 2 * kCtas);
  BOOST_TEST(sfu.packets == 2u * kCtas);
  BOOST_TEST(fetch.credits >= rs.warp_instructions);

  // The issue breakdown: every scheduler cycle lands in exactly one bin.
  const uint64_t cycles = reg.value("sm0.cycles");
  BOOST_TEST(cycles > 0u);
  BOOST_TEST(cycles <= end);
  const auto js = reg.to_json();
  uint64_t issued_bins = 0, all_bins = 0;
  for (uint32_t s = 0; s < p.schedulers; ++s) {
    const std::string pre = "sm0.sched" + std::to_string(s);
    const auto& h = js["histograms"][pre + ".issue_breakdown"];
    const std::vector<uint64_t> bins = h["bins"].get<std::vector<uint64_t>>();
    BOOST_TEST(bins.size() == 3u + 8u);
    uint64_t sum = 0, iss = 0;
    for (size_t b = 0; b < bins.size(); ++b) {
      sum += bins[b];
      if (b >= sm::kBinIssued) iss += bins[b];
    }
    BOOST_TEST(sum == reg.value(pre + ".cycles"));
    BOOST_TEST(reg.value(pre + ".cycles") == cycles);
    BOOST_TEST(iss == reg.value(pre + ".issued"));
    BOOST_TEST(bins[sm::kBinStall] + bins[sm::kBinMem] > 0u);  // latencies made warps wait
    issued_bins += iss;
    all_bins += sum;
  }
  BOOST_TEST(issued_bins == rs.warp_instructions);
  BOOST_TEST(all_bins == p.schedulers * cycles);
  const auto& total = js["histograms"]["sm0.issue_breakdown"];
  BOOST_TEST(total["labels"][3].get<std::string>() == "W1-4");
  BOOST_TEST(total["labels"][10].get<std::string>() == "W29-32");
  // Both full-width and divergent (partial) issues happened.
  const std::vector<uint64_t> tb = total["bins"].get<std::vector<uint64_t>>();
  BOOST_TEST(tb[10] > 0u);
  uint64_t partial = 0;
  for (size_t b = 3; b < 10; ++b) partial += tb[b];
  BOOST_TEST(partial > 0u);
  BOOST_TEST(reg.value("sm0.active_lanes") == rs.thread_instructions);
  BOOST_TEST(reg.value("sm0.issue_cycles") <= rs.warp_instructions);
  BOOST_TEST(reg.value("sm0.issue_cycles") * p.schedulers >= rs.warp_instructions);
}
