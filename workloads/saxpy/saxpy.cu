// y = a*x + y over n floats with a grid-stride loop: the simplest
// memory-bound map, every thread does the same work (warp-size-insensitive).
extern "C" __global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] = a * x[i] + y[i];
  }
}
