// Operand access shared by every handler: register reads/writes with the
// width and extension rules of PTX, immediates converted to the instruction
// type, and the special registers.
#include "func/exec_context.h"

#include <cmath>
#include <cstring>

namespace simt::func {

using ptx::ImmKind;
using ptx::Operand;
using ptx::Sreg;
using ptx::Type;

namespace {

uint64_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t f64_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
float bits_f32(uint64_t b) {
  const uint32_t u = static_cast<uint32_t>(b);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double bits_f64(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

// IEEE binary16 from a double, round to nearest even (immediates only).
uint64_t half_bits(double v) {
  const float f = static_cast<float>(v);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return sign | 0x7c00u | (mant ? 0x200u : 0);  // inf / nan
  if (exp >= 31) return sign | 0x7c00u;                                          // overflow
  if (exp <= 0) {                                                                // subnormal / zero
    if (exp < -10) return sign;
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t h = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) ++h;
    return sign | h;
  }
  uint32_t h = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;  // may carry into the exponent: correct
  return sign | h;
}

// bfloat16 from a double, round to nearest even.
uint64_t bf16_bits(double v) {
  const float f = static_cast<float>(v);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (x >> 16) | 0x40u;  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1);
  return x >> 16;
}

// A numeric value converted to the float type `ty` (raw bits).
uint64_t float_of(double v, Type ty) {
  switch (ty) {
    case Type::F32: return f32_bits(static_cast<float>(v));
    case Type::F64: return f64_bits(v);
    case Type::F16: return half_bits(v);
    case Type::F16x2: { const uint64_t h = half_bits(v); return h | (h << 16); }
    case Type::BF16: return bf16_bits(v);
    case Type::BF16x2: { const uint64_t h = bf16_bits(v); return h | (h << 16); }
    default: return 0;
  }
}

}  // namespace

uint64_t imm_bits(const Operand& o, Type ty) {
  const bool fty = ptx::type_is_float(ty);
  switch (o.imm_kind) {
    case ImmKind::Int:
      if (fty) return float_of(static_cast<double>(o.imm), ty);
      if (ty == Type::Pred) return (o.imm != 0) ^ (o.neg ? 1 : 0);
      return static_cast<uint64_t>(o.imm) & ExecContext::width_mask(ty);
    case ImmKind::F32Bits:
      if (ty == Type::F32) return static_cast<uint64_t>(o.imm) & 0xffffffffu;
      if (fty) return float_of(bits_f32(static_cast<uint64_t>(o.imm)), ty);
      return static_cast<uint64_t>(o.imm) & ExecContext::width_mask(ty);
    case ImmKind::F64Bits:
      if (ty == Type::F64) return static_cast<uint64_t>(o.imm);
      if (fty) return float_of(bits_f64(static_cast<uint64_t>(o.imm)), ty);
      return static_cast<uint64_t>(o.imm) & ExecContext::width_mask(ty);
  }
  return 0;
}

uint64_t ExecContext::src_slow(int i, uint32_t t, Type ty) const {
  const Operand& o = in.ops[static_cast<size_t>(i)];
  switch (o.kind) {
    case Operand::Kind::Reg: {
      if (o.reg == ptx::kNoReg) return 0;
      uint64_t v = cta.reg(o.reg, t);
      if (ty == Type::Pred) return (v & 1) ^ (o.neg ? 1 : 0);
      return v & ExecContext::width_mask(ty);
    }
    case Operand::Kind::Imm:
      return imm_bits(o, ty);
    case Operand::Kind::Sreg:
      return sreg(o.sreg, t) & ExecContext::width_mask(ty);
    case Operand::Kind::Addr: {
      // `[reg+imm]` used as a value is the address it names.
      const uint64_t base = o.reg == ptx::kNoReg ? 0 : cta.reg(o.reg, t);
      return (base + static_cast<uint64_t>(o.imm)) & ExecContext::width_mask(ty);
    }
    case Operand::Kind::Label:
      return static_cast<uint64_t>(o.imm) & ExecContext::width_mask(ty);
    default:
      // Vectors are read element by element by their handlers.
      return 0;
  }
}

bool ExecContext::pred(const Operand& o, uint32_t t) const {
  bool v = false;
  if (o.kind == Operand::Kind::Reg && o.reg != ptx::kNoReg)
    v = cta.reg(o.reg, t) & 1;
  else if (o.kind == Operand::Kind::Imm)
    v = o.imm != 0;
  return v != o.neg;
}

uint64_t ExecContext::sreg(Sreg s, uint32_t t) const { return sreg_value(cta, s, t); }

uint64_t sreg_value(const CtaState& cta, Sreg s, uint32_t t) {
  // PTX lanes and lane masks always refer to 32-thread groups (t / 32), whatever
  // warp width the timing model uses; %warpid follows the hardware warp width.
  const uint32_t lane = t & 31;
  const auto& g = cta.geometry();
  const uint32_t ws = cta.warp_size ? cta.warp_size : 32;
  switch (s) {
    case Sreg::TidX: return cta.tid(t)[0];
    case Sreg::TidY: return cta.tid(t)[1];
    case Sreg::TidZ: return cta.tid(t)[2];
    case Sreg::NtidX: return g.block[0];
    case Sreg::NtidY: return g.block[1];
    case Sreg::NtidZ: return g.block[2];
    case Sreg::CtaidX: return cta.ctaid()[0];
    case Sreg::CtaidY: return cta.ctaid()[1];
    case Sreg::CtaidZ: return cta.ctaid()[2];
    case Sreg::NctaidX: return g.grid[0];
    case Sreg::NctaidY: return g.grid[1];
    case Sreg::NctaidZ: return g.grid[2];
    case Sreg::Laneid: return lane;
    case Sreg::Warpid: return t / ws;
    case Sreg::Nwarpid: return (cta.threads() + ws - 1) / ws;  // warps of this CTA
    case Sreg::Smid: return cta.sm_id;
    case Sreg::Nsmid: return 1;
    case Sreg::Gridid: return 0;  // refused by executor_supports; never reached
    case Sreg::LanemaskEq: return uint64_t{1} << lane;
    case Sreg::LanemaskLe: return (uint64_t{2} << lane) - 1;
    case Sreg::LanemaskLt: return (uint64_t{1} << lane) - 1;
    case Sreg::LanemaskGe: return ~((uint64_t{1} << lane) - 1) & 0xffffffffu;
    case Sreg::LanemaskGt: return ~((uint64_t{2} << lane) - 1) & 0xffffffffu;
    case Sreg::Clock: return cta.clock & 0xffffffffu;
    case Sreg::ClockHi: return cta.clock >> 32;
    case Sreg::Clock64: return cta.clock;
    // The model has no wall clock: the global timer counts the nanoseconds
    // of simulated time at the SM's clock (sm.clock_mhz).
    case Sreg::Globaltimer: return cta.globaltimer_ns();
    case Sreg::GlobaltimerLo: return cta.globaltimer_ns() & 0xffffffffu;
    case Sreg::GlobaltimerHi: return cta.globaltimer_ns() >> 32;
    case Sreg::DynamicSmemSize: return g.dynamic_shared_bytes;
    case Sreg::TotalSmemSize: return cta.shared().size();
    case Sreg::WarpSz: return 32;
    // The driver's environment registers: only the cooperative launch's
    // grid-sync workspace (envreg1:envreg2) is defined; the rest read 0.
    case Sreg::Envreg1: return g.grid_workspace >> 32;
    case Sreg::Envreg2: return g.grid_workspace & 0xffffffffu;
    default: break;  // %envreg0, %envreg3 .. %envreg31
  }
  return 0;
}

void ExecContext::fail(uint32_t t, const std::string& msg, FaultKind kind) {
  if (failed()) return;  // the first fault is the one reported
  out.control = Control::Fault;
  out.fault.message = msg;
  out.fault.kind = kind;
  out.fault.tid = t;
  out.fault.addr = 0;
  out.fault.has_addr = false;
}

void ExecContext::fail_at(uint32_t t, uint64_t addr, const std::string& msg, FaultKind kind) {
  if (failed()) return;
  fail(t, msg, kind);
  out.fault.addr = addr;
  out.fault.has_addr = true;
}

}  // namespace simt::func
