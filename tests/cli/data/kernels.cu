// Kernels driven by JSON manifests in tests/cli (no C++ host code).
// nested: out[i] = sum over j < (in[i] & 15) of (in[i] * j) scaled, a
// data-dependent loop nest; oob: writes one element past the end.
extern "C" __global__ void nested(const int* in, int* out, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  int acc = 0;
  for (int j = 0; j < (v & 15); ++j)
    for (int k = 0; k <= (j & 3); ++k) acc += v * j + k;
  out[i] = static_cast<int>(acc * scale);
}

extern "C" __global__ void oob(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = i;  // i == n is one past the end
}
