// Whether the tests run in the sanitizer build: CMake sets
// SIMT_TEST_SANITIZED=1 in those tests' environment (docs/hardening.md).
// There, under ASan+UBSan every run is 5-10x slower, and a suite that
// repeats one check over many workloads takes fewer of them; never none.
#pragma once

#include <cstdlib>
#include <cstring>

namespace simt::test {

inline bool sanitized() {
  const char* v = std::getenv("SIMT_TEST_SANITIZED");
  return v && std::strcmp(v, "1") == 0;
}

}  // namespace simt::test
