// resize host side: an RGBA8 image in a texture object (normalised
// coordinates, linear filtering, normalised-float reads, wrap in x, clamp
// in y), resampled to a larger size. The CPU reference implements CUDA's
// texture-fetch rules on its own: texel-space coordinates, weights with 8
// fractional bits, the taps summed in the same order as the model does.
#include <cmath>

#include "common.h"
#include "func/texture.h"

namespace simt::workloads {
namespace {

struct ResizeShape {
  uint32_t in_w, in_h, out_w, out_h;
};

ResizeShape shape_for(Size size) {
  switch (size) {
    case Size::Small: return {40, 30, 64, 48};
    case Size::Medium: return {320, 240, 1024, 768};
    case Size::Large: return {1280, 960, 4096, 3072};
  }
  return {0, 0, 0, 0};
}

// One axis of the bilinear footprint: two texel indices and their weights.
struct Axis {
  int64_t i0, i1;
  float w0, w1;
};
Axis axis(float coord, uint32_t n, bool wrap) {
  const double xb = double(coord) * n - 0.5;
  const double fl = std::floor(xb);
  const float a = std::nearbyint(static_cast<float>(xb - fl) * 256.0f) / 256.0f;
  auto place = [&](int64_t i) {
    return wrap ? ((i % int64_t(n)) + n) % n : std::min<int64_t>(std::max<int64_t>(i, 0), n - 1);
  };
  const auto i = static_cast<int64_t>(fl);
  return {place(i), place(i + 1), 1.0f - a, a};
}

std::vector<uint32_t> reference(const std::vector<uint32_t>& img, const ResizeShape& s, float shift) {
  std::vector<uint32_t> out(size_t(s.out_w) * s.out_h);
  for (uint32_t y = 0; y < s.out_h; ++y)
    for (uint32_t x = 0; x < s.out_w; ++x) {
      const float u = (float(x) + 0.5f) / float(s.out_w) + shift;
      const float v = (float(y) + 0.5f) / float(s.out_h);
      const Axis ax = axis(u, s.in_w, true), ay = axis(v, s.in_h, false);
      const int64_t xs[2] = {ax.i0, ax.i1}, ys[2] = {ay.i0, ay.i1};
      const float wx[2] = {ax.w0, ax.w1}, wy[2] = {ay.w0, ay.w1};
      uint32_t pixel = 0;
      for (uint32_t c = 0; c < 4; ++c) {
        float sum = 0;
        for (int j = 0; j < 2; ++j)
          for (int i = 0; i < 2; ++i) {
            const uint32_t texel = img[size_t(ys[j]) * s.in_w + size_t(xs[i])];
            const float value = static_cast<float>(double((texel >> (8 * c)) & 0xff) / 255.0);
            sum += wx[i] * wy[j] * value;
          }
        pixel |= (static_cast<uint32_t>(std::nearbyint(sum * 255.0f)) & 0xff) << (8 * c);
      }
      out[size_t(y) * s.out_w + x] = pixel;
    }
  return out;
}

Result run(runtime::Device& dev, Size size) {
  auto& mod = load_workload_ptx(dev, "resize");
  const ResizeShape s = shape_for(size);
  const float shift = 0.3f;

  Rng rng(0x7e5123);
  std::vector<uint32_t> img(size_t(s.in_w) * s.in_h);
  for (auto& p : img) p = static_cast<uint32_t>(rng.next() >> 32);

  func::TextureDesc d;
  func::ChannelFormat::parse("u8x4", d.layout.format);
  d.layout.dims = 2;
  d.layout.width = s.in_w;
  d.layout.height = s.in_h;
  d.layout.base = dev.upload(img);
  d.address = {func::AddressMode::Wrap, func::AddressMode::Clamp, func::AddressMode::Clamp};
  d.filter = func::FilterMode::Linear;
  d.read = func::ReadMode::NormalizedFloat;
  d.normalized = true;
  const uint64_t tex = dev.create_texture(d, "resize image");
  const uint64_t d_out = dev.malloc(uint64_t(s.out_w) * s.out_h * 4);

  runtime::KernelArgs args;
  args.push<uint64_t>(tex).push<uint64_t>(d_out).push<int32_t>(s.out_w).push<int32_t>(s.out_h).push<float>(shift);
  const uint32_t bx = 16, by = 16;
  dev.launch(mod, "resize", {(s.out_w + bx - 1) / bx, (s.out_h + by - 1) / by, 1}, {bx, by, 1}, args);
  return compare_exact(dev.download<uint32_t>(d_out, size_t(s.out_w) * s.out_h), reference(img, s, shift), "pixels");
}

const bool registered = register_workload(
    {"resize", WorkloadClass::Insensitive,
     "bilinear resize of an RGBA8 image through a texture object (wrap x, clamp y)", &run});

}  // namespace
}  // namespace simt::workloads
