// The entry points of cudart/entry_points.txt marked "special" (not returning
// cudaError_t, so the generated "not supported" stubs of
// cmake/cudart_library.cmake cannot stand in for them) that simtlab does not
// implement: each with its own signature, saying it is not supported. The
// other special ones are defined in the api_*.cpp files.
#include <cstddef>

#include "cudart/cuda_abi.h"
#include "cudart/unsupported.h"

namespace abi = simt::cudart::abi;
using simt::cudart::unsupported_call;

#define SIMT_WEAK extern "C" __attribute__((weak))

// ---- not declared in CUDA's headers --------------------------------------------
// No program nvcc builds calls these three; their signatures are inferred
// (other CUDA runtime replacements agree on the first two).
SIMT_WEAK void __cudaRegisterHostVar(void** fatCubinHandle, const char* deviceName, char* hostVar, size_t size) {
  unsupported_call("__cudaRegisterHostVar");
}

SIMT_WEAK void __cudaRegisterUnifiedTable(void* table) { unsupported_call("__cudaRegisterUnifiedTable"); }

// Named like cudaGetDriverEntryPoint, which returns cudaError_t.
SIMT_WEAK abi::cudaError_t __cudaGetProcAddress() {
  return static_cast<abi::cudaError_t>(unsupported_call("__cudaGetProcAddress"));
}
