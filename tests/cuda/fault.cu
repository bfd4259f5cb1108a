// A kernel that stores far outside any allocation: the launch completes
// with cudaErrorIllegalAddress, which is sticky (every later call returns
// it). One thread faults: CTA (1,0,0), thread (3,0,0) of kernel
// store_far; "INFO fault_address=0x..." tells the test driver the address
// simtlab's fault message must name.
// `fault unknown`: the same, but the fault expected is simtlab's internal
// error (cudaErrorUnknown, sticky), which SIMTLAB_TEST_FAIL_LAUNCH=2 makes
// of store_far's launch.
#include <cstdint>
#include <cstring>

#include "check.cuh"

extern "C" __global__ void fill_ids(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = i;
}

extern "C" __global__ void store_far(int* v, long long far) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 1 && threadIdx.x == 3) v[far] = -1;  // 64 GiB past the buffer
  else v[i] = 2 * i;
}

int main(int argc, char** argv) {
  const bool internal = argc > 1 && std::strcmp(argv[1], "unknown") == 0;
  const cudaError_t want = internal ? cudaErrorUnknown : cudaErrorIllegalAddress;
  const int n = 64;
  int* v = nullptr;
  expect_ok(cudaMalloc(&v, n * sizeof(int)), "malloc");
  fill_ids<<<2, 32>>>(v, n);
  expect_launch_ok("fill_ids_launch");
  int h[n];
  cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && h[i] == i;
  check(ok, "fill_ids_result");

  const long long far = (1LL << 36) / static_cast<long long>(sizeof(int));
  std::printf("INFO fault_address=0x%llx\n",
              static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(v) + far * sizeof(int)));
  std::fflush(stdout);
  store_far<<<2, 32>>>(v, far);
  expect_sticky(want, v);
  fill_ids<<<1, 32>>>(v, n);
  expect_code(cudaDeviceSynchronize(), want, "fault_later_launch");
  return finish();
}
