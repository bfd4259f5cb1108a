// The runtime's error state: the last error (reset by cudaGetLastError),
// sticky kernel faults, and their names and descriptions.
#include "cudart/error_names.h"
#include "cudart/runtime_state.h"

using namespace simt::cudart;
using namespace simt::cudart::abi;

extern "C" {

cudaError_t cudaGetLastError() {
  RuntimeState& rt = RuntimeState::get();
  std::lock_guard<std::recursive_mutex> g(rt.lock());
  return rt.take_last_error();
}

cudaError_t cudaPeekAtLastError() {
  RuntimeState& rt = RuntimeState::get();
  std::lock_guard<std::recursive_mutex> g(rt.lock());
  return rt.sticky_error() != cudaSuccess ? rt.sticky_error() : rt.last_error();
}

const char* cudaGetErrorName(cudaError_t error) { return error_name(error); }

const char* cudaGetErrorString(cudaError_t error) { return error_string(error); }

}  // extern "C"
