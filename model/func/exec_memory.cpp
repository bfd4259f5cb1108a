// Memory instructions: ld/ldu/st (scalar and .v2/.v4), atom/red, cvta,
// isspacep and the ordering/prefetch no-ops.
//
// Every access goes through two passes: the first resolves and checks each
// thread's address (space bounds, mapping, alignment) and records it (and,
// when ExecEnv::record_accesses asks, in out.accesses); the second commits.
// A fault therefore leaves the whole instruction uncommitted, not only the
// faulting thread's part.
#include <cstring>
#include <type_traits>

#include "func/address_space.h"
#include "func/exec_context.h"
#include "func/mem_access.h"
#include "func/reg_write.h"

namespace simt::func {

using ptx::Operand;
using ptx::Space;
using ptx::Type;

namespace {

enum class Kind : uint8_t { Load, Store, Atomic };

const char* verb(Kind k) {
  switch (k) {
    case Kind::Load: return "load from";
    case Kind::Store: return "store to";
    case Kind::Atomic: return "atomic on";
  }
  return "";
}

template <Space S>
using SpaceTag = std::integral_constant<Space, S>;

// Calls body(SpaceTag<S>) with the instruction's space fixed at compile time,
// so per-thread loops carry no space switch. No space means generic addressing.
template <class Body>
void with_space(Space s, Body&& body) {
  switch (s) {
    case Space::Global: body(SpaceTag<Space::Global>{}); break;
    case Space::Const: body(SpaceTag<Space::Const>{}); break;
    case Space::Shared: body(SpaceTag<Space::Shared>{}); break;
    case Space::Local: body(SpaceTag<Space::Local>{}); break;
    case Space::Param: body(SpaceTag<Space::Param>{}); break;
    default: body(SpaceTag<Space::Generic>{}); break;
  }
}

// The faults resolve() reports, out of line so the per-thread checks stay small.
[[gnu::noinline, gnu::cold]] bool fail_global(ExecContext& c, uint32_t t, uint64_t a, Space s, Kind k, bool unmapped) {
  if (unmapped)
    c.fail_at(t, a, std::string(verb(k)) + " unmapped " + (s == Space::Const ? "const" : "global") + " address");
  else
    c.fail_at(t, a, std::string(verb(k)) + " constant memory (read-only)");
  return false;
}
[[gnu::noinline, gnu::cold]] bool fail_window(ExecContext& c, uint32_t t, uint64_t a, Space s, Kind k,
                                              uint64_t limit, bool out_of_range) {
  if (out_of_range)
    c.fail_at(t, a, std::string(verb(k)) + " " + ptx::space_name(s) + " address out of range (size " +
                        std::to_string(limit) + ")");
  else
    c.fail_at(t, a, std::string(verb(k)) + " kernel parameter memory (read-only)");
  return false;
}
[[gnu::noinline, gnu::cold]] void fail_misaligned(ExecContext& c, uint32_t t, uint64_t a, Kind k, uint32_t bytes) {
  c.fail_at(t, a, std::string("misaligned ") + (k == Kind::Load ? "load" : k == Kind::Store ? "store" : "atomic") +
                      " address (access of " + std::to_string(bytes) + " bytes)",
            FaultKind::Misaligned);
}

// Checks [a, a + size) in space S for thread t; on success records the
// resolved space/address in `rs`/`ra`, else reports the fault.
template <Space S>
inline bool resolve(ExecContext& c, uint32_t t, uint64_t a, uint32_t size, Kind k, Space& rs, uint64_t& ra) {
  if constexpr (S == Space::Generic) {
    if (in_window(a, kSharedWindow)) return resolve<Space::Shared>(c, t, a - kSharedWindow, size, k, rs, ra);
    if (in_window(a, kLocalWindow)) return resolve<Space::Local>(c, t, a - kLocalWindow, size, k, rs, ra);
    if (in_window(a, kParamWindow)) return resolve<Space::Param>(c, t, a - kParamWindow, size, k, rs, ra);
    return resolve<Space::Global>(c, t, a, size, k, rs, ra);
  } else {
    rs = S;
    ra = a;
    if constexpr (S == Space::Global || S == Space::Const) {
      if (!c.env.global || !c.env.global->mapped(a, size)) return fail_global(c, t, a, S, k, true);
      if (S == Space::Const && k != Kind::Load) return fail_global(c, t, a, S, k, false);
      return true;
    } else {
      uint64_t limit = 0;
      if constexpr (S == Space::Shared) limit = c.cta.shared().size();
      if constexpr (S == Space::Local) limit = c.cta.local_bytes();
      if constexpr (S == Space::Param) limit = c.cta.params().size();
      if (a > limit || size > limit - a) return fail_window(c, t, a, S, k, limit, true);
      if (S == Space::Param && k != Kind::Load) return fail_window(c, t, a, S, k, limit, false);
      return true;
    }
  }
}

void read_bytes(ExecContext& c, uint32_t t, Space s, uint64_t a, void* dst, uint32_t n) {
  switch (s) {
    case Space::Shared: std::memcpy(dst, c.cta.shared().data() + a, n); break;
    case Space::Local: std::memcpy(dst, c.cta.local(t) + a, n); break;
    case Space::Param: std::memcpy(dst, c.cta.params().data() + a, n); break;
    default: c.env.global->read(a, dst, n); break;
  }
}

void write_bytes(ExecContext& c, uint32_t t, Space s, uint64_t a, const void* src, uint32_t n) {
  switch (s) {
    case Space::Shared: std::memcpy(c.cta.shared().data() + a, src, n); break;
    case Space::Local: std::memcpy(c.cta.local(t) + a, src, n); break;
    default: c.env.global->write(a, src, n); break;  // param/const stores never pass resolve()
  }
}

uint64_t type_mask(Type ty) {
  const uint32_t b = ptx::type_bytes(ty);
  return b >= 8 ? ~uint64_t{0} : (uint64_t{1} << (b * 8)) - 1;
}

// One thread's checked access, as pass 1 leaves it for pass 2.
struct Slot {
  uint32_t tid;
  Space space;
  uint64_t addr;  // within `space`
};

// The address operand decoded once per instruction: [reg+imm], a register,
// or anything else (read per thread through ExecContext::src).
struct AddrOperand {
  const uint64_t* row = nullptr;  // base register, or null for none
  uint64_t off = 0;
  bool general = false;
  AddrOperand(ExecContext& c, int i) {
    const Operand& o = c.in.ops[static_cast<size_t>(i)];
    if (o.kind == Operand::Kind::Addr) {
      if (o.reg != ptx::kNoReg) row = c.cta.reg_row(o.reg);
      off = static_cast<uint64_t>(o.imm);
    } else if (o.kind == Operand::Kind::Reg && o.reg != ptx::kNoReg) {
      row = c.cta.reg_row(o.reg);
    } else {
      general = true;
    }
  }
  // Same value as c.src(i, t, Type::U64).
  uint64_t at(const ExecContext& c, int i, uint32_t t) const {
    if (general) return c.src(i, t, Type::U64);
    return (row ? row[t] : 0) + off;
  }
};

// Pass 1 for ld/st/atom: resolve and check every thread into `slots` (in
// thread order) and, when the caller wants them, out.accesses. Returns the
// number of slots, or -1 after a fault.
int resolve_all(ExecContext& c, int addr_op, uint32_t elem, uint32_t nelem, Kind k, Slot* slots) {
  const uint32_t bytes = elem * nelem;  // 1..32, a power of two
  const bool record = c.env.record_accesses;
  auto& acc = c.out.accesses;
  if (record) acc.reserve(size_t{c.mask.count()} * nelem);
  const AddrOperand ao(c, addr_op);
  int n = 0;
  bool ok = true;
  with_space(c.in.space, [&](auto tag) {
    constexpr Space S = decltype(tag)::value;
    c.mask.for_each([&](uint32_t t) {
      if (!ok) return;
      uint64_t a = ao.at(c, addr_op, t);
      // Shared, local and param addresses are 32 bits wide: the hardware adds
      // base and offset modulo 2^32, and nvcc relies on it (a base formed as
      // buf - 68 in a 32-bit register, then [base+72]).
      if constexpr (S == Space::Shared || S == Space::Local || S == Space::Param) a &= kWindowSize - 1;
      if ((a & (bytes - 1)) != 0) {
        fail_misaligned(c, t, a, k, bytes);
        ok = false;
        return;
      }
      Slot& s = slots[n];
      if (!resolve<S>(c, t, a, bytes, k, s.space, s.addr)) {
        ok = false;
        return;
      }
      s.tid = t;
      ++n;
      if (record)
        for (uint32_t e = 0; e < nelem; ++e)
          acc.push_back(MemAccess{t, s.space, static_cast<uint8_t>(elem), s.addr + uint64_t{e} * elem});
    });
  });
  return ok ? n : -1;
}

// Host pointer to a checked access, or null for a global page without a
// direct pointer (then read_bytes/write_bytes serve it). Aligned accesses of
// at most 32 bytes never cross a page.
inline uint8_t* host_ptr(ExecContext& c, const Slot& s) {
  switch (s.space) {
    case Space::Shared: return c.cta.shared().data() + s.addr;
    case Space::Local: return c.cta.local(s.tid) + s.addr;
    case Space::Param: return const_cast<uint8_t*>(c.cta.params().data()) + s.addr;
    default: {
      uint8_t* p = c.env.global->direct(s.addr);
      if (p) c.env.global->count_direct(1);  // the general path: one call per access anyway
      return p;
    }
  }
}

uint64_t load_elem(const uint8_t* p, uint32_t size) {
  switch (size) {
    case 1: return *p;
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

void store_elem(uint8_t* p, uint32_t size, uint64_t v) {
  switch (size) {
    case 1: *p = static_cast<uint8_t>(v); break;
    case 2: { const uint16_t x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); break; }
    case 4: { const uint32_t x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); break; }
    default: std::memcpy(p, &v, 8); break;
  }
}

// ---------------------------------------------------------------- ld / ldu / st

std::string check_ld_st(const ptx::Instr& in) {
  const uint32_t b = ptx::type_bytes(in.type);
  if (b == 0 || b > 8 || in.type == Type::Pred) return std::string("unsupported type .") + ptx::type_name(in.type);
  if (in.vec != 1 && in.vec != 2 && in.vec != 4) return "only .v2 and .v4 vectors are supported";
  if (in.space == Space::Tex) return "texture space is not supported";
  const bool st = in.op == ptx::Op::St;
  if (st && in.space == Space::Const) return "st.const is not valid PTX";
  const Operand& val = in.ops[st ? 1 : 0];
  if (in.nops < 2) return "expects two operands";
  if (in.vec > 1 && (val.kind != Operand::Kind::Vec || val.vec_n != in.vec))
    return "vector access needs a {..} operand of " + std::to_string(in.vec) + " registers";
  if (in.vec == 1 && val.kind == Operand::Kind::Vec) return "vector operand without .v2/.v4";
  return "";
}

void exec_load(ExecContext& c) {
  const Type ty = c.in.type;
  const uint32_t elem = ptx::type_bytes(ty), n = c.in.vec;
  c.out.is_load = true;
  Slot slots[kMaxCtaThreads];
  const int count = resolve_all(c, 1, elem, n, Kind::Load, slots);
  if (count < 0) return;
  // Destination registers and their write rules, once per instruction.
  const Operand& d = c.in.ops[0];
  uint64_t* rows[4] = {nullptr, nullptr, nullptr, nullptr};
  RegWrite rules[4];
  for (uint32_t e = 0; e < n; ++e) {
    uint32_t r = ptx::kNoReg;
    if (d.kind == Operand::Kind::Vec) r = d.vec[e];
    else if (d.kind == Operand::Kind::Reg) r = d.reg;
    if (r == ptx::kNoReg) continue;
    rows[e] = c.cta.reg_row(r);
    rules[e] = RegWrite::of(c.cta.program().regs[r].type, ty);
  }
  for (int i = 0; i < count; ++i) {
    const Slot& s = slots[i];
    uint8_t buf[32];
    const uint8_t* p = host_ptr(c, s);
    if (!p) {
      c.env.global->read(s.addr, buf, elem * n);
      p = buf;
    }
    for (uint32_t e = 0; e < n; ++e)
      if (rows[e]) rows[e][s.tid] = rules[e].apply(load_elem(p + e * elem, elem));  // little-endian host
  }
}

void exec_store(ExecContext& c) {
  const Type ty = c.in.type;
  const uint32_t elem = ptx::type_bytes(ty), n = c.in.vec;
  const uint64_t mask = type_mask(ty);
  c.out.is_store = true;
  Slot slots[kMaxCtaThreads];
  const int count = resolve_all(c, 0, elem, n, Kind::Store, slots);
  if (count < 0) return;
  // Source registers once per instruction (null: `_`, stores zero).
  const Operand& v = c.in.ops[1];
  const uint64_t* rows[4] = {nullptr, nullptr, nullptr, nullptr};
  const bool vec = v.kind == Operand::Kind::Vec;
  const bool plain = vec || (v.kind == Operand::Kind::Reg && v.reg != ptx::kNoReg);
  for (uint32_t e = 0; e < n && plain; ++e) {
    const uint32_t r = vec ? v.vec[e] : v.reg;
    if (r != ptx::kNoReg) rows[e] = c.cta.reg_row(r);
  }
  for (int i = 0; i < count; ++i) {
    const Slot& s = slots[i];
    uint8_t buf[32];
    uint8_t* p = host_ptr(c, s);
    uint8_t* to = p ? p : buf;
    for (uint32_t e = 0; e < n; ++e) {
      const uint64_t x = !plain ? c.src(1, s.tid, ty) : rows[e] ? rows[e][s.tid] & mask : 0;
      store_elem(to + e * elem, elem, x);
    }
    if (!p) c.env.global->write(s.addr, buf, elem * n);  // param/const stores never pass resolve()
  }
}

// ---------------------------------------------------------------- atom / red

std::string check_atom(const ptx::Instr& in) {
  using ptx::AtomOp;
  const auto op = static_cast<AtomOp>(in.mode);
  if (in.vec != 1) return "vector atomics are not supported";
  if (in.space != Space::Global && in.space != Space::Shared && in.space != Space::Generic &&
      in.space != Space::None)
    return std::string("atomics on .") + ptx::space_name(in.space) + " are not supported";
  const bool red = in.op == ptx::Op::Red;
  const int need = (red ? 2 : 3) + (op == AtomOp::Cas ? 1 : 0);
  if (in.nops < need) return "expects " + std::to_string(need) + " operands";
  if (red && op == AtomOp::Cas) return "red.cas does not exist";
  switch (in.type) {
    case Type::B32: case Type::U32: case Type::S32:
    case Type::B64: case Type::U64: case Type::S64:
      break;
    case Type::F32: case Type::F64:
      if (op != AtomOp::Add) return "floating-point atomics support only .add";
      return "";
    default:
      return std::string("atomics on .") + ptx::type_name(in.type) + " are not supported";
  }
  if ((op == AtomOp::Inc || op == AtomOp::Dec) && ptx::type_bytes(in.type) != 4)
    return "atom.inc/.dec exist only for 32-bit types";
  if (static_cast<uint8_t>(op) > static_cast<uint8_t>(AtomOp::Xor)) return "unknown atomic operation";
  return "";
}

// New memory value for one atomic update (raw bits of type `ty`).
uint64_t atom_apply(ptx::AtomOp op, Type ty, uint64_t old, uint64_t b, uint64_t cval) {
  using ptx::AtomOp;
  const bool wide = ptx::type_bytes(ty) == 8;
  const bool sgn = ptx::type_is_signed(ty);
  switch (op) {
    case AtomOp::Add:
      if (ty == Type::F32) {
        float x, y;
        const uint32_t ox = static_cast<uint32_t>(old), by = static_cast<uint32_t>(b);
        std::memcpy(&x, &ox, 4);
        std::memcpy(&y, &by, 4);
        const float s = x + y;
        uint32_t r;
        std::memcpy(&r, &s, 4);
        return r;
      }
      if (ty == Type::F64) {
        double x, y;
        std::memcpy(&x, &old, 8);
        std::memcpy(&y, &b, 8);
        const double s = x + y;
        uint64_t r;
        std::memcpy(&r, &s, 8);
        return r;
      }
      return old + b;
    case AtomOp::Min:
    case AtomOp::Max: {
      bool less;
      if (sgn)
        less = wide ? static_cast<int64_t>(b) < static_cast<int64_t>(old)
                    : static_cast<int32_t>(b) < static_cast<int32_t>(old);
      else
        less = b < old;
      return (op == AtomOp::Min) == less ? b : old;
    }
    case AtomOp::Inc: return old >= b ? 0 : old + 1;                  // u32 wrap-around counter
    case AtomOp::Dec: return (old == 0 || old > b) ? b : old - 1;
    case AtomOp::Cas: return old == b ? cval : old;
    case AtomOp::Exch: return b;
    case AtomOp::And: return old & b;
    case AtomOp::Or: return old | b;
    case AtomOp::Xor: return old ^ b;
  }
  return old;
}

void exec_atomic(ExecContext& c) {
  const bool red = c.in.op == ptx::Op::Red;
  const Type ty = c.in.type;
  const uint32_t elem = ptx::type_bytes(ty);
  const uint64_t mask = type_mask(ty);
  const auto op = static_cast<ptx::AtomOp>(c.in.mode);
  const int addr_op = red ? 0 : 1, b_op = red ? 1 : 2;
  c.out.is_atomic = true;
  Slot slots[kMaxCtaThreads];
  const int count = resolve_all(c, addr_op, elem, 1, Kind::Atomic, slots);
  if (count < 0) return;
  // Threads update one at a time in ascending order: deterministic results for
  // contended addresses (each thread sees the previous thread's result).
  for (int i = 0; i < count; ++i) {
    const Slot& m = slots[i];
    uint64_t old = 0;
    read_bytes(c, m.tid, m.space, m.addr, &old, elem);
    const uint64_t b = c.src(b_op, m.tid, ty);
    const uint64_t cv = op == ptx::AtomOp::Cas ? c.src(3, m.tid, ty) : 0;
    const uint64_t nv = atom_apply(op, ty, old, b, cv) & mask;
    write_bytes(c, m.tid, m.space, m.addr, &nv, elem);
    if (!red) c.dst(0, m.tid, ty, old);
  }
}

// ---------------------------------------------------------------- cvta / isspacep

uint64_t window_of(Space s) {
  switch (s) {
    case Space::Shared: return kSharedWindow;
    case Space::Local: return kLocalWindow;
    case Space::Param: return kParamWindow;
    default: return 0;  // global and const are generic addresses already
  }
}

std::string check_cvta(const ptx::Instr& in) {
  switch (in.space) {
    case Space::Global: case Space::Const: case Space::Shared: case Space::Local: case Space::Param: break;
    default: return std::string("cvta on space .") + ptx::space_name(in.space) + " is not supported";
  }
  if (in.type != Type::U32 && in.type != Type::U64) return "cvta needs .u32 or .u64";
  if (in.nops < 2) return "expects two operands";
  return "";
}

void exec_cvta(ExecContext& c) {
  const Type ty = c.in.type;
  const uint64_t base = window_of(c.in.space);
  const bool to_space = (c.in.flags & ptx::kToSpace) != 0;
  c.mask.for_each([&](uint32_t t) {
    const uint64_t a = c.src(1, t, Type::U64);
    // A window's offsets are 32 bits (see resolve_all): wrap them the same way
    // in both directions. Global and const addresses (base 0) stay 64-bit.
    const uint64_t wrap = base ? kWindowSize - 1 : ~uint64_t{0};
    c.dst(0, t, ty, to_space ? (a - base) & wrap : base + (a & wrap));
  });
}

std::string check_isspacep(const ptx::Instr& in) {
  switch (in.space) {
    case Space::Global: case Space::Const: case Space::Shared: case Space::Local: case Space::Param: break;
    default: return std::string("isspacep on space .") + ptx::space_name(in.space) + " is not supported";
  }
  if (in.nops < 2) return "expects two operands";
  return "";
}

void exec_isspacep(ExecContext& c) {
  const Space s = c.in.space;
  c.mask.for_each([&](uint32_t t) {
    const uint64_t a = c.src(1, t, Type::U64);
    const bool sh = in_window(a, kSharedWindow), lo = in_window(a, kLocalWindow), pa = in_window(a, kParamWindow);
    bool r;
    switch (s) {
      case Space::Shared: r = sh; break;
      case Space::Local: r = lo; break;
      case Space::Param: r = pa; break;
      default: r = !sh && !lo && !pa; break;  // const lives in global memory
    }
    c.dst(0, t, Type::Pred, r ? 1 : 0);
  });
}

// Prefetches, fences and membars change nothing the functional model can see.
void exec_nothing(ExecContext&) {}

}  // namespace

void register_memory_ops(HandlerTable& t) {
  t.add(ptx::Op::Ld, exec_load, check_ld_st);
  t.add(ptx::Op::Ldu, exec_load, check_ld_st);
  t.add(ptx::Op::St, exec_store, check_ld_st);
  t.add(ptx::Op::Atom, exec_atomic, check_atom);
  t.add(ptx::Op::Red, exec_atomic, check_atom);
  t.add(ptx::Op::Cvta, exec_cvta, check_cvta);
  t.add(ptx::Op::Isspacep, exec_isspacep, check_isspacep);
  t.add(ptx::Op::Prefetch, exec_nothing);
  t.add(ptx::Op::Prefetchu, exec_nothing);
  t.add(ptx::Op::Fence, exec_nothing);
  t.add(ptx::Op::Membar, exec_nothing);
}

// ---------------------------------------------------------------- element accesses (mem_access.h)

bool element_access(ExecContext& c, uint32_t t, Space s, uint64_t a, uint32_t size, bool store, Space& rs,
                    uint64_t& ra) {
  const Kind k = store ? Kind::Store : Kind::Load;
  bool ok = false;
  with_space(s, [&](auto tag) {
    constexpr Space S = decltype(tag)::value;
    if constexpr (S == Space::Shared || S == Space::Local || S == Space::Param) a &= kWindowSize - 1;
    if ((a & (size - 1)) != 0) {
      fail_misaligned(c, t, a, k, size);
      return;
    }
    ok = resolve<S>(c, t, a, size, k, rs, ra);
  });
  if (ok && c.env.record_accesses) c.out.accesses.push_back(MemAccess{t, rs, static_cast<uint8_t>(size), ra});
  return ok;
}

void element_read(ExecContext& c, uint32_t t, Space rs, uint64_t ra, void* dst, uint32_t n) {
  read_bytes(c, t, rs, ra, dst, n);
}

void element_write(ExecContext& c, uint32_t t, Space rs, uint64_t ra, const void* src, uint32_t n) {
  write_bytes(c, t, rs, ra, src, n);
}

}  // namespace simt::func
