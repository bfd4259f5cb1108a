// N-queens by backtracking. The host places the first few queens (a prefix);
// each thread counts all completions of one prefix with an explicit stack of
// bit masks in a local array (one level per row). Search trees differ wildly
// in size between prefixes, so threads finish at very different times.
// Each block also sums its counts (warp shuffles, then shared memory).

#define MAX_N 16

extern "C" __global__ void nqueens_count(const unsigned* __restrict__ prefix_cols,
                                         const unsigned* __restrict__ prefix_diag_l,
                                         const unsigned* __restrict__ prefix_diag_r,
                                         int num_prefixes, int n, int start_row,
                                         unsigned* __restrict__ counts,
                                         unsigned* __restrict__ block_totals) {
  __shared__ unsigned warp_sums[32];
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned solutions = 0;
  if (p < num_prefixes) {
    const unsigned all = (1u << n) - 1u;
    unsigned cols[MAX_N], diag_l[MAX_N], diag_r[MAX_N], avail[MAX_N];
    int row = start_row;
    cols[row] = prefix_cols[p];
    diag_l[row] = prefix_diag_l[p];
    diag_r[row] = prefix_diag_r[p];
    avail[row] = all & ~(cols[row] | diag_l[row] | diag_r[row]);
    while (row >= start_row) {
      unsigned free_bits = avail[row];
      if (free_bits == 0) {
        --row;  // backtrack
        continue;
      }
      if (row == n - 1) {
        // Last row: every free column is a solution.
        solutions += __popc(free_bits);
        avail[row] = 0;
        continue;
      }
      unsigned bit = free_bits & (0u - free_bits);
      avail[row] = free_bits ^ bit;
      cols[row + 1] = cols[row] | bit;
      diag_l[row + 1] = ((diag_l[row] | bit) << 1) & all;
      diag_r[row + 1] = (diag_r[row] | bit) >> 1;
      ++row;
      avail[row] = all & ~(cols[row] | diag_l[row] | diag_r[row]);
    }
    counts[p] = solutions;
  }

  // Block total: reduce within each warp, then across the warps.
  unsigned v = solutions;
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int num_warps = (blockDim.x + 31) >> 5;
    v = lane < num_warps ? warp_sums[lane] : 0u;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) block_totals[blockIdx.x] = v;
  }
}
