// For SystemC testbenches of the issue unit (tests/sm/test_tb_issue_*.cpp):
// a kernel parsed and linked once, its functional-runner reference, the
// KernelContext a CTA launch carries, and stub fetch, pipe and CTA-dispatch
// modules around an sm::IssueUnit. Each including test is its own executable.
#pragma once

#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "func/global_memory.h"
#include "ptx/cfg.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "sm/issue_unit.h"
#include "util/cycle.h"

// The functional reference lives in simt_runtime, which tests/sm executables
// do not link (tests/<family> links simt_<family> only); it needs nothing
// beyond simt_func, so its one source file is compiled in here (once per
// executable: this header is its only includer).
#include "runtime/functional_runner.cpp"

namespace simt::test {

// A kernel parsed and linked, its CFG and executor, and a 1-D launch shape.
// Not copyable (cfg and exec refer to prog).
struct TbKernel {
  ptx::Module mod;
  ptx::Program prog;
  ptx::Cfg cfg;
  func::Executor exec;
  func::LaunchGeometry geom;
  TbKernel(const char* ptx_text, const std::string& entry, uint32_t ctas, uint32_t threads)
      : mod(ptx::parse(ptx_text, entry + ".ptx")),
        prog(ptx::link(mod, entry, ptx::SymbolAddresses(mod.globals.size(), 0))),
        cfg(prog),
        exec(prog) {
    geom.grid = {{ctas, 1, 1}};
    geom.block = {{threads, 1, 1}};
  }
  TbKernel(const TbKernel&) = delete;
  TbKernel& operator=(const TbKernel&) = delete;
};

// The functional runner on its own memory, for a kernel whose first
// parameter is the address of a `words`-word output buffer: every CTA of
// the (1-D) grid in order, the buffer afterwards and the runner's counts.
struct Reference {
  std::vector<uint32_t> out;
  runtime::RunnerStats rs;
};
inline Reference run_reference(const TbKernel& k, uint64_t words) {
  func::GlobalMemory ref_mem;
  const uint64_t ref_out = ref_mem.allocate(words * 4);
  std::vector<uint8_t> ref_params(k.prog.param_bytes, 0);
  std::memcpy(ref_params.data(), &ref_out, 8);
  runtime::DeviceOptions opts;
  runtime::FunctionalRunner runner(k.prog, k.cfg, k.exec, opts);
  Reference r;
  func::ExecEnv ref_env;
  ref_env.global = &ref_mem;
  for (uint32_t x = 0; x < k.geom.grid[0]; ++x) {
    func::CtaState cta(k.prog, k.geom, {{x, 0, 0}}, ref_params);
    runner.run_cta(cta, ref_env, x, r.rs);
  }
  r.out.resize(words);
  ref_mem.read(ref_out, r.out.data(), words * 4);
  return r;
}

// What a CTA launch carries: the kernel over `mem`, its first parameter
// `out` (the other parameter bytes zero).
inline std::shared_ptr<sm::KernelContext> make_context(const TbKernel& k, func::GlobalMemory& mem, uint64_t out) {
  auto c = std::make_shared<sm::KernelContext>();
  c->prog = &k.prog;
  c->cfg = &k.cfg;
  c->exec = &k.exec;
  c->geom = k.geom;
  c->params.assign(k.prog.param_bytes, 0);
  std::memcpy(c->params.data(), &out, 8);
  c->env.global = &mem;
  return c;
}

// `words` 32-bit words of `mem` from `addr`.
inline std::vector<uint32_t> read_words(const func::GlobalMemory& mem, uint64_t addr, uint64_t words) {
  std::vector<uint32_t> v(words);
  mem.read(addr, v.data(), words * 4);
  return v;
}

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

// What a latch went through, seen from the pipe side. With
// operand_read_cycles = 0 a latch holds one packet and offers it first in
// its issue cycle; a unit offering every cycle is then refused once per
// cycle in [issue_cycle, accept cycle). `latched_cycles` sums exactly that,
// whether or not the offers were really made.
struct OfferLog {
  uint64_t offers = 0, refused = 0, accepted = 0;
  uint64_t latched_cycles = 0;
  uint64_t accesses = 0;  // memory accesses of the accepted packets
  uint64_t other_part_accesses = 0;  // those of CTA parts > 0 (warps mixing CTAs)
  uint64_t mixed = 0;     // accepted packets with threads of several CTAs
  std::set<ptx::InstrClass> classes;
  void record(const sm::IssuePacket& p) {
    ++offers;
    if (!p.accepted) {
      ++refused;
      return;
    }
    ++accepted;
    latched_cycles += util::now_cycle() - p.issue_cycle;
    accesses += p.accesses.size();
    for (const func::MemAccess& a : p.accesses) other_part_accesses += a.part > 0;
    mixed += !p.other_parts.empty();
    classes.insert(p.instr->cls);
  }
};

// A pipe: accepts at most one packet every `interval` cycles (0: every
// offer) and leaves retry_at = 0 ("unknown"), so while its latch is refused
// the issue unit must keep offering every cycle; writes back `latency`
// cycles later.
struct PipeStub : sc_core::sc_module {
  PacketTarget<PipeStub, sm::IssuePacket> in{"in", this, &PipeStub::on_issue};
  PacketInitiator<PipeStub, sm::WritebackPacket> wb{"wb"};
  uint64_t latency, interval;
  uint64_t last_accept = ~uint64_t{0};
  std::deque<std::pair<uint64_t, sm::WritebackPacket>> q;
  sc_core::sc_event ev;
  OfferLog log;
  SC_HAS_PROCESS(PipeStub);
  PipeStub(sc_core::sc_module_name n, uint64_t lat, uint64_t ii)
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

// Offers CTAs 0 .. ctas-1 in order, one attempt a cycle, refused launches
// retried. With max_resident set it offers only while fewer than that many
// of its CTAs are unfinished (like the GPU's CTA dispatch unit, which sends
// a CTA only to an SM with a free slot) and otherwise sleeps until one
// finishes; unlimited (the default), it keeps offering and counts refusals.
struct DispatcherStub : sc_core::sc_module {
  PacketInitiator<DispatcherStub, sm::CtaLaunch> out{"out"};
  PacketTarget<DispatcherStub, sm::CtaDone> done{"done", this, &DispatcherStub::on_done};
  std::shared_ptr<const sm::KernelContext> kernel;
  uint32_t ctas = 1;
  uint32_t max_resident = ~uint32_t{0};
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
    if (next == ctas) return;
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

// Dispatcher and fetch to the issue unit, both ways.
inline void bind_front(sm::IssueUnit& issue, DispatcherStub& disp, FetchStub& fetch) {
  disp.out.bind(issue.launch);
  issue.done.bind(disp.done);
  issue.credits.bind(fetch.in);
  fetch.out.bind(issue.fetched);
}

// The issue unit's SP, SFU and LDST ports to the given targets (a pipe's
// input socket or a tap in front of it), and the pipes' write-back sockets to
// it. The tensor port gets a stub pipe of its own (these benches run no
// warp matrix instructions; every socket must still be bound).
template <class SpIn, class SfuIn, class LdstIn, class SpWb, class SfuWb, class LdstWb>
void bind_pipes(sm::IssueUnit& issue, SpIn& sp, SfuIn& sfu, LdstIn& ldst, SpWb& sp_wb, SfuWb& sfu_wb,
                LdstWb& ldst_wb) {
  issue.to_sp.bind(sp);
  issue.to_sfu.bind(sfu);
  issue.to_ldst.bind(ldst);
  sp_wb.bind(issue.wb_sp);
  sfu_wb.bind(issue.wb_sfu);
  ldst_wb.bind(issue.wb_ldst);
  auto* tensor = new PipeStub(sc_core::sc_gen_unique_name("tensor_stub"), 32, 8);  // lives as long as the simulation
  issue.to_tensor.bind(tensor->in);
  tensor->wb.bind(issue.wb_tensor);
}

// Three stub pipes to the issue unit, both ways (and the tensor stub).
inline void bind_pipes(sm::IssueUnit& issue, PipeStub& sp, PipeStub& sfu, PipeStub& ldst) {
  bind_pipes(issue, sp.in, sfu.in, ldst.in, sp.wb, sfu.wb, ldst.wb);
}

}  // namespace simt::test
