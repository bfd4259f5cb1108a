// One step of a discrete-element particle simulation in double precision.
// Particles are binned into a uniform grid whose cell edge equals the
// collision distance (the host sorts them by cell and builds per-cell start
// and count arrays). Each thread scans the 27 cells around its particle and
// sums spring / damping / shear forces from every overlapping neighbour; cell
// occupancy is uneven (clustered particles), so loop lengths vary per thread.
// A second kernel integrates velocities and positions and bounces particles
// off the walls of the box.

struct SimParams {
  int grid_x, grid_y, grid_z;
  int num_particles;
  double cell_size;
  double radius;
  double spring;
  double damping;
  double shear;
  double dt;
  double box;  // the box is [0, box)^3
};

__device__ __forceinline__ int clamp_cell(int c, int n) { return c < 0 ? 0 : (c >= n ? n - 1 : c); }

extern "C" __global__ void particles_collide(const double* __restrict__ pos,
                                            const double* __restrict__ vel,
                                            const int* __restrict__ cell_start,
                                            const int* __restrict__ cell_count,
                                            double* __restrict__ force, SimParams p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.num_particles) return;
  double px = pos[3 * i], py = pos[3 * i + 1], pz = pos[3 * i + 2];
  double vx = vel[3 * i], vy = vel[3 * i + 1], vz = vel[3 * i + 2];
  int cx = clamp_cell((int)floor(px / p.cell_size), p.grid_x);
  int cy = clamp_cell((int)floor(py / p.cell_size), p.grid_y);
  int cz = clamp_cell((int)floor(pz / p.cell_size), p.grid_z);
  double collide_dist = 2.0 * p.radius;
  double fx = 0.0, fy = 0.0, fz = 0.0;
  for (int z = cz - 1; z <= cz + 1; ++z) {
    if (z < 0 || z >= p.grid_z) continue;
    for (int y = cy - 1; y <= cy + 1; ++y) {
      if (y < 0 || y >= p.grid_y) continue;
      for (int x = cx - 1; x <= cx + 1; ++x) {
        if (x < 0 || x >= p.grid_x) continue;
        int cell = (z * p.grid_y + y) * p.grid_x + x;
        int begin = cell_start[cell];
        int end = begin + cell_count[cell];
        for (int j = begin; j < end; ++j) {
          if (j == i) continue;
          double rx = pos[3 * j] - px, ry = pos[3 * j + 1] - py, rz = pos[3 * j + 2] - pz;
          double dist = sqrt(rx * rx + ry * ry + rz * rz);
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
  force[3 * i] = fx;
  force[3 * i + 1] = fy;
  force[3 * i + 2] = fz;
}

// Reflects one coordinate off the walls at 0 and box.
__device__ __forceinline__ void bounce(double* x, double* v, double r, double box) {
  if (*x < r) {
    *x = r;
    *v = -0.5 * *v;
  } else if (*x > box - r) {
    *x = box - r;
    *v = -0.5 * *v;
  }
}

extern "C" __global__ void particles_integrate(double* __restrict__ pos, double* __restrict__ vel,
                                              const double* __restrict__ force, SimParams p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.num_particles) return;
  double x[3], v[3];
  for (int k = 0; k < 3; ++k) {
    v[k] = vel[3 * i + k] + force[3 * i + k] * p.dt;
    x[k] = pos[3 * i + k] + v[k] * p.dt;
    bounce(&x[k], &v[k], p.radius, p.box);
    pos[3 * i + k] = x[k];
    vel[3 * i + k] = v[k];
  }
}
