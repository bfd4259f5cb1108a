#include "func/texture.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "func/float_math.h"
#include "func/int_math.h"

namespace simt::func {

std::string ChannelFormat::name() const {
  std::string s = kind == ChannelKind::Signed ? "s" : kind == ChannelKind::Unsigned ? "u" : "f";
  s += std::to_string(bits);
  if (channels > 1) s += "x" + std::to_string(channels);
  return s;
}

bool ChannelFormat::parse(const std::string& text, ChannelFormat& out) {
  if (text.size() < 2) return false;
  ChannelFormat f;
  switch (text[0]) {
    case 's': f.kind = ChannelKind::Signed; break;
    case 'u': f.kind = ChannelKind::Unsigned; break;
    case 'f': f.kind = ChannelKind::Float; break;
    default: return false;
  }
  const size_t x = text.find('x');
  const std::string bits = text.substr(1, x == std::string::npos ? std::string::npos : x - 1);
  const std::string count = x == std::string::npos ? "1" : text.substr(x + 1);
  if (bits == "8") f.bits = 8;
  else if (bits == "16") f.bits = 16;
  else if (bits == "32") f.bits = 32;
  else return false;
  if (count == "1") f.channels = 1;
  else if (count == "2") f.channels = 2;
  else if (count == "4") f.channels = 4;
  else return false;
  if (f.kind == ChannelKind::Float && f.bits == 8) return false;
  out = f;
  return true;
}

void ImageLayout::pack() {
  if (pitch == 0) pitch = uint64_t(width) * format.texel_bytes();
  if (slice_pitch == 0) slice_pitch = pitch * (dims >= 2 ? height : 1);
}

uint64_t ImageLayout::span() const {
  const uint64_t slices = layers > 0 ? layers : (dims == 3 ? depth : 1);
  const uint64_t rows = dims >= 2 ? height : 1;
  return (slices - 1) * slice_pitch + (rows - 1) * pitch + uint64_t(width) * format.texel_bytes();
}

namespace {

std::string check_layout(const ImageLayout& l) {
  if (l.dims < 1 || l.dims > 3) return "dimensions must be 1, 2 or 3";
  if (l.layers > 0 && l.dims == 3) return "a layered texture is 1D or 2D";
  if (l.width == 0 || l.height == 0 || l.depth == 0) return "a dimension of 0";
  if (l.pitch < uint64_t(l.width) * l.format.texel_bytes())
    return "pitch " + std::to_string(l.pitch) + " is smaller than a row (" +
           std::to_string(uint64_t(l.width) * l.format.texel_bytes()) + " bytes)";
  if (l.dims >= 2 || l.layers > 0) {
    const uint64_t rows = l.dims >= 2 ? l.height : 1;
    if (l.slice_pitch < l.pitch * rows) return "slice pitch is smaller than a slice";
  }
  if (l.base % l.format.texel_bytes() != 0) return "the base address is not aligned to a texel";
  if (l.pitch % l.format.texel_bytes() != 0) return "the pitch is not a multiple of the texel size";
  return "";
}

}  // namespace

std::string TextureDesc::check() const {
  std::string why = check_layout(layout);
  if (!why.empty()) return why;
  if (filter == FilterMode::Linear && !returns_float())
    return "linear filtering needs float texels or read mode normalized-float";
  if (read == ReadMode::NormalizedFloat && layout.format.kind == ChannelKind::Float)
    return "read mode normalized-float applies to 8- and 16-bit integer texels";
  if (read == ReadMode::NormalizedFloat && layout.format.bits == 32)
    return "read mode normalized-float applies to 8- and 16-bit integer texels";
  return "";
}

std::string SurfaceDesc::check() const { return check_layout(layout); }

uint64_t TextureTable::add(const TextureDesc& t) {
  const std::string why = t.check();
  if (!why.empty()) throw std::invalid_argument(why);
  textures_.push_back(t);
  return kTextureTag + textures_.size();
}

uint64_t TextureTable::add(const SurfaceDesc& s) {
  const std::string why = s.check();
  if (!why.empty()) throw std::invalid_argument(why);
  surfaces_.push_back(s);
  return kSurfaceTag + surfaces_.size();
}

const TextureDesc* TextureTable::texture(uint64_t h) const {
  if (h <= kTextureTag || h - kTextureTag > textures_.size()) return nullptr;
  return &textures_[h - kTextureTag - 1];
}

const SurfaceDesc* TextureTable::surface(uint64_t h) const {
  if (h <= kSurfaceTag || h - kSurfaceTag > surfaces_.size()) return nullptr;
  return &surfaces_[h - kSurfaceTag - 1];
}

Texel decode_texel(const TextureDesc& t, const uint8_t* bytes) {
  const ChannelFormat& f = t.layout.format;
  Texel out;
  out.f[3] = 1;
  out.u[3] = 1;
  const uint32_t cb = f.bits / 8u;
  for (uint32_t c = 0; c < f.channels; ++c) {
    uint32_t raw = 0;
    std::memcpy(&raw, bytes + c * cb, cb);
    if (f.kind == ChannelKind::Float) {
      if (f.bits == 16) {
        out.f[c] = fm::f16_to_f32(static_cast<uint16_t>(raw));
      } else {
        std::memcpy(&out.f[c], &raw, 4);
      }
      std::memcpy(&out.u[c], &out.f[c], 4);
      continue;
    }
    const bool sign = f.kind == ChannelKind::Signed;
    const uint32_t u = sign ? static_cast<uint32_t>(im::sext(raw, f.bits)) : raw;
    out.u[c] = u;
    if (t.read == ReadMode::NormalizedFloat) {
      // Unsigned n bits map onto [0, 1], signed onto [-1, 1] (the most
      // negative value clamps to -1).
      const double range = sign ? double((1u << (f.bits - 1)) - 1) : double((uint64_t{1} << f.bits) - 1);
      const double v = sign ? double(static_cast<int32_t>(u)) : double(u);
      out.f[c] = static_cast<float>(std::max(-1.0, v / range));
    }
  }
  return out;
}

float filter_weight(float frac) { return std::nearbyint(frac * 256.0f) / 256.0f; }

namespace {

// A texel index that may lie outside [0, n): where the address mode sends it.
// False: the texel reads the border colour.
bool address(int64_t i, uint32_t n, AddressMode m, uint32_t& out) {
  const int64_t N = n;
  switch (m) {
    case AddressMode::Wrap:
      out = static_cast<uint32_t>(((i % N) + N) % N);
      return true;
    case AddressMode::Mirror: {
      const int64_t r = ((i % (2 * N)) + 2 * N) % (2 * N);
      out = static_cast<uint32_t>(r < N ? r : 2 * N - 1 - r);
      return true;
    }
    case AddressMode::Clamp:
      out = static_cast<uint32_t>(std::clamp<int64_t>(i, 0, N - 1));
      return true;
    case AddressMode::Border:
      if (i < 0 || i >= N) return false;
      out = static_cast<uint32_t>(i);
      return true;
  }
  return false;
}

struct AxisTaps {
  uint32_t idx[2] = {0, 0};
  bool border[2] = {false, false};
  float w[2] = {1, 0};
  uint32_t n = 1;
};

// Texel space is bounded so that floor() fits easily in 64 bits; anything
// beyond is far outside the texture under every address mode but wrap and
// mirror, whose normalised input was already reduced.
double texel_space(double x, uint32_t n, bool normalized) {
  if (std::isnan(x)) x = 0;
  const double t = normalized ? x * n : x;
  return std::clamp(t, -1e15, 1e15);
}

AxisTaps axis(double x, uint32_t n, AddressMode m, bool normalized, bool linear, bool int_coords) {
  AxisTaps a;
  if (int_coords || !linear) {
    const int64_t i = int_coords ? static_cast<int64_t>(x) : static_cast<int64_t>(std::floor(texel_space(x, n, normalized)));
    a.border[0] = !address(i, n, m, a.idx[0]);
    return a;
  }
  const double xb = texel_space(x, n, normalized) - 0.5;
  const double fl = std::floor(xb);
  const float alpha = filter_weight(static_cast<float>(xb - fl));
  const int64_t i = static_cast<int64_t>(fl);
  a.n = 2;
  a.w[0] = 1.0f - alpha;
  a.w[1] = alpha;
  a.border[0] = !address(i, n, m, a.idx[0]);
  a.border[1] = !address(i + 1, n, m, a.idx[1]);
  return a;
}

// Wrap and mirror apply to normalised coordinates only; with texel
// coordinates CUDA accepts them and the texture unit clamps, which code
// such as the convolutionTexture sample relies on.
AddressMode effective_mode(const TextureDesc& t, uint32_t axis, bool int_coords) {
  const AddressMode m = t.address[axis];
  if ((m == AddressMode::Wrap || m == AddressMode::Mirror) && (!t.normalized || int_coords)) return AddressMode::Clamp;
  return m;
}

uint32_t layer_index(const TextureDesc& t, uint32_t layer) {
  return t.layout.layers > 0 ? std::min(layer, t.layout.layers - 1) : 0;
}

}  // namespace

Footprint footprint(const TextureDesc& t, const std::array<double, 3>& c, uint32_t layer, bool int_coords) {
  const ImageLayout& l = t.layout;
  const bool linear = t.filter == FilterMode::Linear && !int_coords;
  const bool norm = t.normalized && !int_coords;
  const uint32_t size[3] = {l.width, l.height, l.depth};
  AxisTaps ax[3];
  for (uint32_t d = 0; d < 3; ++d)
    if (d < l.dims) ax[d] = axis(c[d], size[d], effective_mode(t, d, int_coords), norm, linear, int_coords);
  const uint32_t li = layer_index(t, layer);
  Footprint fp;
  for (uint32_t k = 0; k < ax[2].n; ++k)
    for (uint32_t j = 0; j < ax[1].n; ++j)
      for (uint32_t i = 0; i < ax[0].n; ++i) {
        Tap& tap = fp.taps[fp.n++];
        tap.weight = ax[0].w[i] * ax[1].w[j] * ax[2].w[k];
        tap.border = ax[0].border[i] || ax[1].border[j] || ax[2].border[k];
        if (!tap.border) tap.addr = l.texel_addr(ax[0].idx[i], ax[1].idx[j], ax[2].idx[k], li);
      }
  return fp;
}

Footprint gather_footprint(const TextureDesc& t, const std::array<double, 2>& c, uint32_t layer) {
  const ImageLayout& l = t.layout;
  const AxisTaps ax = axis(c[0], l.width, effective_mode(t, 0, false), t.normalized, true, false);
  const AxisTaps ay = axis(c[1], l.height, effective_mode(t, 1, false), t.normalized, true, false);
  const uint32_t li = layer_index(t, layer);
  static constexpr uint32_t kOrder[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  Footprint fp;
  for (const auto& o : kOrder) {
    Tap& tap = fp.taps[fp.n++];
    tap.border = ax.border[o[0]] || ay.border[o[1]];
    if (!tap.border) tap.addr = l.texel_addr(ax.idx[o[0]], ay.idx[o[1]], 0, li);
  }
  return fp;
}

Texel resolve(const TextureDesc& t, const Footprint& fp, const TexelReader& read) {
  uint8_t bytes[16];
  const uint32_t tb = t.layout.format.texel_bytes();
  Texel border;
  for (uint32_t c = 0; c < 4; ++c) {
    border.f[c] = t.border[c];
    border.u[c] = static_cast<uint32_t>(static_cast<int64_t>(t.border[c]));
  }
  auto fetch = [&](const Tap& tap) {
    if (tap.border) return border;
    read(tap.addr, bytes, tb);
    return decode_texel(t, bytes);
  };
  if (fp.n == 1) return fetch(fp.taps[0]);
  Texel out;
  out.f = {0, 0, 0, 0};
  for (uint32_t k = 0; k < fp.n; ++k) {
    const Texel v = fetch(fp.taps[k]);
    for (uint32_t c = 0; c < 4; ++c) out.f[c] += fp.taps[k].weight * v.f[c];
  }
  for (uint32_t c = 0; c < 4; ++c) std::memcpy(&out.u[c], &out.f[c], 4);
  return out;
}

}  // namespace simt::func
