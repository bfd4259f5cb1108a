// An idle slice of the VWS SM costs no SystemC activations (issue 12 item
// 13): one CTA of 4 threads is one 4-wide warp on slice 0, so under I-VWS
// slices 1-7 never fetch, decode or execute, and their blocks must never run
// (they sleep until a packet or a request arrives); slice 0's run.
#define BOOST_TEST_MODULE tb_vws_idle_slices
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <memory>

#include "func/executor.h"
#include "func/global_memory.h"
#include "gpu/gpu.h"
#include "mem/backing_memory.h"
#include "ptx/cfg.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "ptx/register_pressure.h"
#include "vws/vws_sm.h"

namespace {

using namespace simt;

const char* kPtx = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry spin(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  mov.u32 %r2, 0;
LOOP:
  sin.approx.f32 %f2, %f1;
  add.f32 %f1, %f1, %f2;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 50;
  @%p1 bra LOOP;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f1;
  ret;
}
)";

}  // namespace

BOOST_AUTO_TEST_CASE(slices_without_warps_never_run) {
  gpu::MachineConfig cfg;
  cfg.technique.core = "vws";
  cfg.sm.issue.warp_size = 4;
  cfg.sm.issue.max_warps = 256;  // 1024 threads in 4-wide warps
  cfg.technique.vws.l1i_ports = 8;
  cfg.finalize();
  stats::Registry stats;
  gpu::Gpu g("gpu", cfg, stats, nullptr);
  mem::BackingMemory backing("backing", stats, "backing");
  g.memory_socket.bind(backing.socket);
  func::GlobalMemory m;
  const uint64_t out = m.allocate(64);
  g.serve_memory(m);

  const ptx::Module ir = ptx::parse(kPtx, "spin.ptx");
  const ptx::Program prog = ptx::link(ir, "spin", ptx::SymbolAddresses(ir.globals.size(), 0));
  const ptx::Cfg graph(prog);
  const func::Executor exec(prog);
  auto ctx = std::make_shared<sm::KernelContext>();
  ctx->prog = &prog;
  ctx->cfg = &graph;
  ctx->exec = &exec;
  ctx->geom.grid = {{1, 1, 1}};
  ctx->geom.block = {{4, 1, 1}};
  ctx->params.resize(prog.param_bytes, 0);
  std::memcpy(ctx->params.data(), &out, 8);
  ctx->env.global = &m;
  ctx->code_base = 0x0000'7400'0000'0000ull;
  ctx->regs_per_thread = std::max<uint32_t>(ptx::max_live_registers(prog, graph), 4);
  ctx->launch_id = 1;
  gpu::CtaFootprint fp;
  fp.threads = 4;
  fp.regs_per_thread = ctx->regs_per_thread;
  const uint64_t cycles = g.run_kernel(ctx, fp);
  BOOST_TEST_MESSAGE("cycles " << cycles);
  BOOST_TEST(cycles > 100u);

  const auto* sm = dynamic_cast<const vws::VwsSm*>(&g.core(0));
  BOOST_TEST_REQUIRE(sm != nullptr);
  BOOST_TEST(sm->slices() == 8u);
  const vws::Slice& busy = *sm->slice[0];
  BOOST_TEST(busy.fetch.activations() > 0u);
  BOOST_TEST(busy.decode.activations() > 0u);
  BOOST_TEST(busy.sp.activations() > 0u);
  BOOST_TEST(busy.sfu.activations() > 0u);
  for (uint32_t k = 1; k < 8; ++k) {
    const vws::Slice& s = *sm->slice[k];
    BOOST_TEST(s.fetch.activations() == 0u, "slice " << k);
    BOOST_TEST(s.decode.activations() == 0u, "slice " << k);
    BOOST_TEST(s.sp.activations() == 0u, "slice " << k);
    BOOST_TEST(s.sfu.activations() == 0u, "slice " << k);
  }
  for (const auto& gang : sm->gang) BOOST_TEST(gang->fetch.activations() == 0u);  // a lone warp is no gang
}
