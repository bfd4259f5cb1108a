// Benchmark case (tools/bench --comparison): c = a + b on floats, one thread
// per element: the side-by-side vector add of docs/benchmark.md.
extern "C" __global__ void vecadd(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
