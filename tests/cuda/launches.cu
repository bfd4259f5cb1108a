// Six launches of three kernels, for --launches: the test driver runs
// launches 2-3 in timing mode and the rest functionally, and checks the
// stats file and the CSV. The kernels are extern "C" so their names in the
// statistics are plain.
#include <vector>

#include "check.cuh"

extern "C" __global__ void fill(int* v, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = k * i;
}

extern "C" __global__ void scale(int* v, int n, int f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= f;
}

extern "C" __global__ void total(const int* v, int n, int* sum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, v[i]);
}

int main() {
  const int n = 256;
  int *v = nullptr, *sum = nullptr;
  cudaMalloc(&v, n * sizeof(int));
  cudaMalloc(&sum, 2 * sizeof(int));
  cudaMemset(sum, 0, 2 * sizeof(int));
  fill<<<n / 64, 64>>>(v, n, 1);      // 1
  scale<<<n / 128, 128>>>(v, n, 3);   // 2
  scale<<<n / 32, 32>>>(v, n, -2);    // 3
  total<<<n / 64, 64>>>(v, n, sum);   // 4
  expect_launch_ok("launches_1_to_4");
  std::vector<int> got(n), want(n);
  cudaMemcpy(got.data(), v, n * sizeof(int), cudaMemcpyDeviceToHost);
  int want_sum = 0;
  for (int i = 0; i < n; ++i) want_sum += want[i] = -6 * i;
  expect_equal(got.data(), want.data(), n, "fill_scale_scale_result");
  fill<<<2, n / 2>>>(v, n, 5);             // 5
  total<<<n / 64, 64>>>(v, n, sum + 1);  // 6
  expect_launch_ok("launches_5_to_6");
  int sums[2] = {};
  cudaMemcpy(sums, sum, sizeof sums, cudaMemcpyDeviceToHost);
  check(sums[0] == want_sum, "total_after_scales", "%d, expected %d", sums[0], want_sum);
  check(sums[1] == 5 * n * (n - 1) / 2, "total_after_refill", "%d, expected %d", sums[1], 5 * n * (n - 1) / 2);
  cudaFree(v);
  cudaFree(sum);
  return finish();
}
