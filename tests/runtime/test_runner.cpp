#define BOOST_TEST_MODULE functional_runner
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>

#include "runtime/device.h"
#include "util/error.h"

using namespace simt;
using runtime::Device;
using runtime::DeviceOptions;
using runtime::Grouping;
using runtime::KernelArgs;

namespace {

const char* kHeader = ".version 8.0\n.target sm_75\n.address_size 64\n";

// Data-dependent loop with an if/else inside, then a second if: nested
// divergence and reconvergence.
const char* kDiverge = R"(
.visible .entry diverge(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mov.u32 %r6, 0;
  mov.u32 %r7, 0;
  and.b32 %r8, %r5, 7;
LOOP:
  setp.ge.u32 %p2, %r7, %r8;
  @%p2 bra AFTER;
  and.b32 %r9, %r7, 1;
  setp.eq.u32 %p3, %r9, 0;
  @%p3 bra EVEN;
  add.u32 %r6, %r6, 3;
  bra.uni NEXT;
EVEN:
  mul.lo.u32 %r6, %r6, 2;
  add.u32 %r6, %r6, 1;
NEXT:
  add.u32 %r7, %r7, 1;
  bra.uni LOOP;
AFTER:
  rem.u32 %r10, %r5, 3;
  setp.ne.u32 %p1, %r10, 0;
  @%p1 bra STORE;
  add.u32 %r6, %r6, 100;
STORE:
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r6;
DONE:
  ret;
}
)";

uint32_t diverge_ref(uint32_t gid) {
  uint32_t acc = 0;
  for (uint32_t i = 0; i < (gid & 7); ++i) acc = (i & 1) ? acc + 3 : acc * 2 + 1;
  return gid % 3 == 0 ? acc + 100 : acc;
}

// Reverses each CTA's slice through shared memory: wrong without the barrier.
const char* kReverse = R"(
.visible .entry reverse(.param .u64 data)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 buf[256];
  ld.param.u64 %rd1, [data];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %ctaid.x;
  mad.lo.s32 %r4, %r3, %r2, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r5, [%rd3];
  mov.u32 %r6, buf;
  shl.b32 %r7, %r1, 2;
  add.s32 %r7, %r6, %r7;
  st.shared.u32 [%r7], %r5;
  bar.sync 0;
  sub.s32 %r5, %r2, %r1;
  sub.s32 %r5, %r5, 1;
  shl.b32 %r5, %r5, 2;
  add.s32 %r5, %r6, %r5;
  ld.shared.u32 %r5, [%r5];
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

// Warp 0 waits at barrier 0, warp 1 at barrier 1: neither completes.
const char* kDeadlock = R"(
.visible .entry deadlock()
{
  .reg .pred %p1;
  .reg .b32 %r1;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra A;
  bar.sync 1;
  bra.uni E;
A:
  bar.sync 0;
E:
  ret;
}
)";

// Threads that return early do not hold up the barrier of those that stay.
const char* kEarlyExit = R"(
.visible .entry early_exit(.param .u64 out)
{
  .reg .pred %p1;
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 40;
  @%p1 bra OUT;
  bar.sync 0;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
OUT:
  ret;
}
)";

// A callee with two returns on divergent paths.
const char* kCall = R"(
.func (.param .b32 ret) pick(.param .b32 x)
{
  .reg .pred %p1;
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [x];
  setp.gt.u32 %p1, %r1, 10;
  @%p1 bra BIG;
  add.u32 %r2, %r1, 1000;
  st.param.b32 [ret], %r2;
  ret;
BIG:
  mul.lo.u32 %r2, %r1, 2;
  st.param.b32 [ret], %r2;
  ret;
}
.visible .entry caller(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  .param .b32 retval0;
  call.uni (retval0), pick, (param0);
  ld.param.b32 %r2, [retval0];
  }
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

const char* kStore = R"(
.visible .entry store(.param .u64 out, .param .u32 off)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r5, [off];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  cvt.u64.u32 %rd2, %r5;
  add.s64 %rd3, %rd3, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";

// __syncthreads_count/_or/_and: bar.red over every fourth thread.
const char* kBarRed = R"(
.visible .entry red(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  bar.red.popc.u32 %r3, 0, %p1;
  bar.red.or.pred %p2, 0, %p1;
  bar.red.and.pred %p3, 0, %p1;
  selp.u32 %r4, 1, 0, %p2;
  selp.u32 %r5, 1, 0, %p3;
  mul.wide.u32 %rd2, %r1, 12;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  st.global.u32 [%rd3+4], %r4;
  st.global.u32 [%rd3+8], %r5;
  ret;
}
)";

const char* kTrap = R"(
.visible .entry boom()
{
  trap;
}
)";

std::vector<uint32_t> run_diverge(DeviceOptions o, uint32_t n) {
  Device dev(o);
  auto& m = dev.load_ptx(std::string(kHeader) + kDiverge, "diverge.ptx");
  uint64_t out = dev.malloc(n * 4);
  KernelArgs a;
  a.push<uint64_t>(out).push<uint32_t>(n);
  dev.launch(m, "diverge", {{(n + 63) / 64, 1, 1}}, {{64, 1, 1}}, a);
  return dev.download<uint32_t>(out, n);
}

std::string fault_message(const std::function<void()>& f, ExitCode want) {
  try {
    f();
  } catch (const Error& e) {
    BOOST_TEST(static_cast<int>(e.code()) == static_cast<int>(want), e.what());
    return e.what();
  }
  BOOST_ERROR("no error raised");
  return "";
}

// Loads `ptx` (header added), runs `kernel` with one argument: a fresh
// buffer of `out_words` u32 (zeroed), and returns the buffer.
std::vector<uint32_t> run_with_output(const DeviceOptions& o, const char* ptx, const std::string& kernel,
                                      uint32_t grid, uint32_t block, size_t out_words,
                                      uint32_t dynamic_shared = 0) {
  Device dev(o);
  auto& m = dev.load_ptx(std::string(kHeader) + ptx, kernel + ".ptx");
  uint64_t d = dev.malloc(out_words * 4);
  KernelArgs a;
  a.push<uint64_t>(d);
  dev.launch(m, kernel, {{grid, 1, 1}}, {{block, 1, 1}}, a, dynamic_shared);
  return dev.download<uint32_t>(d, out_words);
}

}  // namespace

BOOST_AUTO_TEST_CASE(nested_divergence_gives_reference_results) {
  const uint32_t n = 1000;
  auto got = run_diverge({}, n);
  for (uint32_t i = 0; i < n; ++i) BOOST_TEST_REQUIRE(got[i] == diverge_ref(i), "gid " << i);
}

BOOST_AUTO_TEST_CASE(results_do_not_depend_on_warp_size_or_grouping) {
  const uint32_t n = 700;
  auto base = run_diverge({}, n);
  for (uint32_t ws : {4u, 8u, 16u, 64u}) {
    DeviceOptions o;
    o.warp_size = ws;
    BOOST_TEST((run_diverge(o, n) == base), "warp size " << ws);
  }
  for (uint64_t seed : {1u, 2u, 3u}) {
    DeviceOptions o;
    o.grouping = Grouping::Random;
    o.grouping_seed = seed;
    BOOST_TEST((run_diverge(o, n) == base), "random grouping seed " << seed);
  }
}

BOOST_AUTO_TEST_CASE(divergence_costs_warp_instructions) {
  // The same kernel issues more warp instructions per thread instruction
  // when warps are wide and threads disagree.
  Device dev;
  auto& m = dev.load_ptx(std::string(kHeader) + kDiverge, "diverge.ptx");
  uint64_t out = dev.malloc(256 * 4);
  KernelArgs a;
  a.push<uint64_t>(out).push<uint32_t>(256);
  auto st = dev.launch(m, "diverge", {{4, 1, 1}}, {{64, 1, 1}}, a);
  BOOST_TEST(st.ctas == 4u);
  BOOST_TEST(st.thread_instructions < st.warp_instructions * 32);
  BOOST_TEST(st.thread_instructions > st.warp_instructions);
}

BOOST_AUTO_TEST_CASE(barrier_orders_shared_memory) {
  for (auto g : {Grouping::Static, Grouping::Random}) {
    DeviceOptions o;
    o.grouping = g;
    Device dev(o);
    auto& m = dev.load_ptx(std::string(kHeader) + kReverse, "reverse.ptx");
    std::vector<uint32_t> in(512);
    for (uint32_t i = 0; i < 512; ++i) in[i] = i * 7 + 1;
    uint64_t d = dev.upload(in);
    KernelArgs a;
    a.push<uint64_t>(d);
    dev.launch(m, "reverse", {{2, 1, 1}}, {{256, 1, 1}}, a);
    auto out = dev.download<uint32_t>(d, 512);
    for (uint32_t c = 0; c < 2; ++c)
      for (uint32_t t = 0; t < 256; ++t) BOOST_TEST_REQUIRE(out[c * 256 + t] == in[c * 256 + 255 - t]);
  }
}

BOOST_AUTO_TEST_CASE(exited_threads_do_not_block_barriers) {
  auto out = run_with_output({}, kEarlyExit, "early_exit", 1, 64, 64);
  for (uint32_t t = 0; t < 64; ++t) BOOST_TEST(out[t] == (t < 40 ? t : 0u));
}

BOOST_AUTO_TEST_CASE(barrier_deadlock_is_reported) {
  Device dev;
  auto& m = dev.load_ptx(std::string(kHeader) + kDeadlock, "deadlock.ptx");
  std::string msg = fault_message([&] { dev.launch(m, "deadlock", {{1, 1, 1}}, {{64, 1, 1}}, KernelArgs{}); },
                                  ExitCode::KernelFault);
  BOOST_TEST(msg.find("barrier deadlock") != std::string::npos, msg);
  BOOST_TEST(msg.find("kernel 'deadlock' CTA (0,0,0)") != std::string::npos, msg);
  // Barriers count whole warps (see functional_runner.cpp): warp 0 waits at
  // barrier 0 and warp 1 at barrier 1.
  BOOST_TEST(msg.find("barrier 0: 32 of 64 threads arrived") != std::string::npos, msg);
  BOOST_TEST(msg.find("barrier 1: 32 of 64 threads arrived") != std::string::npos, msg);
}

// A barrier id from a register, past the 16 barriers a CTA has.
const char* kBadBarrier = R"(
.visible .entry bad_barrier()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 16;
  bar.sync %r1;
  ret;
}
)";

BOOST_AUTO_TEST_CASE(barrier_id_out_of_range_faults_on_both_warp_paths) {
  // Static 32-thread warps take the one-word path, random grouping the general one.
  for (Grouping g : {Grouping::Static, Grouping::Random}) {
    DeviceOptions o;
    o.grouping = g;
    Device dev(o);
    auto& m = dev.load_ptx(std::string(kHeader) + kBadBarrier, "bad_barrier.ptx");
    std::string msg = fault_message([&] { dev.launch(m, "bad_barrier", {{1, 1, 1}}, {{64, 1, 1}}, KernelArgs{}); },
                                    ExitCode::KernelFault);
    BOOST_TEST(msg.find("barrier id 16 out of range (0-15)") != std::string::npos, msg);
    BOOST_TEST(msg.find("kernel 'bad_barrier' CTA (0,0,0)") != std::string::npos, msg);
  }
}

BOOST_AUTO_TEST_CASE(barrier_reductions) {
  auto out = run_with_output({}, kBarRed, "red", 1, 96, 96 * 3);
  for (uint32_t t = 0; t < 96; ++t) {
    BOOST_TEST(out[t * 3] == 24u);     // popc: threads 0, 4, 8, ...
    BOOST_TEST(out[t * 3 + 1] == 1u);  // or
    BOOST_TEST(out[t * 3 + 2] == 0u);  // and
  }
}

// `0` in a vector operand (cuda_bf16.hpp's bf16 -> f32 is `mov.b32 f, {0, h}`).
BOOST_AUTO_TEST_CASE(zero_elements_of_vector_operands) {
  const char* ptx = R"(.visible .entry zpack(.param .u64 out)
{
  .reg .b16 %rs<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r3, %tid.x;
  add.u32 %r1, %r3, 0x3f80;
  cvt.u16.u32 %rs1, %r1;
  mov.b32 %r2, {0, %rs1};
  mul.wide.u32 %rd3, %r3, 8;
  add.s64 %rd2, %rd2, %rd3;
  st.global.v2.u32 [%rd2], {%r2, 0};
  ret;
}
)";
  // Thread t: {0x3f80 + t in the high half, then a 0 over a word of ones}.
  Device dev;
  auto& m = dev.load_ptx(std::string(kHeader) + ptx, "zpack.ptx");
  const uint64_t d = dev.malloc(32 * 8);
  dev.memset(d, 0xff, 32 * 8);
  KernelArgs a;
  a.push<uint64_t>(d);
  dev.launch(m, "zpack", {{1, 1, 1}}, {{32, 1, 1}}, a);
  const std::vector<uint32_t> out = dev.download<uint32_t>(d, 64);
  for (uint32_t t = 0; t < 32; ++t) {
    BOOST_TEST(out[2 * t] == (0x3f80u + t) << 16, "t " << t);
    BOOST_TEST(out[2 * t + 1] == 0u, "t " << t);
  }
}

BOOST_AUTO_TEST_CASE(divergent_returns_in_a_callee) {
  for (uint32_t ws : {4u, 32u}) {
    DeviceOptions o;
    o.warp_size = ws;
    auto out = run_with_output(o, kCall, "caller", 1, 32, 32);
    for (uint32_t t = 0; t < 32; ++t) BOOST_TEST(out[t] == (t > 10 ? t * 2 : t + 1000), "t " << t);
  }
}

BOOST_AUTO_TEST_CASE(out_of_bounds_store_names_cta_thread_pc_and_address) {
  Device dev;
  auto& m = dev.load_ptx(std::string(kHeader) + kStore, "store.ptx");
  uint64_t d = dev.malloc(63 * 4);  // one element short
  KernelArgs a;
  a.push<uint64_t>(d).push<uint32_t>(0);
  std::string msg = fault_message([&] { dev.launch(m, "store", {{2, 1, 1}}, {{32, 1, 1}}, a); },
                                  ExitCode::KernelFault);
  BOOST_TEST(msg.find("kernel 'store' CTA (1,0,0)") != std::string::npos, msg);
  BOOST_TEST(msg.find("thread (31,0,0)") != std::string::npos, msg);
  BOOST_TEST(msg.find("st.global.u32") != std::string::npos, msg);
  std::ostringstream addr;
  addr << std::hex << d + 63 * 4;
  BOOST_TEST(msg.find(addr.str()) != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(misaligned_store_faults) {
  Device dev;
  auto& m = dev.load_ptx(std::string(kHeader) + kStore, "store.ptx");
  uint64_t d = dev.malloc(64 * 4 + 8);
  KernelArgs a;
  a.push<uint64_t>(d).push<uint32_t>(2);
  std::string msg = fault_message([&] { dev.launch(m, "store", {{1, 1, 1}}, {{32, 1, 1}}, a); },
                                  ExitCode::KernelFault);
  BOOST_TEST(msg.find("misaligned") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(trap_faults) {
  Device dev;
  auto& m = dev.load_ptx(std::string(kHeader) + kTrap, "trap.ptx");
  std::string msg = fault_message([&] { dev.launch(m, "boom", {{1, 1, 1}}, {{1, 1, 1}}, KernelArgs{}); },
                                  ExitCode::KernelFault);
  BOOST_TEST(msg.find("trap") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(bad_launches_are_input_errors) {
  Device dev;
  auto& m = dev.load_ptx(std::string(kHeader) + kStore, "store.ptx");
  KernelArgs a;
  a.push<uint64_t>(0).push<uint32_t>(0);
  std::string msg = fault_message([&] { dev.launch(m, "nope", {{1, 1, 1}}, {{1, 1, 1}}, a); }, ExitCode::BadInput);
  BOOST_TEST(msg.find("store") != std::string::npos, msg);  // lists the kernels it has
  KernelArgs short_args;
  short_args.push<uint64_t>(0);
  msg = fault_message([&] { dev.launch(m, "store", {{1, 1, 1}}, {{1, 1, 1}}, short_args); }, ExitCode::BadInput);
  BOOST_TEST(msg.find("arguments do not match") != std::string::npos, msg);
  msg = fault_message([&] { dev.launch(m, "store", {{1, 1, 1}}, {{2048, 1, 1}}, a); }, ExitCode::BadInput);
  BOOST_TEST(msg.find("1024") != std::string::npos, msg);
  msg = fault_message([&] { dev.load_ptx(std::string(kHeader) + ".visible .entry x()\n{\n  frobnicate.u32 %r1;\n}\n", "bad.ptx"); },
                      ExitCode::BadInput);
  BOOST_TEST(msg.find("bad.ptx:6:3") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(device_printf_prints_in_thread_order) {
  std::ostringstream out;
  DeviceOptions o;
  o.printf_out = &out;
  Device dev(o);
  auto& m = dev.load_ptx_file(SIMT_SOURCE_DIR "/tests/runtime/data/printf_kernel.ptx");
  KernelArgs a;
  a.push<int32_t>(10).push<double>(0.5);
  dev.launch(m, "hello", {{1, 1, 1}}, {{4, 1, 1}}, a);
  BOOST_TEST(out.str() == "t=0 v=10 s=0.000 first\nt=2 v=12 s=1.000 other\n");
}

namespace {
// __ballot_sync / __shfl_down_sync over the full 32-thread warp.
const char* kWarpOps = R"(
.visible .entry warp_ops(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  vote.sync.ballot.b32 %r3, %p1, -1;
  shfl.sync.down.b32 %r4|%p2, %r1, 5, 31, -1;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  st.global.u32 [%rd3+4], %r4;
  ret;
}
)";
}  // namespace

BOOST_AUTO_TEST_CASE(warp_synchronous_ops_see_the_whole_32_thread_warp_at_any_warp_size) {
  for (uint32_t ws : {4u, 8u, 16u, 32u, 64u}) {
    for (auto g : {Grouping::Static, Grouping::Random}) {
      DeviceOptions o;
      o.warp_size = ws;
      o.grouping = g;
      auto out = run_with_output(o, kWarpOps, "warp_ops", 1, 64, 128);
      for (uint32_t t = 0; t < 64; ++t) {
        BOOST_TEST(out[2 * t] == 0xaaaaaaaau, "ws " << ws << " t " << t);
        uint32_t lane = t % 32;
        BOOST_TEST(out[2 * t + 1] == (lane + 5 < 32 ? t + 5 : t), "ws " << ws << " t " << t);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(set_and_dynamic_shared_as_nvcc_writes_them) {
  // set.lt.u32.f32 (destination type first) through parser and executor, and
  // an extern .shared array after a static one whose size is not a multiple of 16.
  const char* k = R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 small[20];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  set.lt.u32.f32 %r2, %f1, 0f40000000;
  set.gt.f32.s32 %r3, %r1, 1;
  mov.u32 %r4, dyn;
  shl.b32 %r5, %r1, 2;
  add.s32 %r4, %r4, %r5;
  st.shared.u32 [%r4], %r2;
  ld.shared.u32 %r6, [%r4];
  mov.u32 %r7, small;
  st.shared.u32 [%r7], %r1;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r6;
  st.global.u32 [%rd3+4], %r3;
  ret;
}
)";
  auto out = run_with_output({}, k, "k", 1, 4, 8, 16);  // dyn[] holds exactly 4 words
  const uint32_t one = 0x3f800000u;
  for (uint32_t t = 0; t < 4; ++t) {
    BOOST_TEST(out[2 * t] == (t < 2 ? 0xffffffffu : 0u), "t " << t);
    BOOST_TEST(out[2 * t + 1] == (t > 1 ? one : 0u), "t " << t);
  }
}

BOOST_AUTO_TEST_CASE(pointer_tables_initialised_with_addresses) {
  // Each thread follows one table entry and copies the string it points to:
  // generic($str), generic($str$1)+1, a null entry, and a non-generic const
  // entry $str$1+2. The last two words are names[1] and cnames[0] minus the
  // addresses `mov` gives: the exact relocated values.
  const char* k = R"(
.global .align 1 .b8 $str[3] = {97, 98};
.global .align 1 .b8 $str$1[4] = {99, 100, 101};
.global .align 8 .u64 names[3] = {generic($str), generic($str$1)+1, 0};
.const .align 8 .u64 cnames[1] = {$str$1+2};
.visible .entry names_out(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b16 %rs<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u64 %rd8, $str$1;
  ld.global.u64 %rd9, [names+8];
  sub.s64 %rd9, %rd9, %rd8;
  st.global.u64 [%rd1+32], %rd9;
  ld.const.u64 %rd10, [cnames];
  sub.s64 %rd10, %rd10, %rd8;
  st.global.u64 [%rd1+40], %rd10;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  setp.eq.u32 %p1, %r1, 3;
  @%p1 bra CONST;
  mov.u64 %rd4, names;
  add.s64 %rd4, %rd4, %rd2;
  ld.global.u64 %rd5, [%rd4];
  bra.uni COPY;
CONST:
  ld.const.u64 %rd6, [cnames];
  cvta.global.u64 %rd5, %rd6;
COPY:
  setp.eq.u64 %p2, %rd5, 0;
  @%p2 bra DONE;
LOOP:
  ld.u8 %rs1, [%rd5];
  st.global.u8 [%rd3], %rs1;
  add.s64 %rd5, %rd5, 1;
  add.s64 %rd3, %rd3, 1;
  setp.ne.u16 %p2, %rs1, 0;
  @%p2 bra LOOP;
DONE:
  ret;
}
)";
  Device dev;
  auto& m = dev.load_ptx(std::string(kHeader) + k, "names.ptx");
  uint64_t d = dev.malloc(48);
  dev.memset(d, 0xee, 48);
  KernelArgs a;
  a.push<uint64_t>(d);
  dev.launch(m, "names_out", {{1, 1, 1}}, {{4, 1, 1}}, a);
  auto out = dev.download<uint8_t>(d, 48);
  std::vector<uint8_t> want(48, 0xee);
  const char* strs[4] = {"ab", "de", nullptr, "e"};
  for (int t = 0; t < 4; ++t)
    if (strs[t])
      for (size_t i = 0; i <= std::strlen(strs[t]); ++i) want[8 * t + i] = static_cast<uint8_t>(strs[t][i]);
  for (int i = 32; i < 48; ++i) want[i] = 0;
  want[32] = 1;  // names[1] = $str$1 + 1
  want[40] = 2;  // cnames[0] = $str$1 + 2
  BOOST_TEST(out == want, boost::test_tools::per_element());

  // nvcc's own form (tests/ptx/data/addr_init.cu): names[] = {"ab", "cde"}.
  auto& nv = dev.load_ptx_file(std::string(SIMT_SOURCE_DIR) + "/tests/ptx/data/addr_init.ptx");
  uint64_t o = dev.malloc(8);
  dev.memset(o, 0xee, 8);
  KernelArgs b;
  b.push<uint64_t>(o);
  dev.launch(nv, "_Z10copy_namesPc", {{1, 1, 1}}, {{1, 1, 1}}, b);
  auto s = dev.download<char>(o, 6);
  BOOST_TEST(std::string(s.data(), 6) == std::string("abcde\0", 6));

  // Only .global/.const variables have one address; a 32-bit slot cannot hold a device address.
  uint64_t before = dev.memory().bytes_allocated();
  std::string msg = fault_message(
      [&] { dev.load_ptx(std::string(kHeader) + ".shared .align 8 .u64 s[2];\n.global .u64 p = generic(s)+8;\n", "sh.ptx"); },
      ExitCode::BadInput);
  BOOST_TEST(msg.find("sh.ptx:5: initialiser of 'p' takes the address of .shared variable 's'") != std::string::npos, msg);
  msg = fault_message(
      [&] { dev.load_ptx(std::string(kHeader) + ".global .u32 g;\n.global .u32 p = generic(g);\n", "narrow.ptx"); },
      ExitCode::BadInput);
  BOOST_TEST(msg.find("narrow.ptx:5: initialiser of 'p' needs the address of 'g' in 32 bits") != std::string::npos, msg);
  BOOST_TEST(dev.memory().bytes_allocated() == before);  // failed loads leave nothing allocated
}
