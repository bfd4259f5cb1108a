// Device-side malloc/free (issue 35): kernels compiled by nvcc
// (data/device_malloc.cu, its PTX committed beside it) allocate from the
// device heap, write and read their blocks and free them, in functional mode
// and on the timing SM (which executes each instruction when it issues, so
// warps interleave their mallocs). The heap has CUDA's default size unless
// set before the first launch that needs it, returns NULL when exhausted,
// keeps blocks across launches, and a free() of anything but a live block
// is a kernel fault naming the thread and the PC.
#define BOOST_TEST_MODULE device_malloc
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "runtime/device.h"
#include "runtime/manifest.h"
#include "util/error.h"

using namespace simt;

namespace {

const char* kPtxFile = SIMT_SOURCE_DIR "/tests/e2e/data/device_malloc.ptx";

std::shared_ptr<gpu::MachineConfig> machine() {
  auto m = std::make_shared<gpu::MachineConfig>();
  config::ParamRegistry reg;
  m->bind(reg);
  m->finalize();
  return m;
}

// round_trip(out, n) on grid x block threads: each sums the n ints it wrote.
void check_round_trip(runtime::Device& dev, runtime::Module& m, uint32_t grid, uint32_t block, uint32_t n) {
  const uint32_t threads = grid * block;
  const uint64_t out = dev.malloc(4 * threads);
  runtime::KernelArgs a;
  a.push<uint64_t>(out).push<uint32_t>(n);
  dev.launch(m, "round_trip", {{grid, 1, 1}}, {{block, 1, 1}}, a);
  const std::vector<int32_t> got = dev.download<int32_t>(out, threads);
  for (uint32_t i = 0; i < threads; ++i) {
    int32_t want = 0;
    for (uint32_t k = 0; k < n; ++k) want += static_cast<int32_t>(i * 1000 + k);
    BOOST_TEST(got[i] == want, "thread " << i);
  }
  BOOST_TEST(dev.heap().blocks_in_use() == 0u);  // every block came back
  dev.free(out);
}

// keep(ptrs, bytes) on one warp of `threads`: the addresses malloc returned.
std::vector<uint64_t> keep(runtime::Device& dev, runtime::Module& m, uint64_t ptrs, uint32_t threads, uint64_t bytes) {
  runtime::KernelArgs a;
  a.push<uint64_t>(ptrs).push<uint64_t>(bytes);
  dev.launch(m, "keep", {{1, 1, 1}}, {{threads, 1, 1}}, a);
  return dev.download<uint64_t>(ptrs, threads);
}

// With a 64 KiB heap, 8 threads asking for 16 KiB each: the first four get
// distinct aligned blocks inside the heap, the others NULL. The blocks and
// what was written into them outlive the launch; release() frees them
// (free(NULL) for the others) and the same requests then succeed again.
void check_exhaustion_and_persistence(runtime::Device& dev, runtime::Module& m) {
  const uint64_t ptrs = dev.malloc(8 * 8), out = dev.malloc(4 * 8);
  const std::vector<uint64_t> first = keep(dev, m, ptrs, 8, 16 << 10);
  const func::DeviceHeap& h = dev.heap();
  std::set<uint64_t> distinct;
  for (uint32_t i = 0; i < 4; ++i) {
    BOOST_TEST(first[i] != 0u, "thread " << i);
    BOOST_TEST(first[i] % 16 == 0u, "thread " << i);
    BOOST_TEST((first[i] >= h.base() && first[i] + (16 << 10) <= h.base() + h.size()), "thread " << i);
    distinct.insert(first[i]);
  }
  BOOST_TEST(distinct.size() == 4u);
  for (uint32_t i = 4; i < 8; ++i) BOOST_TEST(first[i] == 0u, "thread " << i << ": the heap is exhausted");
  BOOST_TEST(h.blocks_in_use() == 4u);

  runtime::KernelArgs r;
  r.push<uint64_t>(ptrs).push<uint64_t>(out);
  dev.launch(m, "release", {{1, 1, 1}}, {{8, 1, 1}}, r);
  const std::vector<int32_t> seen = dev.download<int32_t>(out, 8);
  for (int32_t i = 0; i < 8; ++i) BOOST_TEST(seen[i] == (i < 4 ? i * 7 + 3 : -1), "thread " << i);
  BOOST_TEST(h.blocks_in_use() == 0u);

  const std::vector<uint64_t> again = keep(dev, m, ptrs, 8, 16 << 10);
  BOOST_TEST(again == first, boost::test_tools::per_element());  // the freed space was reused
  dev.launch(m, "release", {{1, 1, 1}}, {{8, 1, 1}}, r);
  BOOST_TEST(h.blocks_in_use() == 0u);
  dev.free(ptrs);
  dev.free(out);
}

// bad_free(ptrs, who): thread `who` frees ptrs[0] + 4.
void expect_bad_free(runtime::Device& dev, runtime::Module& m, uint64_t freed, uint32_t who) {
  const uint64_t ptrs = dev.upload(std::vector<uint64_t>{freed - 4});
  runtime::KernelArgs a;
  a.push<uint64_t>(ptrs).push<uint32_t>(who);
  try {
    dev.launch(m, "bad_free", {{1, 1, 1}}, {{32, 1, 1}}, a);
    BOOST_FAIL("expected a kernel fault");
  } catch (const Error& e) {
    const std::string what = e.what();
    BOOST_TEST((e.code() == ExitCode::KernelFault));
    BOOST_TEST(what.find("kernel 'bad_free'") != std::string::npos, what);
    BOOST_TEST(what.find("thread (" + std::to_string(who) + ",0,0)") != std::string::npos, what);
    BOOST_TEST(what.find("device_malloc.ptx:") != std::string::npos, what);  // the call's line
    BOOST_TEST(what.find("free,") != std::string::npos, what);                // and its text
    BOOST_TEST(what.find("not a live block from device-side malloc") != std::string::npos, what);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(functional_mode_threads_malloc_write_read_and_free) {
  runtime::Device dev;
  runtime::Module& m = dev.load_ptx_file(kPtxFile);
  BOOST_TEST(!dev.heap().reserved());  // loading does not allocate the heap; the first launch does
  BOOST_TEST(dev.malloc_heap_size() == 8u << 20);
  check_round_trip(dev, m, 4, 64, 10);
  BOOST_TEST(dev.heap().reserved());
  BOOST_TEST(dev.heap().size() == 8u << 20);
  BOOST_TEST(dev.memory().mapped(dev.heap().base(), dev.heap().size()));
  check_round_trip(dev, m, 2, 32, 0);  // malloc(0): a block of its own, freed again
}

BOOST_AUTO_TEST_CASE(functional_mode_heap_exhaustion_persistence_and_size_limit) {
  runtime::Device dev;
  dev.set_malloc_heap_size(64 << 10);
  runtime::Module& m = dev.load_ptx_file(kPtxFile);
  check_exhaustion_and_persistence(dev, m);
  try {  // fixed once a kernel that calls malloc has run, as cudaDeviceSetLimit
    dev.set_malloc_heap_size(1 << 20);
    BOOST_FAIL("expected a refusal");
  } catch (const Error& e) {
    BOOST_TEST((e.code() == ExitCode::BadInput));
    BOOST_TEST(std::string(e.what()).find("cudaLimitMallocHeapSize") != std::string::npos, e.what());
  }
  BOOST_TEST(dev.malloc_heap_size() == 64u << 10);
}

BOOST_AUTO_TEST_CASE(functional_mode_bad_frees) {
  runtime::Device dev;
  runtime::Module& m = dev.load_ptx_file(kPtxFile);
  const uint64_t ptrs = dev.malloc(8);
  const std::vector<uint64_t> p = keep(dev, m, ptrs, 1, 64);
  expect_bad_free(dev, m, p[0] + 4, 5);  // inside a block
  const uint64_t buffer = dev.malloc(64);
  expect_bad_free(dev, m, buffer, 9);  // a host allocation (cudaMalloc): not the heap's
  // The host cannot free heap blocks (nor the heap) either.
  for (const uint64_t a : {p[0], dev.heap().base() + 4096}) {
    try {
      dev.free(a);
      BOOST_FAIL("expected a refusal");
    } catch (const Error& e) {
      BOOST_TEST((e.code() == ExitCode::BadInput));
      BOOST_TEST(std::string(e.what()).find("device heap") != std::string::npos, e.what());
    }
  }
  BOOST_TEST(dev.heap().blocks_in_use() == 1u);
}

// One SystemC simulation per process: every timing check on one device.
BOOST_AUTO_TEST_CASE(timing_mode_runs_the_same_kernels) {
  runtime::DeviceOptions o;
  o.mode = runtime::Mode::Timing;
  o.machine = machine();
  runtime::Device dev(o);
  dev.set_malloc_heap_size(64 << 10);
  runtime::Module& m = dev.load_ptx_file(kPtxFile);
  check_round_trip(dev, m, 4, 64, 10);  // 256 threads in flight hold 12 KiB at most
  check_exhaustion_and_persistence(dev, m);
  const uint64_t ptrs = dev.malloc(8);
  const std::vector<uint64_t> p = keep(dev, m, ptrs, 1, 64);
  BOOST_TEST(p[0] != 0u);
  expect_bad_free(dev, m, p[0] + 4, 17);  // last: a fault ends the simulation's usefulness
}

// A manifest's malloc_heap_size sizes the heap before its launches.
BOOST_AUTO_TEST_CASE(manifest_sets_the_heap_size) {
  const std::string text = std::string(R"({"ptx": ")") + kPtxFile + R"(",
    "malloc_heap_size": 65536,
    "buffers": [{"name": "ptrs", "type": "u64", "count": 8}],
    "launches": [{"kernel": "keep", "grid": 1, "block": 8, "args": [{"buffer": "ptrs"}, {"u64": 16384}]}],
    "outputs": [{"buffer": "ptrs", "path": "ptrs.bin"}]})";
  const runtime::Manifest m = runtime::Manifest::parse(text, "/tmp/heap.json");
  BOOST_TEST(m.malloc_heap_size == 65536u);
  const std::filesystem::path out = std::filesystem::temp_directory_path() / ("simt_heap_" + std::to_string(getpid()));
  std::filesystem::create_directories(out);
  runtime::Device dev;
  runtime::run_manifest(m, dev, out.string());
  BOOST_TEST(dev.malloc_heap_size() == 65536u);
  std::ifstream in(out / "ptrs.bin", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BOOST_TEST_REQUIRE(bytes.size() == 64u);
  uint64_t p[8];
  std::memcpy(p, bytes.data(), 64);
  for (int i = 0; i < 8; ++i) BOOST_TEST((p[i] != 0) == (i < 4), "thread " << i);  // 4 x 16 KiB fill it
  std::filesystem::remove_all(out);
  // Bad values name the key.
  for (const char* bad : {"0", "-1", "\"8M\""}) {
    try {
      runtime::Manifest::parse(R"({"ptx": "k.ptx", "buffers": [], "malloc_heap_size": )" + std::string(bad) + "}",
                               "/tmp/heap.json");
      BOOST_FAIL("expected a refusal of " << bad);
    } catch (const Error& e) {
      BOOST_TEST((e.code() == ExitCode::BadInput));
      BOOST_TEST(std::string(e.what()).find("/tmp/heap.json: malloc_heap_size") != std::string::npos, e.what());
    }
  }
}
