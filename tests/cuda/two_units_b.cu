#include "check.cuh"

static __device__ int unit_value = 200;  // unit A has its own of the same name

__global__ void from_b(int* out) { out[threadIdx.x] = unit_value + threadIdx.x; }

void run_a(int* out);

int main() {
  int* d = nullptr;
  expect_ok(cudaMalloc(&d, 16 * sizeof(int)), "malloc");
  run_a(d);
  expect_launch_ok("launch_a");
  from_b<<<1, 8>>>(d + 8);
  expect_launch_ok("launch_b");
  int h[16];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int want[16];
  for (int i = 0; i < 8; ++i) {
    want[i] = 100 + i;
    want[8 + i] = 200 + i;
  }
  expect_equal(h, want, 16, "each_unit_its_own_kernel_and_variable");
  return finish();
}
