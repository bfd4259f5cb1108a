// Launching by function pointer, and what the runtime tells about a kernel:
// attributes, cache and shared-memory preferences, occupancy (computed from
// the machine's limits, as the timing model's CTA dispatcher fills SMs).
#include <algorithm>

#include "cudart/runtime_state.h"
#include "gpu/machine_config.h"

using namespace simt::cudart;
using namespace simt::cudart::abi;

namespace {

// The kernel's module and name, loaded; throws CudaError.
struct LoadedKernel {
  simt::runtime::Module* module;
  KernelRecord* record;
};

LoadedKernel loaded(RuntimeState& rt, const void* func) {
  KernelRecord& k = rt.kernel(func);
  return {&rt.module_of(k), &k};
}

}  // namespace

extern "C" {

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem,
                             cudaStream_t stream) {
  return api_call("cudaLaunchKernel", [&](RuntimeState& rt) {
    rt.launch(rt.kernel(func), gridDim, blockDim, args, sharedMem, stream, false);
  });
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                        size_t sharedMem, cudaStream_t stream) {
  return api_call("cudaLaunchCooperativeKernel", [&](RuntimeState& rt) {
    rt.launch(rt.kernel(func), gridDim, blockDim, args, sharedMem, stream, true);
  });
}

// cuda_runtime.h's cudaLaunchKernelEx template lands here. The attributes
// that change what runs: cooperative; a cluster of more than one CTA is not
// modelled; the others are scheduling hints with nothing to act on.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return api_call("cudaLaunchKernelExC", [&](RuntimeState& rt) {
    if (!config) throw CudaError{cudaErrorInvalidValue, "null launch configuration"};
    bool cooperative = false;
    for (unsigned i = 0; i < config->numAttrs; ++i) {
      const cudaLaunchAttribute& a = config->attrs[i];
      if (a.id == cudaLaunchAttributeCooperative) cooperative = a.val.cooperative != 0;
      if (a.id == cudaLaunchAttributeClusterDimension &&
          uint64_t{a.val.clusterDim.x} * a.val.clusterDim.y * a.val.clusterDim.z > 1)
        throw CudaError{cudaErrorNotSupported, "thread block clusters are not modelled"};
    }
    rt.launch(rt.kernel(func), config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream,
              cooperative);
  });
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  return api_call("cudaFuncGetAttributes", [&](RuntimeState& rt) {
    if (!attr) throw CudaError{cudaErrorInvalidValue, "null attributes"};
    const LoadedKernel k = loaded(rt, func);
    const auto info = rt.device().kernel_info(*k.module, k.record->name);
    *attr = cudaFuncAttributes{};
    attr->sharedSizeBytes = static_cast<size_t>(info.static_shared_bytes);
    attr->constSizeBytes = 0;
    attr->localSizeBytes = info.local_bytes;
    attr->maxThreadsPerBlock = static_cast<int>(info.max_threads_per_block);
    attr->numRegs = static_cast<int>(info.regs_per_thread);
    const uint32_t arch = k.record->fatbin->arch ? k.record->fatbin->arch : 75;
    attr->ptxVersion = static_cast<int>(arch);
    attr->binaryVersion = static_cast<int>(arch);
    attr->cacheModeCA = 0;
    const uint64_t sm_shared = rt.machine().limits.shared_bytes;
    attr->maxDynamicSharedSizeBytes =
        static_cast<int>(sm_shared > info.static_shared_bytes ? sm_shared - info.static_shared_bytes : 0);
    attr->preferredShmemCarveout = -1;
  });
}

// Accepted and kept by a GPU; simtlab's machine file fixes shared memory
// and L1 sizes, so these change nothing but are checked as CUDA does.
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  return api_call("cudaFuncSetAttribute", [&](RuntimeState& rt) {
    const LoadedKernel k = loaded(rt, func);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
      const auto info = rt.device().kernel_info(*k.module, k.record->name);
      const uint64_t sm_shared = rt.machine().limits.shared_bytes;
      if (value < 0 || static_cast<uint64_t>(value) + info.static_shared_bytes > sm_shared)
        throw CudaError{cudaErrorInvalidValue,
                        "cudaFuncAttributeMaxDynamicSharedMemorySize " + std::to_string(value) +
                            " exceeds this machine's shared memory per SM (sm.shared_bytes = " +
                            std::to_string(sm_shared) + ")"};
    } else if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
      if (value < -1 || value > 100) throw CudaError{cudaErrorInvalidValue, "carveout must be -1 or 0..100"};
    }
  });
}

cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig) {
  return api_call("cudaFuncSetCacheConfig", [&](RuntimeState& rt) { loaded(rt, func); });
}

cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config) {
  return api_call("cudaFuncSetSharedMemConfig", [&](RuntimeState& rt) { loaded(rt, func); });
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags) {
  return api_call("cudaOccupancyMaxActiveBlocksPerMultiprocessor", [&](RuntimeState& rt) {
    if (!numBlocks || blockSize <= 0) throw CudaError{cudaErrorInvalidValue, ""};
    const LoadedKernel k = loaded(rt, func);
    const auto info = rt.device().kernel_info(*k.module, k.record->name);
    if (static_cast<uint32_t>(blockSize) > info.max_threads_per_block) {
      *numBlocks = 0;
      return;
    }
    const simt::runtime::Dim3 block{{static_cast<uint32_t>(blockSize), 1, 1}};
    *numBlocks = static_cast<int>(
        rt.device().occupancy(*k.module, k.record->name, block, static_cast<uint32_t>(dynamicSMemSize)).ctas_per_sm);
  });
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func, int numBlocks,
                                                      int blockSize) {
  return api_call("cudaOccupancyAvailableDynamicSMemPerBlock", [&](RuntimeState& rt) {
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0) throw CudaError{cudaErrorInvalidValue, ""};
    const LoadedKernel k = loaded(rt, func);
    const auto info = rt.device().kernel_info(*k.module, k.record->name);
    const uint64_t per_cta = rt.machine().limits.shared_bytes / static_cast<uint64_t>(numBlocks);
    const uint64_t fixed = (info.static_shared_bytes + 15) / 16 * 16;
    *dynamicSmemSize = per_cta > fixed ? static_cast<size_t>(per_cta - fixed) : 0;
  });
}

}  // extern "C"
