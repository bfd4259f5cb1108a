// Separate compilation (-rdc=true), file A: its kernel calls a __device__
// function and updates a __device__ variable that rdc_b.cu defines, and
// rdc_b.cu's kernel uses a function and a variable of this file. Both files
// print from the device, so each one's PTX has its own $str constants
// under the same names.
#include <vector>

#include "check.cuh"

// Defined in rdc_b.cu.
extern __device__ int hits;
__device__ int scale_b(int x);
void run_b(int* v, int n);

// Used by rdc_b.cu.
__device__ int offset_a = 0;
__device__ int add_a(int x) { return x + offset_a; }

__global__ void kernel_a(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = scale_b(in[i]);
    atomicAdd(&hits, 1);
  }
  if (i == 0) printf("RDC_A kernel_a n=%d first=%d\n", n, out[0]);
}

int main() {
  const int n = 96;
  std::vector<int> h(n), got(n), want(n);
  for (int i = 0; i < n; ++i) h[i] = i - 10;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  const int zero = 0, offset = 1000;
  expect_ok(cudaMemcpyToSymbol(hits, &zero, sizeof zero), "memcpy_to_symbol_of_other_file");
  expect_ok(cudaMemcpyToSymbol(offset_a, &offset, sizeof offset), "memcpy_to_symbol_of_this_file");

  kernel_a<<<(n + 63) / 64, 64>>>(in, out, n);
  expect_launch_ok("kernel_a_launch");
  cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) want[i] = 3 * h[i] - 1;  // scale_b
  expect_equal(got.data(), want.data(), n, "kernel_a_calls_b");
  int count = -1;
  expect_ok(cudaMemcpyFromSymbol(&count, hits, sizeof count), "memcpy_from_symbol_of_other_file");
  check(count == n, "kernel_a_updates_b_variable", "hits %d, expected %d", count, n);

  run_b(out, n);  // kernel_b: v[i] = add_a(v[i]) + hits
  expect_launch_ok("kernel_b_launch");
  cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) want[i] = want[i] + offset + n;
  expect_equal(got.data(), want.data(), n, "kernel_b_calls_a");
  cudaFree(in);
  cudaFree(out);
  return finish();
}
