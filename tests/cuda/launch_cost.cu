// What the CUDA runtime library costs a program (docs/benchmark.md): ten
// kernels registered and each launched once (start-up: registration and the
// PTX load), then N more launches of a trivial kernel (the cost of one
// launch). tools/bench --cuda times it with N = 0 and N large; the test
// driver runs it with a small N and checks the count. `launch_cost - S`
// reads N from standard input and exits with status S when it passes: the
// sweep test feeds an application's stdin and expects its exit status so.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "check.cuh"

#define KERNEL(i) \
  __global__ void k##i(int* c) { atomicAdd(c + (i), 1); }
KERNEL(0) KERNEL(1) KERNEL(2) KERNEL(3) KERNEL(4) KERNEL(5) KERNEL(6) KERNEL(7) KERNEL(8) KERNEL(9)

int main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 0;
  if (argc > 1 && std::strcmp(argv[1], "-") == 0 && std::scanf("%ld", &n) != 1) return 3;
  const int passed = argc > 2 ? std::atoi(argv[2]) : 0;
  int* c = nullptr;
  expect_code(cudaMalloc(&c, 10 * sizeof(int)), cudaSuccess, "malloc");
  cudaMemset(c, 0, 10 * sizeof(int));
  k0<<<1, 1>>>(c); k1<<<1, 1>>>(c); k2<<<1, 1>>>(c); k3<<<1, 1>>>(c); k4<<<1, 1>>>(c);
  k5<<<1, 1>>>(c); k6<<<1, 1>>>(c); k7<<<1, 1>>>(c); k8<<<1, 1>>>(c); k9<<<1, 1>>>(c);
  for (long i = 0; i < n; ++i) k0<<<1, 1>>>(c);
  int h[10] = {};
  expect_code(cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess, "copy back");
  bool ok = h[0] == 1 + n;
  for (int i = 1; i < 10; ++i) ok = ok && h[i] == 1;
  check(ok, "launch_count", "k0 ran %d times, expected %ld", h[0], 1 + n);
  return g_failed ? 1 : passed;
}
