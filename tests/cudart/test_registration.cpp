// libcudart.so.13 driven as nvcc's generated host code drives it, with no
// nvcc: a fatbin assembled here around committed PTX (zstd-compressed, as
// nvcc 13 stores it) is registered, its kernel launched through the
// <<<...>>> sequence (push and pop the configuration, get the kernel, launch)
// and by cudaLaunchKernel, and the results read back; then the errors a
// program meets first (an unregistered function, a bad configuration).
#define BOOST_TEST_MODULE registration
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cudart/cuda_abi.h"
#include "cudart/fatbin_builder.h"

namespace cuda = simt::cudart::abi;  // (a global "abi" is taken by <cxxabi.h>)
using namespace simt::cudart::testing;

namespace {

void* library() {
  static void* handle = [] {
    setenv("SIMTLAB_MODE", "functional", 1);  // the library reads its options at the first call
    setenv("SIMTLAB_QUIET", "1", 1);
    const std::string path = std::string(SIMT_BINARY_DIR) + "/lib/simtlab/libcudart.so.13";
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    BOOST_REQUIRE_MESSAGE(h != nullptr, "cannot load " << path << ": " << dlerror());
    return h;
  }();
  return handle;
}

template <class F>
F* entry_point(const char* name) {
  void* p = dlsym(library(), name);
  BOOST_REQUIRE_MESSAGE(p != nullptr, name << " is not exported");
  return reinterpret_cast<F*>(p);
}

std::string committed_ptx() {
  std::ifstream in(SIMT_SOURCE_DIR "/tests/cudart/data/fatbin_kernel.ptx");
  BOOST_REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The host-side stand-ins nvcc would generate: their addresses name the kernels.
char scale_stub, offset_stub, never_registered_stub;

struct Program {
  Fatbin fatbin = make_fatbin({sass_entry(75), ptx_entry(committed_ptx(), 9, 0, 75, Codec::Zstd)});
  Wrapper wrapper;
  void** handle = nullptr;
  Program() {
    wrapper.data = fatbin.data();
    handle = entry_point<void**(void*)>("__cudaRegisterFatBinary")(&wrapper);
    auto reg = entry_point<void(void**, const char*, char*, const char*, int, cuda::uint3*, cuda::uint3*,
                                cuda::dim3*, cuda::dim3*, int*)>("__cudaRegisterFunction");
    reg(handle, &scale_stub, const_cast<char*>("_Z5scalePffi"), "_Z5scalePffi", -1, nullptr, nullptr, nullptr,
        nullptr, nullptr);
    reg(handle, &offset_stub, const_cast<char*>("_Z6offsetPii"), "_Z6offsetPii", -1, nullptr, nullptr, nullptr,
        nullptr, nullptr);
    entry_point<void(void**)>("__cudaRegisterFatBinaryEnd")(handle);
  }
};

Program& program() {
  static Program p;
  return p;
}

}  // namespace

BOOST_AUTO_TEST_CASE(triple_angle_launch_runs_the_kernel) {
  Program& p = program();
  auto malloc_ = entry_point<cuda::cudaError_t(void**, size_t)>("cudaMalloc");
  auto memcpy_ = entry_point<cuda::cudaError_t(void*, const void*, size_t, cuda::cudaMemcpyKind)>("cudaMemcpy");
  auto push = entry_point<unsigned(cuda::dim3, cuda::dim3, size_t, cuda::cudaStream_t)>("__cudaPushCallConfiguration");
  auto pop = entry_point<cuda::cudaError_t(cuda::dim3*, cuda::dim3*, size_t*, void*)>("__cudaPopCallConfiguration");
  auto get_kernel = entry_point<cuda::cudaError_t(cuda::cudaKernel_t*, const void*)>("__cudaGetKernel");
  auto launch = entry_point<cuda::cudaError_t(cuda::cudaKernel_t, cuda::dim3, cuda::dim3, void**, size_t,
                                              cuda::cudaStream_t)>("__cudaLaunchKernel");
  BOOST_REQUIRE(p.handle != nullptr);

  const int n = 100;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = float(i);
  void* dev = nullptr;
  BOOST_REQUIRE(malloc_(&dev, n * sizeof(float)) == cuda::cudaSuccess);
  BOOST_REQUIRE(memcpy_(dev, host.data(), n * sizeof(float), cuda::cudaMemcpyHostToDevice) == cuda::cudaSuccess);

  // scale<<<4, 32>>>(dev, 2.5f, n), step by step as the stub does it.
  BOOST_REQUIRE(push(cuda::dim3{4, 1, 1}, cuda::dim3{32, 1, 1}, 0, nullptr) == 0);
  cuda::dim3 grid, block;
  size_t shared = 1;
  cuda::cudaStream_t stream = reinterpret_cast<cuda::cudaStream_t>(1);
  BOOST_REQUIRE(pop(&grid, &block, &shared, &stream) == cuda::cudaSuccess);
  BOOST_TEST(grid.x == 4u);
  BOOST_TEST(block.x == 32u);
  BOOST_TEST(shared == 0u);
  BOOST_TEST(stream == nullptr);
  cuda::cudaKernel_t k = nullptr;
  BOOST_REQUIRE(get_kernel(&k, &scale_stub) == cuda::cudaSuccess);
  float s = 2.5f;
  int count = n;
  void* args[] = {&dev, &s, &count};
  BOOST_REQUIRE(launch(k, grid, block, args, shared, stream) == cuda::cudaSuccess);

  std::vector<float> out(n);
  BOOST_REQUIRE(memcpy_(out.data(), dev, n * sizeof(float), cuda::cudaMemcpyDeviceToHost) == cuda::cudaSuccess);
  for (int i = 0; i < n; ++i) BOOST_TEST(out[i] == 2.5f * float(i));
}

BOOST_AUTO_TEST_CASE(cuda_launch_kernel_by_host_function) {
  program();
  auto malloc_ = entry_point<cuda::cudaError_t(void**, size_t)>("cudaMalloc");
  auto memset_ = entry_point<cuda::cudaError_t(void*, int, size_t)>("cudaMemset");
  auto memcpy_ = entry_point<cuda::cudaError_t(void*, const void*, size_t, cuda::cudaMemcpyKind)>("cudaMemcpy");
  auto launch = entry_point<cuda::cudaError_t(const void*, cuda::dim3, cuda::dim3, void**, size_t,
                                              cuda::cudaStream_t)>("cudaLaunchKernel");
  void* dev = nullptr;
  BOOST_REQUIRE(malloc_(&dev, 64 * sizeof(int)) == cuda::cudaSuccess);
  BOOST_REQUIRE(memset_(dev, 0, 64 * sizeof(int)) == cuda::cudaSuccess);
  int d = 7;
  void* args[] = {&dev, &d};
  BOOST_REQUIRE(launch(&offset_stub, cuda::dim3{1, 1, 1}, cuda::dim3{64, 1, 1}, args, 0, nullptr) ==
                cuda::cudaSuccess);
  std::vector<int> out(64);
  BOOST_REQUIRE(memcpy_(out.data(), dev, 64 * sizeof(int), cuda::cudaMemcpyDeviceToHost) == cuda::cudaSuccess);
  for (int v : out) BOOST_TEST(v == 7);
}

BOOST_AUTO_TEST_CASE(errors_of_a_launch_that_cannot_start) {
  program();
  auto launch = entry_point<cuda::cudaError_t(const void*, cuda::dim3, cuda::dim3, void**, size_t,
                                              cuda::cudaStream_t)>("cudaLaunchKernel");
  auto last = entry_point<cuda::cudaError_t()>("cudaGetLastError");
  auto name = entry_point<const char*(cuda::cudaError_t)>("cudaGetErrorName");
  void* dev = nullptr;
  int d = 1;
  void* args[] = {&dev, &d};
  BOOST_TEST(launch(&never_registered_stub, cuda::dim3{1, 1, 1}, cuda::dim3{1, 1, 1}, args, 0, nullptr) ==
             cuda::cudaErrorInvalidDeviceFunction);
  BOOST_TEST(launch(&offset_stub, cuda::dim3{1, 1, 1}, cuda::dim3{2048, 1, 1}, args, 0, nullptr) ==
             cuda::cudaErrorInvalidConfiguration);
  BOOST_TEST(std::string(name(last())) == "cudaErrorInvalidConfiguration");
  BOOST_TEST(last() == cuda::cudaSuccess);  // cudaGetLastError resets it
}
