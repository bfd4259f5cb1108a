#define BOOST_TEST_MODULE calls
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../common/simtlab_process.h"
#include "runtime/device.h"
#include "util/error.h"

// Indirect calls through function pointers and recursion (data/calls_kernel.cu,
// compiled by nvcc 13), in functional mode in this process and on the timing
// SMs (PDOM, Fermi, VWS gangs) through `simtlab run --manifest` (one SystemC
// simulation per process), against CPU references.

using namespace simt;

namespace {

const char* kPtxFile = SIMT_SOURCE_DIR "/tests/runtime/data/calls_kernel.ptx";
constexpr uint32_t kN = 200;

float f32_max(float a, float b) { return a > b ? a : b; }

// Deterministic inputs.
struct Inputs {
  std::vector<float> a, b;
  std::vector<int32_t> which, v;
  Inputs() {
    uint32_t x = 12345;
    auto next = [&] { return x = x * 1103515245u + 12345u, (x >> 8) & 0xffff; };
    for (uint32_t i = 0; i < kN; ++i) {
      a.push_back(static_cast<float>(next()) / 4096.0f - 8.0f);
      b.push_back(static_cast<float>(next()) / 4096.0f - 8.0f);
      which.push_back(static_cast<int32_t>(next() % 30));
      v.push_back(static_cast<int32_t>(next() % 40));
    }
  }
};

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int walk(int d, int32_t* trace) {
  int s = d > 0 ? walk(d - 1, trace) : 0;
  s += d * 100 + ((d * 3) & 7);
  trace[d] = s;
  return s;
}

std::vector<float> apply_reference(const Inputs& in) {
  std::vector<float> r;
  for (uint32_t i = 0; i < kN; ++i) {
    const int k = in.which[i] % 3;
    r.push_back(k == 0 ? in.a[i] + in.b[i] : k == 1 ? in.a[i] * in.b[i] : f32_max(in.a[i], in.b[i]));
  }
  return r;
}
std::vector<float> pick_reference(const Inputs& in) {
  std::vector<float> r;
  for (uint32_t i = 0; i < kN; ++i) r.push_back((i & 1) ? in.a[i] + in.b[i] : in.a[i] * in.b[i]);
  return r;
}
// recurse's out[] and trace[].
std::vector<int32_t> recurse_reference(const Inputs& in, std::vector<int32_t>& trace) {
  std::vector<int32_t> r;
  trace.assign(8 * kN, 0);
  for (uint32_t i = 0; i < kN; ++i) {
    const int x = in.v[i];
    r.push_back(fib(x % 16) + walk(x % 8, &trace[8 * i]) + (x % 2 == 0 ? 1000 : 0));
  }
  return r;
}

namespace fs = std::filesystem;

template <typename T>
void write_bin(const fs::path& p, const std::vector<T>& v) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(v.data()),
                                           static_cast<std::streamsize>(v.size() * sizeof(T)));
}
template <typename T>
std::vector<T> read_bin(const fs::path& p) {
  const std::string bytes = test::slurp(p);
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

// A manifest running apply, pick and recurse; inputs beside it.
fs::path write_manifest(const Inputs& in) {
  const fs::path d = fs::temp_directory_path() / ("simtlab_calls_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  write_bin(d / "a.bin", in.a);
  write_bin(d / "b.bin", in.b);
  write_bin(d / "w.bin", in.which);
  write_bin(d / "v.bin", in.v);
  const std::string n = std::to_string(kN), grid = R"("grid": 4, "block": 64, )";
  std::ofstream(d / "m.json") << R"({"ptx": ")" << kPtxFile << R"(",
  "buffers": [
    {"name": "a", "type": "f32", "count": )" << n << R"(, "init": {"kind": "file", "path": "a.bin"}},
    {"name": "b", "type": "f32", "count": )" << n << R"(, "init": {"kind": "file", "path": "b.bin"}},
    {"name": "w", "type": "i32", "count": )" << n << R"(, "init": {"kind": "file", "path": "w.bin"}},
    {"name": "v", "type": "i32", "count": )" << n << R"(, "init": {"kind": "file", "path": "v.bin"}},
    {"name": "apply", "type": "f32", "count": )" << n << R"(},
    {"name": "pick", "type": "f32", "count": )" << n << R"(},
    {"name": "rec", "type": "i32", "count": )" << n << R"(},
    {"name": "trace", "type": "i32", "count": )" << 8 * kN << R"(}],
  "launches": [
    {"kernel": "apply", )" << grid << R"("args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "apply"},
                                              {"buffer": "w"}, {"i32": )" << n << R"(}]},
    {"kernel": "pick", )" << grid << R"("args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "pick"}, {"i32": )"
                         << n << R"(}]},
    {"kernel": "recurse", )" << grid << R"("args": [{"buffer": "v"}, {"buffer": "rec"}, {"buffer": "trace"},
                                                {"i32": )" << n << R"(}]}],
  "outputs": [{"buffer": "apply", "path": "apply.bin"}, {"buffer": "pick", "path": "pick.bin"},
              {"buffer": "rec", "path": "rec.bin"}, {"buffer": "trace", "path": "trace.bin"}]})";
  return d;
}

}  // namespace

BOOST_AUTO_TEST_CASE(functional_mode_calls_through_pointers_and_recurses) {
  runtime::Device dev;
  runtime::Module& m = dev.load_ptx_file(kPtxFile);
  const Inputs in;
  const uint64_t a = dev.upload(in.a), b = dev.upload(in.b), w = dev.upload(in.which), v = dev.upload(in.v);
  const uint64_t out = dev.malloc(4 * kN), trace = dev.malloc(4 * 8 * kN);
  runtime::KernelArgs args;
  args.push<uint64_t>(a).push<uint64_t>(b).push<uint64_t>(out).push<uint64_t>(w).push<int32_t>(kN);
  dev.launch(m, "apply", {{4, 1, 1}}, {{64, 1, 1}}, args);
  BOOST_TEST(dev.download<float>(out, kN) == apply_reference(in), boost::test_tools::per_element());
  runtime::KernelArgs pargs;
  pargs.push<uint64_t>(a).push<uint64_t>(b).push<uint64_t>(out).push<int32_t>(kN);
  dev.launch(m, "pick", {{4, 1, 1}}, {{64, 1, 1}}, pargs);
  BOOST_TEST(dev.download<float>(out, kN) == pick_reference(in), boost::test_tools::per_element());
  dev.memset(trace, 0, 4 * 8 * kN);
  runtime::KernelArgs rargs;
  rargs.push<uint64_t>(v).push<uint64_t>(out).push<uint64_t>(trace).push<int32_t>(kN);
  dev.launch(m, "recurse", {{4, 1, 1}}, {{64, 1, 1}}, rargs);
  std::vector<int32_t> want_trace;
  BOOST_TEST(dev.download<int32_t>(out, kN) == recurse_reference(in, want_trace), boost::test_tools::per_element());
  BOOST_TEST(dev.download<int32_t>(trace, 8 * kN) == want_trace, boost::test_tools::per_element());
}

// The timing SMs: a divergent indirect call splits the warp per target, and a
// recursive call from one call site must not reconverge with its caller
// (ptx::kReturnTag); VWS gangs hold member warps at different depths.
BOOST_AUTO_TEST_CASE(timing_mode_calls_through_pointers_and_recurses) {
  const Inputs in;
  const fs::path d = write_manifest(in);
  std::vector<int32_t> want_trace;
  const std::vector<int32_t> want_rec = recurse_reference(in, want_trace);
  for (const std::string config : {"", "fermi-gtx480.toml", "e-vws.toml", "i-vws.toml", "ws4.toml"}) {
    BOOST_TEST_CONTEXT("config " << (config.empty() ? "built-in" : config)) {
      const std::string cfg = config.empty() ? "" : " --config " SIMT_SOURCE_DIR "/configs/" + config;
      const fs::path out = d / ("out_" + std::to_string(config.size()) + config);
      fs::create_directories(out);
      const test::ProcessRun r = test::run_simtlab(
          "run --quiet --mode timing --manifest " + (d / "m.json").string() + " --out-dir " + out.string() + cfg, out);
      BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
      BOOST_TEST(read_bin<float>(out / "apply.bin") == apply_reference(in), boost::test_tools::per_element());
      BOOST_TEST(read_bin<float>(out / "pick.bin") == pick_reference(in), boost::test_tools::per_element());
      BOOST_TEST(read_bin<int32_t>(out / "rec.bin") == want_rec, boost::test_tools::per_element());
      BOOST_TEST(read_bin<int32_t>(out / "trace.bin") == want_trace, boost::test_tools::per_element());
    }
  }
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(narrow_and_random_warps_recurse_too) {
  for (uint32_t ws : {8u, 64u}) {
    runtime::DeviceOptions o;
    o.warp_size = ws;
    runtime::Device dev(o);
    runtime::Module& m = dev.load_ptx_file(kPtxFile);
    const uint64_t out = dev.malloc(4 * 64);  // results, then the sink stores
    runtime::KernelArgs args;
    args.push<uint64_t>(out).push<int32_t>(37);
    dev.launch(m, "deep", {{1, 1, 1}}, {{32, 1, 1}}, args);
    for (int32_t d : dev.download<int32_t>(out, 32)) BOOST_TEST(d == 37, "warp size " << ws);
  }
  runtime::DeviceOptions o;
  o.grouping = runtime::Grouping::Random;
  o.grouping_seed = 7;
  runtime::Device dev(o);
  runtime::Module& m = dev.load_ptx_file(kPtxFile);
  const Inputs in;
  const uint64_t v = dev.upload(in.v), out = dev.malloc(4 * kN), trace = dev.malloc(4 * 8 * kN);
  runtime::KernelArgs args;
  args.push<uint64_t>(v).push<uint64_t>(out).push<uint64_t>(trace).push<int32_t>(kN);
  dev.launch(m, "recurse", {{4, 1, 1}}, {{64, 1, 1}}, args);
  const std::vector<int32_t> got = dev.download<int32_t>(out, kN);
  std::vector<int32_t> scratch(8);
  for (uint32_t i = 0; i < kN; ++i) {
    const int x = in.v[i];
    BOOST_TEST(got[i] == fib(x % 16) + walk(x % 8, scratch.data()) + (x % 2 == 0 ? 1000 : 0), "random " << i);
  }
}

BOOST_AUTO_TEST_CASE(too_deep_recursion_is_a_kernel_fault) {
  runtime::DeviceOptions o;
  o.call_stack_bytes = 1024;
  runtime::Device dev(o);
  runtime::Module& m = dev.load_ptx_file(kPtxFile);
  const uint64_t out = dev.malloc(4 * 64);
  runtime::KernelArgs shallow;
  shallow.push<uint64_t>(out).push<int32_t>(3);
  dev.launch(m, "deep", {{1, 1, 1}}, {{32, 1, 1}}, shallow);
  BOOST_TEST(dev.download<int32_t>(out, 1)[0] == 3);
  runtime::KernelArgs deep;
  deep.push<uint64_t>(out).push<int32_t>(100000);
  try {
    dev.launch(m, "deep", {{1, 1, 1}}, {{32, 1, 1}}, deep);
    BOOST_FAIL("expected a call stack overflow");
  } catch (const Error& e) {
    const std::string what = e.what();
    BOOST_TEST((e.code() == ExitCode::KernelFault));
    BOOST_TEST(what.find("call stack overflow: calling '_Z5depthiPVi' again") != std::string::npos, what);
    BOOST_TEST(what.find("1024-byte call stack") != std::string::npos, what);
    BOOST_TEST(what.find("--call-stack") != std::string::npos, what);
  }
}

BOOST_AUTO_TEST_CASE(a_call_through_a_bad_pointer_is_a_kernel_fault) {
  const char* ptx = R"(.version 8.0
.target sm_75
.address_size 64
.func (.param .b32 r) f(.param .b32 a)
{
  st.param.b32 [r], 1;
  ret;
}
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  {
  .param .b32 param0;
  .param .b32 retval0;
  proto: .callprototype (.param .b32 _) _ (.param .b32 _);
  call (retval0), %rd1, (param0), proto;
  }
  ret;
}
)";
  for (const uint64_t target : {uint64_t{0x3039}, uint64_t{0}}) {
    runtime::Device dev;
    runtime::Module& m = dev.load_ptx(ptx, "bad_pointer.ptx");
    runtime::KernelArgs args;
    args.push<uint64_t>(target);
    try {
      dev.launch(m, "k", {{1, 1, 1}}, {{32, 1, 1}}, args);
      BOOST_FAIL("expected a fault");
    } catch (const Error& e) {
      const std::string what = e.what();
      BOOST_TEST((e.code() == ExitCode::KernelFault));
      BOOST_TEST(what.find("bad_pointer.ptx") != std::string::npos, what);
      BOOST_TEST(what.find("indirect call to 0x") != std::string::npos, what);
      BOOST_TEST(what.find("not the address of a function") != std::string::npos, what);
    }
  }
}
