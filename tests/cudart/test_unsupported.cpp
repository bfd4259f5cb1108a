// unsupported_call: what every entry point simtlab does not model answers.
// One "simtlab: <name> is not supported" line per name per process, however
// many threads call it, and always cudaErrorNotSupported.
#define BOOST_TEST_MODULE unsupported
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cudart/cuda_abi.h"
#include "cudart/unsupported.h"

using simt::cudart::unsupported_call;

namespace {

// Runs `body` with stderr sent to a temporary file; returns what it wrote.
template <typename Body>
std::string captured_stderr(Body body) {
  std::fflush(stderr);
  char path[] = "/tmp/simt_unsupported_XXXXXX";
  const int fd = mkstemp(path);
  BOOST_REQUIRE(fd >= 0);
  const int saved = dup(2);
  dup2(fd, 2);
  body();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  unlink(path);
  return text.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(returns_not_supported_and_reports_each_name_once) {
  int first = 0, second = 0, other = 0;
  const std::string out = captured_stderr([&] {
    first = unsupported_call("cudaGraphCreate");
    second = unsupported_call("cudaGraphCreate");
    other = unsupported_call("cudaIpcOpenMemHandle");
  });
  BOOST_TEST(first == simt::cudart::abi::cudaErrorNotSupported);
  BOOST_TEST(second == simt::cudart::abi::cudaErrorNotSupported);
  BOOST_TEST(other == 801);
  BOOST_TEST(out ==
             "simtlab: cudaGraphCreate is not supported (cudaErrorNotSupported)\n"
             "simtlab: cudaIpcOpenMemHandle is not supported (cudaErrorNotSupported)\n");
}

BOOST_AUTO_TEST_CASE(many_threads_one_line) {
  const std::string out = captured_stderr([] {
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([] {
        for (int i = 0; i < 200; ++i) unsupported_call("cudaMemPoolCreate");
      });
    }
    for (auto& t : threads) t.join();
  });
  BOOST_TEST(out == "simtlab: cudaMemPoolCreate is not supported (cudaErrorNotSupported)\n");
}
