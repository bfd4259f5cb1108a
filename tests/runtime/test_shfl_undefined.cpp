#define BOOST_TEST_MODULE shfl_undefined
#include <boost/test/unit_test.hpp>

#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "runtime/device.h"
#include "runtime/run_report.h"
#include "util/error.h"

using namespace simt;

namespace {

// The last warp of NVIDIA's reduction sample (reduce7, shuffle path), reduced
// to its core: lanes 0..7 hold tid + 1 and sum it with __shfl_down_sync(0xff,
// v, 16 .. 1); lanes 8..31 wrote v as well, then left. The right answer is 36.
const char* kPtx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry red(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, 1;
  setp.ge.u32 %p1, %r1, 8;
  @%p1 bra DONE;
  shfl.sync.down.b32 %r3, %r2, 16, 31, 255;
  add.s32 %r2, %r2, %r3;
  shfl.sync.down.b32 %r3, %r2, 8, 31, 255;
  add.s32 %r2, %r2, %r3;
  shfl.sync.down.b32 %r3, %r2, 4, 31, 255;
  add.s32 %r2, %r2, %r3;
  shfl.sync.down.b32 %r3, %r2, 2, 31, 255;
  add.s32 %r2, %r2, %r3;
  shfl.sync.down.b32 %r3, %r2, 1, 31, 255;
  add.s32 %r2, %r2, %r3;
  setp.ne.s32 %p2, %r1, 0;
  @%p2 bra DONE;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r2;
DONE:
  ret;
}
)";

struct Result {
  uint32_t sum = 0;
  uint64_t reads = 0;
  nlohmann::json report;
};

Result run(runtime::Mode mode, const std::string& policy) {
  auto machine = std::make_shared<gpu::MachineConfig>();
  config::ParamRegistry reg;
  machine->bind(reg);
  reg.set("func.shfl_undefined", policy, "--set");
  machine->finalize();
  runtime::DeviceOptions o;
  o.mode = mode;
  o.machine = machine;
  runtime::Device dev(o);
  const uint64_t out = dev.malloc(4);
  dev.memset(out, 0, 4);
  runtime::Module& m = dev.load_ptx(kPtx, "red.ptx");
  runtime::KernelArgs args;
  args.push<uint64_t>(out);
  Result r;
  r.reads = dev.launch(m, "red", {{1, 1, 1}}, {{32, 1, 1}}, args).shfl_undefined_reads;
  r.sum = dev.download<uint32_t>(out, 1)[0];
  runtime::RunInfo info;
  info.mode = mode == runtime::Mode::Timing ? "timing" : "functional";
  r.report = runtime::run_report(dev, info, reg.to_json());
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(policy_is_a_machine_parameter_with_zero_by_default) {
  gpu::MachineConfig c;
  BOOST_TEST(c.shfl_undefined == "zero");
  config::ParamRegistry reg;
  c.bind(reg);
  BOOST_CHECK_THROW(reg.set("func.shfl_undefined", "garbage", "--set"), Error);
}

BOOST_AUTO_TEST_CASE(functional_mode_honours_each_policy_and_counts_reads) {
  // 8 lanes read a non-member at offsets 16 and 8, lanes 4..7 at 4, 6..7 at 2, lane 7 at 1.
  const uint64_t expected_reads = 8 + 8 + 4 + 2 + 1;
  const Result zero = run(runtime::Mode::Functional, "zero");
  BOOST_TEST(zero.sum == 36u);
  BOOST_TEST(zero.reads == expected_reads);
  BOOST_TEST(zero.report["shfl_undefined_reads"].get<uint64_t>() == expected_reads);
  BOOST_TEST(zero.report["kernels"][0]["shfl_undefined_reads"].get<uint64_t>() == expected_reads);
  const Result self = run(runtime::Mode::Functional, "self");
  BOOST_TEST(self.sum != 36u);  // each out-of-group step adds the reader's own value again
  BOOST_TEST(self.reads == expected_reads);
  const Result source = run(runtime::Mode::Functional, "source");
  BOOST_TEST(source.sum != 36u);  // lanes 8..31 still hold tid + 1
}

BOOST_AUTO_TEST_CASE(timing_mode_uses_the_same_policy_and_counter) {
  const Result zero = run(runtime::Mode::Timing, "zero");
  BOOST_TEST(zero.sum == 36u);
  BOOST_TEST(zero.reads == 23u);
  BOOST_TEST(zero.report["shfl_undefined_reads"].get<uint64_t>() == 23u);
}
