#include "cudart/device_facts.h"

#include <algorithm>
#include <cstring>

#include "gpu/machine_config.h"

namespace simt::cudart {

using namespace abi;

DeviceFacts device_facts(const gpu::MachineConfig& m, const std::string& machine_name, uint64_t global_bytes,
                         uint32_t arch) {
  DeviceFacts f;
  f.name = "simtlab (" + machine_name + ")";
  f.sms = m.num_sms;
  f.warp_size = m.sm.issue.warp_size;
  f.clock_khz = m.sm.issue.clock_mhz * 1000;
  f.max_threads_per_sm = m.limits.max_threads;
  f.max_ctas_per_sm = m.limits.max_ctas;
  f.regs_per_sm = m.limits.registers;
  f.shared_per_sm = m.limits.shared_bytes;
  f.l2_bytes = uint64_t{m.l2.size} * m.dram.channels;  // one L2 partition per DRAM channel
  f.global_bytes = global_bytes;
  // The modelled peak bandwidth is channels x bytes_per_cycle per core
  // cycle; as a double-data-rate bus at half the core clock it reads the
  // same through the usual 2 x clock x width formula.
  f.memory_bus_bits = m.dram.channels * m.dram.bytes_per_cycle * 8;
  f.memory_clock_khz = f.clock_khz / 2;
  if (arch) {
    f.cc_major = arch / 10;
    f.cc_minor = arch % 10;
  }
  return f;
}

namespace {
int clamp_int(uint64_t v) { return static_cast<int>(std::min<uint64_t>(v, INT32_MAX)); }
}  // namespace

void fill_properties(const DeviceFacts& f, cudaDeviceProp& p) {
  std::memset(&p, 0, sizeof p);
  std::strncpy(p.name, f.name.c_str(), sizeof p.name - 1);
  p.totalGlobalMem = f.global_bytes;
  p.sharedMemPerBlock = std::min<uint64_t>(f.shared_per_sm, 48 * 1024);
  p.regsPerBlock = clamp_int(std::min<uint64_t>(f.regs_per_sm, 65536));
  p.warpSize = static_cast<int>(f.warp_size);
  p.memPitch = INT32_MAX;
  p.maxThreadsPerBlock = clamp_int(std::min<uint64_t>(1024, f.max_threads_per_sm));
  p.maxThreadsDim[0] = 1024;
  p.maxThreadsDim[1] = 1024;
  p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = INT32_MAX;
  p.maxGridSize[1] = 65535;
  p.maxGridSize[2] = 65535;
  p.totalConstMem = 64 * 1024;
  p.major = static_cast<int>(f.cc_major);
  p.minor = static_cast<int>(f.cc_minor);
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.multiProcessorCount = static_cast<int>(f.sms);
  p.canMapHostMemory = 0;
  p.maxTexture1D = 131072;
  p.maxTexture2D[0] = p.maxTexture2D[1] = 65536;
  p.maxTexture3D[0] = p.maxTexture3D[1] = p.maxTexture3D[2] = 16384;
  p.maxSurface1D = 32768;
  p.maxSurface2D[0] = 131072;
  p.maxSurface2D[1] = 65536;
  p.surfaceAlignment = 512;
  p.concurrentKernels = 0;  // launches run one after another
  // One copy engine, as the Fermi GeForce parts: programs read a count of 0 as "no overlap of copies
  // and kernels" and some refuse to run (Rodinia huffman). Copies still run in stream order.
  p.asyncEngineCount = 1;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = static_cast<int>(f.memory_bus_bits);
  p.l2CacheSize = clamp_int(f.l2_bytes);
  p.maxThreadsPerMultiProcessor = static_cast<int>(f.max_threads_per_sm);
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = f.shared_per_sm;
  p.regsPerMultiprocessor = clamp_int(f.regs_per_sm);
  p.managedMemory = 1;
  p.cooperativeLaunch = 1;
  p.sharedMemPerBlockOptin = f.shared_per_sm;
  p.maxBlocksPerMultiProcessor = static_cast<int>(f.max_ctas_per_sm);
  p.computePreemptionSupported = 0;
}

bool attribute(const DeviceFacts& f, int attr, int* value) {
  cudaDeviceProp p;
  fill_properties(f, p);
  int v = 0;
  switch (static_cast<cudaDeviceAttr>(attr)) {
    case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = clamp_int(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: v = clamp_int(p.totalConstMem); break;
    case cudaDevAttrWarpSize: v = p.warpSize; break;
    case cudaDevAttrMaxPitch: v = clamp_int(p.memPitch); break;
    case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
    case cudaDevAttrClockRate: v = static_cast<int>(f.clock_khz); break;
    case cudaDevAttrTextureAlignment: v = clamp_int(p.textureAlignment); break;
    case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
    case cudaDevAttrComputeMode: v = 0; break;  // default: any number of host threads may use it
    case cudaDevAttrConcurrentKernels: v = p.concurrentKernels; break;
    case cudaDevAttrGpuOverlap: v = p.asyncEngineCount > 0; break;  // CUDA 12 dropped deviceOverlap for this
    case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
    case cudaDevAttrMemoryClockRate: v = static_cast<int>(f.memory_clock_khz); break;
    case cudaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrUnifiedAddressing: v = p.unifiedAddressing; break;
    case cudaDevAttrTexturePitchAlignment: v = clamp_int(p.texturePitchAlignment); break;
    case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
    case cudaDevAttrStreamPrioritiesSupported: v = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: v = 1; break;
    case cudaDevAttrLocalL1CacheSupported: v = 1; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = clamp_int(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: v = p.managedMemory; break;
    case cudaDevAttrCooperativeLaunch: v = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = clamp_int(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: v = 2; break;
    default:
      // Other attributes of CUDA 13: features the model does not have (0).
      if (attr < cudaDevAttrMaxThreadsPerBlock || attr > cudaDevAttrMax) return false;
      v = 0;
  }
  *value = v;
  return true;
}

}  // namespace simt::cudart
