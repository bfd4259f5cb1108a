#define BOOST_TEST_MODULE tb_issue_pipe_wait
#include <boost/test/unit_test.hpp>

// A SystemC testbench of its own (one elaboration per process): the issue
// unit with the real ExecPipes for SP and SFU, a stub LDST unit, stub fetch
// and a stub CTA dispatcher runs a kernel of back-to-back independent SFU
// instructions on a narrow SFU. Both schedulers' SFU latches then sit
// refused for most cycles, and the SFU says when it frees (retry_at), so
// the issue unit sleeps instead of re-offering every cycle. The test checks
// that it did sleep, that results are the functional runner's, and that the
// stall counts are what a unit offering every cycle would have counted.

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
#include "sm/exec_pipe.h"
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

// 128-thread CTAs: 16 SFU instructions that all read %f1 only (no
// dependences between them: a warp could issue one per cycle), then a chain
// of FP adds and one store. Every input is positive (lg2, sqrt, rsqrt).
const char* kKernel = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry sfu_heavy(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .f32 %f<40>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 128, %r1;
  add.u32 %r4, %r3, 1;
  cvt.rn.f32.u32 %f1, %r4;
  mul.f32 %f1, %f1, 0f3C23D70A;
  sin.approx.f32 %f2, %f1;
  cos.approx.f32 %f3, %f1;
  ex2.approx.f32 %f4, %f1;
  lg2.approx.f32 %f5, %f1;
  rcp.approx.f32 %f6, %f1;
  sqrt.approx.f32 %f7, %f1;
  rsqrt.approx.f32 %f8, %f1;
  sin.approx.f32 %f9, %f1;
  cos.approx.f32 %f10, %f1;
  ex2.approx.f32 %f11, %f1;
  lg2.approx.f32 %f12, %f1;
  rcp.approx.f32 %f13, %f1;
  sqrt.approx.f32 %f14, %f1;
  rsqrt.approx.f32 %f15, %f1;
  sin.approx.f32 %f16, %f1;
  ex2.approx.f32 %f17, %f1;
  add.f32 %f20, %f2, %f3;
  add.f32 %f20, %f20, %f4;
  add.f32 %f20, %f20, %f5;
  add.f32 %f20, %f20, %f6;
  add.f32 %f20, %f20, %f7;
  add.f32 %f20, %f20, %f8;
  add.f32 %f20, %f20, %f9;
  add.f32 %f20, %f20, %f10;
  add.f32 %f20, %f20, %f11;
  add.f32 %f20, %f20, %f12;
  add.f32 %f20, %f20, %f13;
  add.f32 %f20, %f20, %f14;
  add.f32 %f20, %f20, %f15;
  add.f32 %f20, %f20, %f16;
  add.f32 %f20, %f20, %f17;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.f32 [%rd4], %f20;
  ret;
}
)";

constexpr uint32_t kCtas = 4;
constexpr uint32_t kThreads = 128;
constexpr uint32_t kSfuPerThread = 16;

using util::PacketInitiator;
using util::PacketTarget;

// Answers every credit one cycle later.
struct FetchStub : sc_core::sc_module {
  PacketTarget<FetchStub, sm::FetchCredit> in{"in", this, &FetchStub::on_credit};
  PacketInitiator<FetchStub, sm::FetchedInstr> out{"out"};
  std::deque<std::pair<uint64_t, sm::FetchCredit>> q;
  sc_core::sc_event ev;
  SC_CTOR(FetchStub) { SC_METHOD(run); }
  void on_credit(sm::FetchCredit& c, sc_core::sc_time&) {
    c.accepted = true;
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

// What a latch went through, seen from the pipe side. With
// operand_read_cycles = 0 a latch holds one packet and offers it first in
// its issue cycle; a unit offering every cycle is then refused once per
// cycle in [issue_cycle, accept cycle). `latched_cycles` sums exactly that,
// whether or not the offers were really made.
struct OfferLog {
  uint64_t offers = 0, refused = 0, accepted = 0;
  uint64_t latched_cycles = 0;
  std::set<ptx::InstrClass> classes;
  void record(const sm::IssuePacket& p) {
    ++offers;
    if (!p.accepted) {
      ++refused;
      return;
    }
    ++accepted;
    latched_cycles += util::now_cycle() - p.issue_cycle;
    classes.insert(p.instr->cls);
  }
};

// Between the issue unit and a real ExecPipe: forwards every offer as is
// (the pipe's retry_at and refusal counter go back in the same packet) and
// logs it.
struct Tap : sc_core::sc_module {
  PacketTarget<Tap, sm::IssuePacket> in{"in", this, &Tap::on_issue};
  PacketInitiator<Tap, sm::IssuePacket> out{"out"};
  OfferLog log;
  SC_CTOR(Tap) {}
  void on_issue(sm::IssuePacket& p, sc_core::sc_time& t) {
    out->b_transport(p, t);
    log.record(p);
  }
};

// The LDST unit: accepts at most one packet every `interval` cycles and
// leaves retry_at = 0 ("unknown"), so while its latch is refused the issue
// unit must keep offering every cycle; writes back `latency` cycles later.
struct LdstStub : sc_core::sc_module {
  PacketTarget<LdstStub, sm::IssuePacket> in{"in", this, &LdstStub::on_issue};
  PacketInitiator<LdstStub, sm::WritebackPacket> wb{"wb"};
  uint64_t latency, interval;
  uint64_t last_accept = ~uint64_t{0};
  std::deque<std::pair<uint64_t, sm::WritebackPacket>> q;
  sc_core::sc_event ev;
  OfferLog log;
  SC_HAS_PROCESS(LdstStub);
  LdstStub(sc_core::sc_module_name n, uint64_t lat, uint64_t ii)
      : sc_core::sc_module(n), latency(lat), interval(ii) { SC_METHOD(run); }
  void on_issue(sm::IssuePacket& p, sc_core::sc_time&) {
    const uint64_t now = util::now_cycle();
    if (last_accept == ~uint64_t{0} || now >= last_accept + interval) {
      last_accept = now;
      p.accepted = true;
      sm::WritebackPacket w;
      w.warp = p.warp;
      w.instr = p.instr;
      w.ticket = p.ticket;
      w.long_latency = p.long_latency;
      q.emplace_back(now + latency, w);
      ev.notify(util::cycle_time());
    }
    log.record(p);
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

// Offers CTAs in order, but like the GPU's CTA dispatch unit only while the
// SM has a free CTA slot: a launch parked in the SM's launch queue waiting
// for room would keep the issue unit awake every cycle.
struct DispatcherStub : sc_core::sc_module {
  PacketInitiator<DispatcherStub, sm::CtaLaunch> out{"out"};
  PacketTarget<DispatcherStub, sm::CtaDone> done{"done", this, &DispatcherStub::on_done};
  std::shared_ptr<const sm::KernelContext> kernel;
  uint32_t max_resident = 1;
  uint32_t next = 0, refusals = 0;
  std::vector<uint64_t> finished;
  sc_core::sc_event freed;
  SC_CTOR(DispatcherStub) { SC_METHOD(run); }
  void on_done(sm::CtaDone& d, sc_core::sc_time&) {
    d.accepted = true;
    finished.push_back(d.cta_index);
    freed.notify(sc_core::SC_ZERO_TIME);
  }
  void run() {
    if (next == kCtas) return;
    if (next - finished.size() >= max_resident) return next_trigger(freed);
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

BOOST_AUTO_TEST_CASE(issue_unit_sleeps_while_latches_wait_for_a_busy_sfu_and_counts_as_if_it_had_offered) {
  const ptx::Module mod = ptx::parse(kKernel, "sfu_heavy.ptx");
  const ptx::Program prog = ptx::link(mod, "sfu_heavy", ptx::SymbolAddresses(mod.globals.size(), 0));
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
  p.max_warps = 8;   // two 4-warp CTAs resident at a time
  p.max_ctas = 2;
  p.schedulers = 2;
  p.policy.policy = "gto";  // idle_pick_repeats(): the wait is allowed
  p.watchdog_cycles = 5000;
  stats::Registry reg;
  sm::IssueUnit issue("issue", p, reg, "sm0", 0);

  // SP: two 16-lane units, rarely in the way. SFU: one 4-lane unit with
  // ii 4, so a 32-wide warp instruction takes 8 passes and holds it 32
  // cycles; both schedulers' SFU latches wait behind it. (With ii 1 the
  // unit still ran in ~70% of the cycles: 8-cycle gaps are hardly longer
  // than the wake-ups every SFU instruction causes anyway: its issue, the
  // fetch answer, its write-back.)
  sm::OpLatencyTable ops;
  sm::PipeParams sp_p;
  sp_p.lanes = 16;
  sp_p.units = 2;
  sp_p.latency = 4;
  sm::PipeParams sfu_p;
  sfu_p.lanes = 4;
  sfu_p.units = 1;
  sfu_p.latency = 10;
  sfu_p.ii = 4;
  const uint64_t sfu_busy = 32 / sfu_p.lanes * sfu_p.ii;  // cycles per warp instruction
  sm::ExecPipe sp("sp", sp_p, ops, reg, "sm0.sp");
  sm::ExecPipe sfu("sfu", sfu_p, ops, reg, "sm0.sfu");
  Tap sp_tap("sp_tap"), sfu_tap("sfu_tap");
  LdstStub ldst("ldst", 20, 3);
  FetchStub fetch("fetch");
  DispatcherStub disp("disp");
  disp.kernel = k;
  disp.max_resident = p.max_ctas;

  disp.out.bind(issue.launch);
  issue.done.bind(disp.done);
  issue.credits.bind(fetch.in);
  fetch.out.bind(issue.fetched);
  issue.to_sp.bind(sp_tap.in);
  sp_tap.out.bind(sp.in);
  issue.to_sfu.bind(sfu_tap.in);
  sfu_tap.out.bind(sfu.in);
  issue.to_ldst.bind(ldst.in);
  sp.writeback.bind(issue.wb_sp);
  sfu.writeback.bind(issue.wb_sfu);
  ldst.wb.bind(issue.wb_ldst);
  // No set_tracing(true): tracing turns the wait off.

  sc_core::sc_start(sc_core::sc_time(500000, sc_core::SC_NS), sc_core::SC_EXIT_ON_STARVATION);
  issue.rethrow_fault();
  const uint64_t end = util::now_cycle();

  // 1. Every CTA ran and reported; memory and instruction counts are the
  //    functional runner's.
  BOOST_TEST(disp.next == kCtas);
  std::vector<uint64_t> fin = disp.finished;
  std::sort(fin.begin(), fin.end());
  BOOST_TEST(fin == (std::vector<uint64_t>{0, 1, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(issue.idle());
  BOOST_TEST(end < 50000u);  // finished long before the time limit (simulation starved)
  std::vector<uint32_t> got(words);
  mem.read(out, got.data(), words * 4);
  BOOST_TEST(got == expected, boost::test_tools::per_element());
  BOOST_TEST(reg.value("sm0.warp_instructions") == rs.warp_instructions);
  BOOST_TEST(reg.value("sm0.thread_instructions") == rs.thread_instructions);
  BOOST_TEST(reg.value("sm0.ctas_done") == kCtas);

  // The SFU was the bottleneck: it took every SFU instruction and was busy
  // for most of the run.
  const uint64_t warps = uint64_t{kCtas} * kThreads / 32;
  BOOST_TEST(sfu_tap.log.accepted == warps * kSfuPerThread);
  BOOST_TEST((sfu_tap.log.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Sfu}));
  BOOST_TEST((sp_tap.log.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Int, ptx::InstrClass::Fp}));
  BOOST_TEST((ldst.log.classes == std::set<ptx::InstrClass>{ptx::InstrClass::Ldst}));
  const uint64_t cycles = reg.value("sm0.cycles");
  BOOST_TEST(cycles > 0u);
  BOOST_TEST(cycles <= end);
  BOOST_TEST(sfu_tap.log.accepted * sfu_busy * 10 > cycles * 9);  // SFU busy > 90% of the resident cycles

  // 2. The issue unit slept while its latches waited for the SFU: it ran in
  //    under a third of the cycles it had CTAs resident (measured: about a
  //    quarter; with can_wait_for_pipes() forced false it runs in over 99%
  //    of them), and made under a third as many SFU offers as the refusals
  //    it accounted (forced false: as many).
  const uint64_t act = issue.activations();
  BOOST_TEST_MESSAGE("activations " << act << ", resident cycles " << cycles << ", end " << end);
  BOOST_TEST(act * 3 < cycles);
  BOOST_TEST(sfu_tap.log.refused * 3 < reg.value("sm0.sfu.structural_stalls"));

  // 3. Accounting identities that hold with or without the wait.
  const uint64_t sp_stalls = reg.value("sm0.sp.structural_stalls");
  const uint64_t sfu_stalls = reg.value("sm0.sfu.structural_stalls");
  BOOST_TEST_MESSAGE("latch_stalls " << reg.value("sm0.latch_stalls") << ": sp " << sp_stalls << ", sfu "
                     << sfu_stalls << " (" << sfu_tap.log.refused << " offered), ldst " << ldst.log.refused);
  BOOST_TEST(sfu_stalls > 0u);
  BOOST_TEST(reg.value("sm0.latch_stalls") == sp_stalls + sfu_stalls + ldst.log.refused);
  // Every scheduler cycle lands in exactly one breakdown bin, slept or not.
  const auto js = reg.to_json();
  uint64_t stall = 0;
  for (uint32_t s = 0; s < p.schedulers; ++s) {
    const std::string pre = "sm0.sched" + std::to_string(s);
    const std::vector<uint64_t> bins = js["histograms"][pre + ".issue_breakdown"]["bins"].get<std::vector<uint64_t>>();
    uint64_t sum = 0;
    for (uint64_t b : bins) sum += b;
    BOOST_TEST_MESSAGE(pre << ": stall " << bins[sm::kBinStall] << ", idle " << bins[sm::kBinIdle]
                           << " of " << sum << " cycles");
    BOOST_TEST(sum == reg.value(pre + ".cycles"));
    BOOST_TEST(reg.value(pre + ".cycles") == cycles);
    BOOST_TEST(bins[sm::kBinStall] > 0u);
    stall += bins[sm::kBinStall];
  }
  // Held up by the SFU latch in most scheduler cycles. Not checked per
  // scheduler: scheduler 0's latch is offered first, so it wins the SFU
  // whenever both wait; its warps do their SFU work in bursts while
  // scheduler 1's wait, and it idles while scheduler 1 catches up: about
  // half the run.
  BOOST_TEST(stall * 2 > p.schedulers * cycles);

  // 4. The counts equal those of a unit that offered every cycle: each pipe
  //    counted one refusal per cycle a packet sat in its latch before being
  //    accepted (OfferLog::latched_cycles, from the accepted packets' issue
  //    and accept cycles), however many offers were really made. The LDST
  //    stub leaves retry_at unknown, so there every offer was really made.
  BOOST_TEST(sfu_stalls == sfu_tap.log.latched_cycles);
  BOOST_TEST(sp_stalls == sp_tap.log.latched_cycles);
  BOOST_TEST(ldst.log.refused > 0u);  // the unknown-retry path was exercised
  BOOST_TEST(ldst.log.refused == ldst.log.latched_cycles);
  BOOST_TEST(reg.value("sm0.latch_stalls") ==
             sfu_tap.log.latched_cycles + sp_tap.log.latched_cycles + ldst.log.latched_cycles);
}
