// Separate compilation, file B (see rdc_a.cu).
#include <cstdio>

#include <cuda_runtime.h>

__device__ int hits = 0;

extern __device__ int offset_a;
__device__ int add_a(int x);

__device__ int scale_b(int x) {
  if (x == 0) printf("RDC_B scale_b saw zero\n");
  return 3 * x - 1;
}

__global__ void kernel_b(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = add_a(v[i]) + hits;
  if (i == 0) printf("RDC_B kernel_b offset=%d hits=%d\n", offset_a, hits);
}

void run_b(int* v, int n) { kernel_b<<<(n + 31) / 32, 32>>>(v, n); }
