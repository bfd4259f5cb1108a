// assert() failing in a kernel: the launch completes with cudaErrorAssert,
// which is sticky. (nvcc does not define NDEBUG: device asserts are on.)
#include <cassert>

#include "check.cuh"

extern "C" __global__ void all_positive(const int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(v[i] > 0);
}

int main() {
  const int n = 64;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i + 1;
  int* v = nullptr;
  expect_ok(cudaMalloc(&v, sizeof h), "malloc");
  cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice);
  all_positive<<<2, 32>>>(v, n);
  expect_launch_ok("assert_holds_launch");
  h[37] = 0;
  cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice);
  all_positive<<<2, 32>>>(v, n);
  expect_sticky(cudaErrorAssert, v);
  return finish();
}
