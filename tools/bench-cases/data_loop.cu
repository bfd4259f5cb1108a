// Benchmark case (tools/bench --comparison): each thread loops a number of
// times read from memory (0..63), so the warps of a CTA diverge on the loop
// exit: the side-by-side data-dependent loop of docs/benchmark.md.
extern "C" __global__ void data_loop(const unsigned* trips, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned t = trips[i] & 63u;
  float v = x[i], acc = 0.0f;
  for (unsigned k = 0; k < t; ++k) {
    acc = acc * 0.5f + v;
    v = v * 1.0001f + 0.5f;
  }
  y[i] = acc;
}
