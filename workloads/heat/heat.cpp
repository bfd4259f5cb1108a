// heat host side: a cooperative launch sized as CUDA programs size it
// (the CTAs the machine holds at once: occupancy per SM x SMs), running every
// time step of a 1-D explicit heat diffusion with grid.sync() between steps.
#include <cmath>

#include "common.h"

namespace simt::workloads {
namespace {

struct HeatShape {
  int n, steps;
};

HeatShape shape_for(Size size) {
  switch (size) {
    case Size::Small: return {4096, 8};
    case Size::Medium: return {262144, 32};
    case Size::Large: return {2097152, 64};
  }
  return {0, 0};
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "heat");
  const HeatShape s = shape_for(size);
  const float k = 0.2f;
  const uint32_t threads = 256;

  Rng rng(0x4ea7);
  std::vector<float> a(s.n);
  for (auto& v : a) v = rng.unit() * 100.0f;
  const uint64_t d_a = dev.upload(a);
  const uint64_t d_b = dev.malloc(uint64_t(s.n) * 4);

  // cudaOccupancyMaxActiveBlocksPerMultiprocessor x SMs, at most one CTA per 256 cells.
  const uint64_t fit = dev.max_resident_ctas(mod, "heat", {threads, 1, 1});
  const uint32_t ctas = static_cast<uint32_t>(std::min<uint64_t>(fit, (s.n + threads - 1) / threads));
  runtime::KernelArgs args;
  args.push<uint64_t>(d_a).push<uint64_t>(d_b).push<int32_t>(s.n).push<int32_t>(s.steps).push<float>(k);
  dev.launch(mod, "heat", {ctas, 1, 1}, {threads, 1, 1}, args, 0, /*cooperative=*/true);
  // An even number of steps leaves the result in a.
  const auto got = dev.download<float>(s.steps % 2 ? d_b : d_a, s.n);

  // The kernel's b[i] = a[i] + k * ((left - 2 a[i]) + right), contracted into one fma.
  std::vector<float> cur = a, next(s.n);
  for (int step = 0; step < s.steps; ++step) {
    for (int i = 0; i < s.n; ++i) {
      const float left = i > 0 ? cur[i - 1] : cur[i];
      const float right = i < s.n - 1 ? cur[i + 1] : cur[i];
      next[i] = std::fma((left - (cur[i] + cur[i])) + right, k, cur[i]);
    }
    cur.swap(next);
  }
  return compare_exact(got, cur, "cells");
}

const bool registered = register_workload(
    {"heat", WorkloadClass::Insensitive,
     "1-D heat diffusion, every time step in one cooperative launch with grid.sync()", &run, /*spins=*/true});

}  // namespace
}  // namespace simt::workloads
