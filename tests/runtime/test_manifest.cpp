#define BOOST_TEST_MODULE manifest
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "runtime/manifest.h"
#include "util/error.h"

using simt::runtime::Manifest;

namespace {
// Expects parse() to fail with BadInput and a message containing `where`.
void expect_error(const std::string& json, const std::string& where) {
  try {
    Manifest::parse(json, "/tmp/m.json");
    BOOST_ERROR("no error for: " << json);
  } catch (const simt::Error& e) {
    BOOST_TEST(static_cast<int>(e.code()) == 2);
    std::string msg = e.what();
    BOOST_TEST(msg.find("/tmp/m.json") != std::string::npos, msg);
    BOOST_TEST(msg.find(where) != std::string::npos, msg << " (wanted '" << where << "')");
  }
}
const char* kGood = R"({"ptx": "k.ptx",
  "buffers": [{"name": "in", "type": "i32", "count": 8, "init": {"kind": "iota", "start": 3}},
              {"name": "out", "type": "f32", "count": 8, "init": {"kind": "fill", "value": 0}},
              {"name": "r", "type": "u8", "count": 4, "init": {"kind": "random", "seed": 7, "min": 1, "max": 9}}],
  "launches": [{"kernel": "k", "grid": [2,1,1], "block": [4], "dynamic_shared_bytes": 64,
                "args": [{"buffer": "in"}, {"buffer": "out"}, {"i32": -5}, {"f32": 0.5}, {"u64": 18446744073709551615}]}],
  "outputs": [{"buffer": "out", "path": "out.bin"}]})";
}  // namespace

BOOST_AUTO_TEST_CASE(parses_the_documented_format) {
  Manifest m = Manifest::parse(kGood, "/data/x/m.json");
  BOOST_TEST(m.ptx_path == "/data/x/k.ptx");  // relative to the manifest
  BOOST_TEST(m.buffers.size() == 3u);
  BOOST_TEST(m.buffers[0].count == 8u);
  BOOST_TEST(m.launches[0].grid[0] == 2u);
  BOOST_TEST(m.launches[0].block[0] == 4u);
  BOOST_TEST(m.launches[0].block[1] == 1u);
  BOOST_TEST(m.launches[0].dynamic_shared_bytes == 64u);
  const auto& a = m.launches[0].args;
  BOOST_TEST(a.size() == 5u);
  BOOST_TEST(a[0].buffer == "in");
  BOOST_TEST(a[2].bits == 0xfffffffbull);
  float half = 0.5f;
  uint32_t hb;
  std::memcpy(&hb, &half, 4);
  BOOST_TEST(a[3].bits == hb);
  BOOST_TEST(a[4].bits == ~0ull);
  BOOST_TEST(m.outputs[0].path == "out.bin");
}

// Found by tests/fuzz/fuzz_manifest: a number too large for a double makes
// the JSON library throw out_of_range, not parse_error; it is bad input too.
BOOST_AUTO_TEST_CASE(a_number_out_of_double_range_is_bad_input) {
  expect_error(R"({"ptx":"k.ptx","buffers":[{"name":"a","type":"u32","count":1e999}],"launches":[{"kernel":"k","grid":1,"block":1}]})",
               "not valid JSON");
  expect_error(R"({"ptx":"k.ptx","buffers":[],"launches":[{"kernel":"k","grid":1,"block":1,"args":[{"f64":-8e8888}]}]})",
               "not valid JSON");
}

BOOST_AUTO_TEST_CASE(rejects_bad_manifests_naming_the_place) {
  expect_error("{", "not valid JSON");
  expect_error(R"({"buffers": [], "launches": [{"kernel":"k","grid":1,"block":1}]})", "missing \"ptx\"");
  expect_error(R"({"ptx":"k.ptx","buffers":[{"name":"a","type":"i33","count":1}],"launches":[{"kernel":"k","grid":1,"block":1}]})",
               "buffers[0].type: unknown type \"i33\"");
  expect_error(R"({"ptx":"k.ptx","buffers":[{"name":"a","type":"i32","count":0}],"launches":[{"kernel":"k","grid":1,"block":1}]})",
               "buffers[0].count");
  expect_error(R"({"ptx":"k.ptx","buffers":[{"name":"a","type":"i32","count":1},{"name":"a","type":"i32","count":1}],"launches":[{"kernel":"k","grid":1,"block":1}]})",
               "duplicate buffer name");
  expect_error(R"({"ptx":"k.ptx","buffers":[{"name":"a","type":"i32","count":1,"init":{"kind":"zeros"}}],"launches":[{"kernel":"k","grid":1,"block":1}]})",
               "buffers[0].init.kind: unknown init kind");
  expect_error(R"({"ptx":"k.ptx","buffers":[],"launches":[{"kernel":"k","grid":[0,1,1],"block":1}]})",
               "launches[0].grid");
  expect_error(R"({"ptx":"k.ptx","buffers":[],"launches":[{"kernel":"k","grid":1,"block":1,"args":[{"buffer":"nope"}]}]})",
               "launches[0].args[0].buffer: no buffer named \"nope\"");
  expect_error(R"({"ptx":"k.ptx","buffers":[],"launches":[{"kernel":"k","grid":1,"block":1,"args":[{"i8":300}]}]})",
               "launches[0].args[0].i8: 300 does not fit in i8");
  expect_error(R"({"ptx":"k.ptx","buffers":[],"launches":[{"kernel":"k","grid":1,"block":1,"args":[{"u32":-1}]}]})",
               "does not fit in u32");
  expect_error(R"({"ptx":"k.ptx","buffers":[],"launches":[{"kernel":"k","grid":1,"block":1,"args":[{"i32":1.5}]}]})",
               "expected an integer");
  expect_error(R"({"ptx":"k.ptx","buffers":[],"launches":[]})", "launches: expected a non-empty array");
  expect_error(R"({"ptx":"k.ptx","buffers":[],"launches":[{"kernel":"k","grid":1,"block":1,"grdi":2}]})",
               "launches[0]: unknown key \"grdi\"");
  expect_error(R"({"ptx":"k.ptx","buffers":[],"launches":[{"kernel":"k","grid":1,"block":1}],"outputs":[{"buffer":"x","path":"o"}]})",
               "outputs[0].buffer");
}

BOOST_AUTO_TEST_CASE(struct_and_offset_arguments_are_checked_naming_the_place) {
  const std::string head = R"({"ptx":"k.ptx","buffers":[{"name":"d","type":"u32","count":4}],"launches":[{"kernel":"k","grid":1,"block":1,"args":[)";
  const std::string tail = "]}]}";
  // A pointer may point one past the end, not further.
  Manifest ok = Manifest::parse(head + R"({"buffer":"d","offset":16})" + tail, "/tmp/m.json");
  BOOST_TEST(ok.launches[0].args[0].offset == 16u);
  expect_error(head + R"({"buffer":"d","offset":17})" + tail, "launches[0].args[0].offset");
  expect_error(head + R"({"buffer":"d","stride":4})" + tail, "unknown key \"stride\"");
  expect_error(head + R"({"struct":[]})" + tail, "launches[0].args[0]");
  expect_error(head + R"({"struct":[{"u8":1}],"align":3})" + tail, "launches[0].args[0].align");
  expect_error(head + R"({"struct":[{"u8":300}]})" + tail, "launches[0].args[0].struct[0].u8");
  expect_error(head + R"({"struct":[{"buffer":"nope"}]})" + tail, "launches[0].args[0].struct[0].buffer");
  expect_error(head + R"({"bytes":[1,256]})" + tail, "launches[0].args[0].bytes[1]");
  // C layout: a u8, then a u32 at offset 4, then a pointer at 8; size 16, aligned 8.
  Manifest m = Manifest::parse(head + R"({"struct":[{"u8":7},{"u32":9},{"buffer":"d","offset":4}]})" + tail,
                               "/tmp/m.json");
  const auto& a = m.launches[0].args[0];
  BOOST_TEST(a.align == 8u);
  BOOST_TEST(a.bytes.size() == 16u);
  BOOST_TEST(a.bytes[0] == 7u);
  BOOST_TEST(a.bytes[4] == 9u);
  BOOST_TEST_REQUIRE(a.pointers.size() == 1u);
  BOOST_TEST(a.pointers[0].at == 8u);
  BOOST_TEST(a.pointers[0].offset == 4u);
}

namespace {
// A manifest with one texture `t` over buffer `img` (16 f32) and `extra` as
// further keys of that texture; the launch passes it.
std::string with_texture(const std::string& extra, const std::string& arg = R"({"texture": "t"})") {
  return R"({"ptx": "k.ptx",
    "buffers": [{"name": "img", "type": "f32", "count": 16}],
    "textures": [{"name": "t", "buffer": "img", "format": "f32", "dims": [4, 4])" +
         extra + R"(}],
    "surfaces": [{"name": "s", "buffer": "img", "format": "u32", "dims": [4, 2], "offset": 32}],
    "launches": [{"kernel": "k", "grid": 1, "block": 1, "args": [)" +
         arg + R"(]}]})";
}
}  // namespace

BOOST_AUTO_TEST_CASE(textures_and_surfaces_parse) {
  Manifest m = Manifest::parse(
      with_texture(R"(, "address": ["wrap", "mirror"], "filter": "linear", "normalized": true,
                     "border": [1, 2, 3, 4])"),
      "/tmp/m.json");
  BOOST_REQUIRE(m.textures.size() == 1u);
  const auto& d = m.textures[0].desc;
  BOOST_TEST(d.layout.dims == 2u);
  BOOST_TEST(d.layout.pitch == 16u);  // packed rows by default
  BOOST_TEST((d.address[1] == simt::func::AddressMode::Mirror));
  BOOST_TEST((d.filter == simt::func::FilterMode::Linear));
  BOOST_TEST(d.border[3] == 4.0f);
  BOOST_REQUIRE(m.surfaces.size() == 1u);
  BOOST_TEST(m.surfaces[0].offset == 32u);
  BOOST_TEST(m.launches[0].args[0].texture == "t");
  BOOST_TEST(Manifest::parse(with_texture("", R"({"surface": "s"})"), "/tmp/m.json").launches[0].args[0].surface ==
             "s");
}

BOOST_AUTO_TEST_CASE(bad_textures_are_named) {
  expect_error(with_texture(R"(, "format": "u8", "filter": "linear")"), "textures[0]: linear filtering needs");
  expect_error(with_texture(R"(, "format": "q8")"), "textures[0].format: unknown format");  // the last key wins
  expect_error(with_texture(R"(, "filter": "cubic")"), "textures[0].filter");
  expect_error(with_texture(R"(, "pitch": 8)"), "textures[0]: pitch 8 is smaller than a row");
  expect_error(with_texture(R"(, "pitch": 32)"), "textures[0]: needs 112 bytes");  // 3 rows of 32 + 16 > 64
  expect_error(with_texture(R"(, "address": ["clamp"])"), "textures[0].address");
  expect_error(with_texture("", R"({"texture": "nope"})"), "launches[0].args[0].texture: no texture named");
  expect_error(with_texture("", R"({"texture": "t", "offset": 4})"), "launches[0].args[0]: unknown key");
  expect_error(with_texture(R"(, "read": "normalized-float")"), "textures[0]: read mode normalized-float");
}
