// Warp matrix instructions: wmma.load / wmma.store / wmma.mma, mma and
// ldmatrix. The 32 threads of a PTX warp (an aligned 32-thread group of the
// CTA, as for shfl) compute together, so every one of them must execute the
// instruction: a partial group faults (below a 32-wide model warp, or after
// divergence). Fragment layouts are in func/mma_layout.h.
//
// Arithmetic: products of f16, bf16 and tf32 elements are exact in f32; each
// d[i][j] starts from c[i][j] and adds a[i][k] * b[k][j] for k = 0, 1, ...
// in f32 with round-to-nearest-even, and an f16 d is the f32 sum rounded
// once to f16 (nearest even). f64 accumulates with fused multiply-adds in
// the same order; s8/u8 sums are exact and wrap to 32 bits, or clamp with
// .satfinite. tf32 elements are f32 registers whose low 13 mantissa bits
// are ignored.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "func/exec_context.h"
#include "func/float_math.h"
#include "func/mem_access.h"
#include "func/mma_layout.h"
#include "ptx/mma_shape.h"

namespace simt::func {

using ptx::MmaShape;
using ptx::Operand;
using ptx::Type;
using ptx::WmmaKind;

namespace {

constexpr uint32_t kLanes = 32;

uint32_t group_bits(const ThreadMask& m, uint32_t g) {
  return static_cast<uint32_t>(m.word(g / 2) >> (32 * (g & 1)));
}

// The groups that execute the instruction, each one whole; false (after a
// fault) when some group executes it only in part.
bool whole_groups(ExecContext& c, std::vector<uint32_t>& groups) {
  const uint32_t ng = (c.cta.threads() + kLanes - 1) / kLanes;
  for (uint32_t g = 0; g < ng; ++g) {
    const uint32_t bits = group_bits(c.mask, g);
    if (!bits) continue;
    if (bits != 0xffffffffu || g * kLanes + kLanes > c.cta.threads()) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%08x", bits);
      c.fail(g * kLanes + static_cast<uint32_t>(__builtin_ctz(bits)),
             std::string(ptx::op_name(c.in.op)) + " needs all 32 threads of the warp to execute it together "
             "(lanes executing: " + hex + "); warp matrix instructions need a converged, full warp "
             "(warp size 32 or more)");
      return false;
    }
    groups.push_back(g);
  }
  return true;
}

uint64_t address(const ExecContext& c, int i, uint32_t t) {
  const Operand& o = c.in.ops[static_cast<size_t>(i)];
  if (o.kind == Operand::Kind::Addr) return (o.reg != ptx::kNoReg ? c.cta.reg(o.reg, t) : 0) + static_cast<uint64_t>(o.imm);
  return c.src(i, t, Type::U64);
}

// ---------------------------------------------------------------- fragments in registers

// A fragment operand: element e of a thread sits in register vec[e / per]
// at bits (e % per) * bits.
struct Frag {
  const Operand* o;
  uint32_t bits, per, count;  // element width, elements per register, elements held
  Frag(const Operand& op, Type t) : o(&op) {
    bits = ptx::mma_elem_bytes(t) * 8;
    per = bits >= 32 ? 1 : 32 / bits;
    count = o->vec_n * per;
  }
  uint64_t get(const ExecContext& c, uint32_t t, uint32_t e) const {
    const uint32_t r = o->vec[e / per];
    if (r == ptx::kNoReg) return 0;
    const uint64_t v = c.cta.reg(r, t);
    return bits >= 64 ? v : (v >> ((e % per) * bits)) & ((uint64_t{1} << bits) - 1);
  }
  // Writes a thread's elements [0, count), `vals` element bits.
  void put(ExecContext& c, uint32_t t, const uint64_t* vals) const {
    for (uint32_t k = 0; k < o->vec_n; ++k) {
      uint64_t w = 0;
      for (uint32_t i = 0; i < per; ++i) w |= bits >= 64 ? vals[k] : vals[k * per + i] << (i * bits);
      c.write_reg(o->vec[k], t, bits >= 64 ? Type::B64 : Type::B32, w);
    }
  }
};

// Element bits of type `t` as a number (exact in double for every type here).
double value_of(Type t, uint64_t bits) {
  switch (t) {
    case Type::F16: return fm::f16_to_f32(static_cast<uint16_t>(bits));
    case Type::BF16: return fm::bf16_to_f32(static_cast<uint16_t>(bits));
    case Type::B32: {  // tf32: the top 19 bits of an f32
      const uint32_t u = static_cast<uint32_t>(bits) & 0xffffe000u;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    case Type::F32: {
      const uint32_t u = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    case Type::F64: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    case Type::S8: return static_cast<int8_t>(bits);
    case Type::U8: return static_cast<uint8_t>(bits);
    default: return static_cast<int32_t>(bits);  // s32
  }
}

// ---------------------------------------------------------------- multiply-accumulate

struct MmaOperands {
  int d = 0, a = 1, b = 2, c = 3;
};

std::string check_multiply(const ptx::Instr& in) {
  std::string why = ptx::mma_unsupported(in);
  if (!why.empty()) return why;
  if (in.nops != 4) return "expects d, a, b, c";
  const MmaShape s = ptx::mma_shape(in.aux);
  const char which[4] = {'c', 'a', 'b', 'c'};
  const Type types[4] = {in.type, in.type3, in.type3, in.type2};
  for (int i = 0; i < 4; ++i) {
    const Operand& o = in.ops[static_cast<size_t>(i)];
    if (o.kind != Operand::Kind::Vec || o.vec_n != ptx::mma_frag_regs(in.op, s, which[i], types[i]))
      return "operand " + std::to_string(i + 1) + " is not a fragment of the right size";
  }
  return "";
}

void exec_multiply(ExecContext& c) {
  std::vector<uint32_t> groups;
  if (!whole_groups(c, groups)) return;
  const ptx::Instr& in = c.in;
  const MmaShape s = ptx::mma_shape(in.aux);
  const ptx::MmaDims dim = ptx::mma_dims(s);
  const Type ab = in.type3, ct = in.type2, dt = in.type;
  const Frag fa(in.ops[1], ab), fb(in.ops[2], ab), fc(in.ops[3], ct), fd(in.ops[0], dt);
  const uint32_t na = ptx::mma_frag_elems(s, 'a'), nb = ptx::mma_frag_elems(s, 'b'), nc = ptx::mma_frag_elems(s, 'c');
  std::vector<double> A(dim.m * dim.k), B(dim.k * dim.n), C(dim.m * dim.n);
  for (uint32_t g : groups) {
    // Gather the whole matrices first: d may share registers with a, b or c.
    for (uint32_t l = 0; l < kLanes; ++l) {
      const uint32_t t = g * kLanes + l;
      for (uint32_t e = 0; e < na; ++e) {
        const MmaCoord p = mma_coord(s, 'a', ab, l, e);
        A[p.row * dim.k + p.col] = value_of(ab, fa.get(c, t, e));
      }
      for (uint32_t e = 0; e < nb; ++e) {
        const MmaCoord p = mma_coord(s, 'b', ab, l, e);
        B[p.row * dim.n + p.col] = value_of(ab, fb.get(c, t, e));
      }
      for (uint32_t e = 0; e < nc; ++e) {
        const MmaCoord p = mma_coord(s, 'c', ab, l, e);
        C[p.row * dim.n + p.col] = value_of(ct, fc.get(c, t, e));
      }
    }
    for (uint32_t l = 0; l < kLanes; ++l) {
      uint64_t out[8] = {};
      for (uint32_t e = 0; e < nc; ++e) {
        const MmaCoord p = mma_coord(s, 'c', ab, l, e);
        const double* arow = &A[p.row * dim.k];
        if (ab == Type::F64) {
          double acc = C[p.row * dim.n + p.col];
          for (uint32_t k = 0; k < dim.k; ++k) acc = std::fma(arow[k], B[k * dim.n + p.col], acc);
          std::memcpy(&out[e], &acc, 8);
        } else if (ab == Type::S8 || ab == Type::U8) {
          int64_t acc = static_cast<int64_t>(C[p.row * dim.n + p.col]);
          for (uint32_t k = 0; k < dim.k; ++k)
            acc += static_cast<int64_t>(arow[k]) * static_cast<int64_t>(B[k * dim.n + p.col]);
          if (in.flags & ptx::kSat) acc = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
          out[e] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<uint32_t>(acc)));
        } else {
          float acc = static_cast<float>(C[p.row * dim.n + p.col]);
          for (uint32_t k = 0; k < dim.k; ++k) {
            const float prod = static_cast<float>(arow[k] * B[k * dim.n + p.col]);  // exact
            acc = acc + prod;
          }
          if (dt == Type::F16) {
            out[e] = fm::f16_from(static_cast<double>(acc), ptx::Rnd::Rn);
          } else {
            uint32_t u;
            std::memcpy(&u, &acc, 4);
            out[e] = u;
          }
        }
      }
      fd.put(c, g * kLanes + l, out);
    }
  }
}

// ---------------------------------------------------------------- wmma.load / wmma.store

struct Access {
  uint32_t t, e;
  ptx::Space space;
  uint64_t addr;
};

std::string check_wmma(const ptx::Instr& in) {
  const auto kind = static_cast<WmmaKind>(in.mode);
  if (kind == WmmaKind::Mma) return check_multiply(in);
  std::string why = ptx::mma_unsupported(in);
  if (!why.empty()) return why;
  if (in.nops < 2 || in.nops > 3) return "expects a fragment, an address and an optional stride";
  const bool store = kind == WmmaKind::StoreD;
  const Operand& f = in.ops[store ? 1 : 0];
  const char which = kind == WmmaKind::LoadA ? 'a' : kind == WmmaKind::LoadB ? 'b' : 'c';
  if (f.kind != Operand::Kind::Vec || f.vec_n != ptx::mma_frag_regs(in.op, ptx::mma_shape(in.aux), which, in.type))
    return "the fragment is not a {..} of the right size";
  return "";
}

void exec_wmma_memory(ExecContext& c) {
  std::vector<uint32_t> groups;
  if (!whole_groups(c, groups)) return;
  const ptx::Instr& in = c.in;
  const auto kind = static_cast<WmmaKind>(in.mode);
  const bool store = kind == WmmaKind::StoreD;
  const char which = kind == WmmaKind::LoadA ? 'a' : kind == WmmaKind::LoadB ? 'b' : 'c';
  const MmaShape s = ptx::mma_shape(in.aux);
  const ptx::MmaDims dim = ptx::mma_dims(s);
  const uint32_t rows = which == 'b' ? dim.k : dim.m, cols = which == 'a' ? dim.k : dim.n;
  const bool col_major = (in.aux & ptx::kMmaACol) != 0;
  const uint32_t elem = ptx::mma_elem_bytes(in.type), n = ptx::mma_frag_elems(s, which);
  const Frag frag(in.ops[store ? 1 : 0], in.type);
  const int addr_op = store ? 0 : 1;
  // Pass 1: every element's address, checked, before anything is written.
  std::vector<Access> acc;
  acc.reserve(groups.size() * kLanes * n);
  for (uint32_t g : groups)
    for (uint32_t l = 0; l < kLanes; ++l) {
      const uint32_t t = g * kLanes + l;
      const uint64_t base = address(c, addr_op, t);
      // Default stride: the matrix's leading dimension.
      const uint64_t stride = in.nops > 2 ? static_cast<uint32_t>(c.src(2, t, Type::U32)) : col_major ? rows : cols;
      for (uint32_t e = 0; e < n; ++e) {
        // a/b layouts depend only on the element family, which in.type gives.
        const MmaCoord p = mma_coord(s, which, in.type, l, e);
        const uint64_t off = col_major ? uint64_t{p.col} * stride + p.row : uint64_t{p.row} * stride + p.col;
        Access a{t, e, ptx::Space::None, 0};
        if (!element_access(c, t, in.space, base + off * elem, elem, store, a.space, a.addr)) return;
        acc.push_back(a);
      }
    }
  // Pass 2: commit.
  (store ? c.out.is_store : c.out.is_load) = true;
  uint64_t vals[32];
  for (size_t i = 0; i < acc.size(); i += n) {
    const uint32_t t = acc[i].t;
    if (store) {
      for (uint32_t e = 0; e < n; ++e) {
        const uint64_t v = frag.get(c, t, e);
        element_write(c, t, acc[i + e].space, acc[i + e].addr, &v, elem);  // little-endian host
      }
    } else {
      for (uint32_t e = 0; e < n; ++e) {
        uint64_t v = 0;
        element_read(c, t, acc[i + e].space, acc[i + e].addr, &v, elem);
        vals[e] = v;
      }
      for (uint32_t e = n; e < frag.count; ++e) vals[e] = vals[e % n];  // wmma .f16 a/b: held again
      frag.put(c, t, vals);
    }
  }
}

void exec_wmma(ExecContext& c) {
  if (static_cast<WmmaKind>(c.in.mode) == WmmaKind::Mma) exec_multiply(c);
  else exec_wmma_memory(c);
}

// ---------------------------------------------------------------- ldmatrix

std::string check_ldmatrix(const ptx::Instr& in) {
  std::string why = ptx::mma_unsupported(in);
  if (!why.empty()) return why;
  if (in.nops != 2 || in.ops[0].kind != Operand::Kind::Vec || in.ops[0].vec_n != in.vec)
    return "expects a {..} of one register per matrix and an address";
  return "";
}

// ldmatrix.sync.aligned.m8n8.xN{.trans}.b16: lanes 8j .. 8j+7 give the row
// addresses of matrix j (16 bytes each); lane l receives in register j the
// elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1) of matrix j, or with .trans
// (2(l%4), l/4) and (2(l%4)+1, l/4).
void exec_ldmatrix(ExecContext& c) {
  std::vector<uint32_t> groups;
  if (!whole_groups(c, groups)) return;
  const uint32_t num = c.in.vec;
  const bool trans = (c.in.aux & ptx::kMmaTrans) != 0;
  // Pass 1: each row, as four 4-byte accesses (the width ld.v4.b32 records).
  struct Row { ptx::Space space[4]; uint64_t addr[4]; };
  std::vector<Row> rows(groups.size() * 8 * num);
  for (size_t gi = 0; gi < groups.size(); ++gi)
    for (uint32_t r = 0; r < 8 * num; ++r) {
      const uint32_t t = groups[gi] * kLanes + r;
      const uint64_t a = address(c, 1, t);
      Row& row = rows[gi * 8 * num + r];
      if ((a & 15) != 0) {
        c.fail_at(t, a, "ldmatrix row address is not 16-byte aligned", FaultKind::Misaligned);
        return;
      }
      for (uint32_t w = 0; w < 4; ++w)
        if (!element_access(c, t, c.in.space, a + 4 * w, 4, false, row.space[w], row.addr[w])) return;
    }
  c.out.is_load = true;
  const Frag frag(c.in.ops[0], Type::B16);
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    // The matrices, [j][row][col].
    uint16_t m[4][8][8];
    for (uint32_t r = 0; r < 8 * num; ++r) {
      const uint32_t t = groups[gi] * kLanes + r;
      const Row& row = rows[gi * 8 * num + r];
      uint16_t* dst = m[r / 8][r % 8];
      for (uint32_t w = 0; w < 4; ++w) element_read(c, t, row.space[w], row.addr[w], dst + 2 * w, 4);
    }
    for (uint32_t l = 0; l < kLanes; ++l) {
      uint64_t vals[8];
      const uint32_t g = l / 4, q = l % 4;
      for (uint32_t j = 0; j < num; ++j)
        for (uint32_t h = 0; h < 2; ++h) vals[2 * j + h] = trans ? m[j][2 * q + h][g] : m[j][g][2 * q + h];
      frag.put(c, groups[gi] * kLanes + l, vals);
    }
  }
}

}  // namespace

void register_mma_ops(HandlerTable& t) {
  t.add(ptx::Op::Wmma, exec_wmma, check_wmma);
  t.add(ptx::Op::Mma, exec_multiply, check_multiply);
  t.add(ptx::Op::Ldmatrix, exec_ldmatrix, check_ldmatrix);
}

}  // namespace simt::func
