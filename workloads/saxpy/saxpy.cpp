// saxpy host side: y = a*x + y with a grid-stride loop over n floats.
#include <cmath>

#include "common.h"

namespace simt::workloads {
namespace {

struct SaxpyShape {
  int n;
  uint32_t blocks;  // fewer threads than elements: every thread loops
};

SaxpyShape shape_for(Size size) {
  switch (size) {
    case Size::Small: return {50000, 48};
    case Size::Medium: return {4000000, 120};
    case Size::Large: return {32000000, 240};
  }
  return {0, 0};
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "saxpy");
  const SaxpyShape shape = shape_for(size);
  const uint32_t threads = 256;
  const float a = 2.5f;

  Rng rng(0x5a8e01);
  std::vector<float> x(shape.n), y(shape.n);
  for (int i = 0; i < shape.n; ++i) {
    x[i] = rng.unit() * 200.0f - 100.0f;
    y[i] = rng.unit() * 200.0f - 100.0f;
  }
  const uint64_t d_x = dev.upload(x);
  const uint64_t d_y = dev.upload(y);

  runtime::KernelArgs args;
  args.push<int32_t>(shape.n).push<float>(a).push<uint64_t>(d_x).push<uint64_t>(d_y);
  dev.launch(mod, "saxpy", {shape.blocks, 1, 1}, {threads, 1, 1}, args);
  const auto got = dev.download<float>(d_y, shape.n);

  // The kernel's a*x + y is contracted into one fused multiply-add.
  std::vector<float> want(shape.n);
  for (int i = 0; i < shape.n; ++i) want[i] = std::fma(a, x[i], y[i]);
  return compare_exact(got, want, "y");
}

const bool registered = register_workload(
    {"saxpy", WorkloadClass::Insensitive, "y = a*x + y on floats, grid-stride loop", &run});

}  // namespace
}  // namespace simt::workloads
