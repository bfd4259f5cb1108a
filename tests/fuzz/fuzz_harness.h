// Shared by the libFuzzer targets in this folder (docs/hardening.md).
// A fuzz input may be rejected only with simt::Error, the model's clean error
// for bad input; any other exception is a finding, and so is a crash, a
// sanitizer report or a timeout (libFuzzer and the sanitizers catch those).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "util/error.h"

namespace simt::fuzz {

template <class Body>
int guarded(const char* target, Body&& body) {
  try {
    body();
  } catch (const simt::Error&) {
    // The clean rejection of bad input: fine.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: escaped exception (not simt::Error): %s\n", target, e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "%s: escaped exception of unknown type\n", target);
    std::abort();
  }
  return 0;
}

inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace simt::fuzz
