// Texture and surface objects (cudaTextureObject_t, cudaSurfaceObject_t):
// what the host describes, the 64-bit handles kernels receive, and the
// sampling rules of the PTX `tex`/`tld4` instructions (CUDA Programming
// Guide, "Texture Fetching"). Pure functions of the descriptor and the
// texel bytes, so tests check them without a kernel; exec_texture.cpp runs
// them per thread.
//
// Layout: every texture lives in device memory, row-major, `pitch` bytes
// per row and `slice_pitch` bytes per 2D slice (a depth slice of a 3D
// texture, or a layer of a layered one). A CUDA array is modelled the same
// way (its real layout is opaque and does not change results).
//
// Sampling, per axis of size N (texel space; normalised coordinates are
// multiplied by N first):
//   point   texel floor(x);
//   linear  xb = x - 0.5, i = floor(xb), a = frac(xb) rounded to 8
//           fractional bits, ties to even (9-bit fixed point: 1.0 exact),
//           result (1-a)T[i] + a T[i+1] (2D/3D: the products of the weights);
// texel indices outside [0, N) follow the axis' address mode: clamp to the
// edge, border (the texel reads the border colour), wrap (i mod N) or mirror
// (reflected every N texels). Wrap and mirror act on normalised coordinates;
// with texel coordinates they clamp, as CUDA's texture unit does. A NaN
// coordinate reads as 0. Integer (.s32) coordinates index
// texels directly: no normalisation, no filtering.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simt::func {

enum class ChannelKind : uint8_t { Signed, Unsigned, Float };
enum class AddressMode : uint8_t { Wrap, Clamp, Mirror, Border };  // cudaTextureAddressMode order
enum class FilterMode : uint8_t { Point, Linear };
enum class ReadMode : uint8_t { ElementType, NormalizedFloat };

// A texel's channels: 1, 2 or 4 of `bits` each (8/16/32; Float: 16 = half, 32).
struct ChannelFormat {
  ChannelKind kind = ChannelKind::Float;
  uint8_t bits = 32;
  uint8_t channels = 1;
  uint32_t texel_bytes() const { return bits / 8u * channels; }
  // "f32", "u8x4", "s16x2", "f16" ...
  std::string name() const;
  // Parses that form; false on anything else.
  static bool parse(const std::string& text, ChannelFormat& out);
};

// Extent and placement shared by textures and surfaces.
struct ImageLayout {
  uint64_t base = 0;         // device address of texel (0, 0, 0) of layer 0
  uint32_t dims = 1;         // 1, 2 or 3
  uint32_t width = 1, height = 1, depth = 1;
  uint32_t layers = 0;       // > 0: a layered (array) texture of that many 1D/2D layers
  uint64_t pitch = 0;        // bytes per row
  uint64_t slice_pitch = 0;  // bytes per depth slice or layer
  ChannelFormat format;
  // Fills pitch / slice_pitch left 0 with the packed values.
  void pack();
  // Device address of texel (x, y, z) of `layer`; indices must be in range.
  uint64_t texel_addr(uint32_t x, uint32_t y, uint32_t z, uint32_t layer) const {
    return base + uint64_t(layer) * slice_pitch + uint64_t(z) * slice_pitch + uint64_t(y) * pitch +
           uint64_t(x) * format.texel_bytes();
  }
  // Bytes from base to the end of the last texel.
  uint64_t span() const;
};

struct TextureDesc {
  ImageLayout layout;
  std::array<AddressMode, 3> address{{AddressMode::Clamp, AddressMode::Clamp, AddressMode::Clamp}};
  FilterMode filter = FilterMode::Point;
  ReadMode read = ReadMode::ElementType;
  bool normalized = false;
  std::array<float, 4> border{{0, 0, 0, 0}};
  // "" when usable, else why not (e.g. linear filtering of integers read as integers).
  std::string check() const;
  // Whether reads return floats (float texels, or integers read normalised).
  bool returns_float() const {
    return layout.format.kind == ChannelKind::Float || read == ReadMode::NormalizedFloat;
  }
};

struct SurfaceDesc {
  ImageLayout layout;
  std::string check() const;
};

// The objects of one device, by handle. Handles are opaque non-zero values
// outside every device and window address, so a handle used as a pointer
// faults, and a pointer used as a handle is reported as such.
class TextureTable {
 public:
  static constexpr uint64_t kTextureTag = 0x0000'7600'0000'0000ull;
  static constexpr uint64_t kSurfaceTag = 0x0000'7700'0000'0000ull;

  uint64_t add(const TextureDesc& t);  // throws std::invalid_argument with check()'s reason
  uint64_t add(const SurfaceDesc& s);
  const TextureDesc* texture(uint64_t handle) const;  // null: not a texture handle
  const SurfaceDesc* surface(uint64_t handle) const;
  bool empty() const { return textures_.empty() && surfaces_.empty(); }

 private:
  std::vector<TextureDesc> textures_;
  std::vector<SurfaceDesc> surfaces_;
};

// Reads `n` bytes of device memory at `addr` into dst (the caller checked
// the range when the object was created).
using TexelReader = std::function<void(uint64_t addr, void* dst, uint32_t n)>;

// One texel's channels as the read mode delivers them: floats when
// returns_float(), else the integers zero-/sign-extended to 32 bits.
// Missing channels read 0, except that a missing alpha (w) reads 1.
struct Texel {
  std::array<float, 4> f{{0, 0, 0, 0}};
  std::array<uint32_t, 4> u{{0, 0, 0, 0}};
};
Texel decode_texel(const TextureDesc& t, const uint8_t* bytes);

// Where a lookup lands: the texels and their weights (1 for point sampling;
// for a texel outside the texture under border addressing, addr is unused
// and border is set).
struct Tap {
  uint64_t addr = 0;
  float weight = 1;
  bool border = false;
};
struct Footprint {
  std::array<Tap, 8> taps;
  uint32_t n = 0;
};

// The taps of a lookup at coordinates c (texel or normalised per
// t.normalized; c[0..dims) used) in `layer` (clamped to the layers).
// int_coords: c holds integers (.s32 coordinates): texel indices, point
// sampling whatever the filter mode.
Footprint footprint(const TextureDesc& t, const std::array<double, 3>& c, uint32_t layer, bool int_coords);

// The four texels of the 2D bilinear footprint at c, in tld4's order
// (counter-clockwise from the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j)).
Footprint gather_footprint(const TextureDesc& t, const std::array<double, 2>& c, uint32_t layer);

// The filtered value of a footprint: weighted sum of float channels, or the
// single texel's integers.
Texel resolve(const TextureDesc& t, const Footprint& fp, const TexelReader& read);

// Bilinear weight of a fraction: round(frac * 256) / 256 (9-bit fixed point).
float filter_weight(float frac);

}  // namespace simt::func
