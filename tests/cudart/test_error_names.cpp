// error_name / error_string: cudaGetErrorName and cudaGetErrorString of the
// CUDA runtime library. The codes are read from cudart/cuda_abi_codes.h itself, so
// a code added to the header without a name here fails this test.
#define BOOST_TEST_MODULE error_names
#include <boost/test/unit_test.hpp>

#include <climits>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cudart/cuda_abi.h"
#include "cudart/error_names.h"

using simt::cudart::error_name;
using simt::cudart::error_string;
namespace cuda = simt::cudart::abi;  // (a global "abi" is taken by <cxxabi.h>)

namespace {

// Every "  <name> = <value>" line of the header's `enum cudaError { ... }`.
std::vector<std::pair<std::string, int>> declared_codes() {
  const std::string path = std::string(SIMT_SOURCE_DIR) + "/cudart/cuda_abi_codes.h";
  std::ifstream in(path);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << path);
  std::vector<std::pair<std::string, int>> codes;
  const std::regex enumerator(R"(^\s*(cuda[A-Za-z0-9_]+)\s*=\s*(-?[0-9]+)\s*,?\s*$)");
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("enum cudaError {", 0) == 0) {
      inside = true;
    } else if (inside && line.rfind("};", 0) == 0) {
      break;
    } else if (std::smatch m; inside && std::regex_match(line, m, enumerator)) {
      codes.emplace_back(m[1].str(), std::stoi(m[2].str()));
    }
  }
  return codes;
}

const std::string kUnrecognized = "unrecognized error code";

}  // namespace

BOOST_AUTO_TEST_CASE(every_code_has_its_enumerator_name_and_its_own_description) {
  const auto codes = declared_codes();
  // CUDA 13 has 134 error codes; far fewer means the header was not parsed.
  BOOST_REQUIRE_GE(codes.size(), 130u);
  std::set<std::string> names;
  std::set<std::string> texts;
  for (const auto& [name, value] : codes) {
    BOOST_TEST_CONTEXT(name << " = " << value) {
      BOOST_TEST(error_name(value) == name);
      const std::string text = error_string(value);
      BOOST_TEST(!text.empty());
      BOOST_TEST(text != kUnrecognized);
      names.insert(error_name(value));
      texts.insert(text);
    }
  }
  BOOST_TEST(names.size() == codes.size());
  BOOST_TEST(texts.size() == codes.size());
}

BOOST_AUTO_TEST_CASE(codes_the_library_returns_most) {
  BOOST_TEST(error_name(cuda::cudaSuccess) == std::string("cudaSuccess"));
  BOOST_TEST(error_name(cuda::cudaErrorMemoryAllocation) == std::string("cudaErrorMemoryAllocation"));
  BOOST_TEST(error_name(cuda::cudaErrorNotSupported) == std::string("cudaErrorNotSupported"));
  BOOST_TEST(error_name(cuda::cudaErrorIllegalAddress) == std::string("cudaErrorIllegalAddress"));
  BOOST_TEST(error_name(801) == std::string("cudaErrorNotSupported"));
  BOOST_TEST(error_string(cuda::cudaSuccess) == std::string("no error"));
}

BOOST_AUTO_TEST_CASE(unknown_codes_are_unrecognized_as_cuda_says) {
  // Gaps in the numbering, past the end, negative, and the extremes.
  for (int code : {-1, 10, 11, 14, 29, 99, 998, 1000, 10001, INT_MAX, INT_MIN}) {
    BOOST_TEST_CONTEXT("code " << code) {
      BOOST_TEST(error_name(code) == kUnrecognized);
      BOOST_TEST(error_string(code) == kUnrecognized);
    }
  }
}
