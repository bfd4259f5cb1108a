// What the CUDA runtime says about "the GPU" (cudaGetDeviceProperties,
// cudaDeviceGetAttribute), taken from the simtlab machine the program runs
// on: SMs, clock, per-SM limits, warp size, L2, memory. Facts the model has
// no notion of get the values of a plain discrete GPU of the compute
// capability the program's PTX targets (docs/cuda-apps.md lists them).
#pragma once

#include <cstdint>
#include <string>

#include "cudart/cuda_abi.h"

namespace simt::gpu { struct MachineConfig; }

namespace simt::cudart {

struct DeviceFacts {
  std::string name;             // "simtlab (<machine>)"
  uint32_t sms = 1, warp_size = 32, clock_khz = 1400000;
  uint32_t max_threads_per_sm = 1024, max_ctas_per_sm = 8, regs_per_sm = 16384;
  uint64_t shared_per_sm = 16384, l2_bytes = 0, global_bytes = 0;
  uint32_t memory_bus_bits = 0, memory_clock_khz = 0;
  uint32_t cc_major = 7, cc_minor = 5;  // from the PTX target (sm_75 -> 7.5)
};

// `arch`: the highest .target of the program's PTX (75 for sm_75), 0 = unknown (7.5).
DeviceFacts device_facts(const gpu::MachineConfig& m, const std::string& machine_name, uint64_t global_bytes,
                         uint32_t arch);

void fill_properties(const DeviceFacts& f, abi::cudaDeviceProp& p);
// false: not an attribute of CUDA 13's cudaDeviceAttr.
bool attribute(const DeviceFacts& f, int attr, int* value);

}  // namespace simt::cudart
