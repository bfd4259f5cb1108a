// __trap() in one thread aborts the kernel: the launch completes with
// cudaErrorLaunchFailure ("unspecified launch failure", what GPUs report
// for a trap), which is sticky.
#include "check.cuh"

extern "C" __global__ void trap_in_one_thread(int* v) {
  if (threadIdx.x == 5) __trap();
  v[threadIdx.x] = threadIdx.x;
}

int main() {
  int* v = nullptr;
  expect_ok(cudaMalloc(&v, 64 * sizeof(int)), "malloc");
  trap_in_one_thread<<<1, 4>>>(v);  // thread 5 does not exist: no trap
  expect_launch_ok("no_trap_launch");
  trap_in_one_thread<<<1, 32>>>(v);
  expect_sticky(cudaErrorLaunchFailure, v);
  return finish();
}
