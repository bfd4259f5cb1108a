// The MT-CGRF's token engine on a straight-line block, against cycles
// computed by hand from the placement: the grid takes its configuration
// (vgiw.reconfig_cycles), the initiator injects the thread, each node fires
// when its last token arrives (producer's completion + the routed edge's
// latency) and completes after its operation's latency, and the terminator
// returns the thread to the BBS as a batch for its next block (here: exit).
// Then: two threads of one batch go through one replica a cycle apart.
// The grid runs vgiw.grid_clock = 2 cycles per core cycle: the engine's times
// are grid cycles, operation latencies are the SIMT SM's core-cycle latencies
// doubled, and a return reaches the BBS in the core cycle its grid cycle is in.
#define BOOST_TEST_MODULE vgiw_grid
#include <boost/test/unit_test.hpp>

#include <memory>
#include <vector>

#include <systemc>

#include "func/executor.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "stats/stats.h"
#include "util/cycle.h"
#include "util/packet_socket.h"
#include "vgiw/mt_cgrf.h"

using namespace simt;
using vgiw::Unit;

namespace {

const char* kPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k() {
  .reg .b32 %r<5>;
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 1;
  mul.lo.u32 %r3, %r2, 3;
  add.u32 %r4, %r3, %r1;
  exit;
}
)";

vgiw::VgiwParams small_grid() {
  vgiw::VgiwParams v;
  v.units[Unit::FpAlu] = 4;
  v.units[Unit::Scu] = 1;
  v.units[Unit::Ldst] = 1;
  v.units[Unit::Lvu] = 1;
  v.units[Unit::Sju] = 2;
  v.units[Unit::Cvu] = 2;
  v.reconfig_cycles = 34;
  v.grid_clock = 2;
  return v;
}

struct Bbs : sc_core::sc_module {
  util::PacketInitiator<Bbs, vgiw::GridConfigure> config{"config"};
  util::PacketInitiator<Bbs, vgiw::ThreadBatch> batches{"batches"};
  util::PacketTarget<Bbs, vgiw::BatchReturn> returns{"returns", this, &Bbs::on_return};
  std::vector<std::pair<uint64_t, vgiw::BatchReturn>> got;
  SC_CTOR(Bbs) {}
  void on_return(vgiw::BatchReturn& b, sc_core::sc_time&) {
    b.accepted = true;
    got.push_back({util::now_cycle(), b});
  }
};

struct Bench {
  ptx::Program prog;
  std::unique_ptr<func::Executor> exec;
  sm::KernelContext kernel;
  std::unique_ptr<vgiw::Compilation> comp;
  vgiw::VgiwCta cta;
  stats::Registry reg;
  sm::SmParams sm;  // sp.latency 10
  std::unique_ptr<vgiw::MtCgrf> grid;
  std::unique_ptr<mem::MemResponder> l1d, lvc;
  std::unique_ptr<Bbs> bbs;

  Bench() {
    ptx::Module m = ptx::parse(kPtx, "t.ptx");
    prog = ptx::link(m, "k", ptx::SymbolAddresses(m.globals.size(), 0x1000));
    exec = std::make_unique<func::Executor>(prog);
    kernel.prog = &prog;
    kernel.exec = exec.get();
    kernel.geom.block = {{2, 1, 1}};
    const vgiw::VgiwParams v = small_grid();
    vgiw::CompilerOptions o;
    o.grid = v.units;
    comp = std::make_unique<vgiw::Compilation>(prog, o);
    cta.state = std::make_unique<func::CtaState>(comp->program(), kernel.geom, func::Dim3{{0, 0, 0}}, kernel.params);
    cta.kernel = &kernel;
    cta.threads = 2;
    grid = std::make_unique<vgiw::MtCgrf>("grid", v, sm, reg, "sm0", 0);
    l1d = std::make_unique<mem::MemResponder>("l1d", 4);
    lvc = std::make_unique<mem::MemResponder>("lvc", 4);
    grid->l1d[0].socket.bind(l1d->socket);
    grid->lvc[0].socket.bind(lvc->socket);
    bbs = std::make_unique<Bbs>("bbs");
    bbs->config.bind(grid->configure);
    bbs->batches.bind(grid->batches);
    grid->returns.bind(bbs->returns);
  }
};

Bench& bench() {
  static Bench b;
  return b;
}

// Cycle the terminator fires for a thread injected at `t0`, from the
// placement's edge latencies and sp.latency.
uint64_t expected_finish(const vgiw::CompiledBlock& b, uint64_t t0, uint32_t op_latency) {
  const auto& nodes = b.graph.nodes();
  std::vector<uint64_t> done(nodes.size(), 0), ready(nodes.size(), 0);
  done[0] = t0;
  for (const vgiw::RoutedEdge& e : b.placement.replicas[0].edges) {
    // Edges come grouped by consumer, consumers after their producers.
    ready[e.to] = std::max(ready[e.to], done[e.from] + e.latency);
    done[e.to] = ready[e.to] + (nodes[e.to].kind == vgiw::NodeKind::Instr ? op_latency : 0);
  }
  return ready.back();
}

}  // namespace

BOOST_AUTO_TEST_CASE(straight_line_block_against_hand_computed_cycles) {
  Bench& b = bench();
  const vgiw::CompiledBlock& blk = b.comp->blocks()[0];
  BOOST_TEST_REQUIRE(b.comp->blocks().size() == 1u);
  BOOST_TEST(blk.graph.needs()[Unit::FpAlu] == 3u);  // the tid move is the initiator's token
  BOOST_TEST_REQUIRE(blk.replicas == 1u);
  // Cycle 0: configure and hand over one thread (bit 0).
  vgiw::GridConfigure g;
  g.compilation = b.comp.get();
  g.block = &blk;
  g.slots = 64;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  b.bbs->config->b_transport(g, t);
  BOOST_TEST(g.accepted);
  vgiw::ThreadBatch batch;
  batch.replica = 0;
  batch.base = 0;
  batch.bits = 0x1;
  batch.cta = &b.cta;
  b.bbs->batches->b_transport(batch, t);
  BOOST_TEST(batch.accepted);
  sc_core::sc_start(util::cycles(200));
  BOOST_TEST_REQUIRE(b.bbs->got.size() == 1u);
  // Injected when the configuration is in (grid cycle 34); every op takes
  // sp.latency core cycles, twice as many grid cycles.
  const uint32_t op = 2 * b.sm.sp.latency;
  const uint64_t finish = expected_finish(blk, 34, op);
  BOOST_TEST(b.bbs->got[0].first == finish / 2);
  BOOST_TEST(b.bbs->got[0].second.next == vgiw::kNone);  // exit
  BOOST_TEST(b.bbs->got[0].second.bits == 0x1u);
  BOOST_TEST(b.reg.value("sm0.grid.threads") == 1u);
  BOOST_TEST(b.reg.value("sm0.grid.fp_alu_firings") == 3u);
  BOOST_TEST(b.reg.value("sm0.thread_instructions") == 5u);  // mov, add, mul, add, exit

  // Two threads in one batch: the second is injected a cycle after the
  // first and follows it through the same units a cycle behind (pipelined);
  // both come back in one batch when the replica drains.
  const uint64_t start = util::now_cycle();
  batch.bits = 0x3;
  batch.accepted = false;
  // Bit 0 ran already: a fresh CTA state is not needed for timing.
  b.bbs->batches->b_transport(batch, t);
  BOOST_TEST(batch.accepted);
  sc_core::sc_start(util::cycles(200));
  BOOST_TEST_REQUIRE(b.bbs->got.size() == 2u);
  // The grid runs from the next core cycle: thread 0 enters at its first grid
  // cycle, 2 (start + 1), thread 1 a grid cycle later.
  BOOST_TEST(b.bbs->got[1].first == expected_finish(blk, 2 * (start + 1) + 1, op) / 2);
  BOOST_TEST(b.bbs->got[1].second.bits == 0x3u);
  BOOST_TEST(b.reg.value("sm0.grid.unit_conflicts") == 0u);  // a cycle apart: never at one unit together
}
