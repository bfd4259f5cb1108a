// Textures and surfaces through objects: channel descriptors, textures on
// linear memory (element and normalized-float reads), on pitched 2D memory
// and on a CUDA array (point and linear filtering, normalized coordinates,
// clamping), and a surface on an array written and read by kernels.
#include <cmath>
#include <cstring>
#include <vector>

#include "check.cuh"

constexpr int W = 16, H = 8;  // powers of two: normalized coordinates are exact

__global__ void fetch_float(cudaTextureObject_t t, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i);
}

// Point (x + dx, y + dy) of each output texel, times (sx, sy).
__global__ void sample_2d(cudaTextureObject_t t, float* out, float dx, float dy, float sx, float sy) {
  const int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2D<float>(t, (x + dx) * sx, (y + dy) * sy);
}

__global__ void surface_write(cudaSurfaceObject_t s) {
  const int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(100.0f * y + x, s, x * static_cast<int>(sizeof(float)), y);
}

__global__ void surface_read(cudaSurfaceObject_t s, float* out) {
  const int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = surf2Dread<float>(s, x * static_cast<int>(sizeof(float)), y) + 0.5f;
}

static float texel(const std::vector<float>& t, int x, int y) {
  x = x < 0 ? 0 : x >= W ? W - 1 : x;  // cudaAddressModeClamp
  y = y < 0 ? 0 : y >= H ? H - 1 : y;
  return t[y * W + x];
}

// Bilinear filtering as the CUDA programming guide defines it.
static float bilinear(const std::vector<float>& t, float u, float v) {
  const float xb = u - 0.5f, yb = v - 0.5f;
  const int i = static_cast<int>(std::floor(xb)), j = static_cast<int>(std::floor(yb));
  const float a = xb - i, b = yb - j;
  return (1 - a) * (1 - b) * texel(t, i, j) + a * (1 - b) * texel(t, i + 1, j) + (1 - a) * b * texel(t, i, j + 1) +
         a * b * texel(t, i + 1, j + 1);
}

static bool near(const float* got, const float* want, int n, float tol, const char* name) {
  for (int i = 0; i < n; ++i) {
    if (!(std::fabs(got[i] - want[i]) <= tol)) {
      check(false, name, "element %d is %g, expected %g", i, got[i], want[i]);
      return false;
    }
  }
  check(true, name);
  return true;
}

static cudaTextureDesc texture_desc(cudaTextureFilterMode filter, cudaTextureReadMode read, bool normalized) {
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = cudaAddressModeClamp;
  d.filterMode = filter;
  d.readMode = read;
  d.normalizedCoords = normalized ? 1 : 0;
  return d;
}

static void channel_descs() {
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  check(f.x == 32 && f.y == 0 && f.z == 0 && f.w == 0 && f.f == cudaChannelFormatKindFloat, "channel_desc_float",
        "%d %d %d %d kind %d", f.x, f.y, f.z, f.w, static_cast<int>(f.f));
  const cudaChannelFormatDesc u4 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
  const cudaChannelFormatDesc t4 = cudaCreateChannelDesc<uchar4>();
  check(u4.x == t4.x && u4.y == t4.y && u4.z == t4.z && u4.w == t4.w && u4.f == t4.f && u4.x == 8,
        "channel_desc_uchar4");
}

static void linear_textures() {
  const int n = 100;
  std::vector<float> h(n), got(n);
  for (int i = 0; i < n; ++i) h[i] = 1.5f * i - 20.0f;
  float *d = nullptr, *out = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = d;
  r.res.linear.desc = cudaCreateChannelDesc<float>();
  r.res.linear.sizeInBytes = n * sizeof(float);
  const cudaTextureDesc td = texture_desc(cudaFilterModePoint, cudaReadModeElementType, false);
  cudaTextureObject_t t = 0;
  expect_ok(cudaCreateTextureObject(&t, &r, &td, nullptr), "texture_linear_create");
  fetch_float<<<1, 128>>>(t, out, n);
  expect_launch_ok("texture_linear_fetch_launch");
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  expect_equal(got.data(), h.data(), n, "texture_linear_fetch");
  expect_ok(cudaDestroyTextureObject(t), "texture_linear_destroy");

  // Bytes read as normalized floats: v / 255.
  std::vector<unsigned char> bytes(n);
  std::vector<float> want(n);
  for (int i = 0; i < n; ++i) {
    bytes[i] = static_cast<unsigned char>((i * 37) % 256);
    want[i] = bytes[i] / 255.0f;
  }
  unsigned char* db = nullptr;
  cudaMalloc(&db, n);
  cudaMemcpy(db, bytes.data(), n, cudaMemcpyHostToDevice);
  r.res.linear.devPtr = db;
  r.res.linear.desc = cudaCreateChannelDesc<unsigned char>();
  r.res.linear.sizeInBytes = n;
  const cudaTextureDesc tn = texture_desc(cudaFilterModePoint, cudaReadModeNormalizedFloat, false);
  expect_ok(cudaCreateTextureObject(&t, &r, &tn, nullptr), "texture_normalized_float_create");
  fetch_float<<<1, 128>>>(t, out, n);
  expect_launch_ok("texture_normalized_float_launch");
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  near(got.data(), want.data(), n, 1e-6f, "texture_normalized_float_fetch");
  cudaDestroyTextureObject(t);
  cudaFree(db);
  cudaFree(d);
  cudaFree(out);
}

static void pitched_texture(const std::vector<float>& img, float* out) {
  float* m = nullptr;
  size_t pitch = 0;
  cudaMallocPitch(reinterpret_cast<void**>(&m), &pitch, W * sizeof(float), H);
  cudaMemcpy2D(m, pitch, img.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = m;
  r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  r.res.pitch2D.width = W;
  r.res.pitch2D.height = H;
  r.res.pitch2D.pitchInBytes = pitch;
  const cudaTextureDesc td = texture_desc(cudaFilterModePoint, cudaReadModeElementType, false);
  cudaTextureObject_t t = 0;
  expect_ok(cudaCreateTextureObject(&t, &r, &td, nullptr), "texture_pitch2d_create");
  sample_2d<<<H, W>>>(t, out, 0.5f, 0.5f, 1.0f, 1.0f);  // texel centres
  expect_launch_ok("texture_pitch2d_launch");
  std::vector<float> got(W * H);
  cudaMemcpy(got.data(), out, W * H * sizeof(float), cudaMemcpyDeviceToHost);
  expect_equal(got.data(), img.data(), W * H, "texture_pitch2d_point");
  cudaDestroyTextureObject(t);
  cudaFree(m);
}

static void array_textures(const std::vector<float>& img, float* out) {
  const cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr = nullptr;
  expect_ok(cudaMallocArray(&arr, &fd, W, H), "malloc_array");
  expect_ok(cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * sizeof(float), W * sizeof(float), H,
                                cudaMemcpyHostToDevice),
            "memcpy2d_to_array");
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = arr;
  std::vector<float> got(W * H), want(W * H);

  // Point filtering, normalized coordinates, shifted half a texture left
  // and up: the clamp repeats the first row and column.
  cudaTextureDesc td = texture_desc(cudaFilterModePoint, cudaReadModeElementType, true);
  cudaTextureObject_t t = 0;
  expect_ok(cudaCreateTextureObject(&t, &r, &td, nullptr), "texture_array_point_create");
  sample_2d<<<H, W>>>(t, out, 0.5f - W / 2, 0.5f - H / 2, 1.0f / W, 1.0f / H);
  expect_launch_ok("texture_array_point_launch");
  cudaMemcpy(got.data(), out, W * H * sizeof(float), cudaMemcpyDeviceToHost);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) want[y * W + x] = texel(img, x - W / 2, y - H / 2);
  expect_equal(got.data(), want.data(), W * H, "texture_array_point_clamped");
  cudaDestroyTextureObject(t);

  // Linear filtering between four texels (weights 1/4 and 3/4 are exact in
  // the hardware's 8-bit fraction), normalized coordinates.
  td = texture_desc(cudaFilterModeLinear, cudaReadModeElementType, true);
  expect_ok(cudaCreateTextureObject(&t, &r, &td, nullptr), "texture_array_linear_create");
  sample_2d<<<H, W>>>(t, out, 0.75f, 1.25f, 1.0f / W, 1.0f / H);
  expect_launch_ok("texture_array_linear_launch");
  cudaMemcpy(got.data(), out, W * H * sizeof(float), cudaMemcpyDeviceToHost);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) want[y * W + x] = bilinear(img, x + 0.75f, y + 1.25f);
  near(got.data(), want.data(), W * H, 0.01f, "texture_array_linear");
  cudaDestroyTextureObject(t);
  expect_ok(cudaFreeArray(arr), "free_array");
}

static void surfaces(float* out) {
  const cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr = nullptr;
  expect_ok(cudaMallocArray(&arr, &fd, W, H, cudaArraySurfaceLoadStore), "malloc_array_surface");
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = arr;
  cudaSurfaceObject_t s = 0;
  expect_ok(cudaCreateSurfaceObject(&s, &r), "surface_create");
  surface_write<<<H, W>>>(s);
  expect_launch_ok("surface_write_launch");
  std::vector<float> got(W * H), want(W * H);
  expect_ok(cudaMemcpy2DFromArray(got.data(), W * sizeof(float), arr, 0, 0, W * sizeof(float), H,
                                  cudaMemcpyDeviceToHost),
            "memcpy2d_from_array");
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) want[y * W + x] = 100.0f * y + x;
  expect_equal(got.data(), want.data(), W * H, "surface_write_result");
  surface_read<<<H, W>>>(s, out);
  expect_launch_ok("surface_read_launch");
  cudaMemcpy(got.data(), out, W * H * sizeof(float), cudaMemcpyDeviceToHost);
  for (float& v : want) v += 0.5f;
  expect_equal(got.data(), want.data(), W * H, "surface_read_result");
  expect_ok(cudaDestroySurfaceObject(s), "surface_destroy");
  cudaFreeArray(arr);
}

int main() {
  channel_descs();
  linear_textures();
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) img[y * W + x] = 3.0f * x + 16.0f * y + 1.0f;
  float* out = nullptr;
  cudaMalloc(&out, W * H * sizeof(float));
  pitched_texture(img, out);
  array_textures(img, out);
  surfaces(out);
  cudaFree(out);
  return finish();
}
