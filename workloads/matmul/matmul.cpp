// matmul host side: C = A * B with 16x16 shared-memory tiles. The sizes are
// deliberately not all multiples of 16 so the edge tiles' zero padding runs.
#include <cmath>

#include "common.h"

namespace simt::workloads {
namespace {

struct MatmulShape {
  int m, n, k;
};

MatmulShape shape_for(Size size) {
  switch (size) {
    case Size::Small: return {64, 72, 48};
    case Size::Medium: return {208, 192, 200};
    case Size::Large: return {480, 464, 320};
  }
  return {0, 0, 0};
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "matmul");
  const MatmulShape s = shape_for(size);
  const uint32_t tile = 16;

  Rng rng(0x3a7301);
  std::vector<float> a(static_cast<size_t>(s.m) * s.k), b(static_cast<size_t>(s.k) * s.n);
  for (auto& v : a) v = rng.unit() * 2.0f - 1.0f;
  for (auto& v : b) v = rng.unit() * 2.0f - 1.0f;
  const uint64_t d_a = dev.upload(a);
  const uint64_t d_b = dev.upload(b);
  const uint64_t d_c = dev.malloc(static_cast<uint64_t>(s.m) * s.n * sizeof(float));

  runtime::KernelArgs args;
  args.push<uint64_t>(d_a).push<uint64_t>(d_b).push<uint64_t>(d_c).push<int32_t>(s.m).push<int32_t>(s.n).push<int32_t>(
      s.k);
  const uint32_t gx = (s.n + tile - 1) / tile, gy = (s.m + tile - 1) / tile;
  dev.launch(mod, "sgemm_tiled", {gx, gy, 1}, {tile, tile, 1}, args);
  const auto got = dev.download<float>(d_c, static_cast<size_t>(s.m) * s.n);

  // Reference in double; the kernel's float accumulation differs by rounding only.
  std::vector<float> want(static_cast<size_t>(s.m) * s.n);
  for (int r = 0; r < s.m; ++r)
    for (int c = 0; c < s.n; ++c) {
      double acc = 0;
      for (int i = 0; i < s.k; ++i) acc += static_cast<double>(a[r * s.k + i]) * b[i * s.n + c];
      want[r * s.n + c] = static_cast<float>(acc);
    }
  // Sums of k products of magnitude <= 1: float error grows like k * 2^-24.
  return compare_close(got, want, "C", 1e-4, 1e-5 * s.k);
}

const bool registered = register_workload(
    {"matmul", WorkloadClass::Convergent, "tiled SGEMM with 16x16 shared-memory tiles and barriers", &run});

}  // namespace
}  // namespace simt::workloads
