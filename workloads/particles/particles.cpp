// Host side of particles: scatters particles in clusters over a unit box,
// bins them into a uniform grid (sorted by cell, with per-cell start and
// count arrays), runs the collide and integrate kernels once, and checks
// forces, velocities and positions against a CPU version of the same loops.
// The kernel's compiler fuses some multiply-adds, so values agree to a tight
// relative tolerance rather than bit for bit.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "common.h"

namespace simt::workloads {
namespace {

// Same layout as the kernel's SimParams (passed by value).
struct SimParams {
  int32_t grid_x, grid_y, grid_z;
  int32_t num_particles;
  double cell_size;
  double radius;
  double spring;
  double damping;
  double shear;
  double dt;
  double box;
};
static_assert(sizeof(SimParams) == 72, "layout must match the kernel");

int clamp_cell(int c, int n) { return c < 0 ? 0 : (c >= n ? n - 1 : c); }

int cell_of(const SimParams& p, const double* x) {
  int cx = clamp_cell(static_cast<int>(std::floor(x[0] / p.cell_size)), p.grid_x);
  int cy = clamp_cell(static_cast<int>(std::floor(x[1] / p.cell_size)), p.grid_y);
  int cz = clamp_cell(static_cast<int>(std::floor(x[2] / p.cell_size)), p.grid_z);
  return (cz * p.grid_y + cy) * p.grid_x + cx;
}

// CPU version of particles_collide for particle i (same loop order).
void reference_force(const SimParams& p, const std::vector<double>& pos, const std::vector<double>& vel,
                     const std::vector<int32_t>& start, const std::vector<int32_t>& count, int i, double* f) {
  double px = pos[3 * i], py = pos[3 * i + 1], pz = pos[3 * i + 2];
  double vx = vel[3 * i], vy = vel[3 * i + 1], vz = vel[3 * i + 2];
  int cx = clamp_cell(static_cast<int>(std::floor(px / p.cell_size)), p.grid_x);
  int cy = clamp_cell(static_cast<int>(std::floor(py / p.cell_size)), p.grid_y);
  int cz = clamp_cell(static_cast<int>(std::floor(pz / p.cell_size)), p.grid_z);
  double collide_dist = 2.0 * p.radius;
  double fx = 0.0, fy = 0.0, fz = 0.0;
  for (int z = cz - 1; z <= cz + 1; ++z) {
    if (z < 0 || z >= p.grid_z) continue;
    for (int y = cy - 1; y <= cy + 1; ++y) {
      if (y < 0 || y >= p.grid_y) continue;
      for (int x = cx - 1; x <= cx + 1; ++x) {
        if (x < 0 || x >= p.grid_x) continue;
        int cell = (z * p.grid_y + y) * p.grid_x + x;
        for (int j = start[cell]; j < start[cell] + count[cell]; ++j) {
          if (j == i) continue;
          double rx = pos[3 * j] - px, ry = pos[3 * j + 1] - py, rz = pos[3 * j + 2] - pz;
          double dist = std::sqrt(rx * rx + ry * ry + rz * rz);
          if (dist >= collide_dist || dist == 0.0) continue;
          double nx = rx / dist, ny = ry / dist, nz = rz / dist;
          double ux = vel[3 * j] - vx, uy = vel[3 * j + 1] - vy, uz = vel[3 * j + 2] - vz;
          double along = ux * nx + uy * ny + uz * nz;
          double tx = ux - along * nx, ty = uy - along * ny, tz = uz - along * nz;
          double push = -p.spring * (collide_dist - dist);
          fx += push * nx + p.damping * ux + p.shear * tx;
          fy += push * ny + p.damping * uy + p.shear * ty;
          fz += push * nz + p.damping * uz + p.shear * tz;
        }
      }
    }
  }
  f[0] = fx;
  f[1] = fy;
  f[2] = fz;
}

void reference_integrate(const SimParams& p, std::vector<double>& pos, std::vector<double>& vel,
                         const std::vector<double>& force) {
  for (size_t k = 0; k < pos.size(); ++k) {
    double v = vel[k] + force[k] * p.dt;
    double x = pos[k] + v * p.dt;
    if (x < p.radius) {
      x = p.radius;
      v = -0.5 * v;
    } else if (x > p.box - p.radius) {
      x = p.box - p.radius;
      v = -0.5 * v;
    }
    pos[k] = x;
    vel[k] = v;
  }
}

// Largest magnitude in v, to scale the absolute tolerance.
double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "particles");
  const int n = size == Size::Small ? 512 : size == Size::Medium ? 8192 : 49152;
  // About two cells per particle on average; the clusters are far denser.
  const int grid_dim = static_cast<int>(std::lround(std::cbrt(2.0 * n)));
  SimParams p{};
  p.grid_x = p.grid_y = p.grid_z = grid_dim;
  p.num_particles = n;
  p.box = 1.0;
  p.cell_size = p.box / grid_dim;
  p.radius = p.cell_size / 2;  // cell edge = collision distance
  p.spring = 0.5;
  p.damping = 0.02;
  p.shear = 0.1;
  p.dt = 0.01;

  // Half the particles in a few dense Gaussian clusters, half uniform.
  Rng rng(0x9a27u + n);
  std::vector<double> centers(3 * 6);
  for (double& c : centers) c = 0.2 + 0.6 * rng.unit_double();
  std::vector<double> raw_pos(3 * n), raw_vel(3 * n);
  for (int i = 0; i < n; ++i) {
    bool clustered = i % 2 == 0;
    const double* c = &centers[3 * (rng.next() % 6)];
    for (int k = 0; k < 3; ++k) {
      double x;
      if (clustered) {
        // Sum of uniforms: a cheap, portable bell shape.
        double g = rng.unit_double() + rng.unit_double() + rng.unit_double() - 1.5;
        x = c[k] + 0.08 * g;
      } else {
        x = rng.unit_double();
      }
      raw_pos[3 * i + k] = std::min(std::max(x, p.radius), p.box - p.radius);
      raw_vel[3 * i + k] = 0.2 * (rng.unit_double() - 0.5);
    }
  }

  // Sort by cell (stable, so the order is fully determined) and build the cell table.
  const int num_cells = grid_dim * grid_dim * grid_dim;
  std::vector<int> cell(n), order(n);
  for (int i = 0; i < n; ++i) cell[i] = cell_of(p, &raw_pos[3 * i]);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cell[a] < cell[b]; });
  std::vector<double> pos(3 * n), vel(3 * n);
  std::vector<int32_t> start(num_cells, 0), count(num_cells, 0);
  for (int s = 0; s < n; ++s) {
    int i = order[s];
    for (int k = 0; k < 3; ++k) {
      pos[3 * s + k] = raw_pos[3 * i + k];
      vel[3 * s + k] = raw_vel[3 * i + k];
    }
    if (count[cell[i]]++ == 0) start[cell[i]] = s;
  }

  uint64_t d_pos = dev.upload(pos), d_vel = dev.upload(vel);
  uint64_t d_start = dev.upload(start), d_count = dev.upload(count);
  uint64_t d_force = dev.malloc(3 * n * sizeof(double));
  const uint32_t block = 128, grid = (n + block - 1) / block;
  runtime::KernelArgs collide;
  collide.push<uint64_t>(d_pos).push<uint64_t>(d_vel).push<uint64_t>(d_start).push<uint64_t>(d_count);
  collide.push<uint64_t>(d_force).push<SimParams>(p);
  dev.launch(mod, "particles_collide", {grid, 1, 1}, {block, 1, 1}, collide);
  runtime::KernelArgs integrate;
  integrate.push<uint64_t>(d_pos).push<uint64_t>(d_vel).push<uint64_t>(d_force).push<SimParams>(p);
  dev.launch(mod, "particles_integrate", {grid, 1, 1}, {block, 1, 1}, integrate);

  std::vector<double> want_force(3 * n);
  for (int i = 0; i < n; ++i) reference_force(p, pos, vel, start, count, i, &want_force[3 * i]);
  std::vector<double> want_pos = pos, want_vel = vel;
  reference_integrate(p, want_pos, want_vel, want_force);

  const double rel = 1e-9;
  Result rf = compare_close(dev.download<double>(d_force, 3 * n), want_force, "force", rel, rel * max_abs(want_force));
  if (!rf.ok) return rf;
  Result rv = compare_close(dev.download<double>(d_vel, 3 * n), want_vel, "vel", rel, rel * max_abs(want_vel));
  if (!rv.ok) return rv;
  Result rp = compare_close(dev.download<double>(d_pos, 3 * n), want_pos, "pos", rel, rel * max_abs(want_pos));
  if (!rp.ok) return rp;
  return {true, rf.message + "; " + rv.message + "; " + rp.message};
}

const bool registered = register_workload(
    {"particles", WorkloadClass::Divergent,
     "f64 particle collisions over a uniform grid (27-cell neighbour scan), then integration", &run});

}  // namespace
}  // namespace simt::workloads
