// The crossbar has a third source port per SM for cores with a texture
// cache (the SIMT and VWS SMs: L1I, L1D, L1T of SM i at 3i, 3i+1, 3i+2) and
// two for the VGIW core, which has none; every port is bound (the world
// elaborates and a kernel runs), and a kernel without texture reads leaves
// the L1T untouched.
#define BOOST_TEST_MODULE tb_texture_ports
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "func/executor.h"
#include "func/global_memory.h"
#include "gpu/core_factory.h"
#include "gpu/gpu.h"
#include "mem/backing_memory.h"
#include "ptx/cfg.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "ptx/register_pressure.h"
#include "sm/sm.h"
#include "vws/vws_sm.h"

namespace {

using namespace simt;

const char* kPtx = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry inc(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  add.u32 %r6, %r5, 1;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r6;
  ret;
}
)";

gpu::MachineConfig machine(const char* core) {
  gpu::MachineConfig cfg;
  cfg.num_sms = 2;
  cfg.technique.core = core;
  if (cfg.technique.core == "vws") {  // slices of 8 lanes
    cfg.sm.issue.warp_size = 8;
    cfg.sm.issue.max_warps = 128;
  }
  cfg.finalize();
  return cfg;
}

// A GPU with its own statistics and memory.
struct World {
  stats::Registry stats;
  gpu::Gpu gpu;
  mem::BackingMemory backing;
  func::GlobalMemory memory;
  World(const char* name, const gpu::MachineConfig& cfg)
      : gpu(name, cfg, stats, nullptr), backing((std::string(name) + "_backing").c_str(), stats, "backing") {
    gpu.memory_socket.bind(backing.socket);
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(crossbar_sources_follow_the_cores_texture_caches) {
  const gpu::MachineConfig simt_cfg = machine("simt"), vws_cfg = machine("vws"), vgiw_cfg = machine("vgiw");
  BOOST_TEST(gpu::has_texture_cache(simt_cfg));
  BOOST_TEST(gpu::has_texture_cache(vws_cfg));
  BOOST_TEST(!gpu::has_texture_cache(vgiw_cfg));
  World simt("simt", simt_cfg), vws("vws", vws_cfg), vgiw("vgiw", vgiw_cfg);
  BOOST_TEST(simt.gpu.crossbar_sources() == 6u);
  BOOST_TEST(vws.gpu.crossbar_sources() == 6u);
  BOOST_TEST(vgiw.gpu.crossbar_sources() == 4u);

  // The SIMT SM's L1T has seed 001 Table 2's shape.
  const auto* sm0 = dynamic_cast<const sm::Sm*>(&simt.gpu.core(0));
  BOOST_TEST_REQUIRE(sm0 != nullptr);
  BOOST_TEST(sm0->l1t.cache().params().size == 32768u);
  BOOST_TEST(sm0->l1t.cache().params().line == 64u);
  BOOST_TEST(sm0->l1t.cache().params().assoc == 16u);
  BOOST_TEST(dynamic_cast<const vws::VwsSm*>(&vws.gpu.core(1)) != nullptr);

  // A kernel on the SIMT GPU (all three elaborate: every port is bound).
  const uint32_t n = 64;
  const uint64_t in = simt.memory.allocate(4 * n), out = simt.memory.allocate(4 * n);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t v = 10 * i;
    simt.memory.write(in + 4 * i, &v, 4);
  }
  simt.gpu.serve_memory(simt.memory);
  const ptx::Module ir = ptx::parse(kPtx, "inc.ptx");
  const ptx::Program prog = ptx::link(ir, "inc", ptx::SymbolAddresses(ir.globals.size(), 0));
  const ptx::Cfg graph(prog);
  const func::Executor exec(prog);
  auto ctx = std::make_shared<sm::KernelContext>();
  ctx->prog = &prog;
  ctx->cfg = &graph;
  ctx->exec = &exec;
  ctx->geom.grid = {{2, 1, 1}};
  ctx->geom.block = {{n / 2, 1, 1}};
  ctx->params.resize(prog.param_bytes, 0);
  std::memcpy(ctx->params.data(), &in, 8);
  std::memcpy(ctx->params.data() + 8, &out, 8);
  ctx->env.global = &simt.memory;
  ctx->code_base = 0x0000'7400'0000'0000ull;
  ctx->regs_per_thread = std::max<uint32_t>(ptx::max_live_registers(prog, graph), 4);
  ctx->launch_id = 1;
  gpu::CtaFootprint fp;
  fp.threads = n / 2;
  fp.regs_per_thread = ctx->regs_per_thread;
  BOOST_TEST(simt.gpu.run_kernel(ctx, fp) > 0u);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = 0;
    simt.memory.read(out + 4 * i, &v, 4);
    BOOST_TEST(v == 10 * i + 1, "element " << i);
  }
  for (const char* sm : {"sm0", "sm1"}) {
    BOOST_TEST(simt.stats.value(std::string(sm) + ".l1d.accesses") > 0u, sm);
    BOOST_TEST(simt.stats.find_counter(std::string(sm) + ".l1t.accesses") != nullptr, sm);
    BOOST_TEST(simt.stats.value(std::string(sm) + ".l1t.accesses") == 0u, sm);
    BOOST_TEST(simt.stats.value(std::string(sm) + ".ldst.tex_requests") == 0u, sm);
  }
  BOOST_TEST(vgiw.stats.find_counter("sm0.l1t.accesses") == nullptr);
}
