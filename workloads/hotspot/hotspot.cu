// One explicit time step of a Rodinia-style chip thermal model on a
// rows x cols grid: each cell moves toward its neighbours, its own power
// input and the ambient temperature. A 16x16 CTA loads its tile plus a
// one-cell halo into shared memory (edges clamp to the grid border, i.e.
// no heat flows across the chip boundary), then updates its cells.
// The host launches one step per iteration, swapping the two buffers.
#define BLOCK 16

extern "C" __global__ void hotspot_step(const float* __restrict__ power, const float* __restrict__ temp_in,
                                        float* __restrict__ temp_out, int rows, int cols, float step_div_cap,
                                        float rx_inv, float ry_inv, float rz_inv, float ambient) {
  __shared__ float t[BLOCK + 2][BLOCK + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = blockIdx.x * BLOCK + tx;
  const int row = blockIdx.y * BLOCK + ty;
  const int r = min(row, rows - 1), c = min(col, cols - 1);

  // Interior of the tile (threads past the edge load the clamped border cell).
  t[ty + 1][tx + 1] = temp_in[r * cols + c];
  // Halo: the first and last rows/columns of threads fetch one cell further out.
  if (ty == 0) t[0][tx + 1] = temp_in[max(r - 1, 0) * cols + c];
  if (ty == BLOCK - 1) t[BLOCK + 1][tx + 1] = temp_in[min(r + 1, rows - 1) * cols + c];
  if (tx == 0) t[ty + 1][0] = temp_in[r * cols + max(c - 1, 0)];
  if (tx == BLOCK - 1) t[ty + 1][BLOCK + 1] = temp_in[r * cols + min(c + 1, cols - 1)];
  __syncthreads();

  if (row < rows && col < cols) {
    const float center = t[ty + 1][tx + 1];
    // At the grid border the clamped neighbour is the cell itself.
    const float north = row > 0 ? t[ty][tx + 1] : center;
    const float south = row < rows - 1 ? t[ty + 2][tx + 1] : center;
    const float west = col > 0 ? t[ty + 1][tx] : center;
    const float east = col < cols - 1 ? t[ty + 1][tx + 2] : center;
    const float delta = step_div_cap * (power[row * cols + col] + (north + south - 2.0f * center) * ry_inv +
                                        (east + west - 2.0f * center) * rx_inv + (ambient - center) * rz_inv);
    temp_out[row * cols + col] = center + delta;
  }
}
