#define BOOST_TEST_MODULE tb_mma_timing
#include <boost/test/unit_test.hpp>

#include <memory>

#include "common/timing_device.h"
#include "ptx/opcode_table.h"
#include "runtime/device.h"
#include "sm/issue_unit.h"
#include "sm/pipeline_unit.h"
#include "sm/sm.h"
#include "stats/stats.h"

using namespace simt;

namespace {

// A loop of `n` mma.m16n8k16 in a chain: each one's d is the next one's c
// (the loop's own instructions issue while an mma is in flight).
const char* kChain = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .b32 %a<5>;
  .reg .b32 %b<3>;
  .reg .f32 %c<5>;
  .reg .b32 %i;
  .reg .pred %p;
  .reg .b64 %rd1;
  mov.b32 %a1, 0;
  mov.b32 %a2, 0;
  mov.b32 %a3, 0;
  mov.b32 %a4, 0;
  mov.b32 %b1, 0;
  mov.b32 %b2, 0;
  mov.f32 %c1, 0f00000000;
  mov.f32 %c2, 0f00000000;
  mov.f32 %c3, 0f00000000;
  mov.f32 %c4, 0f00000000;
  ld.param.u32 %i, [n];
LOOP:
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%c1, %c2, %c3, %c4}, {%a1, %a2, %a3, %a4}, {%b1, %b2}, {%c1, %c2, %c3, %c4};
  sub.u32 %i, %i, 1;
  setp.ne.u32 %p, %i, 0;
  @%p bra LOOP;
  ld.param.u64 %rd1, [out];
  st.global.f32 [%rd1], %c1;
  ret;
}
)";

}  // namespace

// The defaults (docs): the tensor pipe, latency 32, initiation interval 8;
// the per-opcode table leaves tensor instructions to it.
BOOST_AUTO_TEST_CASE(tensor_pipe_timing) {
  ptx::Instr in;
  BOOST_REQUIRE(ptx::decode_mnemonic("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", in));
  BOOST_TEST((in.cls == ptx::InstrClass::Tensor));
  BOOST_TEST((sm::pipe_of(in.cls) == sm::PipeKind::Tensor));
  BOOST_TEST((sm::OpLatencyTable::group_of(in) == sm::OpLatencyTable::None));
  ptx::Instr dmma;  // f64 does not make it an f64-rate instruction
  BOOST_REQUIRE(ptx::decode_mnemonic("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", dmma));
  BOOST_TEST((sm::OpLatencyTable::group_of(dmma) == sm::OpLatencyTable::None));
  const sm::SmParams defaults;
  BOOST_TEST(defaults.tensor.latency == 32u);
  BOOST_TEST(defaults.tensor.ii == 8u);
  stats::Registry reg;
  sm::PipelineUnit u(defaults.tensor, sm::OpLatencyTable{}, reg, "tensor");  // 32 lanes: one pass per warp
  BOOST_TEST(u.timing_for(in).latency == 32u);
  BOOST_TEST(u.timing_for(in).ii == 8u);
  BOOST_TEST(u.accept(100, in, 0xffffffffull, 32) == 132u);
  BOOST_TEST(!u.can_accept(107));
  BOOST_TEST(u.can_accept(108));
}

// End to end on the default machine: each extra iteration costs the mma's
// latency (the next one waits for the result) plus a few cycles of issue,
// write-back and the loop branch (36 in all, measured; the SP latency, 10,
// would give well under 32).
BOOST_AUTO_TEST_CASE(dependent_mma_chain_takes_the_tensor_latency_each) {
  const runtime::DeviceOptions o = test::default_timing_options();
  runtime::Device dev(o);
  runtime::Module& m = dev.load_ptx(kChain, "chain.ptx");
  const uint64_t out = dev.malloc(4);
  auto run = [&](uint32_t n) {
    runtime::KernelArgs args;
    args.push<uint64_t>(out).push<uint32_t>(n);
    return dev.launch(m, "k", {{1, 1, 1}}, {{32, 1, 1}}, args).cycles;
  };
  run(1);  // warms the caches: both measured runs then start alike
  const uint64_t c1 = run(1), c9 = run(9);
  const uint32_t lat = o.machine->sm.tensor.latency;
  BOOST_TEST(lat == 32u);
  BOOST_TEST(c9 - c1 >= 8u * lat, "k1 " << c1 << " k9 " << c9);
  BOOST_TEST(c9 - c1 <= 8u * (lat + 6), "k1 " << c1 << " k9 " << c9);
}
