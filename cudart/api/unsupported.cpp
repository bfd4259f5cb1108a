// Weak stand-ins for the entry points of cudart/entry_points.txt marked
// "special": those that do not return cudaError_t, so the generated
// "not supported" stubs (cmake/cudart_library.cmake) cannot stand in for them.
// Each has its real signature here. A strong definition of the same name
// elsewhere in cudart/api/ replaces it; until then the library still loads
// every program nvcc builds, and the call says it is not supported.
//
// cudaGetErrorName, cudaGetErrorString and cudaCreateChannelDesc need nothing
// from the simulator and are complete here.
#include <cstddef>

#include "cudart/cuda_abi.h"
#include "cudart/error_names.h"
#include "cudart/unsupported.h"

namespace abi = simt::cudart::abi;
using simt::cudart::unsupported_call;

#define SIMT_WEAK extern "C" __attribute__((weak))

SIMT_WEAK const char* cudaGetErrorName(abi::cudaError_t error) { return simt::cudart::error_name(error); }

SIMT_WEAK const char* cudaGetErrorString(abi::cudaError_t error) { return simt::cudart::error_string(error); }

// Returned by value: the caller passes a hidden pointer to the result, which
// the compiler handles as long as the signature is the real one.
SIMT_WEAK abi::cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                           abi::cudaChannelFormatKind f) {
  return abi::cudaChannelFormatDesc{x, y, z, w, f};
}

// ---- registration (nvcc's start-up code of every translation unit) ------------
SIMT_WEAK void** __cudaRegisterFatBinary(void* fatCubin) {
  unsupported_call("__cudaRegisterFatBinary");
  // A handle the later registration calls can be given back without harm.
  static void* handle = nullptr;
  return &handle;
}

SIMT_WEAK void __cudaRegisterFatBinaryEnd(void** fatCubinHandle) { unsupported_call("__cudaRegisterFatBinaryEnd"); }

SIMT_WEAK void __cudaUnregisterFatBinary(void** fatCubinHandle) { unsupported_call("__cudaUnregisterFatBinary"); }

SIMT_WEAK void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                                      const char* deviceName, int thread_limit, abi::uint3* tid, abi::uint3* bid,
                                      abi::dim3* bDim, abi::dim3* gDim, int* wSize) {
  unsupported_call("__cudaRegisterFunction");
}

SIMT_WEAK void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress, const char* deviceName,
                                 int ext, size_t size, int constant, int global) {
  unsupported_call("__cudaRegisterVar");
}

SIMT_WEAK void __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress, char* deviceAddress,
                                        const char* deviceName, int ext, size_t size, int constant, int global) {
  unsupported_call("__cudaRegisterManagedVar");
}

// Returns whether the module's managed variables could be set up (1 = yes).
SIMT_WEAK char __cudaInitModule(void** fatCubinHandle) {
  unsupported_call("__cudaInitModule");
  return 0;
}

// ---- launch -----------------------------------------------------------------------
// `kernel<<<g, b, s, st>>>(args)` calls the kernel's host stub only when this
// returns 0, so a non-zero answer skips the launch.
SIMT_WEAK unsigned __cudaPushCallConfiguration(abi::dim3 gridDim, abi::dim3 blockDim, size_t sharedMem,
                                               abi::cudaStream_t stream) {
  return static_cast<unsigned>(unsupported_call("__cudaPushCallConfiguration"));
}

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
