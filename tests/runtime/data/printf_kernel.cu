// Device printf through vprintf, for tests/runtime/test_runner.cpp.
#include <cstdio>
extern "C" __global__ void hello(int base, double scale) {
  int t = threadIdx.x;
  if (t % 2 == 0) printf("t=%d v=%d s=%.3f %s\n", t, base + t, scale * t, t == 0 ? "first" : "other");
}
