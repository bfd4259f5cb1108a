// Reads and checks a JSON manifest (Manifest::load / parse); running it is
// manifest_run.cpp.
#include "runtime/manifest.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "util/error.h"

namespace simt::runtime {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

struct ElemInfo { const char* name; ElemType type; uint32_t bytes; bool is_float, is_signed; };
constexpr ElemInfo kElems[] = {
    {"i8", ElemType::I8, 1, false, true},    {"u8", ElemType::U8, 1, false, false},
    {"i16", ElemType::I16, 2, false, true},  {"u16", ElemType::U16, 2, false, false},
    {"i32", ElemType::I32, 4, false, true},  {"u32", ElemType::U32, 4, false, false},
    {"i64", ElemType::I64, 8, false, true},  {"u64", ElemType::U64, 8, false, false},
    {"f32", ElemType::F32, 4, true, true},   {"f64", ElemType::F64, 8, true, true},
};
const ElemInfo& info(ElemType t) { return kElems[static_cast<int>(t)]; }

// Errors carry "<manifest>: <json path>: <what>".
class Ctx {
 public:
  explicit Ctx(std::string file) : file_(std::move(file)) {}
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw input_error(file_ + ": " + (where.empty() ? "" : where + ": ") + what);
  }
  const json& need(const json& obj, const char* key, const std::string& where) const {
    if (!obj.contains(key)) fail(where, std::string("missing \"") + key + "\"");
    return obj[key];
  }
  void only(const json& obj, std::set<std::string> keys, const std::string& where) const {
    if (!obj.is_object()) fail(where, "expected an object");
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!keys.count(it.key())) fail(where, "unknown key \"" + it.key() + "\"");
  }
  std::string str(const json& v, const std::string& where) const {
    if (!v.is_string() || v.get<std::string>().empty()) fail(where, "expected a non-empty string");
    return v.get<std::string>();
  }
  uint64_t uint(const json& v, const std::string& where, uint64_t max) const {
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0))
      fail(where, "expected a non-negative integer");
    uint64_t x = v.get<uint64_t>();
    if (x > max) fail(where, std::to_string(x) + " is larger than " + std::to_string(max));
    return x;
  }
  double num(const json& v, const std::string& where) const {
    if (!v.is_number()) fail(where, "expected a number");
    return v.get<double>();
  }
  ElemType type(const json& v, const std::string& where) const {
    std::string s = str(v, where);
    for (const auto& e : kElems)
      if (s == e.name) return e.type;
    fail(where, "unknown type \"" + s + "\" (expected i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)");
  }
  // A grid or block size, each dimension within CUDA's limits (launch_limits()).
  Dim3 dim3(const json& v, const std::string& where, const Dim3& max) const {
    Dim3 d{{1, 1, 1}};
    if (v.is_number_integer()) {
      d[0] = static_cast<uint32_t>(uint(v, where, max[0]));
    } else if (v.is_array() && !v.empty() && v.size() <= 3) {
      for (size_t i = 0; i < v.size(); ++i)
        d[i] = static_cast<uint32_t>(uint(v[i], where + "[" + std::to_string(i) + "]", max[i]));
    } else {
      fail(where, "expected [x, y, z] (1 to 3 positive integers)");
    }
    for (uint32_t x : d)
      if (x == 0) fail(where, "dimensions must be at least 1");
    return d;
  }
  std::string path(const std::string& p) const {
    fs::path fp(p);
    if (fp.is_absolute()) return p;
    return (fs::path(file_).parent_path() / fp).lexically_normal().string();
  }

 private:
  std::string file_;
};

// Encodes a JSON number as `t`'s little-endian bits, checking range and integrality.
uint64_t encode_scalar(const Ctx& c, const json& v, ElemType t, const std::string& where) {
  const ElemInfo& e = info(t);
  if (!v.is_number()) c.fail(where, std::string("expected a number for ") + e.name);
  if (t == ElemType::F32) {
    const double d = v.get<double>();
    if (std::fabs(d) > std::numeric_limits<float>::max())
      c.fail(where, json(d).dump() + " does not fit in f32 (largest finite value " +
                        json(std::numeric_limits<float>::max()).dump() + ")");
    float f = static_cast<float>(d);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  if (t == ElemType::F64) { double f = v.get<double>(); uint64_t b; std::memcpy(&b, &f, 8); return b; }
  if (!v.is_number_integer()) c.fail(where, std::string("expected an integer for ") + e.name);
  if (v.is_number_unsigned()) {
    uint64_t x = v.get<uint64_t>();
    uint64_t max = e.bytes == 8 ? (e.is_signed ? uint64_t(INT64_MAX) : UINT64_MAX)
                                : (uint64_t{1} << (8 * e.bytes - (e.is_signed ? 1 : 0))) - 1;
    if (x > max) c.fail(where, std::to_string(x) + " does not fit in " + e.name);
    return x;
  }
  int64_t x = v.get<int64_t>();
  int64_t min = e.is_signed ? (e.bytes == 8 ? INT64_MIN : -(int64_t{1} << (8 * e.bytes - 1))) : 0;
  if (x < min) c.fail(where, std::to_string(x) + " does not fit in " + e.name);
  uint64_t mask = e.bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * e.bytes)) - 1;
  return static_cast<uint64_t>(x) & mask;
}

// A computed value (an iota's last element, a default bound) must fit `t` too.
void check_value(const Ctx& c, double v, ElemType t, const std::string& where, const std::string& what) {
  const ElemInfo& e = info(t);
  double lo, hi;
  if (t == ElemType::F32) {
    hi = std::numeric_limits<float>::max(), lo = -hi;
  } else if (t == ElemType::F64) {
    return;
  } else if (e.bytes == 8) {
    lo = e.is_signed ? -9223372036854775808.0 : 0, hi = e.is_signed ? 9223372036854775807.0 : 18446744073709551615.0;
  } else {
    lo = e.is_signed ? -std::ldexp(1.0, 8 * e.bytes - 1) : 0;
    hi = std::ldexp(1.0, 8 * e.bytes - (e.is_signed ? 1 : 0)) - 1;
  }
  if (v < lo || v > hi)
    c.fail(where, what + " " + json(v).dump() + " does not fit in " + e.name);
}

}  // namespace

uint32_t elem_bytes(ElemType t) { return info(t).bytes; }
const char* elem_name(ElemType t) { return info(t).name; }
bool elem_is_float(ElemType t) { return info(t).is_float; }
bool elem_is_signed(ElemType t) { return info(t).is_signed; }

Manifest Manifest::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path + ": cannot open manifest");
  std::ostringstream s;
  s << in.rdbuf();
  return parse(s.str(), path);
}

// A buffer, or a module variable to fill (symbols[]): name, type, count, init.
// `names` holds the names taken so far (`what`: "buffer" or "symbol").
BufferSpec parse_buffer(const Ctx& c, const json& b, const std::string& w, const std::map<std::string, size_t>& names,
                        const char* what) {
  BufferSpec spec;
  c.only(b, {"name", "type", "count", "init"}, w);
  spec.name = c.str(c.need(b, "name", w), w + ".name");
  if (names.count(spec.name)) c.fail(w + ".name", std::string("duplicate ") + what + " name \"" + spec.name + "\"");
  spec.type = c.type(c.need(b, "type", w), w + ".type");
  spec.count = c.uint(c.need(b, "count", w), w + ".count", uint64_t{1} << 34);
  if (spec.count == 0) c.fail(w + ".count", "must be at least 1");
  if (b.contains("init")) {
    const json& in = b["init"];
    std::string wi = w + ".init";
    std::string kind = c.str(c.need(in, "kind", wi), wi + ".kind");
    BufferInit& init = spec.init;
    if (kind == "fill") {
      c.only(in, {"kind", "value"}, wi);
      init.kind = BufferInit::Kind::Fill;
      const json& value = c.need(in, "value", wi);
      init.value = c.num(value, wi + ".value");
      init.bits = encode_scalar(c, value, spec.type, wi + ".value");  // range-checked like an argument
    } else if (kind == "iota") {
      c.only(in, {"kind", "start"}, wi);
      init.kind = BufferInit::Kind::Iota;
      init.start = in.contains("start") ? c.num(in["start"], wi + ".start") : 0;
      if (in.contains("start")) encode_scalar(c, in["start"], spec.type, wi + ".start");
      check_value(c, init.start + static_cast<double>(spec.count - 1), spec.type,
                  wi + ".start", "the last value (start + count - 1)");
    } else if (kind == "random") {
      c.only(in, {"kind", "seed", "min", "max"}, wi);
      init.kind = BufferInit::Kind::Random;
      init.seed = in.contains("seed") ? c.uint(in["seed"], wi + ".seed", UINT64_MAX) : 1;
      init.min = in.contains("min") ? c.num(in["min"], wi + ".min") : 0;
      init.max = in.contains("max") ? c.num(in["max"], wi + ".max") : (elem_is_float(spec.type) ? 1 : 100);
      for (const char* k : {"min", "max"})
        if (in.contains(k)) {
          encode_scalar(c, in[k], spec.type, wi + "." + k);
          // Integers are drawn as signed 64-bit values.
          if (!elem_is_float(spec.type) && in[k].is_number_unsigned() && in[k].get<uint64_t>() > uint64_t(INT64_MAX))
            c.fail(wi + "." + k, in[k].dump() + " is above the largest random integer (" +
                                     std::to_string(INT64_MAX) + ")");
        }
      if (!elem_is_float(spec.type))  // defaults must fit too (0..100 in i8 does)
        for (double x : {init.min, init.max}) check_value(c, x, spec.type, wi, "the default range");
      if (init.max < init.min) c.fail(wi, "max must not be below min");
    } else if (kind == "file") {
      c.only(in, {"kind", "path"}, wi);
      init.kind = BufferInit::Kind::File;
      init.path = c.path(c.str(c.need(in, "path", wi), wi + ".path"));
    } else {
      c.fail(wi + ".kind", "unknown init kind \"" + kind + "\" (expected fill, iota, random or file)");
    }
  }
  return spec;
}

// The buffer that `obj`'s "buffer" names (a manifest error naming `w` if there is none).
const BufferSpec& named_buffer(const Ctx& c, const json& obj, const std::string& w, const Manifest& m,
                               const std::map<std::string, size_t>& by_name, std::string& name) {
  name = c.str(c.need(obj, "buffer", w), w + ".buffer");
  auto it = by_name.find(name);
  if (it == by_name.end()) c.fail(w + ".buffer", "no buffer named \"" + name + "\"");
  return m.buffers[it->second];
}

// {"buffer": name, "offset": bytes}: the buffer's address plus the offset
// (at most its size: a pointer one past the end is allowed).
PointerField parse_pointer(const Ctx& c, const json& arg, const std::string& w, const Manifest& m,
                           const std::map<std::string, size_t>& by_name) {
  c.only(arg, {"buffer", "offset"}, w);
  PointerField p;
  const BufferSpec& b = named_buffer(c, arg, w, m, by_name, p.buffer);
  const uint64_t size = b.count * elem_bytes(b.type);
  if (arg.contains("offset")) p.offset = c.uint(arg["offset"], w + ".offset", size);
  return p;
}

// A struct by value: {"struct": [fields], "align": A} with fields laid out as
// C lays them out (each at its natural alignment, the size rounded up to the
// struct's alignment), or {"bytes": [0..255, ...], "align": A}.
void parse_struct(const Ctx& c, const json& arg, const std::string& w, const Manifest& m,
                  const std::map<std::string, size_t>& by_name, ArgSpec& as) {
  const bool raw = arg.contains("bytes");
  c.only(arg, {raw ? "bytes" : "struct", "align"}, w);
  const json& items = arg[raw ? "bytes" : "struct"];
  if (!items.is_array() || items.empty()) c.fail(w, "expected a non-empty array");
  uint32_t natural = 1;
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string wi = w + (raw ? ".bytes[" : ".struct[") + std::to_string(i) + "]";
    if (raw) {
      as.bytes.push_back(static_cast<uint8_t>(c.uint(items[i], wi, 255)));
      continue;
    }
    const json& f = items[i];
    if (!f.is_object() || f.empty()) c.fail(wi, "expected {\"buffer\": name} or {\"<type>\": value}");
    uint32_t n;
    uint64_t bits = 0;
    PointerField ptr;
    const bool pointer = f.contains("buffer");
    if (pointer) {
      ptr = parse_pointer(c, f, wi, m, by_name);
      n = 8;
    } else {
      if (f.size() != 1) c.fail(wi, "expected {\"<type>\": value}");
      const ElemType t = c.type(json(f.begin().key()), wi);
      bits = encode_scalar(c, f.begin().value(), t, wi + "." + f.begin().key());
      n = elem_bytes(t);
    }
    natural = std::max(natural, n);
    const size_t at = (as.bytes.size() + n - 1) / n * n;
    as.bytes.resize(at + n, 0);
    std::memcpy(as.bytes.data() + at, &bits, n);
    if (pointer) {
      ptr.at = at;
      as.pointers.push_back(ptr);
    }
  }
  as.align = natural;
  if (arg.contains("align")) {
    as.align = static_cast<uint32_t>(c.uint(arg["align"], w + ".align", 256));
    if (as.align == 0 || (as.align & (as.align - 1)))
      c.fail(w + ".align", std::to_string(as.align) + " is not a power of two");
  }
  if (!raw) as.bytes.resize((as.bytes.size() + as.align - 1) / as.align * as.align, 0);
}

// {"name", "buffer", "offset", "format", "dims": [w, h, d], "layers",
// "pitch", "slice_pitch"} and, for textures, the sampler: "address" (one
// mode or one per axis), "filter", "normalized", "read", "border".
ImageSpec parse_image(const Ctx& c, const json& t, const std::string& w, const Manifest& m,
                      const std::map<std::string, size_t>& by_name, bool texture) {
  std::set<std::string> keys = {"name", "buffer", "offset", "format", "dims", "layers", "pitch", "slice_pitch"};
  if (texture) keys.insert({"address", "filter", "normalized", "read", "border"});
  c.only(t, keys, w);
  ImageSpec is;
  is.name = c.str(c.need(t, "name", w), w + ".name");
  const BufferSpec& b = named_buffer(c, t, w, m, by_name, is.buffer);
  const uint64_t size = b.count * elem_bytes(b.type);
  if (t.contains("offset")) is.offset = c.uint(t["offset"], w + ".offset", size);
  func::TextureDesc& d = is.desc;
  func::ImageLayout& l = d.layout;
  const std::string fmt = c.str(c.need(t, "format", w), w + ".format");
  if (!func::ChannelFormat::parse(fmt, l.format))
    c.fail(w + ".format", "unknown format \"" + fmt + "\" (expected s|u|f, 8|16|32 bits, x2 or x4 channels: "
                          "\"f32\", \"u8x4\", \"s16x2\", \"f16\" ...)");
  const json& dims = c.need(t, "dims", w);
  if (!dims.is_array() || dims.empty() || dims.size() > 3) c.fail(w + ".dims", "expected [width(, height(, depth))]");
  uint32_t* ext[3] = {&l.width, &l.height, &l.depth};
  for (size_t i = 0; i < dims.size(); ++i) {
    *ext[i] = static_cast<uint32_t>(c.uint(dims[i], w + ".dims[" + std::to_string(i) + "]", 1u << 30));
    if (*ext[i] == 0) c.fail(w + ".dims[" + std::to_string(i) + "]", "must be at least 1");
  }
  l.dims = static_cast<uint32_t>(dims.size());
  if (t.contains("layers")) {
    l.layers = static_cast<uint32_t>(c.uint(t["layers"], w + ".layers", 1u << 16));
    if (l.layers == 0) c.fail(w + ".layers", "must be at least 1");
  }
  if (t.contains("pitch")) l.pitch = c.uint(t["pitch"], w + ".pitch", uint64_t{1} << 40);
  if (t.contains("slice_pitch")) l.slice_pitch = c.uint(t["slice_pitch"], w + ".slice_pitch", uint64_t{1} << 40);
  l.pack();
  l.base = is.offset;  // checked for alignment here; the device address is added at run time
  if (texture) {
    static const std::map<std::string, func::AddressMode> modes = {{"wrap", func::AddressMode::Wrap},
                                                                   {"clamp", func::AddressMode::Clamp},
                                                                   {"mirror", func::AddressMode::Mirror},
                                                                   {"border", func::AddressMode::Border}};
    auto mode = [&](const json& v, const std::string& wi) {
      const std::string s = c.str(v, wi);
      auto it = modes.find(s);
      if (it == modes.end()) c.fail(wi, "unknown address mode \"" + s + "\" (expected wrap, clamp, mirror or border)");
      return it->second;
    };
    if (t.contains("address")) {
      const json& a = t["address"];
      if (a.is_array()) {
        if (a.size() != l.dims) c.fail(w + ".address", "expected one mode per dimension (" + std::to_string(l.dims) + ")");
        for (size_t i = 0; i < a.size(); ++i) d.address[i] = mode(a[i], w + ".address[" + std::to_string(i) + "]");
      } else {
        d.address.fill(mode(a, w + ".address"));
      }
    }
    if (t.contains("filter")) {
      const std::string f = c.str(t["filter"], w + ".filter");
      if (f != "point" && f != "linear") c.fail(w + ".filter", "expected \"point\" or \"linear\"");
      d.filter = f == "linear" ? func::FilterMode::Linear : func::FilterMode::Point;
    }
    if (t.contains("normalized")) {
      if (!t["normalized"].is_boolean()) c.fail(w + ".normalized", "expected true or false");
      d.normalized = t["normalized"].get<bool>();
    }
    if (t.contains("read")) {
      const std::string r = c.str(t["read"], w + ".read");
      if (r != "element" && r != "normalized-float") c.fail(w + ".read", "expected \"element\" or \"normalized-float\"");
      d.read = r == "element" ? func::ReadMode::ElementType : func::ReadMode::NormalizedFloat;
    }
    if (t.contains("border")) {
      const json& bc = t["border"];
      if (!bc.is_array() || bc.size() != 4) c.fail(w + ".border", "expected [r, g, b, a]");
      for (size_t i = 0; i < 4; ++i) d.border[i] = static_cast<float>(c.num(bc[i], w + ".border[" + std::to_string(i) + "]"));
    }
  }
  const std::string why = texture ? d.check() : func::SurfaceDesc{l}.check();
  if (!why.empty()) c.fail(w, why);
  if (l.span() > size - is.offset)
    c.fail(w, "needs " + std::to_string(l.span()) + " bytes from offset " + std::to_string(is.offset) + "; buffer \"" +
                  is.buffer + "\" has " + std::to_string(size - is.offset));
  return is;
}

ArgSpec parse_arg(const Ctx& c, const json& arg, const std::string& w, const Manifest& m,
                  const std::map<std::string, size_t>& by_name) {
  const char* forms = "expected {\"buffer\": name[, \"offset\": n]}, {\"<type>\": value}, "
                      "{\"texture\": name}, {\"surface\": name}, "
                      "{\"struct\": [fields][, \"align\": n]} or {\"bytes\": [...][, \"align\": n]}";
  if (!arg.is_object() || arg.empty()) c.fail(w, forms);
  ArgSpec as;
  for (const char* kind : {"texture", "surface"}) {
    if (!arg.contains(kind)) continue;
    c.only(arg, {kind}, w);
    const bool tex = kind[0] == 't';
    std::string& name = tex ? as.texture : as.surface;
    name = c.str(arg[kind], w + "." + kind);
    const auto& list = tex ? m.textures : m.surfaces;
    if (std::none_of(list.begin(), list.end(), [&](const ImageSpec& s) { return s.name == name; }))
      c.fail(w + "." + kind, std::string("no ") + kind + " named \"" + name + "\" in " + kind + "s[]");
    as.type = ElemType::U64;
    return as;
  }
  if (arg.contains("buffer")) {
    const PointerField p = parse_pointer(c, arg, w, m, by_name);
    as.buffer = p.buffer;
    as.offset = p.offset;
    as.type = ElemType::U64;
  } else if (arg.contains("struct") || arg.contains("bytes")) {
    parse_struct(c, arg, w, m, by_name, as);
  } else {
    if (arg.size() != 1) c.fail(w, forms);
    const std::string key = arg.begin().key();
    as.type = c.type(json(key), w);
    as.bits = encode_scalar(c, arg.begin().value(), as.type, w + "." + key);
  }
  return as;
}

Manifest Manifest::parse(const std::string& text, const std::string& path) {
  Ctx c(path);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
    c.fail("", std::string("not valid JSON: ") + e.what());
  }
  Manifest m;
  m.file = path;
  c.only(j, {"ptx", "buffers", "symbols", "textures", "surfaces", "launches", "outputs", "malloc_heap_size"}, "");
  m.ptx_path = c.path(c.str(c.need(j, "ptx", ""), "ptx"));
  if (j.contains("malloc_heap_size")) {
    m.malloc_heap_size = c.uint(j["malloc_heap_size"], "malloc_heap_size", uint64_t{1} << 40);
    if (m.malloc_heap_size == 0) c.fail("malloc_heap_size", "must be at least 1 (bytes)");
  }

  std::map<std::string, size_t> by_name;
  const json& bufs = c.need(j, "buffers", "");
  if (!bufs.is_array()) c.fail("buffers", "expected an array");
  for (size_t i = 0; i < bufs.size(); ++i) {
    const BufferSpec spec = parse_buffer(c, bufs[i], "buffers[" + std::to_string(i) + "]", by_name, "buffer");
    by_name[spec.name] = m.buffers.size();
    m.buffers.push_back(spec);
  }
  // Module variables filled by name (cudaMemcpyToSymbol), before the launches.
  std::map<std::string, size_t> by_symbol;
  if (j.contains("symbols")) {
    const json& syms = j["symbols"];
    if (!syms.is_array()) c.fail("symbols", "expected an array");
    for (size_t i = 0; i < syms.size(); ++i) {
      const BufferSpec spec = parse_buffer(c, syms[i], "symbols[" + std::to_string(i) + "]", by_symbol, "symbol");
      by_symbol[spec.name] = m.symbols.size();
      m.symbols.push_back(spec);
    }
  }

  // Texture and surface objects over buffers, passed to kernels by name.
  for (const char* kind : {"textures", "surfaces"}) {
    if (!j.contains(kind)) continue;
    const json& list = j[kind];
    if (!list.is_array()) c.fail(kind, "expected an array");
    const bool tex = kind[0] == 't';
    auto& out = tex ? m.textures : m.surfaces;
    std::set<std::string> names;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string w = std::string(kind) + "[" + std::to_string(i) + "]";
      out.push_back(parse_image(c, list[i], w, m, by_name, tex));
      if (!names.insert(out.back().name).second) c.fail(w + ".name", "two " + std::string(kind) + " named \"" + out.back().name + "\"");
    }
  }

  // A buffer's first element and a value of its type: {"buffer": name, key: value}.
  auto parse_flag = [&](const json& f, const std::string& w, const char* key) {
    c.only(f, {"buffer", key}, w);
    FlagSpec flag;
    const BufferSpec& b = named_buffer(c, f, w, m, by_name, flag.buffer);
    flag.bits = encode_scalar(c, c.need(f, key, w), b.type, w + "." + key);
    return flag;
  };
  // {"from": end, "to": end, "bytes": n}, an end {"buffer"|"symbol": name, "offset": n}.
  // Buffers are checked here; a module variable's size is known once the PTX
  // is loaded (run_manifest).
  auto parse_copy = [&](const json& cp, const std::string& w) {
    c.only(cp, {"from", "to", "bytes"}, w);
    CopySpec spec;
    auto end = [&](const char* key) {
      const std::string we = w + "." + key;
      const json& e = c.need(cp, key, w);
      const bool symbol = e.is_object() && e.contains("symbol");
      c.only(e, {symbol ? "symbol" : "buffer", "offset"}, we);
      CopySpec::End x;
      x.symbol = symbol;
      x.name = c.str(c.need(e, symbol ? "symbol" : "buffer", we), we + (symbol ? ".symbol" : ".buffer"));
      if (!symbol && !by_name.count(x.name)) c.fail(we + ".buffer", "no buffer named \"" + x.name + "\"");
      if (e.contains("offset")) x.offset = c.uint(e["offset"], we + ".offset", uint64_t{1} << 40);
      if (!symbol) {
        const BufferSpec& b = m.buffers[by_name.at(x.name)];
        const uint64_t size = b.count * elem_bytes(b.type);
        if (x.offset >= size)
          c.fail(we + ".offset", std::to_string(x.offset) + " is past the end of \"" + x.name + "\" (" +
                                     std::to_string(size) + " bytes)");
      }
      return x;
    };
    spec.from = end("from");
    spec.to = end("to");
    if (cp.contains("bytes")) {
      spec.bytes = c.uint(cp["bytes"], w + ".bytes", uint64_t{1} << 40);
      if (spec.bytes == 0) c.fail(w + ".bytes", "must be at least 1");
    }
    auto room = [&](const CopySpec::End& e) {
      const BufferSpec& b = m.buffers[by_name.at(e.name)];
      return b.count * elem_bytes(b.type) - e.offset;
    };
    if (!spec.from.symbol && !spec.bytes) spec.bytes = room(spec.from);
    for (const CopySpec::End* e : {&spec.from, &spec.to})
      if (!e->symbol && spec.bytes > room(*e))
        c.fail(w + ".bytes", std::to_string(spec.bytes) + " bytes do not fit in \"" + e->name + "\" from byte " +
                                 std::to_string(e->offset) + " (" + std::to_string(room(*e)) + " left)");
    return spec;
  };
  std::function<LaunchSpec(const json&, const std::string&, bool)> parse_launch =
      [&](const json& l, const std::string& w, bool nested) {
        LaunchSpec spec;
        if (l.is_object() && l.contains("repeat")) {
          if (nested) c.fail(w, "a loop inside a loop is not supported");
          c.only(l, {"repeat", "times", "set", "until", "max"}, w);
          const json& body = l["repeat"];
          if (!body.is_array() || body.empty()) c.fail(w + ".repeat", "expected a non-empty array of launches");
          for (size_t i = 0; i < body.size(); ++i)
            spec.repeat.push_back(parse_launch(body[i], w + ".repeat[" + std::to_string(i) + "]", true));
          if (l.contains("times")) spec.times = c.uint(l["times"], w + ".times", uint64_t{1} << 40);
          if (l.contains("set")) spec.set = parse_flag(l["set"], w + ".set", "value");
          if (l.contains("until")) spec.until = parse_flag(l["until"], w + ".until", "equals");
          if (l.contains("times") ? (!spec.until.buffer.empty() || l.contains("max")) : spec.until.buffer.empty())
            c.fail(w, "a loop takes either \"times\", or \"until\" with \"max\"");
          if (l.contains("times") && spec.times == 0) c.fail(w + ".times", "must be at least 1");
          if (!spec.times) {
            spec.max = c.uint(c.need(l, "max", w), w + ".max", uint64_t{1} << 40);
            if (spec.max == 0) c.fail(w + ".max", "must be at least 1");
          }
          return spec;
        }
        if (l.is_object() && l.contains("copy")) {
          c.only(l, {"copy"}, w);
          spec.is_copy = true;
          spec.copy = parse_copy(l["copy"], w + ".copy");
          return spec;
        }
        c.only(l, {"kernel", "grid", "block", "dynamic_shared_bytes", "cooperative", "args"}, w);
        spec.kernel = c.str(c.need(l, "kernel", w), w + ".kernel");
        spec.grid = c.dim3(c.need(l, "grid", w), w + ".grid", kMaxGrid);
        spec.block = c.dim3(c.need(l, "block", w), w + ".block", kMaxBlock);
        if (l.contains("dynamic_shared_bytes"))
          spec.dynamic_shared_bytes =
              static_cast<uint32_t>(c.uint(l["dynamic_shared_bytes"], w + ".dynamic_shared_bytes", 1u << 30));
        if (l.contains("cooperative")) {
          if (!l["cooperative"].is_boolean()) c.fail(w + ".cooperative", "expected true or false");
          spec.cooperative = l["cooperative"].get<bool>();
        }
        const json& args = l.contains("args") ? l["args"] : json::array();
        if (!args.is_array()) c.fail(w + ".args", "expected an array");
        for (size_t a = 0; a < args.size(); ++a)
          spec.args.push_back(parse_arg(c, args[a], w + ".args[" + std::to_string(a) + "]", m, by_name));
        return spec;
      };
  const json& launches = c.need(j, "launches", "");
  if (!launches.is_array() || launches.empty()) c.fail("launches", "expected a non-empty array");
  for (size_t i = 0; i < launches.size(); ++i)
    m.launches.push_back(parse_launch(launches[i], "launches[" + std::to_string(i) + "]", false));

  if (j.contains("outputs")) {
    const json& outs = j["outputs"];
    if (!outs.is_array()) c.fail("outputs", "expected an array");
    std::map<std::string, size_t> paths;  // as written; runtime::output_targets() compares them normalised
    for (size_t i = 0; i < outs.size(); ++i) {
      std::string w = "outputs[" + std::to_string(i) + "]";
      const bool symbol = outs[i].is_object() && outs[i].contains("symbol");
      c.only(outs[i], {symbol ? "symbol" : "buffer", "path"}, w);
      OutputSpec o;
      o.symbol = symbol;
      if (symbol) {
        o.buffer = c.str(outs[i]["symbol"], w + ".symbol");
        if (!by_symbol.count(o.buffer)) c.fail(w + ".symbol", "no symbol named \"" + o.buffer + "\" in symbols[]");
      } else {
        o.buffer = c.str(c.need(outs[i], "buffer", w), w + ".buffer");
        if (!by_name.count(o.buffer)) c.fail(w + ".buffer", "no buffer named \"" + o.buffer + "\"");
      }
      o.path = c.str(c.need(outs[i], "path", w), w + ".path");
      if (auto [at, fresh] = paths.emplace(o.path, i); !fresh)
        c.fail(w + ".path", o.path + " is written by outputs[" + std::to_string(at->second) + "] too; give each its own file");
      m.outputs.push_back(o);
    }
  }
  return m;
}

}  // namespace simt::runtime
