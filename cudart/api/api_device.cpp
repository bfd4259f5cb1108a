// One device, device 0: what it is (from the machine file), selecting it,
// synchronising (always idle: work runs when issued), limits and versions.
#include "cudart/device_facts.h"
#include "cudart/runtime_state.h"
#include "gpu/machine_config.h"

using namespace simt::cudart;
using namespace simt::cudart::abi;

namespace {

DeviceFacts facts(RuntimeState& rt) {
  return device_facts(rt.machine(), rt.machine_name(), rt.device().memory().touch_limit(), rt.registry().max_arch());
}

void check_device(int device) {
  if (device != 0) throw CudaError{cudaErrorInvalidDevice, "device " + std::to_string(device) + ": simtlab has device 0 only"};
}

// CUDA 13.0: 13000 (1000 x major + 10 x minor).
constexpr int kVersion = 13000;

}  // namespace

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
  return api_call("cudaGetDeviceCount", [&](RuntimeState&) {
    if (!count) throw CudaError{cudaErrorInvalidValue, ""};
    *count = 1;
  }, false);
}

cudaError_t cudaGetDevice(int* device) {
  return api_call("cudaGetDevice", [&](RuntimeState&) {
    if (!device) throw CudaError{cudaErrorInvalidValue, ""};
    *device = 0;
  }, false);
}

cudaError_t cudaSetDevice(int device) {
  return api_call("cudaSetDevice", [&](RuntimeState&) { check_device(device); });
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  return api_call("cudaInitDevice", [&](RuntimeState&) { check_device(device); });
}

cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  return api_call("cudaChooseDevice", [&](RuntimeState&) {
    if (!device || !prop) throw CudaError{cudaErrorInvalidValue, ""};
    *device = 0;
  });
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) { return api_call("cudaSetDeviceFlags", [](RuntimeState&) {}); }

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  return api_call("cudaGetDeviceFlags", [&](RuntimeState&) {
    if (!flags) throw CudaError{cudaErrorInvalidValue, ""};
    *flags = 0;
  });
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  return api_call("cudaGetDeviceProperties", [&](RuntimeState& rt) {
    if (!prop) throw CudaError{cudaErrorInvalidValue, ""};
    check_device(device);
    fill_properties(facts(rt), *prop);
  }, false);
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  return api_call("cudaDeviceGetAttribute", [&](RuntimeState& rt) {
    if (!value) throw CudaError{cudaErrorInvalidValue, ""};
    check_device(device);
    if (!attribute(facts(rt), attr, value))
      throw CudaError{cudaErrorInvalidValue, "unknown device attribute " + std::to_string(static_cast<int>(attr))};
  }, false);
}

cudaError_t cudaDeviceSynchronize() { return api_call("cudaDeviceSynchronize", [](RuntimeState&) {}); }

cudaError_t cudaDeviceReset() {
  return api_call("cudaDeviceReset", [](RuntimeState& rt) { rt.reset(); }, false);
}

cudaError_t cudaDriverGetVersion(int* driverVersion) {
  if (!driverVersion) return cudaErrorInvalidValue;
  *driverVersion = kVersion;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
  if (!runtimeVersion) return cudaErrorInvalidValue;
  *runtimeVersion = kVersion;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  return api_call("cudaDeviceSetLimit", [&](RuntimeState& rt) {
    switch (limit) {
      case cudaLimitMallocHeapSize: rt.device().set_malloc_heap_size(value); return;
      case cudaLimitStackSize:
      case cudaLimitPrintfFifoSize:
      case cudaLimitDevRuntimeSyncDepth:
      case cudaLimitDevRuntimePendingLaunchCount:
      case cudaLimitMaxL2FetchGranularity:
      case cudaLimitPersistingL2CacheSize: rt.limits()[limit] = value; return;
      default: throw CudaError{cudaErrorUnsupportedLimit, "limit " + std::to_string(static_cast<int>(limit))};
    }
  });
}

cudaError_t cudaDeviceGetLimit(size_t* pValue, cudaLimit limit) {
  return api_call("cudaDeviceGetLimit", [&](RuntimeState& rt) {
    if (!pValue) throw CudaError{cudaErrorInvalidValue, ""};
    switch (limit) {
      case cudaLimitMallocHeapSize: *pValue = rt.device().malloc_heap_size(); return;
      case cudaLimitStackSize: *pValue = rt.limits().count(limit) ? rt.limits()[limit] : 1024; return;
      case cudaLimitPrintfFifoSize: *pValue = rt.limits().count(limit) ? rt.limits()[limit] : 1 << 20; return;
      case cudaLimitDevRuntimeSyncDepth:
      case cudaLimitDevRuntimePendingLaunchCount:
      case cudaLimitMaxL2FetchGranularity:
      case cudaLimitPersistingL2CacheSize: *pValue = rt.limits().count(limit) ? rt.limits()[limit] : 0; return;
      default: throw CudaError{cudaErrorUnsupportedLimit, "limit " + std::to_string(static_cast<int>(limit))};
    }
  });
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig) {
  return api_call("cudaDeviceSetCacheConfig", [](RuntimeState&) {});
}

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* pCacheConfig) {
  return api_call("cudaDeviceGetCacheConfig", [&](RuntimeState&) {
    if (!pCacheConfig) throw CudaError{cudaErrorInvalidValue, ""};
    *pCacheConfig = cudaFuncCachePreferNone;
  });
}

cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  return api_call("cudaDeviceCanAccessPeer", [&](RuntimeState&) {
    if (!canAccessPeer) throw CudaError{cudaErrorInvalidValue, ""};
    check_device(device);
    check_device(peerDevice);
    *canAccessPeer = 0;
  });
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  return api_call("cudaDeviceGetStreamPriorityRange", [&](RuntimeState&) {
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = -5;
  });
}

}  // extern "C"

extern "C" {

// No profiler is attached to a simulated device: starting and stopping
// profiling do nothing and succeed, as they do on a GPU run without one.
cudaError_t cudaProfilerStart() { return api_call("cudaProfilerStart", [](RuntimeState&) {}); }

cudaError_t cudaProfilerStop() { return api_call("cudaProfilerStop", [](RuntimeState&) {}); }

}  // extern "C"
