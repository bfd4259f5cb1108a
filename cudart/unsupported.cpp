#include "cudart/unsupported.h"

#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_set>

#include "cudart/cuda_abi.h"
#include "cudart/runtime_state.h"

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
    std::fflush(stdout);  // the program's own output so far comes first
    std::fprintf(stderr, "simtlab: %s is not supported (cudaErrorNotSupported)\n", shown);
  }
  // The program's cudaGetLastError says so too, as after any failed call.
  RuntimeState& rt = RuntimeState::get();
  std::lock_guard<std::recursive_mutex> g(rt.lock());
  return rt.fail(abi::cudaErrorNotSupported, "");
}

}  // namespace simt::cudart
