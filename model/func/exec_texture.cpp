// Texture and surface instructions on texture/surface objects (unified
// mode: the handle is a 64-bit register): tex, tld4, txq, suld.b, sust.b,
// suq. The sampling rules live in func/texture.{h,cpp}.
//
// Like ld/st, every instruction computes all threads' results first and
// commits only when no thread faulted. Texel reads and surface loads are
// recorded as Space::Tex accesses at their device addresses (the timing
// model sends them to the texture cache); surface stores as global stores.
//
// Refused at load, each with its reason: cube maps, multisample textures,
// depth compare, separate samplers (independent mode), texture references
// (.texref), formatted surface access (suld.p / sust.p) and the queries
// whose encodings the model does not define.
#include <cmath>
#include <cstring>
#include <vector>

#include "func/exec_context.h"
#include "func/float_math.h"
#include "func/texture.h"
#include "util/hex.h"

namespace simt::func {

using ptx::Instr;
using ptx::Operand;
using ptx::TexGeom;
using ptx::Type;

namespace {

using util::hex;

bool is_vec(const Operand& o) { return o.kind == Operand::Kind::Vec; }
bool is_reg(const Operand& o) { return o.kind == Operand::Kind::Reg; }

// Coordinates per geometry: how many the vector holds (x, y, z, layer).
struct GeomShape {
  uint32_t dims = 1;
  bool layered = false;
  uint32_t vec_n = 1;  // elements of the coordinate vector
};
GeomShape shape(TexGeom g) {
  switch (g) {
    case TexGeom::D1: return {1, false, 1};
    case TexGeom::D2: return {2, false, 2};
    case TexGeom::D3: return {3, false, 4};
    case TexGeom::A1D: return {1, true, 2};
    case TexGeom::A2D: return {2, true, 4};
    default: return {0, false, 0};
  }
}

std::string check_geom(const Instr& in) {
  const auto g = static_cast<TexGeom>(in.mode);
  if (g == TexGeom::Cube || g == TexGeom::ACube) return "cube-map textures are not supported";
  if (g == TexGeom::D2MS || g == TexGeom::A2DMS) return "multisample textures are not supported";
  return "";
}

// The texture/surface handle operand: a 64-bit register (texture objects).
std::string check_handle(const Instr& in, int i) {
  if (in.nops <= i) return "missing texture operand";
  const Operand& o = in.ops[static_cast<size_t>(i)];
  if (is_reg(o) || (o.kind == Operand::Kind::Addr && o.reg != ptx::kNoReg && o.imm == 0)) return "";
  return "texture references (.texref / .surfref by name) are not supported: use texture and surface "
         "objects (a 64-bit handle)";
}

// Where a coordinate vector operand is and whether it has the geometry's shape.
std::string check_coords(const Instr& in, int i, uint32_t vec_n) {
  if (in.nops <= i) return "missing coordinates";
  const Operand& o = in.ops[static_cast<size_t>(i)];
  if (is_vec(o) && o.vec_n == vec_n) return "";
  if (vec_n == 1 && is_reg(o)) return "";
  return "coordinates must be a vector of " + std::to_string(vec_n) + " for this geometry";
}

// Reads coordinate element e of operand i for thread t as bits.
uint32_t coord_bits(const ExecContext& c, int i, uint32_t e, uint32_t t) {
  const Operand& o = c.in.ops[static_cast<size_t>(i)];
  const uint32_t r = is_vec(o) ? o.vec[e] : o.reg;
  return r == ptx::kNoReg ? 0 : static_cast<uint32_t>(c.cta.reg(r, t));
}
using fm::as_f32;
uint32_t f32_bits(float f) { return fm::bits_of(f); }

// Layer and coordinates of one thread; float coordinates, or integers (.s32).
struct Coords {
  std::array<double, 3> c{{0, 0, 0}};
  uint32_t layer = 0;
};
Coords read_coords(const ExecContext& c, int i, const GeomShape& s, bool int_coords, uint32_t t) {
  Coords k;
  uint32_t e = 0;
  if (s.layered) k.layer = coord_bits(c, i, e++, t);
  for (uint32_t d = 0; d < s.dims; ++d, ++e) {
    const uint32_t b = coord_bits(c, i, e, t);
    k.c[d] = int_coords ? double(static_cast<int32_t>(b)) : double(as_f32(b));
  }
  return k;
}

// A thread's handle: a register, or [register] in txq/suq.
uint64_t handle(const ExecContext& c, int i, uint32_t t) {
  const Operand& o = c.in.ops[static_cast<size_t>(i)];
  return o.kind == Operand::Kind::Addr ? c.cta.reg(o.reg, t) : c.src(i, t, Type::U64);
}

// The texture behind a thread's handle, or a fault naming the value.
const TextureDesc* texture_of(ExecContext& c, int i, uint32_t t) {
  const uint64_t h = handle(c, i, t);
  const TextureDesc* d = c.env.textures ? c.env.textures->texture(h) : nullptr;
  if (!d)
    c.fail(t, std::string(ptx::op_name(c.in.op)) + ": handle " + hex(h) +
                  " is not a texture object of this device (a manifest passes one as {\"texture\": name})");
  return d;
}
const SurfaceDesc* surface_of(ExecContext& c, int i, uint32_t t) {
  const uint64_t h = handle(c, i, t);
  const SurfaceDesc* d = c.env.textures ? c.env.textures->surface(h) : nullptr;
  if (!d)
    c.fail(t, std::string(ptx::op_name(c.in.op)) + ": handle " + hex(h) +
                  " is not a surface object of this device (a manifest passes one as {\"surface\": name})");
  return d;
}

// The texels of a footprint must still be device memory (a buffer freed
// after the object was made faults here rather than reading garbage).
bool check_taps(ExecContext& c, uint32_t t, const Footprint& fp, uint32_t bytes) {
  for (uint32_t k = 0; k < fp.n; ++k)
    if (!fp.taps[k].border && !c.env.global->mapped(fp.taps[k].addr, bytes)) {
      c.fail_at(t, fp.taps[k].addr, std::string(ptx::op_name(c.in.op)) + ": texel at unmapped global address");
      return false;
    }
  return true;
}

void record_taps(ExecContext& c, uint32_t t, const Footprint& fp, uint32_t bytes) {
  if (!c.env.record_accesses) return;
  for (uint32_t k = 0; k < fp.n; ++k)
    if (!fp.taps[k].border)
      c.out.accesses.push_back(MemAccess{t, ptx::Space::Tex, static_cast<uint8_t>(bytes), fp.taps[k].addr});
}

// The result type must match what the texture returns.
bool check_result_type(ExecContext& c, uint32_t t, const TextureDesc& d) {
  const bool want_float = c.in.type == Type::F32 || c.in.type == Type::F16 || c.in.type == Type::F16x2;
  if (want_float == d.returns_float()) return true;
  c.fail(t, std::string(ptx::op_name(c.in.op)) + ": ." + ptx::type_name(c.in.type) + " result from " +
                d.layout.format.name() + " texels read as " +
                (d.read == ReadMode::ElementType ? "element type" : "normalized float") +
                (want_float ? " (integer texels need read mode normalized-float)" : " (use a .f32 result)"));
  return false;
}

// One thread's four result channels, kept until the instruction commits.
struct Result {
  uint32_t tid;
  std::array<uint32_t, 4> v;
};

thread_local std::vector<Result> t_results;

// Writes the four channels to the destination vector in the result type.
void commit(ExecContext& c, const std::vector<Result>& results) {
  const Operand& d = c.in.ops[0];
  for (const Result& r : results) {
    if (c.in.type == Type::F16x2) {  // .v2.f16x2: channels packed two per register
      for (uint32_t e = 0; e < 2; ++e) {
        const uint32_t lo = fm::f16_from(as_f32(r.v[2 * e]), ptx::Rnd::Rn);
        const uint32_t hi = fm::f16_from(as_f32(r.v[2 * e + 1]), ptx::Rnd::Rn);
        c.write_reg(d.vec[e], r.tid, Type::B32, lo | (hi << 16));
      }
    } else {
      for (uint32_t e = 0; e < 4; ++e) {
        const uint32_t reg = is_vec(d) ? d.vec[e] : (e == 0 ? d.reg : ptx::kNoReg);
        const uint64_t bits =
            c.in.type == Type::F16 ? fm::f16_from(as_f32(r.v[e]), ptx::Rnd::Rn) : uint64_t{r.v[e]};
        c.write_reg(reg, r.tid, c.in.type == Type::F16 ? Type::B16 : c.in.type, bits);
      }
    }
    if (c.in.pout.kind == Operand::Kind::Reg) c.write_reg(c.in.pout.reg, r.tid, Type::Pred, 1);
  }
}

// ---------------------------------------------------------------- tex / tld4

// Operand positions of tex/tld4 after the destination and handle.
struct TexOperands {
  int coords = 2;
  int lod = -1;     // tex.level
  int offset = -1;  // coordinate offset vector (texels)
};

std::string parse_tex_operands(const Instr& in, TexOperands& p) {
  const auto g = static_cast<TexGeom>(in.mode);
  const GeomShape s = shape(g);
  if (in.nops > 3 && !is_vec(in.ops[2]) && is_vec(in.ops[3]) && is_reg(in.ops[2]))
    return "separate sampler operands (independent texturing mode) are not supported";
  std::string why = check_coords(in, 2, s.vec_n);
  if (!why.empty()) return why;
  int next = 3;
  if (in.flags & ptx::kTexLevel) {
    if (in.nops <= next || !is_reg(in.ops[static_cast<size_t>(next)])) return "tex.level needs a level of detail";
    p.lod = next++;
  } else if (in.flags & ptx::kTexGrad) {
    if (in.nops <= next + 1) return "tex.grad needs two gradient vectors";
    next += 2;  // one mip level: the gradients select it whatever they are
  }
  if (in.nops > next && is_vec(in.ops[static_cast<size_t>(next)])) p.offset = next++;
  if (in.nops > next) return "depth-compare textures are not supported";
  return "";
}

std::string check_tex(const Instr& in) {
  std::string why = check_geom(in);
  if (why.empty()) why = check_handle(in, 1);
  if (!why.empty()) return why;
  if (in.type != Type::F32 && in.type != Type::S32 && in.type != Type::U32 && in.type != Type::F16 &&
      in.type != Type::F16x2)
    return std::string("unsupported result type .") + ptx::type_name(in.type);
  if (in.type2 != Type::F32 && in.type2 != Type::S32)
    return std::string("coordinates must be .f32 or .s32, not .") + ptx::type_name(in.type2);
  const uint32_t want = in.type == Type::F16x2 ? 2 : 4;
  if (in.vec != want || !is_vec(in.ops[0]) || in.ops[0].vec_n != want)
    return "the destination must be a ." + std::string(want == 2 ? "v2 (f16x2)" : "v4") + " vector";
  if (in.op == ptx::Op::Tld4) {
    const auto g = static_cast<TexGeom>(in.mode);
    if (g != TexGeom::D2 && g != TexGeom::A2D) return "tld4 gathers from 2D textures only";
    if (in.type2 != Type::F32) return "tld4 takes .f32 coordinates";
  }
  TexOperands p;
  return parse_tex_operands(in, p);
}

void exec_tex(ExecContext& c) {
  TexOperands p;
  parse_tex_operands(c.in, p);
  const GeomShape s = shape(static_cast<TexGeom>(c.in.mode));
  const bool int_coords = c.in.type2 == Type::S32;
  const bool gather = c.in.op == ptx::Op::Tld4;
  auto& results = t_results;
  results.clear();
  bool ok = true;
  c.mask.for_each([&](uint32_t t) {
    if (!ok) return;
    const TextureDesc* d = texture_of(c, 1, t);
    if (!d || !check_result_type(c, t, *d)) { ok = false; return; }
    if (s.dims > d->layout.dims || s.layered != (d->layout.layers > 0)) {
      c.fail(t, std::string(ptx::op_name(c.in.op)) + ": a " + (s.layered ? "layered " : "") +
                    std::to_string(s.dims) + "D lookup on a " + (d->layout.layers ? "layered " : "") +
                    std::to_string(d->layout.dims) + "D texture");
      ok = false;
      return;
    }
    Coords k = read_coords(c, 2, s, int_coords, t);
    if (p.offset >= 0)  // offsets are in texels: normalised coordinates scale them
      for (uint32_t a = 0; a < s.dims; ++a) {
        const double off = double(static_cast<int32_t>(coord_bits(c, p.offset, a, t)));
        const uint32_t n = a == 0 ? d->layout.width : a == 1 ? d->layout.height : d->layout.depth;
        k.c[a] += (d->normalized && !int_coords) ? off / n : off;
      }
    const Footprint fp = gather ? gather_footprint(*d, {{k.c[0], k.c[1]}}, k.layer)
                                : footprint(*d, k.c, k.layer, int_coords);
    const uint32_t tb = d->layout.format.texel_bytes();
    if (!check_taps(c, t, fp, tb)) { ok = false; return; }
    record_taps(c, t, fp, tb);
    const TexelReader read = [&](uint64_t a, void* dst, uint32_t n) { c.env.global->read(a, dst, n); };
    Result r{t, {}};
    if (gather) {  // component `aux` of each of the four texels
      const uint32_t comp = c.in.aux;
      for (uint32_t q = 0; q < 4; ++q) {
        Footprint one;
        one.taps[0] = fp.taps[q];
        one.n = 1;
        const Texel v = resolve(*d, one, read);
        r.v[q] = d->returns_float() ? f32_bits(v.f[comp]) : v.u[comp];
      }
    } else {
      const Texel v = resolve(*d, fp, read);
      for (uint32_t q = 0; q < 4; ++q) r.v[q] = d->returns_float() ? f32_bits(v.f[q]) : v.u[q];
    }
    results.push_back(r);
  });
  if (ok) commit(c, results);
}

// ---------------------------------------------------------------- txq / suq

std::string check_query(const Instr& in) {
  std::string why = check_handle(in, 1);
  if (!why.empty()) return why;
  if (in.type != Type::B32 && in.type != Type::U32 && in.type != Type::S32)
    return "queries return .b32";
  switch (static_cast<ptx::TexQuery>(in.aux)) {
    case ptx::TexQuery::Width: case ptx::TexQuery::Height: case ptx::TexQuery::Depth:
    case ptx::TexQuery::ArraySize:
      return "";
    case ptx::TexQuery::NormalizedCoords: case ptx::TexQuery::FilterMode: case ptx::TexQuery::AddrMode0:
    case ptx::TexQuery::AddrMode1: case ptx::TexQuery::AddrMode2: case ptx::TexQuery::NumMipmapLevels:
      if (in.op == ptx::Op::Txq) return "";
      return "suq cannot ask for a sampler attribute";
    default:
      return "this texture query (channel_data_type, channel_order, num_samples, memory_layout, "
             "force_unnormalized_coords) is not supported";
  }
}

uint32_t query(const ImageLayout& l, const TextureDesc* t, ptx::TexQuery q) {
  switch (q) {
    case ptx::TexQuery::Width: return l.width;
    case ptx::TexQuery::Height: return l.dims >= 2 ? l.height : 1;
    case ptx::TexQuery::Depth: return l.dims == 3 ? l.depth : 1;
    case ptx::TexQuery::ArraySize: return l.layers;
    case ptx::TexQuery::NormalizedCoords: return t->normalized ? 1 : 0;
    case ptx::TexQuery::FilterMode: return static_cast<uint32_t>(t->filter);  // cudaFilterMode order
    case ptx::TexQuery::AddrMode0: return static_cast<uint32_t>(t->address[0]);
    case ptx::TexQuery::AddrMode1: return static_cast<uint32_t>(t->address[1]);
    case ptx::TexQuery::AddrMode2: return static_cast<uint32_t>(t->address[2]);
    case ptx::TexQuery::NumMipmapLevels: return 1;  // no mipmaps: one level
    default: return 0;
  }
}

void exec_query(ExecContext& c) {
  const auto q = static_cast<ptx::TexQuery>(c.in.aux);
  const bool level = (c.in.flags & ptx::kTexLevel) != 0;
  auto& results = t_results;
  results.clear();
  bool ok = true;
  c.mask.for_each([&](uint32_t t) {
    if (!ok) return;
    uint32_t v = 0;
    if (c.in.op == ptx::Op::Txq) {
      const TextureDesc* d = texture_of(c, 1, t);
      if (!d) { ok = false; return; }
      v = query(d->layout, d, q);
      // txq.level: the size at a mip level; with one level, halved and at least 1.
      if (level && (q == ptx::TexQuery::Width || q == ptx::TexQuery::Height || q == ptx::TexQuery::Depth))
        v = std::max<uint32_t>(1, v >> std::min<uint64_t>(31, c.src(2, t, Type::U32)));
    } else {
      const SurfaceDesc* d = surface_of(c, 1, t);
      if (!d) { ok = false; return; }
      v = query(d->layout, nullptr, q);
    }
    results.push_back(Result{t, {{v, 0, 0, 0}}});
  });
  if (!ok) return;
  for (const Result& r : results) c.dst(0, r.tid, Type::B32, r.v[0]);
}

// ---------------------------------------------------------------- suld.b / sust.b

std::string check_surface(const Instr& in) {
  std::string why = check_geom(in);
  if (!why.empty()) return why;
  if (in.flags & ptx::kSurfFormatted) return "formatted surface access (suld.p / sust.p) is not supported";
  const bool load = in.op == ptx::Op::Suld;
  const int h = load ? 1 : 0;
  why = check_handle(in, h);
  if (!why.empty()) return why;
  if (in.type != Type::B8 && in.type != Type::B16 && in.type != Type::B32 && in.type != Type::B64)
    return "surface data must be .b8, .b16, .b32 or .b64";
  if (in.vec != 1 && in.vec != 2 && in.vec != 4) return "only .v2 and .v4 vectors";
  const int data = load ? 0 : 2;
  if (in.nops != 3) return "expected data, [surface, coordinates]";
  const Operand& d = in.ops[static_cast<size_t>(data)];
  if (in.vec == 1 ? !(is_reg(d) || (is_vec(d) && d.vec_n == 1) || (!load && d.kind == Operand::Kind::Imm))
                  : !(is_vec(d) && d.vec_n == in.vec))
    return "the data operand must match the vector size";
  return check_coords(in, h + 1, shape(static_cast<TexGeom>(in.mode)).vec_n);
}

// The byte address a thread's surface coordinates name; false: out of range.
bool surface_addr(const SurfaceDesc& d, const Coords& k, uint32_t bytes, ptx::SurfClamp mode, uint64_t& out) {
  const ImageLayout& l = d.layout;
  int64_t x = static_cast<int64_t>(k.c[0]), y = static_cast<int64_t>(k.c[1]), z = static_cast<int64_t>(k.c[2]);
  const int64_t row = int64_t(l.width) * l.format.texel_bytes();
  const int64_t ny = l.dims >= 2 ? l.height : 1, nz = l.dims == 3 ? l.depth : 1;
  const int64_t nl = l.layers > 0 ? l.layers : 1;
  int64_t layer = k.layer;
  if (bytes > row) return false;
  if (mode == ptx::SurfClamp::Clamp) {
    x = std::clamp<int64_t>(x, 0, row - bytes);
    y = std::clamp<int64_t>(y, 0, ny - 1);
    z = std::clamp<int64_t>(z, 0, nz - 1);
    layer = std::clamp<int64_t>(layer, 0, nl - 1);
  }
  if (x < 0 || x + bytes > row || y < 0 || y >= ny || z < 0 || z >= nz || layer < 0 || layer >= nl) return false;
  out = l.base + uint64_t(layer + z) * l.slice_pitch + uint64_t(y) * l.pitch + uint64_t(x);
  return true;
}

void exec_surface(ExecContext& c) {
  const bool load = c.in.op == ptx::Op::Suld;
  const int h = load ? 1 : 0;
  const GeomShape s = shape(static_cast<TexGeom>(c.in.mode));
  const auto mode = static_cast<ptx::SurfClamp>(c.in.aux);
  const uint32_t elem = ptx::type_bytes(c.in.type), bytes = elem * c.in.vec;
  struct Access {
    uint32_t tid;
    uint64_t addr;
    bool skip;  // .zero out of range: loads read 0, stores do nothing
  };
  thread_local std::vector<Access> accesses;
  accesses.clear();
  bool ok = true;
  c.mask.for_each([&](uint32_t t) {
    if (!ok) return;
    const SurfaceDesc* d = surface_of(c, h, t);
    if (!d) { ok = false; return; }
    const Coords k = read_coords(c, h + 1, s, true, t);
    if (s.dims > d->layout.dims || s.layered != (d->layout.layers > 0)) {
      c.fail(t, std::string(ptx::op_name(c.in.op)) + ": the geometry does not match the surface's");
      ok = false;
      return;
    }
    uint64_t a = 0;
    const bool in_range = surface_addr(*d, k, bytes, mode, a);
    if (!in_range && mode != ptx::SurfClamp::Zero) {
      c.fail(t, std::string(ptx::op_name(c.in.op)) + ": coordinates (" + std::to_string(int64_t(k.c[0])) +
                    " bytes, " + std::to_string(int64_t(k.c[1])) + ", " + std::to_string(int64_t(k.c[2])) +
                    ") out of range of a " + std::to_string(d->layout.width) + " x " +
                    std::to_string(d->layout.height) + " surface (.trap)");
      ok = false;
      return;
    }
    if (in_range && a % elem != 0) {
      c.fail_at(t, a, std::string("misaligned ") + ptx::op_name(c.in.op) + " (access of " +
                          std::to_string(bytes) + " bytes)",
                FaultKind::Misaligned);
      ok = false;
      return;
    }
    if (in_range && !c.env.global->mapped(a, bytes)) {
      c.fail_at(t, a, std::string(ptx::op_name(c.in.op)) + ": surface at unmapped global address");
      ok = false;
      return;
    }
    accesses.push_back(Access{t, a, !in_range});
    if (in_range && c.env.record_accesses)
      for (uint32_t e = 0; e < c.in.vec; ++e)
        c.out.accesses.push_back(MemAccess{t, load ? ptx::Space::Tex : ptx::Space::Global,
                                           static_cast<uint8_t>(elem), a + uint64_t{e} * elem});
  });
  if (!ok) return;
  const int data = load ? 0 : 2;
  const Operand& dop = c.in.ops[static_cast<size_t>(data)];
  for (const Access& x : accesses) {
    for (uint32_t e = 0; e < c.in.vec; ++e) {
      const uint64_t at = x.addr + uint64_t{e} * elem;
      const uint32_t reg = is_vec(dop) ? dop.vec[e] : dop.reg;
      if (load) {
        uint64_t v = 0;
        if (!x.skip) c.env.global->read(at, &v, elem);
        c.write_reg(reg, x.tid, c.in.type, v);
      } else if (!x.skip) {
        const uint64_t v = dop.kind == Operand::Kind::Imm ? c.src(data, x.tid, c.in.type)
                           : reg == ptx::kNoReg            ? 0
                                                           : c.cta.reg(reg, x.tid);
        c.env.global->write(at, &v, elem);
      }
    }
  }
}

}  // namespace

void register_texture_ops(HandlerTable& t) {
  t.add(ptx::Op::Tex, exec_tex, check_tex);
  t.add(ptx::Op::Tld4, exec_tex, check_tex);
  t.add(ptx::Op::Txq, exec_query, check_query);
  t.add(ptx::Op::Suq, exec_query, check_query);
  t.add(ptx::Op::Suld, exec_surface, check_surface);
  t.add(ptx::Op::Sust, exec_surface, check_surface);
}

}  // namespace simt::func
