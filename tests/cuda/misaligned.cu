// An 8-byte load from an address that is 4 mod 8: the launch completes with
// cudaErrorMisalignedAddress, which is sticky.
#include "check.cuh"

extern "C" __global__ void load_misaligned(const char* base, int offset, double* out) {
  if (threadIdx.x == 0) *out = *reinterpret_cast<const double*>(base + offset);
}

int main() {
  char* buf = nullptr;
  double* out = nullptr;
  expect_ok(cudaMalloc(&buf, 64), "malloc_buffer");
  expect_ok(cudaMalloc(&out, sizeof(double)), "malloc_out");
  cudaMemset(buf, 0, 64);
  load_misaligned<<<1, 32>>>(buf, 8, out);  // aligned first: this one works
  expect_launch_ok("aligned_load_launch");
  load_misaligned<<<1, 32>>>(buf, 12, out);
  expect_sticky(cudaErrorMisalignedAddress, out);
  return finish();
}
