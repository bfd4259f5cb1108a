#include "cudart/unsupported.h"

#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_set>

#include "cudart/cuda_abi.h"

namespace simt::cudart {

int unsupported_call(const char* name) {
  // Function-local statics: an application may call the runtime from its own
  // static constructors, before this file's globals would be built.
  static std::mutex mutex;
  static std::unordered_set<std::string> reported;
  const char* shown = name != nullptr ? name : "(unnamed entry point)";
  bool first = false;
  {
    std::lock_guard<std::mutex> lock(mutex);
    first = reported.insert(shown).second;
  }
  if (first) {
    std::fprintf(stderr, "simtlab: %s is not supported (cudaErrorNotSupported)\n", shown);
  }
  return abi::cudaErrorNotSupported;
}

}  // namespace simt::cudart
