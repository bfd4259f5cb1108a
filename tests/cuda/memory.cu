// Memory: allocation, copies of every kind (1D, 2D pitched, 3D pitched,
// asynchronous on a stream), memset, page-locked host memory, dynamic
// shared memory, __device__ and __constant__ variables through the symbol
// API, and device printf (the test driver checks the printed lines).
#include <cstring>
#include <vector>

#include "check.cuh"

__device__ int dev_table[16];
__constant__ float poly[4];  // c0 + c1 x + c2 x^2 + c3 x^3

__global__ void add_index(int* v, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += k * i;
}

// Each block reverses its slice through dynamic shared memory.
__global__ void reverse_blocks(const int* in, int* out) {
  extern __shared__ int tile[];
  const int base = blockIdx.x * blockDim.x;
  tile[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

// Row r, column c of a pitched float matrix gets 1000 r + c added.
__global__ void mark_2d(float* m, size_t pitch, int width, int height) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (c < width && r < height) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(m) + r * pitch);
    row[c] += 1000.0f * r + c;
  }
}

__global__ void mark_3d(cudaPitchedPtr p, int w, int h, int d) {
  const int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x < w && y < h && z < d) {
    char* slice = static_cast<char*>(p.ptr) + z * p.pitch * h;
    int* row = reinterpret_cast<int*>(slice + y * p.pitch);
    row[x] = row[x] * 2 + 100 * z + 10 * y + x;
  }
}

__global__ void eval_poly(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = poly[0] + x[i] * (poly[1] + x[i] * (poly[2] + x[i] * poly[3]));
}

__global__ void double_table() {
  const int i = threadIdx.x;
  if (i < 16) dev_table[i] = 2 * dev_table[i] + i;
}

// Reads v[-back], before the buffer (Parboil spmv reads x[-1] for its padding).
__global__ void read_before(const float* v, int back, float* out) { *out = v[-back] * 0.0f + 1.0f; }

__global__ void say_hello(int k) {
  const int t = threadIdx.x;
  printf("DEVICE_PRINTF tid=%d k=%d half=%.2f word=%s hex=%x big=%lld ch=%c\n", t, k, t * 0.5, "ok", 0xbeef + t,
         1000000000000LL + t, 'A' + t);
}

static void copies_1d() {
  const int n = 300;
  std::vector<int> h(n), back(n, -1), want(n);
  for (int i = 0; i < n; ++i) h[i] = i * 3 - 50;
  int *a = nullptr, *b = nullptr;
  expect_ok(cudaMalloc(&a, n * sizeof(int)), "malloc");
  expect_ok(cudaMalloc(&b, n * sizeof(int)), "malloc_second");
  check(a != nullptr && b != nullptr && a != b, "malloc_distinct_pointers");
  expect_ok(cudaMemcpy(a, h.data(), n * sizeof(int), cudaMemcpyHostToDevice), "memcpy_h2d");
  expect_ok(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice), "memcpy_d2d");
  add_index<<<(n + 127) / 128, 128>>>(b, n, 2);
  expect_launch_ok("add_index_launch");
  expect_ok(cudaMemcpy(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost), "memcpy_d2h");
  for (int i = 0; i < n; ++i) want[i] = h[i] + 2 * i;
  expect_equal(back.data(), want.data(), n, "memcpy_kernel_roundtrip");
  // The source of the device-to-device copy is untouched.
  expect_ok(cudaMemcpy(back.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost), "memcpy_d2h_source");
  expect_equal(back.data(), h.data(), n, "memcpy_d2d_source_unchanged");

  // cudaMemcpyDefault works out the direction from the pointers.
  std::vector<int> h2(n), h3(n);
  for (int i = 0; i < n; ++i) h2[i] = 7 * i + 1;
  expect_ok(cudaMemcpy(a, h2.data(), n * sizeof(int), cudaMemcpyDefault), "memcpy_default_h2d");
  expect_ok(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDefault), "memcpy_default_d2d");
  expect_ok(cudaMemcpy(h3.data(), b, n * sizeof(int), cudaMemcpyDefault), "memcpy_default_d2h");
  expect_equal(h3.data(), h2.data(), n, "memcpy_default_result");
  std::vector<int> h4(n, 0);
  expect_ok(cudaMemcpy(h4.data(), h3.data(), n * sizeof(int), cudaMemcpyHostToHost), "memcpy_h2h");
  expect_equal(h4.data(), h2.data(), n, "memcpy_h2h_result");
  // Part of a buffer, at an offset on both sides.
  expect_ok(cudaMemcpy(a + 10, h.data() + 20, 5 * sizeof(int), cudaMemcpyHostToDevice), "memcpy_offset_h2d");
  expect_ok(cudaMemcpy(back.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost), "memcpy_offset_d2h");
  for (int i = 0; i < n; ++i) want[i] = (i >= 10 && i < 15) ? h[i + 10] : h2[i];
  expect_equal(back.data(), want.data(), n, "memcpy_offset_result");

  // Memset writes bytes.
  expect_ok(cudaMemset(a, 0xA5, n * sizeof(int)), "memset");
  expect_ok(cudaMemset(a + 4, 0, 3 * sizeof(int)), "memset_part");
  std::vector<unsigned char> bytes(n * sizeof(int));
  cudaMemcpy(bytes.data(), a, bytes.size(), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const bool zero = i >= 4 * sizeof(int) && i < 7 * sizeof(int);
    if (bytes[i] != (zero ? 0 : 0xA5)) ok = false;
  }
  check(ok, "memset_result");
  expect_ok(cudaFree(a), "free");
  expect_ok(cudaFree(b), "free_second");
  expect_ok(cudaFree(nullptr), "free_null");
}

// Page-locked host memory and asynchronous work on one stream.
static void pinned_and_async() {
  const int n = 256;
  int *pinned = nullptr, *alloc = nullptr, *d = nullptr;
  expect_ok(cudaMallocHost(&pinned, n * sizeof(int)), "malloc_host");
  expect_ok(cudaHostAlloc(&alloc, n * sizeof(int), cudaHostAllocDefault), "host_alloc");
  if (!pinned || !alloc) return;
  for (int i = 0; i < n; ++i) pinned[i] = i * i % 1000;
  cudaStream_t s;
  expect_ok(cudaStreamCreate(&s), "stream_create");
  cudaMalloc(&d, 2 * n * sizeof(int));
  expect_ok(cudaMemsetAsync(d + n, 0x01, n * sizeof(int), s), "memset_async");
  expect_ok(cudaMemcpyAsync(d, pinned, n * sizeof(int), cudaMemcpyHostToDevice, s), "memcpy_async_h2d");
  add_index<<<2, 128, 0, s>>>(d, n, 5);
  expect_ok(cudaGetLastError(), "add_index_on_stream_launch");
  expect_ok(cudaMemcpyAsync(alloc, d, n * sizeof(int), cudaMemcpyDeviceToHost, s), "memcpy_async_d2h");
  expect_ok(cudaStreamSynchronize(s), "stream_synchronize");
  std::vector<int> want(n);
  for (int i = 0; i < n; ++i) want[i] = pinned[i] + 5 * i;
  expect_equal(alloc, want.data(), n, "async_result");
  expect_ok(cudaMemcpyAsync(alloc, d + n, n * sizeof(int), cudaMemcpyDeviceToHost, s), "memcpy_async_memset_part");
  cudaStreamSynchronize(s);
  std::vector<int> ones(n, 0x01010101);
  expect_equal(alloc, ones.data(), n, "memset_async_result");
  expect_ok(cudaStreamDestroy(s), "stream_destroy");
  cudaFree(d);
  expect_ok(cudaFreeHost(pinned), "free_host");
  expect_ok(cudaFreeHost(alloc), "free_host_alloc");
}

static void pitched_2d() {
  const int w = 37, h = 5;  // an odd width, so the pitch pads the rows
  float* m = nullptr;
  size_t pitch = 0;
  expect_ok(cudaMallocPitch(reinterpret_cast<void**>(&m), &pitch, w * sizeof(float), h), "malloc_pitch");
  std::printf("INFO pitch=%zu\n", pitch);
  check(pitch >= w * sizeof(float), "pitch_holds_row", "pitch %zu for %zu-byte rows", pitch, w * sizeof(float));
  std::vector<float> host(w * h), back(w * h), want(w * h);
  for (int i = 0; i < w * h; ++i) host[i] = 0.25f * i;
  expect_ok(cudaMemcpy2D(m, pitch, host.data(), w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice),
            "memcpy2d_h2d");
  mark_2d<<<dim3(2, h), 32>>>(m, pitch, w, h);
  expect_launch_ok("mark_2d_launch");
  expect_ok(cudaMemcpy2D(back.data(), w * sizeof(float), m, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost),
            "memcpy2d_d2h");
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) want[r * w + c] = host[r * w + c] + 1000.0f * r + c;
  expect_equal(back.data(), want.data(), w * h, "memcpy2d_result");
  // A 3 x 2 window from row 1, column 4 into a packed host buffer.
  float win[6] = {};
  expect_ok(cudaMemcpy2D(win, 3 * sizeof(float), reinterpret_cast<char*>(m) + pitch + 4 * sizeof(float), pitch,
                         3 * sizeof(float), 2, cudaMemcpyDeviceToHost),
            "memcpy2d_window");
  const float want_win[6] = {want[w + 4], want[w + 5], want[w + 6], want[2 * w + 4], want[2 * w + 5], want[2 * w + 6]};
  expect_equal(win, want_win, 6, "memcpy2d_window_result");
  cudaFree(m);
}

static void pitched_3d() {
  const int w = 6, h = 4, d = 3;
  cudaPitchedPtr dp;
  const cudaExtent extent = make_cudaExtent(w * sizeof(int), h, d);
  expect_ok(cudaMalloc3D(&dp, extent), "malloc3d");
  check(dp.pitch >= w * sizeof(int) && dp.xsize == w * sizeof(int) && dp.ysize == static_cast<size_t>(h),
        "malloc3d_pitched_ptr", "pitch %zu xsize %zu ysize %zu", dp.pitch, dp.xsize, dp.ysize);
  std::vector<int> host(w * h * d), back(w * h * d, -1), want(w * h * d);
  for (int i = 0; i < w * h * d; ++i) host[i] = i;
  cudaMemcpy3DParms up;
  std::memset(&up, 0, sizeof up);
  up.srcPtr = make_cudaPitchedPtr(host.data(), w * sizeof(int), w, h);
  up.dstPtr = dp;
  up.extent = extent;
  up.kind = cudaMemcpyHostToDevice;
  expect_ok(cudaMemcpy3D(&up), "memcpy3d_h2d");
  mark_3d<<<d, dim3(w, h)>>>(dp, w, h, d);
  expect_launch_ok("mark_3d_launch");
  cudaMemcpy3DParms down;
  std::memset(&down, 0, sizeof down);
  down.srcPtr = dp;
  down.dstPtr = make_cudaPitchedPtr(back.data(), w * sizeof(int), w, h);
  down.extent = extent;
  down.kind = cudaMemcpyDeviceToHost;
  expect_ok(cudaMemcpy3D(&down), "memcpy3d_d2h");
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const int i = (z * h + y) * w + x;
        want[i] = host[i] * 2 + 100 * z + 10 * y + x;
      }
  expect_equal(back.data(), want.data(), w * h * d, "memcpy3d_result");
  // A 2 x 2 x 2 box from (1, 1, 1) into a packed host buffer.
  int box[8] = {};
  cudaMemcpy3DParms part;
  std::memset(&part, 0, sizeof part);
  part.srcPtr = dp;
  part.srcPos = make_cudaPos(1 * sizeof(int), 1, 1);
  part.dstPtr = make_cudaPitchedPtr(box, 2 * sizeof(int), 2, 2);
  part.extent = make_cudaExtent(2 * sizeof(int), 2, 2);
  part.kind = cudaMemcpyDeviceToHost;
  expect_ok(cudaMemcpy3D(&part), "memcpy3d_box");
  int want_box[8];
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) want_box[(z * 2 + y) * 2 + x] = want[((z + 1) * h + y + 1) * w + x + 1];
  expect_equal(box, want_box, 8, "memcpy3d_box_result");
  cudaFree(dp.ptr);
}

static void dynamic_shared() {
  const int blocks = 3, threads = 64, n = blocks * threads;
  std::vector<int> h(n), back(n), want(n);
  for (int i = 0; i < n; ++i) h[i] = 5 * i + 2;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) want[b * threads + t] = h[b * threads + threads - 1 - t];
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  reverse_blocks<<<blocks, threads, threads * sizeof(int)>>>(in, out);
  expect_launch_ok("dynamic_shared_launch");
  cudaMemcpy(back.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  expect_equal(back.data(), want.data(), n, "dynamic_shared_result");
  cudaFree(in);
  cudaFree(out);
}

static void symbols() {
  size_t size = 0;
  expect_ok(cudaGetSymbolSize(&size, dev_table), "get_symbol_size_device");
  check(size == sizeof(dev_table), "symbol_size_device", "%zu", size);
  expect_ok(cudaGetSymbolSize(&size, poly), "get_symbol_size_constant");
  check(size == sizeof(poly), "symbol_size_constant", "%zu", size);

  const float c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
  expect_ok(cudaMemcpyToSymbol(poly, c, sizeof c), "memcpy_to_symbol_constant");
  const int n = 64;
  std::vector<float> x(n), y(n), want(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -2.0f + 0.0625f * i;  // exact in binary: the polynomial is exact too
    want[i] = c[0] + x[i] * (c[1] + x[i] * (c[2] + x[i] * c[3]));
  }
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  eval_poly<<<1, n>>>(dx, dy, n);
  expect_launch_ok("eval_poly_launch");
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  expect_equal(y.data(), want.data(), n, "constant_symbol_result");
  float c_back[4] = {};
  expect_ok(cudaMemcpyFromSymbol(c_back, poly, sizeof c_back), "memcpy_from_symbol_constant");
  expect_equal(c_back, c, 4, "constant_symbol_roundtrip");

  int table[16], back[16], want_t[16];
  for (int i = 0; i < 16; ++i) table[i] = 100 + i;
  expect_ok(cudaMemcpyToSymbol(dev_table, table, sizeof table), "memcpy_to_symbol_device");
  // The last four entries again, through the offset argument.
  const int tail[4] = {-1, -2, -3, -4};
  expect_ok(cudaMemcpyToSymbol(dev_table, tail, sizeof tail, 12 * sizeof(int)), "memcpy_to_symbol_offset");
  double_table<<<1, 16>>>();
  expect_launch_ok("double_table_launch");
  for (int i = 0; i < 16; ++i) want_t[i] = 2 * (i < 12 ? table[i] : tail[i - 12]) + i;
  expect_ok(cudaMemcpyFromSymbol(back, dev_table, sizeof back), "memcpy_from_symbol_device");
  expect_equal(back, want_t, 16, "device_symbol_result");
  int part[3] = {};
  expect_ok(cudaMemcpyFromSymbol(part, dev_table, sizeof part, 5 * sizeof(int)), "memcpy_from_symbol_offset");
  expect_equal(part, want_t + 5, 3, "device_symbol_offset_result");

  // The symbol's device address is ordinary device memory.
  void* addr = nullptr;
  expect_ok(cudaGetSymbolAddress(&addr, dev_table), "get_symbol_address");
  int via_addr[16] = {};
  expect_ok(cudaMemcpy(via_addr, addr, sizeof via_addr, cudaMemcpyDeviceToHost), "memcpy_from_symbol_address");
  expect_equal(via_addr, want_t, 16, "symbol_address_result");
  add_index<<<1, 16>>>(static_cast<int*>(addr), 16, 1);
  expect_launch_ok("kernel_on_symbol_address");
  expect_ok(cudaMemcpyFromSymbol(back, dev_table, sizeof back), "memcpy_from_symbol_after_kernel");
  for (int i = 0; i < 16; ++i) want_t[i] += i;
  expect_equal(back, want_t, 16, "symbol_address_kernel_result");
  // Device-to-device through the symbol API.
  int* dcopy = nullptr;
  cudaMalloc(&dcopy, sizeof table);
  expect_ok(cudaMemcpyFromSymbol(dcopy, dev_table, sizeof table, 0, cudaMemcpyDeviceToDevice),
            "memcpy_from_symbol_d2d");
  int dback[16] = {};
  cudaMemcpy(dback, dcopy, sizeof dback, cudaMemcpyDeviceToHost);
  expect_equal(dback, want_t, 16, "memcpy_from_symbol_d2d_result");
  cudaFree(dcopy);
  cudaFree(dx);
  cudaFree(dy);
}

// A GPU maps whole pages: a read just before a buffer, or before the program's first one, returns
// what the page holds, with no error (simtlab's own runs report it, docs/cuda-apps.md).
void reads_beside_buffers() {
  float *first = nullptr, *second = nullptr, *out = nullptr;
  cudaMalloc(&first, 64 * sizeof(float));
  cudaMalloc(&second, 64 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  read_before<<<1, 1>>>(second, 1, out);
  expect_launch_ok("read_before_second_buffer");
  read_before<<<1, 1>>>(first, 256, out);
  expect_launch_ok("read_before_first_buffer");
  cudaFree(first);
  cudaFree(second);
  cudaFree(out);
}

int main() {
  reads_beside_buffers();
  copies_1d();
  pinned_and_async();
  pitched_2d();
  pitched_3d();
  dynamic_shared();
  symbols();
  // Four lines the test driver looks for on stdout (device printf goes to
  // the program's stdout when the device synchronises).
  std::fflush(stdout);
  say_hello<<<1, 4>>>(7);
  expect_launch_ok("printf_launch");
  return finish();
}
