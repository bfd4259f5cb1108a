// Exclusive prefix sum of ints in three launches:
//   scan_blocks     each CTA Blelloch-scans its tile of 2*blockDim.x values in
//                   shared memory and records the tile's total;
//   scan_totals     one CTA scans the tile totals in chunks, carrying the
//                   running sum from chunk to chunk;
//   add_offsets     every element gets its tile's offset added.
// blockDim.x must be a power of two.

// In-place exclusive Blelloch scan of s[0, 2*blockDim.x); returns the total.
__device__ int blelloch_exclusive(int* s) {
  const unsigned tid = threadIdx.x;
  const unsigned count = 2 * blockDim.x;
  unsigned stride = 1;
  // Up-sweep: build partial sums in a balanced tree.
  for (unsigned active = count >> 1; active > 0; active >>= 1) {
    __syncthreads();
    if (tid < active) {
      unsigned left = stride * (2 * tid + 1) - 1;
      unsigned right = stride * (2 * tid + 2) - 1;
      s[right] += s[left];
    }
    stride <<= 1;
  }
  __syncthreads();
  const int total = s[count - 1];
  __syncthreads();  // everyone has read the total before the root is cleared
  if (tid == 0) s[count - 1] = 0;
  // Down-sweep: push prefixes back down the tree.
  for (unsigned active = 1; active < count; active <<= 1) {
    stride >>= 1;
    __syncthreads();
    if (tid < active) {
      unsigned left = stride * (2 * tid + 1) - 1;
      unsigned right = stride * (2 * tid + 2) - 1;
      int t = s[left];
      s[left] = s[right];
      s[right] += t;
    }
  }
  __syncthreads();
  return total;
}

extern "C" __global__ void scan_blocks(const int* __restrict__ in, int* __restrict__ out,
                                       int* __restrict__ tile_totals, int n) {
  extern __shared__ int tile[];
  const unsigned tid = threadIdx.x;
  const unsigned base = blockIdx.x * 2 * blockDim.x;
  const unsigned a = base + tid, b = base + tid + blockDim.x;
  tile[tid] = a < (unsigned)n ? in[a] : 0;
  tile[tid + blockDim.x] = b < (unsigned)n ? in[b] : 0;
  const int total = blelloch_exclusive(tile);
  if (a < (unsigned)n) out[a] = tile[tid];
  if (b < (unsigned)n) out[b] = tile[tid + blockDim.x];
  if (tid == 0) tile_totals[blockIdx.x] = total;
}

// One CTA: exclusive scan of totals[0, count) in place, 2*blockDim.x at a time.
extern "C" __global__ void scan_totals(int* totals, int count) {
  extern __shared__ int chunk[];
  const unsigned tid = threadIdx.x;
  const unsigned per_chunk = 2 * blockDim.x;
  int carry = 0;
  for (unsigned base = 0; base < (unsigned)count; base += per_chunk) {
    const unsigned a = base + tid, b = base + tid + blockDim.x;
    chunk[tid] = a < (unsigned)count ? totals[a] : 0;
    chunk[tid + blockDim.x] = b < (unsigned)count ? totals[b] : 0;
    const int total = blelloch_exclusive(chunk);
    if (a < (unsigned)count) totals[a] = chunk[tid] + carry;
    if (b < (unsigned)count) totals[b] = chunk[tid + blockDim.x] + carry;
    carry += total;
  }
}

extern "C" __global__ void add_offsets(int* __restrict__ out, const int* __restrict__ tile_offsets, int n) {
  const int offset = tile_offsets[blockIdx.x];
  const unsigned base = blockIdx.x * 2 * blockDim.x;
  const unsigned a = base + threadIdx.x, b = a + blockDim.x;
  if (a < (unsigned)n) out[a] += offset;
  if (b < (unsigned)n) out[b] += offset;
}
