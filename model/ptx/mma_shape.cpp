#include "ptx/mma_shape.h"

namespace simt::ptx {
namespace {

bool standard_shape(MmaShape s) {  // wmma's m16n16k16, m32n8k16, m8n32k16
  return s == MmaShape::M16N16K16 || s == MmaShape::M32N8K16 || s == MmaShape::M8N32K16;
}
bool f16_or_f32(Type t) { return t == Type::F16 || t == Type::F32; }
bool is_int8(Type t) { return t == Type::S8 || t == Type::U8; }
std::string tname(Type t) { return t == Type::B32 ? "tf32" : type_name(t); }

// d and c types that go with a/b type `ab` (the shape's family already checked).
std::string accumulators(Type ab, Type d, Type c) {
  if (ab == Type::F16) return f16_or_f32(d) && f16_or_f32(c) ? "" : ".f16 a/b need .f16 or .f32 accumulators";
  if (ab == Type::BF16 || ab == Type::B32)
    return d == Type::F32 && c == Type::F32 ? "" : "." + tname(ab) + " a/b need .f32 accumulators";
  if (is_int8(ab)) return d == Type::S32 && c == Type::S32 ? "" : ".s8/.u8 a/b need .s32 accumulators";
  if (ab == Type::F64) return d == Type::F64 && c == Type::F64 ? "" : ".f64 a/b need .f64 accumulators";
  return "a/b type ." + tname(ab) + " is not supported";
}

// a/b type `ab` allowed for shape `s` (wmma and mma share these).
std::string ab_for_shape(Op op, MmaShape s, Type ab) {
  switch (s) {
    case MmaShape::M16N16K16: case MmaShape::M32N8K16: case MmaShape::M8N32K16:
      if (op == Op::Wmma && (ab == Type::F16 || ab == Type::BF16 || is_int8(ab))) return "";
      break;
    case MmaShape::M16N16K8:
      if (op == Op::Wmma && ab == Type::B32) return "";
      break;
    case MmaShape::M8N8K4:
      if (ab == Type::F64) return "";
      break;
    case MmaShape::M16N8K16:
      if (op == Op::Mma && (ab == Type::F16 || ab == Type::BF16 || is_int8(ab))) return "";
      break;
    case MmaShape::M16N8K8:
      if (op == Op::Mma && (ab == Type::F16 || ab == Type::BF16 || ab == Type::B32)) return "";
      break;
    default:
      return "shape not supported by this instruction";
  }
  return "a/b type ." + tname(ab) + " is not supported with this shape";
}

std::string check_wmma_memory(const Instr& in) {
  const auto kind = static_cast<WmmaKind>(in.mode);
  const MmaShape s = mma_shape(in.aux);
  const bool ab = kind == WmmaKind::LoadA || kind == WmmaKind::LoadB;
  if (in.space != Space::Global && in.space != Space::Shared && in.space != Space::Generic)
    return "state space must be .global, .shared or none (generic)";
  if (s == MmaShape::M8N8K4) return in.type == Type::F64 ? "" : "m8n8k4 fragments are .f64";
  if (s == MmaShape::M16N16K8)
    return (ab ? in.type == Type::B32 : in.type == Type::F32) ? "" : "m16n16k8 fragments are .tf32 (a/b) or .f32 (c/d)";
  if (!standard_shape(s)) return "shape not supported by wmma.load/wmma.store";
  if (ab) return in.type == Type::F16 || in.type == Type::BF16 || is_int8(in.type) ? "" : "a/b fragments are .f16, .bf16, .s8 or .u8";
  return f16_or_f32(in.type) || in.type == Type::S32 ? "" : "c/d fragments are .f16, .f32 or .s32";
}

std::string check_multiply(const Instr& in) {
  const MmaShape s = mma_shape(in.aux);
  std::string why = ab_for_shape(in.op, s, in.type3);
  if (why.empty()) why = accumulators(in.type3, in.type, in.type2);
  if (!why.empty()) return why;
  if (in.op == Op::Mma && ((in.aux & kMmaACol) || !(in.aux & kMmaBCol))) return "mma supports only .row.col";
  if ((in.flags & kSat) && !is_int8(in.type3)) return ".satfinite is supported only with integer (.s8/.u8) a/b";
  if (in.rnd != Rnd::None && !(in.type3 == Type::F64 && in.rnd == Rnd::Rn))
    return "a rounding modifier is supported only as .rn on .f64";
  return "";
}

}  // namespace

std::string mma_unsupported(const Instr& in) {
  switch (in.op) {
    case Op::Ldmatrix:
      if (mma_shape(in.aux) != MmaShape::M8N8) return "ldmatrix supports only .m8n8";
      if (in.type != Type::B16) return "ldmatrix supports only .b16";
      if (in.vec != 1 && in.vec != 2 && in.vec != 4) return "ldmatrix needs .x1, .x2 or .x4";
      if (in.space != Space::Shared && in.space != Space::Generic) return "ldmatrix reads .shared memory";
      return "";
    case Op::Wmma:
      if (static_cast<WmmaKind>(in.mode) != WmmaKind::Mma) return check_wmma_memory(in);
      return check_multiply(in);
    case Op::Mma:
      return check_multiply(in);
    default:
      return "not a warp matrix instruction";
  }
}

}  // namespace simt::ptx
