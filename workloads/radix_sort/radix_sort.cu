// LSD radix sort of uint32 keys, 4 bits per pass, three launches per pass:
//   radix_histogram  each CTA counts the digits of its tile (one key per
//                    thread) in shared memory and stores the 16 counts
//                    digit-major: counts[digit * tiles + tile];
//   radix_scan       one CTA turns the counts into exclusive offsets (a
//                    digit-major scan gives every (digit, tile) pair its
//                    first output position, which keeps the sort stable);
//   radix_scatter    each CTA sorts its tile by the digit with four stable
//                    1-bit splits (ranks from warp ballots), then writes each
//                    key to its digit's offset plus its rank inside the tile.
// blockDim.x must be a multiple of 32 and at most 1024.

#define RADIX_BITS 4
#define RADIX 16
#define MAX_WARPS 32

__device__ __forceinline__ unsigned digit_of(unsigned key, int shift) { return (key >> shift) & (RADIX - 1); }

extern "C" __global__ void radix_histogram(const unsigned* __restrict__ keys, unsigned* __restrict__ counts,
                                           int n, int shift) {
  __shared__ unsigned bins[RADIX];
  const unsigned tid = threadIdx.x;
  if (tid < RADIX) bins[tid] = 0;
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + tid;
  if (i < (unsigned)n) atomicAdd(&bins[digit_of(keys[i], shift)], 1u);
  __syncthreads();
  if (tid < RADIX) counts[tid * gridDim.x + blockIdx.x] = bins[tid];
}

// Inclusive scan across the CTA with warp shuffles; returns this thread's
// inclusive prefix and leaves the CTA total in *total.
__device__ unsigned block_inclusive_scan(unsigned v, unsigned* warp_sums, unsigned* total) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned warps = blockDim.x >> 5;
  for (int d = 1; d < 32; d <<= 1) {
    unsigned up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= (unsigned)d) v += up;
  }
  if (lane == 31) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    unsigned w = lane < warps ? warp_sums[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      unsigned up = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= (unsigned)d) w += up;
    }
    if (lane < warps) warp_sums[lane] = w;
  }
  __syncthreads();
  if (warp > 0) v += warp_sums[warp - 1];
  *total = warp_sums[warps - 1];
  __syncthreads();  // warp_sums may be reused by the caller's next scan
  return v;
}

// One CTA: in-place exclusive scan of counts[0, count), blockDim.x at a time.
extern "C" __global__ void radix_scan(unsigned* counts, int count) {
  __shared__ unsigned warp_sums[MAX_WARPS];
  unsigned carry = 0;
  for (unsigned base = 0; base < (unsigned)count; base += blockDim.x) {
    const unsigned i = base + threadIdx.x;
    const unsigned v = i < (unsigned)count ? counts[i] : 0;
    unsigned total;
    const unsigned inclusive = block_inclusive_scan(v, warp_sums, &total);
    if (i < (unsigned)count) counts[i] = carry + inclusive - v;
    carry += total;
  }
}

extern "C" __global__ void radix_scatter(const unsigned* __restrict__ keys_in, unsigned* __restrict__ keys_out,
                                         const unsigned* __restrict__ offsets, int n, int shift) {
  extern __shared__ unsigned tile[];  // blockDim.x keys
  __shared__ unsigned warp_zeros[MAX_WARPS];
  __shared__ unsigned digit_start[RADIX];
  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned warps = blockDim.x >> 5;
  const unsigned first = blockIdx.x * blockDim.x;
  const unsigned valid = min(blockDim.x, (unsigned)n - first);

  // Padding keys sort after every real key of the tile (largest digit, and a
  // stable sort keeps them behind real keys with that digit).
  unsigned key = tid < valid ? keys_in[first + tid] : 0xffffffffu;

  // Four stable splits by one bit each: zeros keep their order in front.
  for (int bit = 0; bit < RADIX_BITS; ++bit) {
    const bool one = (key >> (shift + bit)) & 1u;
    const unsigned zeros = __ballot_sync(0xffffffffu, !one);
    const unsigned below = (1u << lane) - 1u;
    if (lane == 0) warp_zeros[warp] = __popc(zeros);
    __syncthreads();
    unsigned zeros_before_warp = 0, total_zeros = 0;
    for (unsigned w = 0; w < warps; ++w) {
      const unsigned z = warp_zeros[w];
      if (w < warp) zeros_before_warp += z;
      total_zeros += z;
    }
    unsigned pos;
    if (!one) {
      pos = zeros_before_warp + __popc(zeros & below);
    } else {
      const unsigned ones_before_warp = warp * 32 - zeros_before_warp;
      pos = total_zeros + ones_before_warp + __popc(~zeros & below);
    }
    tile[pos] = key;
    __syncthreads();
    key = tile[tid];
    __syncthreads();  // tile and warp_zeros are rewritten by the next split
  }

  // The tile is now sorted by digit; find where each present digit starts.
  const unsigned d = digit_of(key, shift);
  if (tid == 0 || digit_of(tile[tid - 1], shift) != d) digit_start[d] = tid;
  __syncthreads();
  if (tid < valid) keys_out[offsets[d * gridDim.x + blockIdx.x] + tid - digit_start[d]] = key;
}
