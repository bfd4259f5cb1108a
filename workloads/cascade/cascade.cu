// Viola-Jones-style cascade detector on an 8-bit image.
//  1. integral_rows: one block per image row scans the row in shared memory
//     (Hillis-Steele, chunk by chunk with a running carry).
//  2. integral_cols: one thread per column accumulates down the column.
//  3. cascade_detect: one thread per window position evaluates stages of
//     weak classifiers (Haar-like rectangle features) and stops at the first
//     stage whose vote sum falls below its threshold; it records how many
//     stages the window passed. Most windows are rejected early, a few run
//     deep, which is the classic source of divergence in detectors.
// Everything is integer arithmetic, so results are exact.

#define SCAN_THREADS 128
#define MAX_RECTS 3
#define MAX_FEATURES 160  // fits in the 16 KB shared memory of tbc-baseline
#define MAX_STAGES 32

// The integral image has (height + 1) rows of (width + 1) entries; row 0 and
// column 0 are zero, entry (y + 1, x + 1) is the sum of img[0..y][0..x].
extern "C" __global__ void integral_rows(const unsigned char* __restrict__ img, int* __restrict__ integral,
                                         int width, int height) {
  __shared__ int buf[SCAN_THREADS];
  int y = blockIdx.x;
  if (y >= height) return;
  int* out = integral + (size_t)(y + 1) * (width + 1);
  if (threadIdx.x == 0) out[0] = 0;
  int carry = 0;
  for (int base = 0; base < width; base += SCAN_THREADS) {
    int x = base + threadIdx.x;
    int v = x < width ? (int)img[(size_t)y * width + x] : 0;
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int offset = 1; offset < SCAN_THREADS; offset <<= 1) {
      int add = threadIdx.x >= offset ? buf[threadIdx.x - offset] : 0;
      __syncthreads();
      buf[threadIdx.x] += add;
      __syncthreads();
    }
    if (x < width) out[x + 1] = carry + buf[threadIdx.x];
    carry += buf[SCAN_THREADS - 1];
    __syncthreads();
  }
}

extern "C" __global__ void integral_cols(int* __restrict__ integral, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x > width) return;
  int stride = width + 1;
  integral[x] = 0;  // row 0
  int sum = 0;
  for (int y = 1; y <= height; ++y) {
    sum += integral[(size_t)y * stride + x];
    integral[(size_t)y * stride + x] = sum;
  }
}

struct Rect {
  int x, y, w, h, weight;
};

struct Feature {
  Rect rects[MAX_RECTS];
  int num_rects;
  int threshold;
  int below;  // vote when the feature value is below the threshold
  int above;  // vote otherwise
};

struct Stage {
  int first_feature;
  int num_features;
  int threshold;  // the window passes when its vote sum is >= threshold
};

__device__ __forceinline__ int rect_sum(const int* __restrict__ ii, int stride, int x, int y, int w, int h) {
  return ii[(y + h) * stride + (x + w)] - ii[y * stride + (x + w)] - ii[(y + h) * stride + x] +
         ii[y * stride + x];
}

extern "C" __global__ void cascade_detect(const int* __restrict__ integral, int width,
                                          const Feature* __restrict__ features,
                                          const Stage* __restrict__ stages, int num_features,
                                          int num_stages, int windows_x, int windows_y, int step,
                                          int* __restrict__ stages_passed) {
  __shared__ Feature s_features[MAX_FEATURES];
  __shared__ Stage s_stages[MAX_STAGES];
  for (int i = threadIdx.x; i < num_features; i += blockDim.x) s_features[i] = features[i];
  for (int i = threadIdx.x; i < num_stages; i += blockDim.x) s_stages[i] = stages[i];
  __syncthreads();

  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= windows_x * windows_y) return;
  int wx = (w % windows_x) * step;
  int wy = (w / windows_x) * step;
  int stride = width + 1;
  int passed = 0;
  for (int s = 0; s < num_stages; ++s) {
    Stage st = s_stages[s];
    int votes = 0;
    for (int f = st.first_feature; f < st.first_feature + st.num_features; ++f) {
      const Feature& feat = s_features[f];
      int value = 0;
      for (int r = 0; r < feat.num_rects; ++r) {
        const Rect& rc = feat.rects[r];
        value += rc.weight * rect_sum(integral, stride, wx + rc.x, wy + rc.y, rc.w, rc.h);
      }
      votes += value < feat.threshold ? feat.below : feat.above;
    }
    if (votes < st.threshold) break;  // rejected: later stages never run
    ++passed;
  }
  stages_passed[w] = passed;
}
