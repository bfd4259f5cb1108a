// The kernel behind fatbin_kernel.ptx (nvcc -ptx -arch=sm_75) and the real
// nvcc case of tests/cudart/test_fatbin.cpp: small, but more than one kernel.
__global__ void scale(float* a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}

__global__ void offset(int* a, int d) { a[threadIdx.x] += d; }
