// A call simtlab does not implement answers cudaErrorNotSupported, as the
// last error too, with one `simtlab:` line naming it; the program goes on.
// A fatbin built without PTX (SASS only) is the same program built with
// -gencode arch=compute_75,code=sm_75: its launch fails with
// cudaErrorNoKernelImageForDevice and a line naming the option to add.
#include "check.cuh"

__global__ void add_one(int* v) { v[threadIdx.x] += 1; }

int main() {
  cudaGraph_t graph = nullptr;
  expect_code(cudaGraphCreate(&graph, 0), cudaErrorNotSupported, "graph_create_not_supported");
  expect_code(cudaGetLastError(), cudaErrorNotSupported, "last_error_not_supported");
  expect_code(cudaGetLastError(), cudaSuccess, "last_error_reset");
  int* v = nullptr;
  expect_ok(cudaMalloc(&v, 32 * sizeof(int)), "malloc");
  cudaMemset(v, 0, 32 * sizeof(int));
  add_one<<<1, 32>>>(v);
  expect_launch_ok("launch");
  int h[32];
  cudaMemcpy(h, v, sizeof h, cudaMemcpyDeviceToHost);
  check(h[31] == 1, "kernel_ran", "h[31] = %d", h[31]);
  return finish();
}
