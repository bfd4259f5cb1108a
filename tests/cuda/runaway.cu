// A kernel that never ends (a spin on a flag nothing sets) is stopped by
// simtlab's usual runaway limits: the launch completes with
// cudaErrorLaunchTimeout ("the launch timed out and was terminated", what a
// GPU's watchdog gives), sticky like any fault.
#include "check.cuh"

extern "C" __global__ void spin(volatile int* flag) {
  while (*flag == 0) {
  }
}

int main() {
  int* flag = nullptr;
  expect_ok(cudaMalloc(&flag, sizeof(int)), "malloc");
  cudaMemset(flag, 0, sizeof(int));
  spin<<<1, 32>>>(flag);
  expect_sticky(cudaErrorLaunchTimeout, flag);
  return finish();
}
