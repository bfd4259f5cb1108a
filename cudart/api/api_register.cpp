// The entry points nvcc's generated host code calls: registration of
// fatbins, kernels and variables before main(), and the launch sequence of
// `kernel<<<grid, block, shared, stream>>>(args)` (push the configuration,
// pop it in the stub, get the kernel handle, launch).
#include <cstring>
#include <vector>

#include "cudart/runtime_state.h"

using namespace simt::cudart;
using namespace simt::cudart::abi;

namespace {

struct CallConfiguration {
  dim3 grid, block;
  size_t shared = 0;
  cudaStream_t stream = nullptr;
};

// <<<...>>> pushes, the kernel's stub pops: per host thread, nested when an
// argument expression itself launches a kernel.
thread_local std::vector<CallConfiguration> t_configs;

}  // namespace

extern "C" {

void** __cudaRegisterFatBinary(void* fatCubin) {
  RuntimeState& rt = RuntimeState::get();
  std::lock_guard<std::recursive_mutex> g(rt.lock());
  FatbinRecord& f = rt.registry().add_fatbin(fatCubin);
  rt.fatbin_registered(f);
  return ModuleRegistry::handle_of(f);
}

void __cudaRegisterFatBinaryEnd(void** fatCubinHandle) {}

void __cudaUnregisterFatBinary(void** fatCubinHandle) {
  RuntimeState& rt = RuntimeState::get();
  std::lock_guard<std::recursive_mutex> g(rt.lock());
  if (FatbinRecord* f = rt.registry().fatbin(fatCubinHandle)) f->unregistered = true;
}

void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun, const char* deviceName,
                            int thread_limit, uint3* tid, uint3* bid, dim3* bDim, dim3* gDim, int* wSize) {
  RuntimeState& rt = RuntimeState::get();
  std::lock_guard<std::recursive_mutex> g(rt.lock());
  rt.registry().add_kernel(fatCubinHandle, hostFun, deviceFun ? deviceFun : deviceName);
}

void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress, const char* deviceName, int ext,
                       size_t size, int constant, int global) {
  RuntimeState& rt = RuntimeState::get();
  std::lock_guard<std::recursive_mutex> g(rt.lock());
  rt.registry().add_var(fatCubinHandle, hostVar, deviceAddress ? deviceAddress : deviceName, size, constant != 0,
                        nullptr);
}

// __managed__ variables: the program reads and writes them through
// *hostVarPtrAddress, which the runtime points at the variable's storage.
void __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress, char* deviceAddress,
                              const char* deviceName, int ext, size_t size, int constant, int global) {
  RuntimeState& rt = RuntimeState::get();
  std::lock_guard<std::recursive_mutex> g(rt.lock());
  rt.registry().add_var(fatCubinHandle, hostVarPtrAddress, deviceAddress ? deviceAddress : deviceName, size,
                        constant != 0, hostVarPtrAddress);
}

// Called by nvcc's host code before the program first touches a __managed__
// variable: load the module now, so the variable's pointer is set.
char __cudaInitModule(void** fatCubinHandle) {
  const cudaError_t rc = api_call("__cudaInitModule", [&](RuntimeState& rt) {
    if (FatbinRecord* f = rt.registry().fatbin(fatCubinHandle)) rt.load(*f);
  });
  return rc == cudaSuccess ? 1 : 0;
}

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, cudaStream_t stream) {
  t_configs.push_back({gridDim, blockDim, sharedMem, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream) {
  if (t_configs.empty()) return cudaErrorMissingConfiguration;
  const CallConfiguration c = t_configs.back();
  t_configs.pop_back();
  *gridDim = c.grid;
  *blockDim = c.block;
  *sharedMem = c.shared;
  std::memcpy(stream, &c.stream, sizeof c.stream);
  return cudaSuccess;
}

// The kernel handle is the registration record of its host stub.
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* hostFun) {
  return api_call("__cudaGetKernel", [&](RuntimeState& rt) {
    *kernel = reinterpret_cast<cudaKernel_t>(&rt.kernel(hostFun));
  }, false);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                               cudaStream_t stream) {
  return api_call("kernel launch", [&](RuntimeState& rt) {
    if (!kernel) throw CudaError{cudaErrorInvalidDeviceFunction, "not a registered __global__ function"};
    rt.launch(*reinterpret_cast<KernelRecord*>(kernel), gridDim, blockDim, args, sharedMem, stream, false);
  });
}

}  // extern "C"
