// Video instructions, per the PTX ISA's semantics: the scalar ones (vadd,
// vsub, vabsdiff, vmin, vmax, vshl, vshr, vmad, vset) on selected bytes,
// half-words or words with an optional secondary operation (.add/.min/.max)
// or a merge into c (d.dsel), and the SIMD ones (vadd2 ... vset4) on two
// half-words or four bytes with a secondary accumulate (.add) or a merge
// under a mask. nvcc emits vabsdiff4 for __vabsdiffu4 and __vsadu4; the
// rest come from inline assembly.
//
// Intermediate values are exact (64-bit, 128-bit for vmad), as in the ISA's
// pseudo-code; .sat clamps to the destination type's range (to the
// selected byte or half-word's range under a merge).
#include <algorithm>
#include <cstdlib>

#include "func/compare_math.h"
#include "func/exec_context.h"
#include "func/int_math.h"

namespace simt::func {

using ptx::Instr;
using ptx::Op;
using ptx::Operand;
using ptx::Type;
using ptx::VideoOp2;

namespace {

bool is_signed(Type t) { return t == Type::S32; }
bool a_signed(const Instr& in) { return is_signed(in.type2); }
bool b_signed(const Instr& in) { return (in.flags & ptx::kVideoBSigned) != 0; }

int64_t extend(uint64_t v, uint32_t bits, bool sign) {
  return sign ? im::sext(v, bits) : static_cast<int64_t>(im::zext(v, bits));
}

int64_t clamp_to(int64_t v, uint32_t bits, bool sign) {
  const int64_t lo = sign ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = sign ? (int64_t{1} << (bits - 1)) - 1 : static_cast<int64_t>((uint64_t{1} << bits) - 1);
  return std::clamp(v, lo, hi);
}

// ---------------------------------------------------------------- scalar

// A scalar selector: .b0-.b3 (8 bits at 8n), .h0/.h1 (16 bits at 16n), or none (32 bits).
struct Part {
  uint32_t bits = 32, shift = 0;
};
Part part(uint16_t sel) {
  if (sel == 0) return {};
  const uint32_t d = ptx::video_sel_digit(sel, 0);
  return ptx::video_sel_half(sel) ? Part{16, 16 * d} : Part{8, 8 * d};
}

int64_t select(uint64_t v, uint16_t sel, bool sign) {
  const Part p = part(sel);
  return extend(v >> p.shift, p.bits, sign);
}

int64_t scalar_op(Op op, int64_t a, int64_t b, const Instr& in) {
  switch (op) {
    case Op::Vadd: return a + b;
    case Op::Vsub: return a - b;
    case Op::Vabsdiff: return std::llabs(a - b);
    case Op::Vmin: return std::min(a, b);
    case Op::Vmax: return std::max(a, b);
    case Op::Vshl: case Op::Vshr: {
      uint64_t n = static_cast<uint64_t>(b) & 0xffffffffu;
      if (in.flags & ptx::kWrap) n &= 31;
      else n = std::min<uint64_t>(n, 32);  // .clamp (the default)
      return op == Op::Vshl ? static_cast<int64_t>(static_cast<uint64_t>(a) << n) : a >> n;
    }
    default: return 0;
  }
}

// Operands are exact (extended to 64 bits), so one signed compare serves
// every mix of .u32 and .s32.
bool compare(ptx::CmpOp c, int64_t a, int64_t b) {
  return cmp_int(c, static_cast<uint64_t>(a), static_cast<uint64_t>(b), true);
}

uint32_t vmad(ExecContext& c, uint32_t t) {
  const Instr& in = c.in;
  const Operand &oa = in.ops[1], &ob = in.ops[2], &oc = in.ops[3];
  const __int128 ta = select(c.src(1, t, Type::U32), oa.sel, a_signed(in));
  const __int128 tb = select(c.src(2, t, Type::U32), ob.sel, b_signed(in));
  uint64_t cv = c.src(3, t, Type::U32);
  const bool sign = a_signed(in) || b_signed(in) || (oa.neg != ob.neg) || oc.neg;
  __int128 tmp = ta * tb;
  int lsb = 0;
  if (in.flags & ptx::kVideoPlusOne) {
    lsb = 1;
  } else if (oa.neg != ob.neg) {
    tmp = ~tmp;
    lsb = 1;
  } else if (oc.neg) {
    cv = ~cv;
    lsb = 1;
  }
  tmp += static_cast<__int128>(extend(cv, 32, sign)) + lsb;
  const auto scale = static_cast<ptx::VideoScale>(in.aux);
  if (scale == ptx::VideoScale::Shr7) tmp >>= 7;
  if (scale == ptx::VideoScale::Shr15) tmp >>= 15;
  if (in.flags & ptx::kSat) {
    const __int128 lo = sign ? INT32_MIN : 0, hi = sign ? __int128{INT32_MAX} : __int128{UINT32_MAX};
    tmp = std::clamp(tmp, lo, hi);
  }
  return static_cast<uint32_t>(tmp);
}

uint32_t scalar(ExecContext& c, uint32_t t) {
  const Instr& in = c.in;
  if (in.op == Op::Vmad) return vmad(c, t);
  const int64_t a = select(c.src(1, t, Type::U32), in.ops[1].sel, a_signed(in));
  const int64_t b = select(c.src(2, t, Type::U32), in.ops[2].sel, in.op == Op::Vshl || in.op == Op::Vshr ? false : b_signed(in));
  const bool dsign = is_signed(in.type);
  const uint16_t dsel = in.ops[0].sel;
  int64_t tmp = ptx::is_video_set(in.op) ? (compare(in.cmp, a, b) ? 1 : 0) : scalar_op(in.op, a, b, in);
  if (in.flags & ptx::kSat) tmp = clamp_to(tmp, part(dsel).bits, dsign);
  if (in.nops < 4) return static_cast<uint32_t>(tmp);
  const uint64_t cbits = c.src(3, t, Type::U32);
  if (dsel != 0) {  // merge: tmp's low bits into the selected part of c
    const Part p = part(dsel);
    const uint64_t m = ((uint64_t{1} << p.bits) - 1) << p.shift;
    return static_cast<uint32_t>((cbits & ~m) | ((static_cast<uint64_t>(tmp) << p.shift) & m));
  }
  const int64_t cv = extend(cbits, 32, dsign);
  switch (static_cast<VideoOp2>(in.mode)) {
    case VideoOp2::Add: return static_cast<uint32_t>(tmp + cv);
    case VideoOp2::Min: return static_cast<uint32_t>(std::min(tmp, cv));
    case VideoOp2::Max: return static_cast<uint32_t>(std::max(tmp, cv));
    default: return static_cast<uint32_t>(tmp);
  }
}

// ---------------------------------------------------------------- SIMD

// Elements i (0 = least significant) of a selector over the 64-bit {b, a}:
// the digit for element i is the (n-1-i)-th one written.
uint32_t lane_of(uint16_t sel, uint32_t i, uint32_t lanes, uint32_t default_first) {
  if (sel == 0) return default_first + i;
  return ptx::video_sel_digit(sel, lanes - 1 - i);
}

uint32_t simd(ExecContext& c, uint32_t t) {
  const Instr& in = c.in;
  const uint32_t lanes = ptx::is_video_simd2(in.op) ? 2 : 4, bits = 32 / lanes;
  const uint64_t ab = c.src(1, t, Type::U32) | (c.src(2, t, Type::U32) << 32);
  const uint64_t cbits = c.src(3, t, Type::U32);
  const bool set = ptx::is_video_set(in.op);
  const bool dsign = is_signed(in.type);
  const bool add = static_cast<VideoOp2>(in.mode) == VideoOp2::Add;
  // .mask: the lanes written (or accumulated); all by default.
  uint32_t mask = (1u << lanes) - 1;
  if (in.ops[0].sel != 0) {
    mask = 0;
    for (uint32_t k = 0; k < ptx::video_sel_count(in.ops[0].sel); ++k) mask |= 1u << ptx::video_sel_digit(in.ops[0].sel, k);
  }
  int64_t acc = extend(cbits, 32, dsign);
  uint64_t merged = 0;
  for (uint32_t i = 0; i < lanes; ++i) {
    const int64_t va = extend(ab >> (bits * lane_of(in.ops[1].sel, i, lanes, 0)), bits, a_signed(in));
    const int64_t vb = extend(ab >> (bits * lane_of(in.ops[2].sel, i, lanes, lanes)), bits, b_signed(in));
    int64_t r = 0;
    if (set) {
      r = compare(in.cmp, va, vb) ? 1 : 0;
    } else {
      switch (in.op) {
        case Op::Vadd2: case Op::Vadd4: r = va + vb; break;
        case Op::Vsub2: case Op::Vsub4: r = va - vb; break;
        case Op::Vavrg2: case Op::Vavrg4: r = va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1; break;
        case Op::Vabsdiff2: case Op::Vabsdiff4: r = std::llabs(va - vb); break;
        case Op::Vmin2: case Op::Vmin4: r = std::min(va, vb); break;
        default: r = std::max(va, vb); break;
      }
      if (in.flags & ptx::kSat) r = clamp_to(r, bits, dsign);
    }
    const uint64_t lane_mask = ((uint64_t{1} << bits) - 1) << (bits * i);
    if (add) {
      if (mask >> i & 1) acc += r;
    } else {
      merged |= (mask >> i & 1) ? (static_cast<uint64_t>(r) << (bits * i)) & lane_mask : cbits & lane_mask;
    }
  }
  return static_cast<uint32_t>(add ? static_cast<uint64_t>(acc) : merged);
}

void exec_video(ExecContext& c) {
  const bool is_simd = ptx::is_video_simd2(c.in.op) || ptx::is_video_simd4(c.in.op);
  c.mask.for_each([&](uint32_t t) { c.dst(0, t, Type::U32, is_simd ? simd(c, t) : scalar(c, t)); });
}

// ---------------------------------------------------------------- checks

std::string check_video(const Instr& in) {
  const bool simd = ptx::is_video_simd2(in.op) || ptx::is_video_simd4(in.op);
  const uint32_t lanes = ptx::is_video_simd2(in.op) ? 2 : 4;
  if (in.type == Type::None || in.type2 == Type::None || !(in.flags & ptx::kVideoBTyped))
    return ptx::is_video_set(in.op) ? "expected two operand types (.atype.btype: .u32 or .s32)"
                                    : "expected three types (.dtype.atype.btype: .u32 or .s32)";
  if ((in.op == Op::Vshl || in.op == Op::Vshr) && b_signed(in)) return "the shift amount's type must be .u32";
  if (ptx::is_video_set(in.op) && in.cmp == ptx::CmpOp::None) return "missing comparison (.eq .ne .lt .le .gt .ge)";
  if (ptx::is_video_set(in.op) && (in.flags & ptx::kSat)) return ".sat does not apply to vset";
  const bool op2 = static_cast<VideoOp2>(in.mode) != VideoOp2::None;
  if (simd && op2 && (in.flags & ptx::kSat)) return ".sat cannot be combined with .add";
  for (int i = 0; i < in.nops; ++i) {
    const Operand& o = in.ops[static_cast<size_t>(i)];
    if (o.kind != Operand::Kind::Reg && !(i > 0 && o.kind == Operand::Kind::Imm))
      return "operands must be registers (sources may be immediates)";
    if (o.neg && in.op != Op::Vmad) return "only vmad negates operands";
  }
  if (in.op == Op::Vmad) {
    if (in.nops != 4) return "expected d, a, b, c";
    if ((in.flags & ptx::kVideoPlusOne) && (in.ops[1].neg || in.ops[2].neg || in.ops[3].neg))
      return "vmad.po does not negate operands";
    if (in.ops[0].sel != 0 || in.ops[3].sel != 0) return "vmad selects parts of a and b only";
  } else if (simd) {
    if (in.nops != 4) return "expected d, a, b, c";
    if (in.ops[3].sel != 0) return "c takes no selector";
  } else {
    const bool merge = in.ops[0].sel != 0;
    if (in.nops != (op2 || merge ? 4 : 3)) return op2 || merge ? "expected d, a, b, c" : "expected d, a, b";
    if (op2 && merge) return "a secondary operation and a merge (d.dsel) exclude each other";
    if (in.nops == 4 && in.ops[3].sel != 0) return "c takes no selector";
  }
  // Selector shapes: scalar ones are one byte or half-word; SIMD ones give
  // every lane (sources) or a set of lanes (the destination's mask).
  for (int i = 0; i < 3; ++i) {
    const uint16_t sel = in.ops[static_cast<size_t>(i)].sel;
    if (sel == 0) continue;
    const uint32_t n = ptx::video_sel_count(sel);
    const bool half = ptx::video_sel_half(sel);
    if (!simd) {
      if (n != 1 || ptx::video_sel_digit(sel, 0) > (half ? 1u : 3u)) return "selectors are .b0-.b3, .h0 or .h1";
      continue;
    }
    if (half != (lanes == 2)) return lanes == 2 ? "two-way SIMD selects half-words (.hxy)" : "four-way SIMD selects bytes (.bxyzw)";
    if (i > 0 && n != lanes) return "a source selector names every lane";
    if (i == 0)
      for (uint32_t k = 0; k < n; ++k)
        if (ptx::video_sel_digit(sel, k) >= lanes) return "a mask names lanes of the result only";
  }
  return "";
}

}  // namespace

void register_video_ops(HandlerTable& t) {
  for (int o = static_cast<int>(Op::Vadd); o <= static_cast<int>(Op::Vset4); ++o)
    t.add(static_cast<Op>(o), exec_video, check_video);
}

}  // namespace simt::func
