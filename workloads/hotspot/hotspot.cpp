// hotspot host side: a Rodinia-style explicit thermal simulation, one
// launch per time step with ping-pong temperature buffers.
#include <utility>

#include "common.h"

namespace simt::workloads {
namespace {

struct HotspotShape {
  int rows, cols, steps;
};

HotspotShape shape_for(Size size) {
  switch (size) {
    case Size::Small: return {48, 56, 6};
    case Size::Medium: return {192, 200, 12};
    case Size::Large: return {400, 384, 32};
  }
  return {0, 0, 0};
}

// The chip constants of Rodinia's hotspot (16 mm x 16 mm die, 0.5 mm thick).
struct ThermalCoefficients {
  float step_div_cap, rx_inv, ry_inv, rz_inv, ambient;
};

ThermalCoefficients coefficients(int rows, int cols) {
  const double chip_height = 0.016, chip_width = 0.016, t_chip = 0.0005;
  const double k_si = 100, factor_chip = 0.5, spec_heat_si = 1.75e6, max_pd = 3.0e6, precision = 0.001;
  const double grid_height = chip_height / rows, grid_width = chip_width / cols;
  const double cap = factor_chip * spec_heat_si * t_chip * grid_width * grid_height;
  const double rx = grid_width / (2.0 * k_si * t_chip * grid_height);
  const double ry = grid_height / (2.0 * k_si * t_chip * grid_width);
  const double rz = t_chip / (k_si * grid_height * grid_width);
  const double max_slope = max_pd / (factor_chip * t_chip * spec_heat_si);
  const double step = precision / max_slope;
  return {static_cast<float>(step / cap), static_cast<float>(1.0 / rx), static_cast<float>(1.0 / ry),
          static_cast<float>(1.0 / rz), 80.0f};
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "hotspot");
  const HotspotShape s = shape_for(size);
  const size_t cells = static_cast<size_t>(s.rows) * s.cols;
  const ThermalCoefficients k = coefficients(s.rows, s.cols);

  Rng rng(0x407590);
  std::vector<float> temp(cells), power(cells);
  for (auto& t : temp) t = 323.0f + 20.0f * rng.unit();
  for (auto& p : power) p = 0.5f * rng.unit();
  uint64_t d_cur = dev.upload(temp);
  uint64_t d_next = dev.malloc(cells * sizeof(float));
  const uint64_t d_power = dev.upload(power);

  const uint32_t block = 16;
  const uint32_t gx = (s.cols + block - 1) / block, gy = (s.rows + block - 1) / block;
  dev.progress().set_launch_count(static_cast<uint64_t>(s.steps));
  for (int step = 0; step < s.steps; ++step) {
    runtime::KernelArgs args;
    args.push<uint64_t>(d_power).push<uint64_t>(d_cur).push<uint64_t>(d_next).push<int32_t>(s.rows)
        .push<int32_t>(s.cols).push<float>(k.step_div_cap).push<float>(k.rx_inv).push<float>(k.ry_inv)
        .push<float>(k.rz_inv).push<float>(k.ambient);
    dev.launch(mod, "hotspot_step", {gx, gy, 1}, {block, block, 1}, args);
    std::swap(d_cur, d_next);
  }
  const auto got = dev.download<float>(d_cur, cells);

  // Reference: the same update in float, with clamped (reflecting) borders.
  std::vector<float> cur = temp, next(cells);
  for (int step = 0; step < s.steps; ++step) {
    for (int r = 0; r < s.rows; ++r)
      for (int c = 0; c < s.cols; ++c) {
        const float center = cur[r * s.cols + c];
        const float north = r > 0 ? cur[(r - 1) * s.cols + c] : center;
        const float south = r < s.rows - 1 ? cur[(r + 1) * s.cols + c] : center;
        const float west = c > 0 ? cur[r * s.cols + c - 1] : center;
        const float east = c < s.cols - 1 ? cur[r * s.cols + c + 1] : center;
        const float delta = k.step_div_cap * (power[r * s.cols + c] + (north + south - 2.0f * center) * k.ry_inv +
                                              (east + west - 2.0f * center) * k.rx_inv +
                                              (k.ambient - center) * k.rz_inv);
        next[r * s.cols + c] = center + delta;
      }
    std::swap(cur, next);
  }
  // The kernel fuses multiply-adds the reference rounds separately.
  return compare_close(got, cur, "temperature", 1e-5, 1e-3);
}

const bool registered = register_workload(
    {"hotspot", WorkloadClass::Insensitive,
     "2D thermal stencil with shared-memory tiles, one launch per time step (ping-pong)", &run});

}  // namespace
}  // namespace simt::workloads
