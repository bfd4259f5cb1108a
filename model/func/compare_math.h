// Scalar semantics of PTX comparisons (setp, set, slct) and of the integer
// type classes, shared by the general handlers (exec_compare.cpp,
// exec_int.cpp) and the decoded fast kernels (fast_path.cpp), so the two
// paths cannot drift apart.
#pragma once

#include <cmath>
#include <cstdint>

#include "ptx/ir.h"

namespace simt::func {

// a, b already sign-extended (signed types) or zero-extended.
inline bool cmp_int(ptx::CmpOp op, uint64_t a, uint64_t b, bool sgn) {
  using ptx::CmpOp;
  const int64_t sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
  switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return sgn ? sa < sb : a < b;
    case CmpOp::Le: return sgn ? sa <= sb : a <= b;
    case CmpOp::Gt: return sgn ? sa > sb : a > b;
    case CmpOp::Ge: return sgn ? sa >= sb : a >= b;
    case CmpOp::Lo: return a < b;
    case CmpOp::Ls: return a <= b;
    case CmpOp::Hi: return a > b;
    case CmpOp::Hs: return a >= b;
    default: return false;  // refused by the check
  }
}

// The unordered forms (…u) are true when either operand is NaN.
template <class T>
bool cmp_float(ptx::CmpOp op, T a, T b) {
  using ptx::CmpOp;
  const bool un = std::isnan(a) || std::isnan(b);
  switch (op) {
    case CmpOp::Eq: return !un && a == b;
    case CmpOp::Ne: return !un && a != b;
    case CmpOp::Lt: return !un && a < b;
    case CmpOp::Le: return !un && a <= b;
    case CmpOp::Gt: return !un && a > b;
    case CmpOp::Ge: return !un && a >= b;
    case CmpOp::Equ: return un || a == b;
    case CmpOp::Neu: return un || a != b;
    case CmpOp::Ltu: return un || a < b;
    case CmpOp::Leu: return un || a <= b;
    case CmpOp::Gtu: return un || a > b;
    case CmpOp::Geu: return un || a >= b;
    case CmpOp::Num: return !un;
    case CmpOp::Nan: return un;
    default: return false;  // refused by the check
  }
}

// 16/32/64-bit integer and bit types (.u, .s, .b).
inline bool is_int_type(ptx::Type t) {
  using ptx::Type;
  switch (t) {
    case Type::U16: case Type::U32: case Type::U64:
    case Type::S16: case Type::S32: case Type::S64:
    case Type::B16: case Type::B32: case Type::B64:
      return true;
    default:
      return false;
  }
}

// Type of the double-width result of mul.wide / mad.wide (None if it has none).
inline ptx::Type wide_type_of(ptx::Type t) {
  using ptx::Type;
  switch (t) {
    case Type::U16: return Type::U32;
    case Type::S16: return Type::S32;
    case Type::U32: return Type::U64;
    case Type::S32: return Type::S64;
    default: return Type::None;
  }
}

}  // namespace simt::func
