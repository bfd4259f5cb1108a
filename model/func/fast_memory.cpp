// Fast kernels for scalar ld/st in one known space (see fast_path.h), used
// when the caller wants no access list (the functional runner). Pass 1
// computes every thread's address and checks alignment and bounds with one
// flag for the whole set; any problem, and the general handler in
// exec_memory.cpp runs instead, from scratch, and reports the fault exactly.
// Pass 2 commits in ascending thread order, as the general handler does.
#include <algorithm>
#include <cstring>
#include <utility>

#include "func/address_space.h"
#include "func/executor.h"
#include "func/exec_context.h"
#include "func/fast_path.h"
#include "util/lane_clones.h"

namespace simt::func {

using ptx::Operand;
using ptx::Space;
using ptx::Type;

namespace {

// Bytes a window space holds, for the bounds check.
template <Space S>
uint64_t window_limit(const CtaState& cta) {
  if constexpr (S == Space::Shared) return cta.shared().size();
  if constexpr (S == Space::Local) return cta.local_bytes();
  return cta.params().size();
}

// Host address of a CTA-wide window (shared, param; local is per thread).
template <Space S>
uint8_t* window_base(CtaState& cta) {
  if constexpr (S == Space::Shared) return cta.shared().data();
  return const_cast<uint8_t*>(cta.params().data());
}

// Whether a T at window address `a` (below 2^32) is aligned and inside the window.
template <Space S, class T>
bool window_fits(const CtaState& cta, uint64_t a) {
  return (a & (sizeof(T) - 1)) == 0 && a + sizeof(T) <= window_limit<S>(cta);
}

constexpr bool is_global(Space s) { return s == Space::Global || s == Space::Const; }

// The lowest and highest address of a global access set (lo > hi: none).
struct Span {
  uint64_t lo = ~uint64_t{0}, hi = 0;
};

// Pass 1: every thread's address into addr[t]; false if any would fault.
// Global: one bounds check for the whole set when one allocation holds it
// (the common case), else one per thread.
template <Space S, class T>
SIMT_LANE_LOOP bool addresses(const FastInstr& f, CtaState& cta, const ExecEnv& env, const ThreadMask& m,
                              uint64_t* addr, Span& span) {
  const uint64_t* base = f.src[0].reg != ptx::kNoReg ? std::as_const(cta).reg_row(f.src[0].reg) : nullptr;
  const uint64_t off = f.src[0].imm;
  uint64_t bad = 0;
  if constexpr (is_global(S)) {
    const GlobalMemory* g = env.global;
    if (!g) return false;
    uint64_t lo = ~uint64_t{0}, hi = 0;
    for_each_thread(m, cta.threads(), [&](uint32_t t) {
      const uint64_t a = (base ? base[t] : 0) + off;
      addr[t] = a;
      bad |= a;
      lo = std::min(lo, a);
      hi = std::max(hi, a);
    });
    if (bad & (sizeof(T) - 1)) return false;  // misaligned
    span = {lo, hi};
    if (lo > hi || (hi + sizeof(T) > hi && g->within_one_range(lo, hi + sizeof(T) - lo))) return true;
    bad = 0;
    for_each_thread(m, cta.threads(), [&](uint32_t t) { bad |= g->mapped(addr[t], sizeof(T)) ? 0 : 1; });
  } else {
    // Window addresses are 32 bits (see exec_memory.cpp).
    if (!base) {
      const uint64_t a = off & (kWindowSize - 1);
      for_each_thread(m, cta.threads(), [&](uint32_t t) { addr[t] = a; });
      return window_fits<S, T>(cta, a);
    }
    // window_fits() for every thread at once: an access fits when
    // a <= limit - size, where `last - a` stays >= 0; it is negative (bit 63
    // set, as a and last are below 2^32) for every a that does not fit, also
    // when the window is smaller than one access (last wraps). Sums and ORs
    // only, so a run of threads is one vector loop.
    const uint64_t last = window_limit<S>(cta) - sizeof(T);
    uint64_t over = 0;
    for_each_thread(m, cta.threads(), [&](uint32_t t) {
      const uint64_t a = (base[t] + off) & (kWindowSize - 1);
      addr[t] = a;
      bad |= a;
      over |= last - a;
    });
    return ((bad & (sizeof(T) - 1)) | (over >> 63)) == 0;
  }
  return bad == 0;
}

// The direct pointer of the one page a global access set lies in, or null
// (several pages, or a page the storage serves by read()/write()). Aligned
// accesses never cross a page, so the page of hi holds hi's last byte.
inline uint8_t* one_page(const GlobalMemory& g, const Span& s) {
  constexpr uint64_t bits = GlobalMemory::kPageBits;
  if (s.lo > s.hi || (s.lo >> bits) != (s.hi >> bits)) return nullptr;
  return g.direct(s.lo & ~(GlobalMemory::kPageSize - 1));
}

// Whether w.apply(v) == v for every value v a T holds: the register is of
// the load's width (a signed type's extension is masked off again) or wider
// and the type unsigned. Most loads are so, and their loop then stores what
// it loads.
template <class T>
bool keeps_value(const RegWrite& w) {
  constexpr uint64_t all = T(~T{0});
  if (w.to_pred || (w.low & all) != all) return false;
  return w.sign == 0 ? (w.mask & all) == all : w.mask == all;
}

// d[t] = w.apply(load(t)) for each thread t of m.
template <class T, class L>
void write_loaded(uint64_t* d, const ThreadMask& m, uint32_t nthreads, const RegWrite& w, L&& load) {
  if (keeps_value<T>(w)) {
    for_each_thread(m, nthreads, [&](uint32_t t) { d[t] = load(t); });
  } else {
    for_each_thread(m, nthreads, [&](uint32_t t) { d[t] = w.apply(load(t)); });
  }
}

template <Space S, class T>
SIMT_LANE_LOOP bool k_load(const FastInstr& f, CtaState& cta, const ExecEnv& env, const ThreadMask& m) {
  if constexpr (S == Space::Shared || S == Space::Param) {
    if (f.src[0].reg == ptx::kNoReg) {
      // One address for every thread (a kernel parameter, a shared
      // variable by name): one check, one read, the value to all.
      const uint64_t a = f.src[0].imm & (kWindowSize - 1);
      if (!window_fits<S, T>(cta, a)) return false;
      T v;
      std::memcpy(&v, window_base<S>(cta) + a, sizeof(T));
      const uint64_t x = f.w.apply(v);
      write_threads(cta.reg_row(f.dst), m, cta.threads(), [x](uint32_t) { return x; });
      return true;
    }
  }
  uint64_t addr[kMaxCtaThreads];
  Span span;
  if (!addresses<S, T>(f, cta, env, m, addr, span)) return false;
  uint64_t* d = cta.reg_row(f.dst);
  const RegWrite w = f.w;
  if constexpr (is_global(S)) {
    uint32_t direct = 0;  // tallied here, in a register (see GlobalMemory::direct)
    if (const uint8_t* page = one_page(*env.global, span)) {
      write_loaded<T>(d, m, cta.threads(), w, [&](uint32_t t) {
        T v;
        std::memcpy(&v, page + (addr[t] & (GlobalMemory::kPageSize - 1)), sizeof(T));
        ++direct;
        return v;
      });
    } else {
      for_each_thread(m, cta.threads(), [&](uint32_t t) {
        T v;
        if (const uint8_t* p = env.global->direct(addr[t])) {
          std::memcpy(&v, p, sizeof(T));
          ++direct;
        } else {
          env.global->read(addr[t], &v, sizeof(T));
        }
        d[t] = w.apply(v);
      });
    }
    env.global->count_direct(direct);
  } else if constexpr (S == Space::Local) {
    write_loaded<T>(d, m, cta.threads(), w, [&](uint32_t t) {
      T v;
      std::memcpy(&v, cta.local(t) + addr[t], sizeof(T));  // little-endian host
      return v;
    });
  } else {
    const uint8_t* const win = window_base<S>(cta);  // read once: d's stores cannot move it
    write_loaded<T>(d, m, cta.threads(), w, [&](uint32_t t) {
      T v;
      std::memcpy(&v, win + addr[t], sizeof(T));
      return v;
    });
  }
  return true;
}

template <Space S, class T>
SIMT_LANE_LOOP bool k_store(const FastInstr& f, CtaState& cta, const ExecEnv& env, const ThreadMask& m) {
  uint64_t addr[kMaxCtaThreads];
  Span span;
  if (!addresses<S, T>(f, cta, env, m, addr, span)) return false;
  const FastOperand& val = f.src[1];
  const uint64_t* row = val.reg != ptx::kNoReg ? std::as_const(cta).reg_row(val.reg) : nullptr;
  auto value = [&](uint32_t t) { return static_cast<T>(row ? row[t] & val.mask : val.imm); };
  if constexpr (is_global(S)) {
    uint32_t direct = 0;
    if (uint8_t* page = one_page(*env.global, span)) {
      for_each_thread(m, cta.threads(), [&](uint32_t t) {
        const T v = value(t);
        std::memcpy(page + (addr[t] & (GlobalMemory::kPageSize - 1)), &v, sizeof(T));
        ++direct;
      });
    } else {
      for_each_thread(m, cta.threads(), [&](uint32_t t) {
        const T v = value(t);
        if (uint8_t* p = env.global->direct(addr[t])) {
          std::memcpy(p, &v, sizeof(T));
          ++direct;
        } else {
          env.global->write(addr[t], &v, sizeof(T));
        }
      });
    }
    env.global->count_direct(direct);
  } else if constexpr (S == Space::Local) {
    for_each_thread(m, cta.threads(), [&](uint32_t t) {
      const T v = value(t);
      std::memcpy(cta.local(t) + addr[t], &v, sizeof(T));
    });
  } else {
    uint8_t* const win = window_base<S>(cta);
    for_each_thread(m, cta.threads(), [&](uint32_t t) {
      const T v = value(t);
      std::memcpy(win + addr[t], &v, sizeof(T));
    });
  }
  return true;
}

template <Space S>
FastMemKernel pick(bool load, uint32_t bytes) {
  switch (bytes) {
    case 1: return load ? k_load<S, uint8_t> : k_store<S, uint8_t>;
    case 2: return load ? k_load<S, uint16_t> : k_store<S, uint16_t>;
    case 4: return load ? k_load<S, uint32_t> : k_store<S, uint32_t>;
    default: return load ? k_load<S, uint64_t> : k_store<S, uint64_t>;
  }
}

}  // namespace

bool decode_fast_memory(const ptx::Program& prog, const ptx::Instr& in, FastInstr& f) {
  const bool load = in.op == ptx::Op::Ld || in.op == ptx::Op::Ldu;
  if (!load && in.op != ptx::Op::St) return false;
  const Type ty = in.type;
  const uint32_t bytes = ptx::type_bytes(ty);
  if (in.vec != 1 || in.nops < 2 || bytes == 0 || bytes > 8 || ty == Type::Pred) return false;
  // Address: [reg+imm], [imm] or a register.
  const Operand& a = in.ops[load ? 1 : 0];
  if (a.kind == Operand::Kind::Addr) {
    f.src[0].reg = a.reg;
    f.src[0].imm = static_cast<uint64_t>(a.imm);
  } else if (a.kind == Operand::Kind::Reg && a.reg != ptx::kNoReg) {
    f.src[0].reg = a.reg;
  } else {
    return false;
  }
  if (load) {
    const Operand& d = in.ops[0];
    if (d.kind != Operand::Kind::Reg || d.reg == ptx::kNoReg) return false;
    f.dst = d.reg;
    f.w = RegWrite::of(prog.regs[d.reg].type, ty);
  } else {
    // The value as src() reads it: a register through the type's width, or a constant.
    const Operand& v = in.ops[1];
    if (v.kind == Operand::Kind::Reg && v.reg != ptx::kNoReg) {
      f.src[1].reg = v.reg;
      f.src[1].mask = ExecContext::width_mask(ty);
    } else if (v.kind == Operand::Kind::Imm) {
      f.src[1].imm = imm_bits(v, ty);
    } else {
      return false;
    }
  }
  switch (in.space) {
    case Space::Global: f.mem = pick<Space::Global>(load, bytes); break;
    case Space::Shared: f.mem = pick<Space::Shared>(load, bytes); break;
    case Space::Local: f.mem = pick<Space::Local>(load, bytes); break;
    case Space::Const: if (load) f.mem = pick<Space::Const>(load, bytes); break;
    case Space::Param: if (load) f.mem = pick<Space::Param>(load, bytes); break;
    default: break;  // generic: resolved per thread by the general handler
  }
  return f.mem != nullptr;
}

}  // namespace simt::func
