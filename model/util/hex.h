// An address or value as the model's messages print it: "0x" and lower-case
// hexadecimal digits, no padding.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace simt::util {

inline std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace simt::util
