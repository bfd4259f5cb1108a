// libcudart.so.13 as a program sees it: every entry point of
// cudart/entry_points.txt is there under the libcudart.so.13 version node,
// simtlab's own symbols are not, and a few calls give their answers through
// the real C calling convention (a struct returned by value included).
#define BOOST_TEST_MODULE exports
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cudart/cuda_abi.h"

namespace cuda = simt::cudart::abi;  // (a global "abi" is taken by <cxxabi.h>)

namespace {

const char* const kNode = "libcudart.so.13";

void* library() {
  static void* handle = [] {
    const std::string path = std::string(SIMT_BINARY_DIR) + "/lib/simtlab/libcudart.so.13";
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    BOOST_REQUIRE_MESSAGE(h != nullptr, "cannot load " << path << ": " << dlerror());
    return h;
  }();
  return handle;
}

std::vector<std::string> entry_points() {
  const std::string path = std::string(SIMT_SOURCE_DIR) + "/cudart/entry_points.txt";
  std::ifstream in(path);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << path);
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, node;
    fields >> name >> node;
    BOOST_TEST(node == kNode);
    names.push_back(name);
  }
  return names;
}

template <typename F>
F entry(const char* name) {
  void* p = dlvsym(library(), name, kNode);
  BOOST_REQUIRE_MESSAGE(p != nullptr, name << "@" << kNode << " is missing");
  return reinterpret_cast<F>(p);
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_entry_point_is_exported_under_the_cuda_13_node) {
  const auto names = entry_points();
  BOOST_REQUIRE_GE(names.size(), 400u);  // CUDA 13.0 exports 422
  for (const std::string& name : names) {
    BOOST_TEST(dlvsym(library(), name.c_str(), kNode) != nullptr, name << "@" << kNode);
  }
}

BOOST_AUTO_TEST_CASE(simtlab_internals_stay_hidden) {
  // simt::cudart::unsupported_call(const char*) and simt::cudart::error_name(int).
  BOOST_TEST(dlsym(library(), "_ZN4simt6cudart16unsupported_callEPKc") == nullptr);
  BOOST_TEST(dlsym(library(), "_ZN4simt6cudart10error_nameEi") == nullptr);
}

BOOST_AUTO_TEST_CASE(calls_answer_through_the_c_abi) {
  // A generated stub: not supported.
  auto graph_create = entry<cuda::cudaError_t (*)(cuda::cudaGraph_t*, unsigned)>("cudaGraphCreate");
  cuda::cudaGraph_t graph = nullptr;
  BOOST_TEST(graph_create(&graph, 0) == cuda::cudaErrorNotSupported);
  auto name = entry<const char* (*)(cuda::cudaError_t)>("cudaGetErrorName");
  BOOST_TEST(std::string(name(cuda::cudaErrorNotSupported)) == "cudaErrorNotSupported");
  BOOST_TEST(std::string(name(static_cast<cuda::cudaError_t>(12345))) == "unrecognized error code");
  auto text = entry<const char* (*)(cuda::cudaError_t)>("cudaGetErrorString");
  BOOST_TEST(std::string(text(cuda::cudaSuccess)) == "no error");
  // 20 bytes returned by value: through the hidden result pointer.
  auto channel = entry<cuda::cudaChannelFormatDesc (*)(int, int, int, int, cuda::cudaChannelFormatKind)>(
      "cudaCreateChannelDesc");
  const cuda::cudaChannelFormatDesc d = channel(32, 16, 8, 0, cuda::cudaChannelFormatKindFloat);
  BOOST_TEST(d.x == 32);
  BOOST_TEST(d.y == 16);
  BOOST_TEST(d.z == 8);
  BOOST_TEST(d.w == 0);
  BOOST_TEST(d.f == cuda::cudaChannelFormatKindFloat);
}
