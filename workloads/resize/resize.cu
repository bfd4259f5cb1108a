// Bilinear resize of an RGBA8 image through a texture object: the texture
// unit reads the 8-bit channels as normalised floats, filters them linearly
// at normalised coordinates and wraps horizontally (a panorama) while
// clamping vertically. Every thread does the same work (warp-size-
// insensitive); the texture cache sees 2D locality.
#include <cuda_runtime.h>

extern "C" __global__ void resize(cudaTextureObject_t image, uchar4* out, int width, int height,
                                  float shift) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  // Pixel centres in normalised coordinates; the horizontal shift wraps.
  const float u = (x + 0.5f) / width + shift;
  const float v = (y + 0.5f) / height;
  const float4 c = tex2D<float4>(image, u, v);
  out[y * width + x] = make_uchar4(__float2uint_rn(c.x * 255.0f), __float2uint_rn(c.y * 255.0f),
                                   __float2uint_rn(c.z * 255.0f), __float2uint_rn(c.w * 255.0f));
}
