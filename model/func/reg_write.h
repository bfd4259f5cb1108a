// How ExecContext::write_reg stores a value of type `ty` into a register of
// type `rty`, decided once per instruction instead of per thread: the same
// sign/zero extension and register-width rules, as one branch-free formula
// (so lane loops over a register row can vectorise).
#pragma once

#include <cstdint>

#include "ptx/ir.h"

namespace simt::func {

struct RegWrite {
  uint64_t low = ~uint64_t{0};   // bits of `ty` kept
  uint64_t sign = 0;             // sign bit of `ty` when it is a signed type narrower than 64 bits
  uint64_t mask = ~uint64_t{0};  // width of the register
  bool to_pred = false;          // predicate register: any non-zero value is 1

  static RegWrite of(ptx::Type rty, ptx::Type ty) {
    RegWrite w;
    if (rty == ptx::Type::Pred) {
      w.to_pred = true;
      return w;
    }
    if (ty == ptx::Type::Pred) {  // a predicate value into a non-predicate register: its low bit
      w.mask = 1;
      return w;
    }
    const uint32_t bytes = ptx::type_bytes(ty);
    if (bytes > 0 && bytes < 8) {
      w.low = (uint64_t{1} << (bytes * 8)) - 1;
      if (ptx::type_is_signed(ty)) w.sign = uint64_t{1} << (bytes * 8 - 1);
    }
    const uint32_t rbytes = ptx::type_bytes(rty);
    if (rbytes > 0 && rbytes < 8) w.mask = (uint64_t{1} << (rbytes * 8)) - 1;
    return w;
  }

  uint64_t apply(uint64_t bits) const {
    if (to_pred) return bits != 0 ? 1 : 0;
    return (((bits & low) ^ sign) - sign) & mask;
  }
  // apply() for a destination known not to be a predicate register.
  uint64_t apply_value(uint64_t bits) const { return (((bits & low) ^ sign) - sign) & mask; }
};

}  // namespace simt::func
