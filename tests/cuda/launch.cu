// Launching: cudaLaunchKernel by function pointer, a cooperative launch
// whose grid synchronises (cooperative_groups), the opt-in for more dynamic
// shared memory, 3D grids and blocks, templated kernels, and parameters of
// every size and alignment (a struct by value, doubles, chars).
#include <cooperative_groups.h>
#include <cstring>
#include <vector>

#include "check.cuh"

namespace cg = cooperative_groups;

__global__ void axpb(const int* x, int* y, int a, int b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

// Phase 2 reads what another block wrote in phase 1.
__global__ void rotate_through_grid(int* a, int* b, int n) {
  cg::grid_group grid = cg::this_grid();
  const int i = static_cast<int>(grid.thread_rank());
  if (i < n) a[i] = i * i;
  grid.sync();
  if (i < n) b[i] = a[(i + blockDim.x + 1) % n] + 1;
}

// Fills and sums all of its dynamic shared memory.
__global__ void use_all_shared(int* sums, int words) {
  extern __shared__ int pool[];
  for (int k = threadIdx.x; k < words; k += blockDim.x) pool[k] = k % 97;
  __syncthreads();
  int s = 0;  // reads the words another thread wrote
  for (int k = (threadIdx.x + 1) % blockDim.x; k < words; k += blockDim.x) s += pool[k];
  atomicAdd(&sums[blockIdx.x], s);
}

// Every thread of a 3D grid of 3D blocks writes its coordinates.
__global__ void coordinates(int* out) {
  const int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const int threads = blockDim.x * blockDim.y * blockDim.z;
  out[block * threads + thread] = blockIdx.x * 100000 + blockIdx.y * 10000 + blockIdx.z * 1000 +
                                  threadIdx.x * 100 + threadIdx.y * 10 + threadIdx.z;
}

template <typename T, int K>
__global__ void scale_add(T* v, T f, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * f + static_cast<T>(K);
}

struct Params {
  char tag;
  double offset;
  int n;
  float scale;
  short s[3];
  long long big;
  int3 dims;
};

__global__ void use_params(Params p, double extra, char c, float* out) {
  const int i = threadIdx.x;
  if (i < p.n)
    out[i] = static_cast<float>((i * p.scale + p.offset + extra) + p.tag + c + p.s[0] + p.s[1] + p.s[2] +
                                static_cast<double>(p.big % 1000) + p.dims.x + p.dims.y * p.dims.z);
}

// Mixed scalar sizes in a row: the argument buffer's alignment rules.
__global__ void mixed_args(char a, double b, short c, long long d, unsigned char e, float f, double* out) {
  if (threadIdx.x == 0) {
    out[0] = a;
    out[1] = b;
    out[2] = c;
    out[3] = static_cast<double>(d);
    out[4] = e;
    out[5] = f;
  }
}

struct Big {
  int v[256];  // 1 KiB by value
};

__global__ void sum_big(Big b, int* out) {
  if (threadIdx.x == 0) {
    int s = 0;
    for (int k = 0; k < 256; ++k) s += b.v[k];
    *out = s;
  }
}

static void launch_by_pointer() {
  const int n = 200;
  std::vector<int> h(n), got(n), want(n);
  for (int i = 0; i < n; ++i) {
    h[i] = i - 50;
    want[i] = 4 * h[i] - 9;
  }
  int *x = nullptr, *y = nullptr;
  cudaMalloc(&x, n * sizeof(int));
  cudaMalloc(&y, n * sizeof(int));
  cudaMemcpy(x, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int a = 4, b = -9, count = n;
  void* args[] = {&x, &y, &a, &b, &count};
  expect_ok(cudaLaunchKernel(reinterpret_cast<const void*>(axpb), dim3((n + 63) / 64), dim3(64), args, 0, nullptr),
            "launch_kernel");
  expect_launch_ok("launch_kernel_complete");
  cudaMemcpy(got.data(), y, n * sizeof(int), cudaMemcpyDeviceToHost);
  expect_equal(got.data(), want.data(), n, "launch_kernel_result");
  cudaFree(x);
  cudaFree(y);
}

static void cooperative(const cudaDeviceProp& p) {
  int supported = 0;
  expect_ok(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0), "attribute_cooperative_launch");
  check(supported == 1 && p.cooperativeLaunch == 1, "cooperative_launch_supported", "attribute %d, property %d",
        supported, p.cooperativeLaunch);
  const int threads = 64;
  int per_sm = 0;
  expect_ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rotate_through_grid, threads, 0),
            "cooperative_occupancy");
  int blocks = per_sm * p.multiProcessorCount;
  if (blocks > 4) blocks = 4;
  if (blocks < 1) blocks = 1;
  const int n = blocks * threads;
  int *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaMemset(a, 0, n * sizeof(int));
  int count = n;
  void* args[] = {&a, &b, &count};
  expect_ok(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(rotate_through_grid), dim3(blocks),
                                        dim3(threads), args, 0, nullptr),
            "launch_cooperative_kernel");
  expect_launch_ok("cooperative_complete");
  std::vector<int> got(n), want(n);
  cudaMemcpy(got.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    const int j = (i + threads + 1) % n;
    want[i] = j * j + 1;
  }
  std::printf("INFO cooperative blocks=%d\n", blocks);
  expect_equal(got.data(), want.data(), n, "cooperative_grid_sync_result");
  cudaFree(a);
  cudaFree(b);
}

static void shared_opt_in(const cudaDeviceProp& p) {
  // As much dynamic shared memory as the device lets one block opt in to.
  cudaFuncAttributes fa;
  std::memset(&fa, 0, sizeof fa);
  cudaFuncGetAttributes(&fa, use_all_shared);
  const int bytes = static_cast<int>(p.sharedMemPerBlockOptin - fa.sharedSizeBytes) / 1024 * 1024;
  std::printf("INFO shared_optin=%zu requested=%d\n", p.sharedMemPerBlockOptin, bytes);
  expect_ok(cudaFuncSetAttribute(use_all_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
            "func_set_attribute_max_dynamic_shared");
  std::memset(&fa, 0, sizeof fa);
  expect_ok(cudaFuncGetAttributes(&fa, use_all_shared), "func_get_attributes_after_set");
  check(fa.maxDynamicSharedSizeBytes == bytes, "func_attribute_kept", "maxDynamicSharedSizeBytes %d, set %d",
        fa.maxDynamicSharedSizeBytes, bytes);
  expect_ok(cudaFuncSetCacheConfig(use_all_shared, cudaFuncCachePreferShared), "func_set_cache_config");
  const int words = bytes / static_cast<int>(sizeof(int));
  int* sums = nullptr;
  cudaMalloc(&sums, 2 * sizeof(int));
  cudaMemset(sums, 0, 2 * sizeof(int));
  use_all_shared<<<2, 128, bytes>>>(sums, words);
  expect_launch_ok("opt_in_shared_launch");
  int got[2] = {}, want = 0;
  for (int k = 0; k < words; ++k) want += k % 97;
  cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost);
  const int want2[2] = {want, want};
  expect_equal(got, want2, 2, "opt_in_shared_result");
  // More than the opt-in limit is refused.
  expect_code(cudaFuncSetAttribute(use_all_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(p.sharedMemPerBlockOptin) + 1024),
              cudaErrorInvalidValue, "func_set_attribute_beyond_opt_in");
  cudaGetLastError();
  cudaFree(sums);
}

// A grid of more CTAs than a CTA may have threads (1250 x 32): the launch
// checks must look at the block, not the grid.
static void big_grid() {
  const int n = 40000;
  int *x = nullptr, *y = nullptr;
  cudaMalloc(&x, n * sizeof(int));
  cudaMalloc(&y, n * sizeof(int));
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i;
  cudaMemcpy(x, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  axpb<<<(n + 31) / 32, 32>>>(x, y, 3, 1, n);
  expect_launch_ok("big_grid_launch");
  std::vector<int> got(n), want(n);
  cudaMemcpy(got.data(), y, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) want[i] = 3 * i + 1;
  expect_equal(got.data(), want.data(), n, "big_grid_result");
  cudaFree(x);
  cudaFree(y);
}

static void grids_and_templates() {
  const dim3 grid(3, 2, 2), block(4, 2, 3);
  const int threads = 4 * 2 * 3, total = 3 * 2 * 2 * threads;
  int* out = nullptr;
  cudaMalloc(&out, total * sizeof(int));
  coordinates<<<grid, block>>>(out);
  expect_launch_ok("coordinates_launch");
  std::vector<int> got(total), want(total);
  cudaMemcpy(got.data(), out, total * sizeof(int), cudaMemcpyDeviceToHost);
  for (int bz = 0; bz < 2; ++bz)
    for (int by = 0; by < 2; ++by)
      for (int bx = 0; bx < 3; ++bx)
        for (int tz = 0; tz < 3; ++tz)
          for (int ty = 0; ty < 2; ++ty)
            for (int tx = 0; tx < 4; ++tx) {
              const int blk = (bz * 2 + by) * 3 + bx, thr = (tz * 2 + ty) * 4 + tx;
              want[blk * threads + thr] = bx * 100000 + by * 10000 + bz * 1000 + tx * 100 + ty * 10 + tz;
            }
  expect_equal(got.data(), want.data(), total, "grid_3d_coordinates");
  cudaFree(out);

  const int n = 70;
  std::vector<int> vi(n), wi(n);
  std::vector<double> vd(n), wd(n);
  for (int i = 0; i < n; ++i) {
    vi[i] = i - 3;
    wi[i] = vi[i] * -3 + 5;
    vd[i] = 0.125 * i;
    wd[i] = vd[i] * 2.5 + 2.0;
  }
  int* di = nullptr;
  double* dd = nullptr;
  cudaMalloc(&di, n * sizeof(int));
  cudaMalloc(&dd, n * sizeof(double));
  cudaMemcpy(di, vi.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, vd.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  scale_add<int, 5><<<1, 96>>>(di, -3, n);
  expect_launch_ok("template_int_launch");
  scale_add<double, 2><<<2, 48>>>(dd, 2.5, n);
  expect_launch_ok("template_double_launch");
  cudaMemcpy(vi.data(), di, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(vd.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost);
  expect_equal(vi.data(), wi.data(), n, "template_int_result");
  expect_equal(vd.data(), wd.data(), n, "template_double_result");
  cudaFree(di);
  cudaFree(dd);
}

static void parameters() {
  Params p;
  std::memset(&p, 0, sizeof p);
  p.tag = 3;
  p.offset = 0.25;
  p.n = 40;
  p.scale = 1.5f;
  p.s[0] = -7;
  p.s[1] = 11;
  p.s[2] = 300;
  p.big = 123456789012345LL;
  p.dims = make_int3(2, 5, 7);
  const double extra = 1.0 / 1024;
  const char c = -2;
  float* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(float));
  use_params<<<1, 64>>>(p, extra, c, out);
  expect_launch_ok("struct_by_value_launch");
  std::vector<float> got(p.n), want(p.n);
  cudaMemcpy(got.data(), out, p.n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < p.n; ++i)
    want[i] = static_cast<float>((i * p.scale + p.offset + extra) + p.tag + c + p.s[0] + p.s[1] + p.s[2] +
                                 static_cast<double>(p.big % 1000) + p.dims.x + p.dims.y * p.dims.z);
  expect_equal(got.data(), want.data(), p.n, "struct_by_value_result");

  double* dout = nullptr;
  cudaMalloc(&dout, 6 * sizeof(double));
  mixed_args<<<1, 32>>>(-5, 3.0e-7, -1234, -9876543210123LL, 250, 0.75f, dout);
  expect_launch_ok("mixed_args_launch");
  double gd[6] = {};
  cudaMemcpy(gd, dout, sizeof gd, cudaMemcpyDeviceToHost);
  const double wd[6] = {-5, 3.0e-7, -1234, -9876543210123.0, 250, 0.75};
  expect_equal(gd, wd, 6, "mixed_args_result");

  Big big;
  int want_sum = 0;
  for (int k = 0; k < 256; ++k) want_sum += big.v[k] = k * 3 - 100;
  int* dsum = nullptr;
  cudaMalloc(&dsum, sizeof(int));
  sum_big<<<1, 32>>>(big, dsum);
  expect_launch_ok("big_struct_launch");
  int got_sum = 0;
  cudaMemcpy(&got_sum, dsum, sizeof(int), cudaMemcpyDeviceToHost);
  check(got_sum == want_sum, "big_struct_result", "sum %d, expected %d", got_sum, want_sum);
  cudaFree(out);
  cudaFree(dout);
  cudaFree(dsum);
}

// cudaLaunchKernelEx (cuda_runtime.h's template over cudaLaunchKernelExC),
// with the cooperative attribute: grid.sync() must work as with
// cudaLaunchCooperativeKernel.
void launch_ex() {
  const int n = 64;
  int *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(2);
  config.blockDim = dim3(n / 2);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  config.attrs = attr;
  config.numAttrs = 1;
  expect_ok(cudaLaunchKernelEx(&config, rotate_through_grid, a, b, n), "launch_kernel_ex");
  std::vector<int> out(n);
  cudaMemcpy(out.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> want(n);
  for (int i = 0; i < n; ++i) {
    const int j = (i + n / 2 + 1) % n;  // another CTA's element, written before grid.sync()
    want[i] = j * j + 1;
  }
  expect_equal(out.data(), want.data(), n, "launch_kernel_ex_result");
  cudaFree(a);
  cudaFree(b);
}

int main() {
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  expect_ok(cudaGetDeviceProperties(&p, 0), "get_device_properties");
  launch_by_pointer();
  launch_ex();
  big_grid();
  cooperative(p);
  shared_opt_in(p);
  grids_and_templates();
  parameters();
  return finish();
}
