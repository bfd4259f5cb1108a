#define BOOST_TEST_MODULE tb_foreign_memory
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <memory>

#include "func/address_space.h"
#include "func/executor.h"
#include "gpu/foreign_memories.h"
#include "gpu/gpu.h"
#include "ptx/cfg.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "ptx/register_pressure.h"
#include "util/cycle.h"

// Two GPUs whose memory sockets are bound to platform memories that are not
// ours: one answers only debug transport, the other grants DMI for its whole
// range and relocates its memory (revoking the grant) while the kernel runs.
// A timing-mode launch on each must compute the right values, and the
// platform memories must hold them.
namespace {

using namespace simt;
constexpr uint64_t kBase = func::kGlobalHeapBase;
constexpr uint64_t kSize = 1 << 20;
constexpr uint32_t kN = 300;    // threads (the last CTA is partial)
constexpr uint32_t kIters = 6;  // y = 3*y + x, stored every iteration

const char* kPtx = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry axpy_loop(.param .u64 x, .param .u64 y, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r6, [%rd4];
  mov.u32 %r7, 0;
LOOP:
  ld.global.u32 %r8, [%rd5];
  mad.lo.s32 %r9, %r8, 3, %r6;
  st.global.u32 [%rd5], %r9;
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p2, %r7, 6;
  @%p2 bra LOOP;
DONE:
  ret;
}
)";

uint32_t expected(uint32_t i) {
  const uint32_t x = i * 7 + 1;
  uint32_t y = 1000 + i;
  for (uint32_t k = 0; k < kIters; ++k) y = y * 3 + x;
  return y;
}

struct Kernel {
  ptx::Module ir;
  ptx::Program prog;
  std::unique_ptr<ptx::Cfg> cfg;
  std::unique_ptr<func::Executor> exec;
  Kernel() {
    ir = ptx::parse(kPtx, "axpy_loop.ptx");
    prog = ptx::link(ir, "axpy_loop", ptx::SymbolAddresses(ir.globals.size(), 0));
    cfg = std::make_unique<ptx::Cfg>(prog);
    exec = std::make_unique<func::Executor>(prog);
  }
};

struct Buffers {
  uint64_t x = 0, y = 0;
};

Buffers upload(func::GlobalMemory& m) {
  Buffers b;
  b.x = m.allocate(kN * 4);
  b.y = m.allocate(kN * 4);
  for (uint32_t i = 0; i < kN; ++i) {
    m.store<uint32_t>(b.x + 4 * i, i * 7 + 1);
    m.store<uint32_t>(b.y + 4 * i, 1000 + i);
  }
  return b;
}

uint64_t launch(gpu::Gpu& g, const Kernel& k, func::GlobalMemory& m, const Buffers& b, uint64_t id) {
  auto ctx = std::make_shared<sm::KernelContext>();
  ctx->prog = &k.prog;
  ctx->cfg = k.cfg.get();
  ctx->exec = k.exec.get();
  ctx->geom.grid = {{(kN + 127) / 128, 1, 1}};
  ctx->geom.block = {{128, 1, 1}};
  ctx->params.resize(k.prog.param_bytes, 0);
  std::memcpy(ctx->params.data(), &b.x, 8);
  std::memcpy(ctx->params.data() + 8, &b.y, 8);
  const uint32_t n = kN;
  std::memcpy(ctx->params.data() + 16, &n, 4);
  ctx->env.global = &m;
  ctx->code_base = 0x0000'7400'0000'0000ull;
  ctx->regs_per_thread = std::max<uint32_t>(ptx::max_live_registers(k.prog, *k.cfg), 4);
  ctx->launch_id = id;
  gpu::CtaFootprint fp;
  fp.threads = 128;
  fp.regs_per_thread = ctx->regs_per_thread;
  return g.run_kernel(ctx, fp);
}

// Relocates a DmiMemory at a chosen cycle, from inside the simulation.
struct Relocator : sc_core::sc_module {
  test::DmiMemory& mem;
  sc_core::sc_event at;
  uint64_t when = 0;
  SC_HAS_PROCESS(Relocator);
  Relocator(sc_core::sc_module_name n, test::DmiMemory& m) : sc_module(n), mem(m) {
    SC_METHOD(fire);
    sensitive << at;
    dont_initialize();
  }
  void arm(uint64_t cycles) { at.notify(util::cycles(cycles)); }
  void fire() {
    when = util::now_cycle();
    mem.remap();
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(timing_launch_over_platform_memories) {
  gpu::MachineConfig cfg;
  cfg.num_sms = 2;
  cfg.finalize();
  stats::Registry stats_dbg, stats_dmi;
  gpu::Gpu gpu_dbg("gpu_dbg", cfg, stats_dbg, nullptr);
  gpu::Gpu gpu_dmi("gpu_dmi", cfg, stats_dmi, nullptr);
  test::DebugOnlyMemory dbg("dbg", kBase, kSize, 0xcd);
  test::DmiMemory dmi("dmi", kBase, kSize, 0xcd);
  Relocator relocator("relocator", dmi);
  gpu_dbg.memory_socket.bind(dbg.socket);
  gpu_dmi.memory_socket.bind(dmi.socket);

  Kernel k;
  func::GlobalMemory mem_dbg, mem_dmi;
  gpu_dbg.serve_memory(mem_dbg);
  gpu_dmi.serve_memory(mem_dmi);
  const Buffers b_dbg = upload(mem_dbg);  // before the start of simulation: copied over at start

  // Debug transport only.
  const uint64_t cycles_dbg = launch(gpu_dbg, k, mem_dbg, b_dbg, 0);
  BOOST_TEST(cycles_dbg > 0u);
  bool ok = true;
  for (uint32_t i = 0; i < kN; ++i) {
    ok = ok && dbg.peek<uint32_t>(b_dbg.y + 4 * i) == expected(i);
    ok = ok && mem_dbg.load<uint32_t>(b_dbg.y + 4 * i) == expected(i);
  }
  BOOST_TEST(ok, "debug-transport memory holds y = 3y + x, " << kIters << " times");
  BOOST_TEST(dbg.peek<uint8_t>(b_dbg.y + 4 * kN) == 0xcd);  // past the array: untouched
  BOOST_TEST(stats_dbg.value("memory_port.dmi_grants") == 0u);
  BOOST_TEST(stats_dbg.value("memory_port.debug_writes") >= uint64_t{kN} * kIters);
  BOOST_TEST(dbg.dmi_grants == 0u);

  // DMI, relocated mid-kernel: inputs uploaded now go straight to the platform memory.
  const Buffers b_dmi = upload(mem_dmi);
  BOOST_TEST(dmi.peek<uint32_t>(b_dmi.x + 8) == 2u * 7 + 1);
  const uint64_t start = util::now_cycle();
  relocator.arm(cycles_dbg / 3);
  const uint64_t cycles_dmi = launch(gpu_dmi, k, mem_dmi, b_dmi, 1);
  BOOST_TEST(relocator.when > start);
  BOOST_TEST(relocator.when < start + cycles_dmi, "the memory moved while the kernel ran");
  BOOST_TEST(dmi.remapped);
  ok = true;
  for (uint32_t i = 0; i < kN; ++i) ok = ok && dmi.peek<uint32_t>(b_dmi.y + 4 * i) == expected(i);
  BOOST_TEST(ok, "the relocated memory holds every result");
  ok = true;  // nothing written through the revoked pointer after the move
  for (uint32_t i = 0; i < kN * 4; ++i) ok = ok && dmi.first[b_dmi.y - kBase + i] == 0x5a;
  BOOST_TEST(ok);
  BOOST_TEST(stats_dmi.value("memory_port.dmi_grants") == 2u);
  BOOST_TEST(stats_dmi.value("memory_port.dmi_invalidations") == 1u);
  BOOST_TEST(stats_dmi.value("memory_port.debug_reads") + stats_dmi.value("memory_port.debug_writes") == 0u);
  BOOST_TEST(mem_dmi.checksum() == mem_dbg.checksum());
}
