// C = A * B for row-major float matrices (A: m x k, B: k x n) with 16x16
// shared-memory tiles: each CTA computes one 16x16 tile of C, stepping along
// k one tile pair at a time. Edges outside the matrices load as zero so any
// size works.
#define TILE 16

extern "C" __global__ void sgemm_tiled(const float* __restrict__ A, const float* __restrict__ B,
                                       float* __restrict__ C, int m, int n, int k) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;

  float acc = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    const int a_col = t + tx, b_row = t + ty;
    a_tile[ty][tx] = (row < m && a_col < k) ? A[row * k + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < k && col < n) ? B[b_row * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TILE; ++i) acc += a_tile[ty][i] * b_tile[i][tx];
    __syncthreads();  // the tiles are overwritten by the next step
  }
  if (row < m && col < n) C[row * n + col] = acc;
}
