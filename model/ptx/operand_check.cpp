#include "ptx/operand_check.h"

#include <array>

#include "ptx/mma_shape.h"

namespace simt::ptx {
namespace {

// What one operand position takes.
enum class Slot : uint8_t {
  Dst,     // a register of `type` (or the `_` sink); a {..} vector where the form allows
  Src,     // a register, immediate or special register of `type`
  Addr,    // [reg+off] / [sym+off] / [imm]
  Pred,    // a predicate register (optionally negated) or an integer immediate
  U32,     // a 32-bit integer value: lane/shift/bit-position/barrier/mask operands
  Label,   // a branch target
  Any,     // anything but an address (operands the executor checks itself)
};

struct OperandSpec {
  Slot slot = Slot::Any;
  Type type = Type::None;  // Dst/Src: the operand's type; None = no type check
};

struct Form {
  int min = 0, max = 0;
  std::array<OperandSpec, kMaxOperands> ops{};
  bool relaxed = false;      // ld/st/cvt: registers may be wider than the type
  bool vectors = false;      // {..} allowed in Dst/Src positions (ld/st/mov)
  bool symbols = false;      // a variable or function name may be a Src (mov, cvta: its address)
  bool pout = false;         // `d|p` allowed
  bool skip = false;         // not checked here
};

Form make(std::initializer_list<OperandSpec> specs, int optional = 0) {
  Form f;
  int i = 0;
  for (const OperandSpec& s : specs) f.ops[static_cast<size_t>(i++)] = s;
  f.max = i;
  f.min = i - optional;
  return f;
}

OperandSpec D(Type t) { return {Slot::Dst, t}; }
OperandSpec S(Type t) { return {Slot::Src, t}; }
constexpr OperandSpec A{Slot::Addr, Type::None};
constexpr OperandSpec P{Slot::Pred, Type::Pred};
constexpr OperandSpec U{Slot::U32, Type::None};
constexpr OperandSpec L{Slot::Label, Type::None};
constexpr OperandSpec X{Slot::Any, Type::None};

// The same kind of integer/bit type, twice as wide (mul.wide, mad.wide).
Type wide(Type t) {
  switch (t) {
    case Type::U16: return Type::U32;
    case Type::S16: return Type::S32;
    case Type::U32: return Type::U64;
    case Type::S32: return Type::S64;
    case Type::B16: return Type::B32;
    case Type::B32: return Type::B64;
    default: return t;
  }
}

Form form_of(const Instr& in) {
  const Type t = in.type;
  const bool wide_dst = (in.flags & kWide) != 0;
  switch (in.op) {
    case Op::Add: case Op::Sub: case Op::Min: case Op::Max: case Op::Div: case Op::Rem:
    case Op::And: case Op::Or: case Op::Xor: case Op::Copysign: case Op::Addc: case Op::Subc:
    case Op::Mul24:
      return make({D(t), S(t), S(t)});
    case Op::Mul:
      return make({D(wide_dst ? wide(t) : t), S(t), S(t)});
    case Op::Mad: case Op::Madc:
      return make({D(wide_dst ? wide(t) : t), S(t), S(t), S(wide_dst ? wide(t) : t)});
    case Op::Fma: case Op::Mad24: case Op::Sad:
      return make({D(t), S(t), S(t), S(t)});
    case Op::Abs: case Op::Neg: case Op::Not: case Op::Cnot: case Op::Rcp: case Op::Sqrt:
    case Op::Rsqrt: case Op::Ex2: case Op::Lg2: case Op::Sin: case Op::Cos: case Op::Tanh:
    case Op::Brev:
      return make({D(t), S(t)});
    case Op::Popc: case Op::Clz: case Op::Bfind:
      return make({D(Type::U32), S(t)});
    case Op::Bfe: return make({D(t), S(t), U, U});
    case Op::Bfi: return make({D(t), S(t), S(t), U, U});
    case Op::Bmsk: return make({D(t), U, U});
    case Op::Szext: return make({D(t), S(t), U});
    case Op::Prmt: return make({D(t), S(t), S(t), S(t)});
    case Op::Shf: return make({D(t), S(t), S(t), U});
    case Op::Shl: case Op::Shr: return make({D(t), S(t), U});
    case Op::Lop3: return make({D(t), S(t), S(t), S(t), U});
    case Op::Fns: return make({X, X, X, X});
    case Op::Dp4a: case Op::Dp2a: return make({X, X, X, X});
    case Op::Setp: {
      Form f = in.bop != BoolOp::None ? make({D(Type::Pred), S(t), S(t), P}) : make({D(Type::Pred), S(t), S(t)});
      f.pout = true;
      return f;
    }
    case Op::Set:
      return in.bop != BoolOp::None ? make({D(in.type2), S(t), S(t), P}) : make({D(in.type2), S(t), S(t)});
    case Op::Selp: return make({D(t), S(t), S(t), P});
    case Op::Slct: return make({D(t), S(t), S(t), S(in.type2)});
    case Op::Testp: return make({D(Type::Pred), S(t)});
    case Op::Cvt: {
      // cvt.rn.f16x2.f32 d, a, b packs two sources.
      Form f = (t == Type::F16x2 || t == Type::BF16x2) && type_bytes(in.type2) == 4
                   ? make({D(t), S(in.type2), S(in.type2)}, 1)
                   : make({D(t), S(in.type2)});
      f.relaxed = true;
      return f;
    }
    case Op::Cvta: {
      Form f = make({D(Type::None), S(Type::None)});
      f.symbols = true;
      return f;
    }
    case Op::Isspacep: {
      Form f = make({D(Type::Pred), S(Type::None)});
      f.symbols = true;
      return f;
    }
    case Op::Mov: {
      Form f = make({D(t), S(t)});
      f.vectors = true;
      f.symbols = true;
      return f;
    }
    case Op::Ld: case Op::Ldu: {
      Form f = make({D(t), A});
      f.relaxed = f.vectors = true;
      return f;
    }
    case Op::St: {
      Form f = make({A, S(t)});
      f.relaxed = f.vectors = true;
      return f;
    }
    case Op::Atom:
      return static_cast<AtomOp>(in.mode) == AtomOp::Cas ? make({D(t), A, S(t), S(t)}) : make({D(t), A, S(t)});
    case Op::Red: return make({A, S(t)});
    case Op::Prefetch: case Op::Prefetchu: return make({A});
    case Op::Bar: case Op::Barrier:
      if (in.flags & kRedBar) {  // bar.red.op d, a{, b}, {!}c: the predicate is always last
        const OperandSpec d = D(in.bop == BoolOp::Popc ? Type::U32 : Type::Pred);
        return in.nops > 3 ? make({d, U, U, P}) : make({d, U, P});
      }
      if (in.flags & kArrive) return make({U, U});
      return make({U, U}, 1);
    case Op::BarWarp: return make({U});
    case Op::Membar: case Op::Fence: case Op::Ret: case Op::Exit: case Op::Trap: case Op::Brkpt:
      return make({});
    case Op::Vote:
      return make({D(static_cast<VoteMode>(in.mode) == VoteMode::Ballot ? Type::B32 : Type::Pred), P, U}, 1);
    case Op::Shfl: {
      Form f = make({D(Type::B32), S(Type::B32), U, U, U}, 1);
      f.pout = true;
      return f;
    }
    case Op::Activemask: return make({D(Type::B32)});
    case Op::Match: {
      Form f = make({D(Type::B32), S(t), U});
      f.pout = static_cast<MatchMode>(in.mode) == MatchMode::All;
      return f;
    }
    case Op::Redux: return make({D(t), S(t), U});
    case Op::Wmma: case Op::Mma: case Op::Ldmatrix: {
      // Fragments are checked by check_fragments (counts and register widths).
      Form f;
      const auto kind = static_cast<WmmaKind>(in.mode);
      if (in.op == Op::Ldmatrix) f = make({X, A});
      else if (in.op == Op::Mma || kind == WmmaKind::Mma) f = make({X, X, X, X});
      else if (kind == WmmaKind::StoreD) f = make({A, X, U}, 1);
      else f = make({X, A, U}, 1);
      f.vectors = true;
      return f;
    }
    case Op::Cp:  // [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}; wait_group N
      switch (static_cast<CpAsyncKind>(in.mode)) {
        case CpAsyncKind::Copy: return make({A, A, U, X, X}, 2);
        case CpAsyncKind::WaitGroup: return make({U});
        default: return make({});
      }
    case Op::Bra: return make({L});
    case Op::Brx: return make({X, L});
    case Op::Nanosleep: return make({U});
    case Op::Pmevent: return make({X});
    default: {
      Form f;
      f.skip = true;  // call (its own syntax), texture and surface instructions
      return f;
    }
  }
}

bool is_bits(Type t) {
  return t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64 || t == Type::B128;
}
bool is_int(Type t) {  // u/s, not b
  return !is_bits(t) && !type_is_float(t) && t != Type::Pred && t != Type::None;
}

// Why register type `have` cannot stand for `want` ("" when it can).
std::string reg_mismatch(Type want, Type have, bool relaxed) {
  if (want == Type::None) return "";
  if (want == Type::Pred || have == Type::Pred)
    return want == have ? "" : want == Type::Pred ? "a predicate register is required" : "a predicate register cannot be used here";
  const uint32_t w = type_bytes(want), h = type_bytes(have);
  if (h < w) return "the register is narrower than the instruction type";
  if (h > w) {
    // ld/st/cvt only; a float type takes a wider register only if it is a .b register.
    if (!relaxed) return "the register size does not match the instruction type";
    if (type_is_float(want) && !is_bits(have)) return "a wider float register cannot hold this float type";
    if (type_is_float(have)) return "the register size does not match the instruction type";
    return "";
  }
  // Same size: .b registers fit anything; u/s interchange; floats need float or .b.
  if (relaxed || is_bits(have) || is_bits(want)) return "";
  if (type_is_float(want) != type_is_float(have)) return "an integer and a float type do not mix";
  return "";
}

std::string kind_name(const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::Addr: return "an address operand";
    case Operand::Kind::Vec: return "a vector operand";
    case Operand::Kind::Label: return "a label";
    case Operand::Kind::Sym: return "a symbol";
    case Operand::Kind::Imm: return "an immediate";
    case Operand::Kind::Sreg: return "a special register";
    default: return "this operand";
  }
}

// Warp matrix fragments: a {..} of exactly the fragment's registers, each
// 32 bits wide (64 for .f64); only a destination may hold `_`.
std::string check_fragments(const Instr& in, const std::vector<RegInfo>& regs, int& index) {
  std::string why = mma_unsupported(in);
  if (!why.empty()) {
    index = -1;
    return why;
  }
  struct Frag { int op; char which; Type type; bool dst; };
  Frag frags[4];
  int n = 0;
  const auto kind = static_cast<WmmaKind>(in.mode);
  const MmaShape s = mma_shape(in.aux);
  if (in.op == Op::Ldmatrix) {
    frags[n++] = {0, 'x', Type::B32, true};
  } else if (in.op == Op::Mma || kind == WmmaKind::Mma) {
    frags[n++] = {0, 'c', in.type, true};
    frags[n++] = {1, 'a', in.type3, false};
    frags[n++] = {2, 'b', in.type3, false};
    frags[n++] = {3, 'c', in.type2, false};
  } else {
    const char which = kind == WmmaKind::LoadA ? 'a' : kind == WmmaKind::LoadB ? 'b' : 'c';
    frags[n++] = {kind == WmmaKind::StoreD ? 1 : 0, which, in.type, kind != WmmaKind::StoreD};
  }
  for (int i = 0; i < n; ++i) {
    const Frag& f = frags[i];
    const Operand& o = in.ops[static_cast<size_t>(f.op)];
    index = f.op;
    const uint32_t want = in.op == Op::Ldmatrix ? in.vec : mma_frag_regs(in.op, s, f.which, f.type);
    const std::string pos = "operand " + std::to_string(f.op + 1);
    if (o.kind != Operand::Kind::Vec || o.vec_n != want)
      return pos + ": expected a fragment {..} of " + std::to_string(want) + " registers";
    const uint32_t bytes = f.type == Type::F64 ? 8 : 4;
    for (int k = 0; k < o.vec_n; ++k) {
      const uint32_t r = o.vec[static_cast<size_t>(k)];
      if (r == kNoReg) {
        if (!f.dst) return pos + ": '_' in a source fragment";
        continue;
      }
      const Type t = r < regs.size() ? regs[r].type : Type::None;
      if (t == Type::Pred || type_bytes(t) != bytes)
        return pos + ": fragment registers must be " + std::to_string(bytes * 8) + "-bit, " +
               (r < regs.size() ? regs[r].name : std::string("a register")) + " is ." + type_name(t);
    }
  }
  return "";
}

}  // namespace

bool check_operands(const Instr& in, const std::vector<RegInfo>& regs, const std::string& mn, OperandError& err) {
  const Form f = form_of(in);
  auto bad = [&](int index, const std::string& msg) {
    err.index = index;
    err.message = "'" + mn + "': " + msg;
    return false;
  };
  auto reg_type = [&](uint32_t r) { return r < regs.size() ? regs[r].type : Type::None; };
  auto reg_name = [&](uint32_t r) { return r < regs.size() ? regs[r].name : std::string("register"); };
  if (in.guard.kind == Operand::Kind::Reg && in.guard.reg != kNoReg && reg_type(in.guard.reg) != Type::Pred)
    return bad(-3, "the guard " + reg_name(in.guard.reg) + " is not a predicate register");
  if (f.skip) return true;
  if (in.pout.kind != Operand::Kind::None) {
    if (!f.pout) return bad(-2, "this instruction has no second destination '|p'");
    if (in.pout.reg != kNoReg && reg_type(in.pout.reg) != Type::Pred)
      return bad(-2, "the second destination " + reg_name(in.pout.reg) + " is not a predicate register");
  }
  if (in.nops > f.max)
    return bad(f.max, "extra operand (expects " + std::to_string(f.max) + (f.max == 1 ? " operand)" : " operands)"));
  if (in.nops < f.min)
    return bad(-1, "expects " + (f.min == f.max ? std::to_string(f.min) : "at least " + std::to_string(f.min)) +
                       (f.min == 1 ? " operand" : " operands") + ", found " + std::to_string(in.nops));
  for (int i = 0; i < in.nops; ++i) {
    const Operand& o = in.ops[static_cast<size_t>(i)];
    const OperandSpec& s = f.ops[static_cast<size_t>(i)];
    const std::string pos = "operand " + std::to_string(i + 1);
    auto check_reg = [&](uint32_t r, Type want) -> bool {
      if (r == kNoReg || reg_name(r) == kZeroRegName) return true;  // a `0` vector element fits any width
      const std::string why = reg_mismatch(want, reg_type(r), f.relaxed);
      if (why.empty()) return true;
      return bad(i, pos + ": " + reg_name(r) + " is ." + type_name(reg_type(r)) + " but the operand is ." +
                        type_name(want) + ": " + why);
    };
    if (o.kind == Operand::Kind::Addr && s.slot != Slot::Addr)
      return bad(i, pos + ": an address operand [..] where a value is expected");
    switch (s.slot) {
      case Slot::Addr:
        if (o.kind != Operand::Kind::Addr) return bad(i, pos + ": expected an address [..], found " + kind_name(o));
        break;
      case Slot::Label:
        if (o.kind != Operand::Kind::Label) return bad(i, pos + ": expected a label, found " + kind_name(o));
        break;
      case Slot::Dst:
        if (o.kind == Operand::Kind::Vec) {
          if (!f.vectors) return bad(i, pos + ": a vector operand is not allowed here");
          if (in.op != Op::Mov)
            for (int k = 0; k < o.vec_n; ++k)
              if (!check_reg(o.vec[static_cast<size_t>(k)], s.type)) return false;
          break;
        }
        if (o.kind != Operand::Kind::Reg) return bad(i, pos + ": the destination must be a register, found " + kind_name(o));
        if (o.neg) return bad(i, pos + ": a destination cannot be negated");
        if (in.op == Op::Mov && in.ops[1].kind == Operand::Kind::Vec) break;  // pack: sizes vary by form
        if (!check_reg(o.reg, s.type)) return false;
        break;
      case Slot::Src:
        switch (o.kind) {
          case Operand::Kind::Reg:
            if (in.op == Op::Mov && in.ops[0].kind == Operand::Kind::Vec) break;  // unpack
            if (!check_reg(o.reg, s.type)) return false;
            break;
          case Operand::Kind::Imm:
            // mov copies bits: `mov.u32 %r, 0f3F800000` is the float's bit pattern.
            if (o.imm_kind != ImmKind::Int && in.op != Op::Mov && (is_int(s.type) || s.type == Type::Pred))
              return bad(i, pos + ": a floating-point immediate for an integer operand (." + type_name(s.type) + ")");
            break;
          case Operand::Kind::Sreg:
            break;
          case Operand::Kind::Vec:
            if (!f.vectors) return bad(i, pos + ": a vector operand is not allowed here");
            if (in.op != Op::Mov)
              for (int k = 0; k < o.vec_n; ++k)
                if (!check_reg(o.vec[static_cast<size_t>(k)], s.type)) return false;
            break;
          case Operand::Kind::Sym:
            if (!f.symbols) return bad(i, pos + ": a symbol where a value is expected");
            break;
          default:
            return bad(i, pos + ": expected a value, found " + kind_name(o));
        }
        break;
      case Slot::Pred:
        if (o.kind == Operand::Kind::Reg) {
          if (!check_reg(o.reg, Type::Pred)) return false;
        } else if (!(o.kind == Operand::Kind::Imm && o.imm_kind == ImmKind::Int)) {
          return bad(i, pos + ": expected a predicate, found " + kind_name(o));
        }
        break;
      case Slot::U32:
        if (o.kind == Operand::Kind::Reg) {
          if (o.reg != kNoReg && (reg_type(o.reg) == Type::Pred || type_bytes(reg_type(o.reg)) != 4))
            return bad(i, pos + ": " + reg_name(o.reg) + " is ." + type_name(reg_type(o.reg)) +
                              " but the operand is a 32-bit integer");
        } else if (o.kind == Operand::Kind::Imm) {
          if (o.imm_kind != ImmKind::Int) return bad(i, pos + ": a floating-point immediate for an integer operand (.u32)");
        } else if (o.kind != Operand::Kind::Sreg) {
          return bad(i, pos + ": expected a 32-bit integer, found " + kind_name(o));
        }
        break;
      case Slot::Any:
        break;
    }
  }
  if (is_mma_op(in.op)) {
    int index = -1;
    const std::string why = check_fragments(in, regs, index);
    if (!why.empty()) return bad(index, why);
  }
  return true;
}

}  // namespace simt::ptx
