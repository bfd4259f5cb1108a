// Managed memory: cudaMallocManaged and __managed__ variables are written
// by the host, updated by kernels and read by the host after
// cudaDeviceSynchronize, with no explicit copies. It prints where its
// __managed__ variable is: `simtlab exec` turns address randomisation off, so
// that address (the device's too) is the same in every run.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.cuh"

__managed__ int launches_seen;
__managed__ float weights[8];

__global__ void update(int* data, int n, int bias) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * 3 + bias + static_cast<int>(weights[i % 8]);
  if (i == 0) atomicAdd(&launches_seen, 1);
}

__global__ void scale_weights(float f) {
  if (threadIdx.x < 8) weights[threadIdx.x] *= f;
}

int main() {
  const int n = 500;
  int* data = nullptr;
  expect_ok(cudaMallocManaged(&data, n * sizeof(int)), "malloc_managed");
  if (!data) return finish();
  for (int i = 0; i < n; ++i) data[i] = i - 200;  // the host writes the allocation directly
  launches_seen = 40;
  for (int k = 0; k < 8; ++k) weights[k] = static_cast<float>(k);

  update<<<(n + 127) / 128, 128>>>(data, n, 7);
  expect_launch_ok("update_launch");
  std::vector<int> want(n);
  for (int i = 0; i < n; ++i) want[i] = (i - 200) * 3 + 7 + i % 8;
  expect_equal(data, want.data(), n, "managed_allocation_result");
  check(launches_seen == 41, "managed_variable_result", "launches_seen %d, expected 41", launches_seen);

  // The host's later writes are seen by the next kernel too.
  scale_weights<<<1, 8>>>(2.0f);
  expect_launch_ok("scale_weights_launch");
  float want_w[8];
  for (int k = 0; k < 8; ++k) want_w[k] = 2.0f * k;
  expect_equal(weights, want_w, 8, "managed_array_result");
  for (int i = 0; i < n; ++i) data[i] = i;
  update<<<(n + 127) / 128, 128>>>(data, n, -1);
  expect_launch_ok("update_again_launch");
  for (int i = 0; i < n; ++i) want[i] = i * 3 - 1 + 2 * (i % 8);
  expect_equal(data, want.data(), n, "managed_second_result");
  check(launches_seen == 42, "managed_variable_second", "launches_seen %d, expected 42", launches_seen);

  // Managed memory is device memory for the copy API as well.
  std::vector<int> copy(n, 0);
  expect_ok(cudaMemcpy(copy.data(), data, n * sizeof(int), cudaMemcpyDefault), "memcpy_from_managed");
  expect_equal(copy.data(), want.data(), n, "memcpy_from_managed_result");
  int* dev = nullptr;
  cudaMalloc(&dev, n * sizeof(int));
  cudaMemset(dev, 0, n * sizeof(int));
  expect_ok(cudaMemcpy(data, dev, n * sizeof(int), cudaMemcpyDefault), "memcpy_into_managed");
  std::vector<int> zeros(n, 0);
  expect_equal(data, zeros.data(), n, "memcpy_into_managed_result");
  cudaFree(dev);
  std::printf("INFO managed_at=%llu\n", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(&launches_seen)));
  expect_ok(cudaFree(data), "free_managed");

  // Zero-copy: a kernel writes page-locked host memory through the pointer
  // cudaHostGetDevicePointer gives (the same address, with unified addressing).
  int* pinned = nullptr;
  expect_ok(cudaHostAlloc(&pinned, n * sizeof(int), cudaHostAllocMapped), "host_alloc_mapped");
  for (int i = 0; i < n; ++i) pinned[i] = i;
  int* mapped = nullptr;
  expect_ok(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped), pinned, 0), "host_get_device_pointer");
  update<<<(n + 127) / 128, 128>>>(mapped, n, 5);
  expect_launch_ok("zero_copy_launch");
  for (int i = 0; i < n; ++i) want[i] = i * 3 + 5 + 2 * (i % 8);
  expect_equal(pinned, want.data(), n, "zero_copy_result");
  expect_ok(cudaFreeHost(pinned), "free_host_mapped");
  return finish();
}
