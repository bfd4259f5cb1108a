// Device management: count, selection, properties against attributes,
// versions, memory info, kernel attributes and the occupancy API, then a
// launch shaped by that API (as real host code does).
#include <cstring>
#include <vector>

#include "check.cuh"

__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Static shared memory, so cudaFuncGetAttributes has a size to report.
__global__ void block_sum(const int* in, int* out) {
  __shared__ int part[256];
  part[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < blockDim.x; ++i) s += part[i];
    out[blockIdx.x] = s;
  }
}

static void attribute_matches(cudaDeviceAttr attr, long long prop_value, const char* name) {
  int v = -1;
  const cudaError_t e = cudaDeviceGetAttribute(&v, attr, 0);
  check(e == cudaSuccess && v == prop_value, name, "%s, attribute %d, property %lld", cudaGetErrorName(e), v,
        prop_value);
}

static bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

int main() {
  int count = 0;
  expect_ok(cudaGetDeviceCount(&count), "get_device_count");
  check(count >= 1, "device_count_positive", "count %d", count);
  expect_ok(cudaSetDevice(0), "set_device");
  int dev = -1;
  expect_ok(cudaGetDevice(&dev), "get_device");
  check(dev == 0, "get_device_is_0", "device %d", dev);

  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  expect_ok(cudaGetDeviceProperties(&p, 0), "get_device_properties");
  std::printf("INFO sms=%d warp=%d\n", p.multiProcessorCount, p.warpSize);
  std::printf("INFO name=%s cc=%d.%d threads_per_block=%d threads_per_sm=%d shared_per_block=%zu "
              "shared_optin=%zu regs_per_block=%d global_mem=%zu l2=%d\n",
              p.name, p.major, p.minor, p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor, p.sharedMemPerBlock,
              p.sharedMemPerBlockOptin, p.regsPerBlock, p.totalGlobalMem, p.l2CacheSize);
  check(std::strlen(p.name) > 0, "property_name");
  check(power_of_two(p.warpSize) && p.warpSize <= 64, "property_warp_size", "warpSize %d", p.warpSize);
  check(p.multiProcessorCount >= 1, "property_sm_count", "multiProcessorCount %d", p.multiProcessorCount);
  check(p.major >= 1 && p.minor >= 0 && p.minor < 10, "property_compute_capability", "%d.%d", p.major, p.minor);
  check(p.maxThreadsPerBlock >= p.warpSize && p.maxThreadsPerBlock <= p.maxThreadsPerMultiProcessor,
        "property_thread_limits", "maxThreadsPerBlock %d, maxThreadsPerMultiProcessor %d", p.maxThreadsPerBlock,
        p.maxThreadsPerMultiProcessor);
  check(p.maxThreadsDim[0] >= 1 && p.maxThreadsDim[0] <= p.maxThreadsPerBlock && p.maxGridSize[0] >= 65535,
        "property_dimensions", "maxThreadsDim[0] %d, maxGridSize[0] %d", p.maxThreadsDim[0], p.maxGridSize[0]);
  check(p.sharedMemPerBlock > 0 && p.sharedMemPerBlockOptin >= p.sharedMemPerBlock &&
            p.sharedMemPerMultiprocessor >= p.sharedMemPerBlock,
        "property_shared_memory", "per block %zu, opt-in %zu, per SM %zu", p.sharedMemPerBlock,
        p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor);
  check(p.regsPerBlock > 0 && p.totalGlobalMem > 0, "property_registers_and_memory");

  // The properties and the attribute queries tell the same device.
  attribute_matches(cudaDevAttrWarpSize, p.warpSize, "attribute_warp_size");
  // A copy engine (programs that test deviceOverlap, removed in CUDA 12, now read these).
  attribute_matches(cudaDevAttrAsyncEngineCount, p.asyncEngineCount, "attribute_async_engines");
  attribute_matches(cudaDevAttrGpuOverlap, 1, "attribute_gpu_overlap");
  attribute_matches(cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "attribute_sm_count");
  attribute_matches(cudaDevAttrComputeCapabilityMajor, p.major, "attribute_cc_major");
  attribute_matches(cudaDevAttrComputeCapabilityMinor, p.minor, "attribute_cc_minor");
  attribute_matches(cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock, "attribute_threads_per_block");
  attribute_matches(cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor,
                    "attribute_threads_per_sm");
  attribute_matches(cudaDevAttrMaxSharedMemoryPerBlock, static_cast<long long>(p.sharedMemPerBlock),
                    "attribute_shared_per_block");
  attribute_matches(cudaDevAttrMaxSharedMemoryPerBlockOptin, static_cast<long long>(p.sharedMemPerBlockOptin),
                    "attribute_shared_optin");
  attribute_matches(cudaDevAttrMaxRegistersPerBlock, p.regsPerBlock, "attribute_regs_per_block");
  attribute_matches(cudaDevAttrL2CacheSize, p.l2CacheSize, "attribute_l2_size");
  attribute_matches(cudaDevAttrMaxBlockDimX, p.maxThreadsDim[0], "attribute_block_dim_x");
  attribute_matches(cudaDevAttrMaxGridDimX, p.maxGridSize[0], "attribute_grid_dim_x");
  int clock_khz = 0;
  expect_ok(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0), "attribute_clock_rate");
  std::printf("INFO clock_khz=%d\n", clock_khz);
  check(clock_khz > 0, "clock_rate_positive", "%d kHz", clock_khz);
  int bad = 0;
  expect_code(cudaDeviceGetAttribute(&bad, cudaDevAttrWarpSize, count), cudaErrorInvalidDevice,
              "attribute_of_missing_device");
  cudaGetLastError();

  int driver = 0, runtime = 0;
  expect_ok(cudaDriverGetVersion(&driver), "driver_version");
  expect_ok(cudaRuntimeGetVersion(&runtime), "runtime_version");
  std::printf("INFO driver=%d runtime=%d\n", driver, runtime);
  check(runtime / 1000 == CUDART_VERSION / 1000, "runtime_version_major", "runtime %d, built with %d", runtime,
        CUDART_VERSION);
  check(driver >= runtime, "driver_not_older_than_runtime", "driver %d, runtime %d", driver, runtime);

  // Allocating takes memory away from what is free.
  size_t free0 = 0, total = 0, free1 = 0, total1 = 0;
  expect_ok(cudaMemGetInfo(&free0, &total), "mem_get_info");
  std::printf("INFO free=%zu total=%zu\n", free0, total);
  check(total > 0 && free0 <= total, "mem_info_sane", "free %zu, total %zu", free0, total);
  check(total == p.totalGlobalMem, "mem_info_total_is_global_mem", "total %zu, totalGlobalMem %zu", total,
        p.totalGlobalMem);
  const size_t big = size_t{8} << 20;
  void* block = nullptr;
  expect_ok(cudaMalloc(&block, big), "malloc_8mib");
  expect_ok(cudaMemGetInfo(&free1, &total1), "mem_get_info_after_malloc");
  check(free1 + big <= free0 && total1 == total, "mem_info_follows_malloc", "free %zu before, %zu after", free0,
        free1);
  expect_ok(cudaFree(block), "free_8mib");

  // What the runtime knows of a kernel.
  cudaFuncAttributes fa;
  std::memset(&fa, 0, sizeof fa);
  expect_ok(cudaFuncGetAttributes(&fa, block_sum), "func_get_attributes");
  std::printf("INFO block_sum regs=%d shared=%zu max_threads=%d ptx=%d binary=%d\n", fa.numRegs, fa.sharedSizeBytes,
              fa.maxThreadsPerBlock, fa.ptxVersion, fa.binaryVersion);
  check(fa.numRegs > 0, "func_num_regs", "numRegs %d", fa.numRegs);
  check(fa.maxThreadsPerBlock > 0 && fa.maxThreadsPerBlock <= p.maxThreadsPerBlock, "func_max_threads",
        "maxThreadsPerBlock %d, device %d", fa.maxThreadsPerBlock, p.maxThreadsPerBlock);
  check(fa.sharedSizeBytes >= 256 * sizeof(int), "func_static_shared", "sharedSizeBytes %zu", fa.sharedSizeBytes);
  check(fa.ptxVersion == 75, "func_ptx_version", "ptxVersion %d (built for compute_75)", fa.ptxVersion);

  // Occupancy: the template's answer and the per-SM query must agree.
  int min_grid = 0, block_size = 0;
  expect_ok(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, saxpy, 0, 0), "occupancy_potential");
  int per_sm = 0;
  expect_ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, saxpy, block_size, 0), "occupancy_per_sm");
  int per_sm_32 = 0;
  expect_ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_32, saxpy, p.warpSize, 0),
            "occupancy_per_sm_one_warp");
  std::printf("INFO occupancy block=%d min_grid=%d blocks_per_sm=%d blocks_per_sm_one_warp=%d\n", block_size,
              min_grid, per_sm, per_sm_32);
  check(block_size > 0 && block_size <= p.maxThreadsPerBlock,
        "occupancy_block_in_range", "block %d", block_size);
  check(block_size % p.warpSize == 0, "occupancy_block_whole_warps", "block %d, warp %d", block_size, p.warpSize);
  check(per_sm >= 1 && per_sm * block_size <= p.maxThreadsPerMultiProcessor, "occupancy_fits_sm",
        "%d blocks of %d threads, SM holds %d threads", per_sm, block_size, p.maxThreadsPerMultiProcessor);
  check(min_grid == per_sm * p.multiProcessorCount, "occupancy_min_grid", "min grid %d, %d per SM x %d SMs",
        min_grid, per_sm, p.multiProcessorCount);
  check(per_sm_32 >= per_sm && per_sm_32 <= p.maxBlocksPerMultiProcessor, "occupancy_one_warp_blocks",
        "%d blocks of one warp, %d blocks of %d threads, at most %d per SM", per_sm_32, per_sm, block_size,
        p.maxBlocksPerMultiProcessor);

  // A launch shaped by the occupancy answer.
  const int n = 1000;
  std::vector<float> x(n), y(n), want(n), got(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1000.0f - i;
    want[i] = 3.0f * x[i] + y[i];
  }
  float *dx = nullptr, *dy = nullptr;
  expect_ok(cudaMalloc(&dx, n * sizeof(float)), "malloc_x");
  expect_ok(cudaMalloc(&dy, n * sizeof(float)), "malloc_y");
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const int bs = block_size > 0 ? block_size : 128;
  saxpy<<<(n + bs - 1) / bs, bs>>>(n, 3.0f, dx, dy);
  expect_launch_ok("saxpy_launch");
  expect_ok(cudaMemcpy(got.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost), "saxpy_copy_back");
  expect_equal(got.data(), want.data(), n, "saxpy_result");

  // The static-shared kernel too: its attributes describe something real.
  std::vector<int> in(4 * 256), sums(4), want_sums(4, 0);
  for (int i = 0; i < 4 * 256; ++i) {
    in[i] = (i * 7) % 13 - 6;
    want_sums[i / 256] += in[i];
  }
  int *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, in.size() * sizeof(int));
  cudaMalloc(&dout, sums.size() * sizeof(int));
  cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice);
  block_sum<<<4, 256>>>(din, dout);
  expect_launch_ok("block_sum_launch");
  cudaMemcpy(sums.data(), dout, sums.size() * sizeof(int), cudaMemcpyDeviceToHost);
  expect_equal(sums.data(), want_sums.data(), 4, "block_sum_result");
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(din);
  cudaFree(dout);
  expect_ok(cudaDeviceSynchronize(), "device_synchronize");
  expect_ok(cudaDeviceReset(), "device_reset");
  return finish();
}
