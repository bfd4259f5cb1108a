#define BOOST_TEST_MODULE texture_ops
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "config/param_registry.h"
#include "func/texture.h"
#include "gpu/machine_config.h"
#include "runtime/device.h"
#include "util/error.h"

using namespace simt;
using func::AddressMode;
using func::ChannelKind;
using func::FilterMode;
using func::ReadMode;
using func::TextureDesc;

namespace {

// A texture over host bytes: addresses are offsets into `bytes`.
struct HostTexture {
  TextureDesc d;
  std::vector<uint8_t> bytes;
  template <class T>
  HostTexture(std::vector<T> texels, uint32_t w, uint32_t h, const char* format) {
    BOOST_REQUIRE(func::ChannelFormat::parse(format, d.layout.format));
    d.layout.dims = h > 1 ? 2 : 1;
    d.layout.width = w;
    d.layout.height = h;
    d.layout.pack();
    const auto* p = reinterpret_cast<const uint8_t*>(texels.data());
    bytes.assign(p, p + texels.size() * sizeof(T));
  }
  func::Texel at(double x, double y = 0, bool int_coords = false) const {
    const auto fp = func::footprint(d, {{x, y, 0}}, 0, int_coords);
    return func::resolve(d, fp, [&](uint64_t a, void* dst, uint32_t n) { std::memcpy(dst, bytes.data() + a, n); });
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(filter_weights_have_eight_fractional_bits) {
  BOOST_TEST(func::filter_weight(0.0f) == 0.0f);
  BOOST_TEST(func::filter_weight(0.5f) == 0.5f);
  BOOST_TEST(func::filter_weight(0.3f) == 77.0f / 256);     // 76.8 rounds to 77
  BOOST_TEST(func::filter_weight(0.8f) == 205.0f / 256);    // 204.8 -> 205
  BOOST_TEST(func::filter_weight(0.999f) == 1.0f);          // 255.74 -> 256: 1.0 is exact
  BOOST_TEST(func::filter_weight(1.0f / 512) == 0.0f);      // 0.5 ties to even
}

BOOST_AUTO_TEST_CASE(linear_filtering_in_one_and_two_dimensions) {
  HostTexture t(std::vector<float>{0, 10, 20, 30, 100, 110, 120, 130}, 4, 2, "f32");
  t.d.filter = FilterMode::Linear;
  // x = 1.3: xb = 0.8, i = 0, a = 205/256 -> 10 * 205/256.
  BOOST_TEST(t.at(1.3, 0.5).f[0] == 10.0f * 205 / 256);
  // Texel centres read exactly; halfway between two texels is their mean.
  BOOST_TEST(t.at(2.5, 0.5).f[0] == 20.0f);
  BOOST_TEST(t.at(2.0, 0.5).f[0] == 15.0f);
  // Bilinear at (1.25, 1.0): a = 0.75 between texels 0 and 1, b = 0.5 between rows 0 and 1.
  const float top = 0.25f * 0 + 0.75f * 10, bottom = 0.25f * 100 + 0.75f * 110;
  BOOST_TEST(t.at(1.25, 1.0).f[0] == 0.5f * top + 0.5f * bottom);
  // Clamp at the edges: below texel 0's centre is texel 0.
  BOOST_TEST(t.at(0.1, 0.5).f[0] == 0.0f);
  BOOST_TEST(t.at(3.9, 0.5).f[0] == 30.0f);
  // Missing channels: 0, alpha 1.
  BOOST_TEST(t.at(2.5, 0.5).f[1] == 0.0f);
  BOOST_TEST(t.at(2.5, 0.5).f[3] == 1.0f);
}

BOOST_AUTO_TEST_CASE(address_modes_on_normalized_coordinates) {
  HostTexture t(std::vector<float>{1, 2, 3, 4}, 4, 1, "f32");
  t.d.normalized = true;
  struct Row { AddressMode m; float below, above; };  // x = -0.1 (texel -1), x = 1.3 (texel 5)
  const Row rows[] = {{AddressMode::Wrap, 4, 2}, {AddressMode::Mirror, 1, 3},
                      {AddressMode::Clamp, 1, 4}, {AddressMode::Border, -7, -7}};
  for (const Row& r : rows) {
    t.d.address[0] = r.m;
    t.d.border = {-7, 0, 0, 0};
    BOOST_TEST(t.d.check() == "");
    BOOST_TEST(t.at(-0.1).f[0] == r.below, "mode " << int(r.m));
    BOOST_TEST(t.at(1.3).f[0] == r.above, "mode " << int(r.m));
    BOOST_TEST(t.at(0.6).f[0] == 3.0f);  // inside: texel 2
  }
  // Linear filtering with wrap blends the last and the first texel.
  t.d.address[0] = AddressMode::Wrap;
  t.d.filter = FilterMode::Linear;
  BOOST_TEST(t.at(0.0).f[0] == 2.5f);  // texel -0.5 .. 0.5: half of texel 3 (4) and half of texel 0 (1)
  // A NaN coordinate reads as 0.
  t.d.filter = FilterMode::Point;
  BOOST_TEST(t.at(std::nan("")).f[0] == 1.0f);
}

BOOST_AUTO_TEST_CASE(wrap_and_mirror_clamp_texel_coordinates) {
  // CUDA accepts wrap/mirror with unnormalised coordinates; the unit clamps.
  HostTexture t(std::vector<float>{1, 2}, 2, 1, "f32");
  for (AddressMode m : {AddressMode::Wrap, AddressMode::Mirror}) {
    t.d.address[0] = m;
    BOOST_TEST(t.d.check() == "");
    BOOST_TEST(t.at(-3.0).f[0] == 1.0f);
    BOOST_TEST(t.at(5.5).f[0] == 2.0f);
    BOOST_TEST(t.at(5, 0, true).f[0] == 2.0f);  // integer coordinates too
  }
  HostTexture u(std::vector<uint8_t>{1, 2}, 2, 1, "u8");
  u.d.filter = FilterMode::Linear;
  BOOST_TEST(u.d.check().find("linear filtering") != std::string::npos);
  u.d.read = ReadMode::NormalizedFloat;
  BOOST_TEST(u.d.check() == "");
}

BOOST_AUTO_TEST_CASE(read_modes_of_integer_texels) {
  HostTexture u(std::vector<uint8_t>{0, 128, 255, 7}, 1, 1, "u8x4");
  BOOST_TEST(u.at(0, 0, true).u[1] == 128u);  // element type: the integers
  u.d.read = ReadMode::NormalizedFloat;
  const func::Texel v = u.at(0.5);
  BOOST_TEST(v.f[0] == 0.0f);
  BOOST_TEST(v.f[1] == 128.0f / 255);
  BOOST_TEST(v.f[2] == 1.0f);
  HostTexture s(std::vector<int8_t>{-128, -127, 127, -1}, 1, 1, "s8x4");
  BOOST_TEST(s.at(0, 0, true).u[0] == 0xffffff80u);  // sign-extended
  s.d.read = ReadMode::NormalizedFloat;
  const func::Texel w = s.at(0.5);
  BOOST_TEST(w.f[0] == -1.0f);  // -128/127 clamps to -1
  BOOST_TEST(w.f[1] == -1.0f);
  BOOST_TEST(w.f[2] == 1.0f);
  BOOST_TEST(w.f[3] == -1.0f / 127);
  HostTexture h(std::vector<uint16_t>{0x3c00, 0xc000}, 1, 1, "f16x2");  // 1.0, -2.0
  BOOST_TEST(h.at(0.5).f[0] == 1.0f);
  BOOST_TEST(h.at(0.5).f[1] == -2.0f);
}

BOOST_AUTO_TEST_CASE(gather_returns_the_footprint_counter_clockwise_from_lower_left) {
  HostTexture t(std::vector<float>{0, 1, 2, 10, 11, 12}, 3, 2, "f32");
  // At (1.0, 1.0): i = 0, j = 0; order (0,1) (1,1) (1,0) (0,0).
  const auto fp = func::gather_footprint(t.d, {{1.0, 1.0}}, 0);
  BOOST_REQUIRE(fp.n == 4u);
  const float want[4] = {10, 11, 1, 0};
  for (int q = 0; q < 4; ++q) {
    float v;
    std::memcpy(&v, t.bytes.data() + fp.taps[q].addr, 4);
    BOOST_TEST(v == want[q]);
  }
}

BOOST_AUTO_TEST_CASE(formats_parse_and_name_themselves) {
  func::ChannelFormat f;
  for (const char* s : {"f32", "u8x4", "s16x2", "f16", "u32x4"}) {
    BOOST_TEST(func::ChannelFormat::parse(s, f));
    BOOST_TEST(f.name() == s);
  }
  for (const char* s : {"f8", "u8x3", "i32", "u64", ""}) BOOST_TEST(!func::ChannelFormat::parse(s, f));
}

// ---------------------------------------------------------------- kernels

namespace {

const char* kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry lin2d(.param .u64 tex, .param .u64 out, .param .f32 x0, .param .f32 y)
{
  .reg .f32 %f<9>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [tex];
  ld.param.u64 %rd2, [out];
  ld.param.f32 %f1, [x0];
  ld.param.f32 %f2, [y];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f3, %r1;
  add.f32 %f3, %f3, %f1;
  tex.2d.v4.f32.f32 {%f4, %f5, %f6, %f7}|%p1, [%rd1, {%f3, %f2}];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.f32 [%rd4], %f4;
  ret;
}
.visible .entry fetch(.param .u64 tex, .param .u64 out)
{
  .reg .b32 %r<7>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [tex];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  tex.1d.v4.s32.s32 {%r2, %r3, %r4, %r5}, [%rd1, {%r1}];
  txq.width.b32 %r6, [%rd1];
  add.s32 %r2, %r2, %r6;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r2;
  ret;
}
.visible .entry gather(.param .u64 tex, .param .u64 out)
{
  .reg .f32 %f<5>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [tex];
  ld.param.u64 %rd2, [out];
  mov.f32 %f1, 0f3F800000;
  tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f1}];
  st.global.v4.f32 [%rd2], {%f1, %f2, %f3, %f4};
  ret;
}
.visible .entry surf(.param .u64 s, .param .u32 row)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [s];
  ld.param.u32 %r7, [row];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, 0;
  suld.b.2d.b32.trap {%r4}, [%rd1, {%r2, %r3}];
  add.s32 %r5, %r4, 1000;
  sust.b.2d.b32.trap [%rd1, {%r2, %r7}], {%r5};
  suq.width.b32 %r6, [%rd1];
  ret;
}
.visible .entry surf_modes(.param .u64 s, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [s];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  add.s32 %r2, %r2, -8;
  mov.u32 %r3, 0;
  suld.b.2d.b32.clamp {%r4}, [%rd1, {%r2, %r3}];
  suld.b.2d.b32.zero {%r5}, [%rd1, {%r2, %r3}];
  sust.b.2d.b32.zero [%rd1, {%r2, %r3}], {%r1};
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd2, %rd3;
  st.global.v2.u32 [%rd4], {%r4, %r5};
  ret;
}
)";

struct Gpu {
  std::unique_ptr<runtime::Device> dev;
  runtime::Module* m = nullptr;
  explicit Gpu(runtime::Mode mode) {
    runtime::DeviceOptions o;
    o.mode = mode;
    if (mode == runtime::Mode::Timing) {
      auto machine = std::make_shared<gpu::MachineConfig>();
      config::ParamRegistry reg;
      machine->bind(reg);
      machine->finalize();
      o.machine = machine;
    }
    dev = std::make_unique<runtime::Device>(o);
    m = &dev->load_ptx(kPtx, "tex.ptx");
  }
  template <class T>
  uint64_t texture(const std::vector<T>& texels, TextureDesc d) {
    d.layout.base = dev->upload(texels);
    return dev->create_texture(d);
  }
};

TextureDesc desc(const char* format, uint32_t w, uint32_t h) {
  TextureDesc d;
  func::ChannelFormat::parse(format, d.layout.format);
  d.layout.dims = h > 1 ? 2 : 1;
  d.layout.width = w;
  d.layout.height = h;
  return d;
}

// SystemC elaborates one machine per process: every test shares one timing
// device; functional devices are made fresh.
Gpu& timing_gpu() {
  static Gpu g(runtime::Mode::Timing);
  return g;
}
std::unique_ptr<Gpu> fresh;
Gpu& gpu_for(runtime::Mode mode) {
  if (mode == runtime::Mode::Timing) return timing_gpu();
  fresh = std::make_unique<Gpu>(mode);
  return *fresh;
}

const runtime::Mode kModes[] = {runtime::Mode::Functional, runtime::Mode::Timing};

}  // namespace

BOOST_AUTO_TEST_CASE(tex_2d_linear_end_to_end) {
  for (runtime::Mode mode : kModes) {
    Gpu& g = gpu_for(mode);
    TextureDesc d = desc("f32", 4, 2);
    d.filter = FilterMode::Linear;
    const uint64_t tex = g.texture(std::vector<float>{0, 10, 20, 30, 100, 110, 120, 130}, d);
    const uint64_t out = g.dev->malloc(4 * 4);
    runtime::KernelArgs a;
    a.push<uint64_t>(tex).push<uint64_t>(out).push<float>(0.3f).push<float>(1.0f);
    g.dev->launch(*g.m, "lin2d", {{1, 1, 1}}, {{4, 1, 1}}, a);
    const auto v = g.dev->download<float>(out, 4);
    // x = t + 0.3: xb = t - 0.2 -> (i, a) = (-1, 205/256), (0, 205/256), ...; y = 1.0 -> rows 0 and 1 halved.
    const float a8 = 205.0f / 256;
    auto row = [&](float l, float r) { return (1 - a8) * l + a8 * r; };
    const float want[4] = {0.5f * row(0, 0) + 0.5f * row(100, 100), 0.5f * row(0, 10) + 0.5f * row(100, 110),
                           0.5f * row(10, 20) + 0.5f * row(110, 120), 0.5f * row(20, 30) + 0.5f * row(120, 130)};
    for (int i = 0; i < 4; ++i) BOOST_TEST(v[i] == want[i], "mode " << int(mode) << " thread " << i);
  }
}

BOOST_AUTO_TEST_CASE(tex1dfetch_txq_and_gather_end_to_end) {
  for (runtime::Mode mode : kModes) {
    Gpu& g = gpu_for(mode);
    const uint64_t tex = g.texture(std::vector<int32_t>{5, -6, 7, 8}, desc("s32", 4, 1));
    const uint64_t out = g.dev->malloc(6 * 4);
    runtime::KernelArgs a;
    a.push<uint64_t>(tex).push<uint64_t>(out);
    g.dev->launch(*g.m, "fetch", {{1, 1, 1}}, {{6, 1, 1}}, a);
    const auto v = g.dev->download<int32_t>(out, 6);
    const int32_t want[6] = {9, -2, 11, 12, 12, 12};  // texel (clamped past the end) + width 4
    for (int i = 0; i < 6; ++i) BOOST_TEST(v[i] == want[i]);

    const uint64_t tex2 = g.texture(std::vector<float>{0, 1, 2, 10, 11, 12}, desc("f32", 3, 2));
    const uint64_t out2 = g.dev->malloc(16);
    runtime::KernelArgs b;
    b.push<uint64_t>(tex2).push<uint64_t>(out2);
    g.dev->launch(*g.m, "gather", {{1, 1, 1}}, {{1, 1, 1}}, b);
    const auto w = g.dev->download<float>(out2, 4);
    BOOST_TEST(w == (std::vector<float>{10, 11, 1, 0}), boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(surface_load_store_and_out_of_range_modes) {
  for (runtime::Mode mode : kModes) {
    Gpu& g = gpu_for(mode);
    func::SurfaceDesc s;
    s.layout = desc("u32", 4, 2).layout;
    std::vector<uint32_t> init = {1, 2, 3, 4, 0, 0, 0, 0};
    s.layout.base = g.dev->upload(init);
    const uint64_t h = g.dev->create_surface(s);
    runtime::KernelArgs a;
    a.push<uint64_t>(h).push<uint32_t>(1);
    g.dev->launch(*g.m, "surf", {{1, 1, 1}}, {{4, 1, 1}}, a);
    auto v = g.dev->download<uint32_t>(s.layout.base, 8);
    BOOST_TEST(v == (std::vector<uint32_t>{1, 2, 3, 4, 1001, 1002, 1003, 1004}), boost::test_tools::per_element());

    // Row 2 is outside the 2-row surface: .trap faults, naming the instruction
    // (functional mode: a fault ends a timing simulation for good).
    if (mode == runtime::Mode::Functional) {
      runtime::KernelArgs bad;
      bad.push<uint64_t>(h).push<uint32_t>(2);
      try {
        g.dev->launch(*g.m, "surf", {{1, 1, 1}}, {{4, 1, 1}}, bad);
        BOOST_FAIL("expected a kernel fault");
      } catch (const Error& e) {
        BOOST_TEST(std::string(e.what()).find("sust: coordinates") != std::string::npos, e.what());
        BOOST_TEST((e.code() == ExitCode::KernelFault));
      }
    }
    // x = 4t - 8 bytes: threads 0, 1 are left of the surface, 2..5 inside.
    const uint64_t out = g.dev->malloc(6 * 8);
    runtime::KernelArgs m;
    m.push<uint64_t>(h).push<uint64_t>(out);
    g.dev->launch(*g.m, "surf_modes", {{1, 1, 1}}, {{6, 1, 1}}, m);
    const auto r = g.dev->download<uint32_t>(out, 12);
    // (clamped load, zero-mode load): clamp reads texel 0 for x < 0; zero reads 0 there.
    const std::vector<uint32_t> want = {1, 0, 1, 0, 1, 1, 2, 2, 3, 3, 4, 4};
    BOOST_TEST(r == want, boost::test_tools::per_element());
    // .zero stores inside the surface write thread ids 2..5, outside nothing.
    v = g.dev->download<uint32_t>(s.layout.base, 4);
    BOOST_TEST(v == (std::vector<uint32_t>{2, 3, 4, 5}), boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(bad_handles_and_result_types_are_kernel_faults) {
  Gpu g(runtime::Mode::Functional);
  const uint64_t out = g.dev->malloc(64);
  runtime::KernelArgs a;
  a.push<uint64_t>(out).push<uint64_t>(out);  // a pointer where a texture belongs
  try {
    g.dev->launch(*g.m, "fetch", {{1, 1, 1}}, {{1, 1, 1}}, a);
    BOOST_FAIL("expected a kernel fault");
  } catch (const Error& e) {
    BOOST_TEST(std::string(e.what()).find("is not a texture object") != std::string::npos, e.what());
  }
  // .s32 result from a float texture.
  const uint64_t ftex = g.texture(std::vector<float>{1, 2}, desc("f32", 2, 1));
  runtime::KernelArgs b;
  b.push<uint64_t>(ftex).push<uint64_t>(out);
  try {
    g.dev->launch(*g.m, "fetch", {{1, 1, 1}}, {{1, 1, 1}}, b);
    BOOST_FAIL("expected a kernel fault");
  } catch (const Error& e) {
    BOOST_TEST(std::string(e.what()).find(".s32 result from f32 texels") != std::string::npos, e.what());
  }
  // A description the device refuses, and texels outside device memory.
  TextureDesc d = desc("u8", 2, 1);
  d.filter = FilterMode::Linear;  // integers read as integers cannot be filtered
  d.layout.base = out;
  BOOST_CHECK_THROW(g.dev->create_texture(d), Error);
  TextureDesc far = desc("f32", 1000, 1);
  far.layout.base = out;
  BOOST_CHECK_THROW(g.dev->create_texture(far), Error);
}

BOOST_AUTO_TEST_CASE(unsupported_texture_forms_are_refused_at_load) {
  struct Case { const char* instr; const char* why; };
  const Case cases[] = {
      {"tex.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2, %f3, %f4}];", "cube-map"},
      {"suld.p.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [%rd1, {%r1, %r2}];", "formatted surface"},
      {"txq.channel_order.b32 %r1, [%rd1];", "texture query"},
      {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd1, {%f1, %f2}];", "separate sampler"},
  };
  for (const Case& c : cases) {
    const std::string ptx = std::string(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                                        "  .reg .f32 %f<5>;\n  .reg .b32 %r<5>;\n  .reg .b64 %rd<2>;\n  ") +
                            c.instr + "\n  ret;\n}\n";
    runtime::Device dev;
    try {
      runtime::Module& m = dev.load_ptx(ptx, "k.ptx");
      dev.launch(m, "k", {{1, 1, 1}}, {{1, 1, 1}}, runtime::KernelArgs{});
      BOOST_FAIL("expected a refusal: " << c.instr);
    } catch (const Error& e) {
      BOOST_TEST(std::string(e.what()).find(c.why) != std::string::npos, e.what());
      BOOST_TEST((e.code() == ExitCode::BadInput));
    }
  }
}
