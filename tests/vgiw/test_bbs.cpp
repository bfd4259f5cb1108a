// The basic block scheduler on scripted thread vectors: a stand-in grid
// takes configurations and batches and returns every thread, after a fixed
// delay, to the block a script names. Checked: the BBS always runs the
// smallest block ID with waiting threads, reconfigures only when the block
// changes (threads that return to the block being run stream in the same
// configuration), streams <base, bitmap> words of the CTAs in its tile, and
// tiles: tile = CVT bits / blocks, whole CTAs, so a CTA that does not fit
// waits until one is done.
#define BOOST_TEST_MODULE vgiw_bbs
#include <boost/test/unit_test.hpp>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include <systemc>

#include "func/executor.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "stats/stats.h"
#include "util/cycle.h"
#include "util/packet_socket.h"
#include "vgiw/bbs.h"
#include "vgiw/cvt.h"

using namespace simt;
using vgiw::kNone;

namespace {

// Four blocks: 0 (entry) branches to 1 or 2, both go to 3 (exit).
const char* kPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k() {
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  add.u32 %r3, %r1, 7;
  bra DONE;
EVEN:
  add.u32 %r3, %r1, 9;
DONE:
  exit;
}
)";

constexpr uint32_t kThreads = 96;  // two CVT words per CTA, the second half full
constexpr uint64_t kDelay = 10;    // cycles a batch spends in the stand-in grid

// The grid as the BBS sees it: configurations are refused while threads of
// the last block are out (as the MT-CGRF does); each batch comes back
// kDelay cycles later, one return per next block.
struct ScriptedGrid : sc_core::sc_module {
  util::PacketTarget<ScriptedGrid, vgiw::GridConfigure> configure{"configure", this, &ScriptedGrid::on_configure};
  util::PacketTarget<ScriptedGrid, vgiw::ThreadBatch> batches{"batches", this, &ScriptedGrid::on_batch};
  util::PacketInitiator<ScriptedGrid, vgiw::BatchReturn> returns{"returns"};

  struct Batch {
    uint64_t cycle;
    uint32_t block, replica, replicas, base;
    uint64_t bits;
    uint32_t cta_base;  // the slot of the batch's CTA's thread 0 (kNone: no CTA)
  };
  std::function<uint32_t(uint32_t block, uint32_t slot)> next;  // the script
  std::vector<uint32_t> configs;                                 // block IDs, in configuration order
  std::vector<Batch> seen;

  SC_CTOR(ScriptedGrid) { SC_THREAD(run); }

 private:
  uint32_t block_ = kNone, replicas_ = 0;
  uint64_t out_ = 0;  // threads taken, not yet returned
  std::deque<std::pair<uint64_t, vgiw::BatchReturn>> q_;

  void on_configure(vgiw::GridConfigure& g, sc_core::sc_time&) {
    if (out_) return;
    block_ = static_cast<uint32_t>(g.block - g.compilation->blocks().data());
    replicas_ = g.block->replicas;
    configs.push_back(block_);
    g.accepted = true;
  }
  void on_batch(vgiw::ThreadBatch& b, sc_core::sc_time&) {
    const uint64_t now = util::now_cycle();
    seen.push_back({now, block_, b.replica, replicas_, b.base, b.bits, b.cta ? b.cta->base : kNone});
    std::map<uint32_t, uint64_t> by_next;
    for (uint32_t bit = 0; bit < 64; ++bit)
      if ((b.bits >> bit) & 1) by_next[next(block_, b.base + bit)] |= uint64_t{1} << bit;
    for (const auto& [n, bits] : by_next) q_.push_back({now + kDelay, vgiw::BatchReturn{n, b.base, bits, false}});
    out_ += static_cast<uint64_t>(__builtin_popcountll(b.bits));
    b.accepted = true;
  }
  void run() {
    for (;;) {
      sc_core::wait(util::cycle_time());
      while (!q_.empty() && q_.front().first <= util::now_cycle()) {
        vgiw::BatchReturn r = q_.front().second;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        returns->b_transport(r, t);
        BOOST_REQUIRE(r.accepted);  // the BBS always takes returns
        out_ -= static_cast<uint64_t>(__builtin_popcountll(r.bits));
        q_.pop_front();
      }
    }
  }
};

struct Dispatcher : sc_core::sc_module {
  util::PacketInitiator<Dispatcher, sm::CtaLaunch> launch{"launch"};
  util::PacketTarget<Dispatcher, sm::CtaDone> done{"done", this, &Dispatcher::on_done};
  std::vector<std::pair<uint64_t, uint64_t>> finished;  // (cycle, CTA index)
  SC_CTOR(Dispatcher) {}
  bool start(const std::shared_ptr<const sm::KernelContext>& k, uint64_t index) {
    sm::CtaLaunch l;
    l.kernel = k;
    l.cta_index = index;
    l.ctaid = {{static_cast<uint32_t>(index), 0, 0}};
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    launch->b_transport(l, t);
    return l.accepted;
  }
  void on_done(sm::CtaDone& d, sc_core::sc_time&) {
    d.accepted = true;
    finished.push_back({util::now_cycle(), d.cta_index});
  }
};

vgiw::VgiwParams params() {
  vgiw::VgiwParams v;
  // 4 blocks x 5 words = 1280 bits: room for two CTAs of two words each.
  v.cvt_bytes = 4 * 5 * 64 / 8;
  v.reconfig_cycles = 34;
  v.if_convert_limit = 0;  // the script needs the kernel's four blocks (no if-conversion)
  return v;
}

struct Bench {
  ptx::Program prog;
  std::unique_ptr<func::Executor> exec;
  std::shared_ptr<sm::KernelContext> kernel = std::make_shared<sm::KernelContext>();
  stats::Registry reg;
  vgiw::VgiwParams v = params();
  vgiw::Bbs bbs{"bbs", v, reg, "sm0", 0};
  vgiw::Cvt cvt{"cvt", v.cvt_bytes * 8, v.cvt_banks, reg, "sm0.cvt"};
  ScriptedGrid grid{"grid"};
  Dispatcher disp{"disp"};

  Bench() {
    ptx::Module m = ptx::parse(kPtx, "t.ptx");
    prog = ptx::link(m, "k", ptx::SymbolAddresses(m.globals.size(), 0x1000));
    exec = std::make_unique<func::Executor>(prog);
    kernel->prog = &prog;
    kernel->exec = exec.get();
    kernel->geom.block = {{kThreads, 1, 1}};
    kernel->geom.grid = {{3, 1, 1}};
    bbs.cvt.bind(cvt.in);
    bbs.grid_config.bind(grid.configure);
    bbs.grid_batches.bind(grid.batches);
    grid.returns.bind(bbs.returns);
    disp.launch.bind(bbs.launch);
    bbs.done.bind(disp.done);
  }
};

Bench& bench() {
  static Bench b;
  return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(smallest_block_first_streaming_and_tiling_on_a_scripted_run) {
  Bench& b = bench();
  // The script: from 0, even slots go to 2 and odd ones to 1; from 1, slots
  // 1 mod 4 come back to 1 once (a loop on the block being run), the rest go
  // to 3; from 2, slots 0 mod 4 go back to the smaller block 1, the rest to
  // 3; 3 exits (and its slot may loop again for the next CTA there).
  std::set<uint32_t> looped;
  b.grid.next = [&](uint32_t block, uint32_t slot) -> uint32_t {
    switch (block) {
      case 0: return slot % 2 ? 1 : 2;
      case 1: return slot % 4 == 1 && looped.insert(slot).second ? 1 : 3;
      case 2: return slot % 4 == 0 ? 1 : 3;
      default: looped.erase(slot); return kNone;
    }
  };
  // Three CTAs; the tile holds two (the third waits at the BBS).
  BOOST_TEST(b.disp.start(b.kernel, 0));
  sc_core::sc_start(util::cycles(2));
  BOOST_TEST(b.disp.start(b.kernel, 1));
  sc_core::sc_start(util::cycles(2));
  BOOST_TEST(b.disp.start(b.kernel, 2));  // accepted into the BBS's launch queue
  sc_core::sc_start(util::cycles(2));
  BOOST_TEST(!b.disp.start(b.kernel, 3));  // one launch waits at a time: refused
  sc_core::sc_start(util::cycles(3000));

  BOOST_TEST(b.reg.value("sm0.ctas_launched") == 3u);
  BOOST_TEST_REQUIRE(b.disp.finished.size() == 3u);
  BOOST_TEST(b.reg.value("sm0.bbs.exited_threads") == 3u * kThreads);

  // Smallest ID first: 0, then 1 (before 2), 2, then 1 again (2 sent threads
  // back), 3; the same again for the third CTA. The loop on block 1 needs no
  // reconfiguration, and neither does any block the grid still holds.
  const std::vector<uint32_t> order{0, 1, 2, 1, 3, 0, 1, 2, 1, 3};
  BOOST_TEST(b.grid.configs == order, boost::test_tools::per_element());
  BOOST_TEST(b.reg.value("sm0.bbs.blocks_run") == order.size());

  // Every batch: a word of a resident CTA's slots, sent while its block was
  // configured, to a replica the block has, the CTA's bits only.
  const uint64_t third_done = b.disp.finished.back().first;
  const uint64_t first_done = b.disp.finished.front().first;
  std::set<uint32_t> bases_before, bases_after;
  uint64_t threads = 0;
  for (const auto& s : b.grid.seen) {
    BOOST_TEST(s.bits != 0u);
    BOOST_TEST(s.replica < s.replicas);
    BOOST_TEST(s.base % 64 == 0u);
    BOOST_TEST(s.base < 4u * 64);  // two CTA positions of two words
    BOOST_TEST(s.base / 128 == s.cta_base / 128);
    BOOST_TEST((s.base % 128 ? (s.bits >> 32) == 0 : true));  // word 1 holds threads 64..95
    threads += static_cast<uint64_t>(__builtin_popcountll(s.bits));
    (s.cycle < first_done ? bases_before : bases_after).insert(s.base);
    BOOST_TEST(s.cycle <= third_done);
  }
  BOOST_TEST(bases_before == (std::set<uint32_t>{0, 64, 128, 192}), boost::test_tools::per_element());
  // The third CTA took the position the first CTA done left: one of the two.
  BOOST_TEST((bases_after.size() <= 2 && (*bases_after.begin() == 0 || *bases_after.begin() == 128)));

  // Threads streamed: every CTA's 96 through 0 and 3, half through 2, and
  // through 1: the odd half, a quarter again (the loop), a quarter from 2.
  BOOST_TEST(threads == 3u * (kThreads + kThreads + kThreads / 2 + kThreads / 2 + kThreads / 4 + kThreads / 4));
  BOOST_TEST(b.reg.value("sm0.bbs.threads_returned") == threads);
  // Written into the CVT: the CTAs' threads at launch, and every return but the exits.
  BOOST_TEST(b.reg.value("sm0.cvt.threads_written") == threads);
}
