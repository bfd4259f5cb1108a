// Explicit 1-D heat diffusion with a cooperative launch: every time step
// updates all cells (a grid-stride loop), then grid.sync() waits for the
// whole grid before the buffers swap. One launch runs every step, so the
// grid must be resident at once (cudaLaunchCooperativeKernel); the host
// sizes it to what the machine holds. Every thread does the same work.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void heat(float* a, float* b, int n, int steps, float k) {
  cg::grid_group grid = cg::this_grid();
  const int stride = static_cast<int>(grid.size());
  for (int s = 0; s < steps; ++s) {
    for (int i = static_cast<int>(grid.thread_rank()); i < n; i += stride) {
      const float left = i > 0 ? a[i - 1] : a[i];    // insulated ends
      const float right = i < n - 1 ? a[i + 1] : a[i];
      b[i] = a[i] + k * (left - 2.0f * a[i] + right);
    }
    grid.sync();
    float* t = a;
    a = b;
    b = t;
  }
}
