// Sum of ints in two launches: each CTA reduces a grid-strided share of the
// input (two loads per step) into shared memory, halves it with a tree down
// to 64 values, and the first warp finishes with register shuffles. The
// second launch runs the same kernel on the per-CTA partial sums with one CTA.
// Requires blockDim.x to be a power of two and at least 64.
extern "C" __global__ void reduce_sum(const int* __restrict__ in, int n, int* __restrict__ out) {
  extern __shared__ int partial[];
  const unsigned tid = threadIdx.x;
  const unsigned span = blockDim.x * 2;

  int sum = 0;
  for (unsigned i = blockIdx.x * span + tid; i < (unsigned)n; i += span * gridDim.x) {
    sum += in[i];
    if (i + blockDim.x < (unsigned)n) sum += in[i + blockDim.x];
  }
  partial[tid] = sum;
  __syncthreads();

  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }

  if (tid < 32) {
    int v = partial[tid] + partial[tid + 32];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0) out[blockIdx.x] = v;
  }
}
