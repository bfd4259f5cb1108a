// PTX intermediate representation shared by the parser, the CFG analyses, the
// functional executor and every timing model.
//
// Two levels:
//   Module  - what the parser produces from one .ptx file: module-scope
//             variables and functions with their own registers, labels and
//             symbol references still by name/index.
//   Program - one kernel entry linked with every .func it calls (see link.h):
//             one flat instruction array (PC = index), one register space,
//             every symbol reference resolved to an address in its state
//             space, every label and call resolved to a PC. This is what the
//             executor and timing models run; they never see names.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace simt::ptx {

// ---------------------------------------------------------------- types
enum class Type : uint8_t {
  None,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, F32, F64,
  Pred,
};

// Inline: these sit on the executor's per-thread paths.
constexpr uint32_t type_bytes(Type t) {  // Pred -> 1, None -> 0
  switch (t) {
    case Type::None: return 0;
    case Type::B8: case Type::U8: case Type::S8: case Type::Pred: return 1;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16: return 2;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32: case Type::F16x2: case Type::BF16x2: return 4;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 8;
    case Type::B128: return 16;
  }
  return 0;
}
constexpr bool type_is_float(Type t) {  // F16..F64
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2 ||
         t == Type::F32 || t == Type::F64;
}
constexpr bool type_is_signed(Type t) {  // S8..S64
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}
const char* type_name(Type t);     // "u32", ...

// State spaces. Generic = no space given on ld/st/atom (generic addressing).
enum class Space : uint8_t { None, Reg, Sreg, Global, Shared, Local, Const, Param, Generic, Tex };
const char* space_name(Space s);

// ---------------------------------------------------------------- opcodes
// One entry per PTX mnemonic (the part before the first '.').
#define SIMT_PTX_OPCODES(X)                                                          \
  X(Add) X(Sub) X(Mul) X(Mad) X(Mul24) X(Mad24) X(Sad) X(Div) X(Rem) X(Abs) X(Neg)   \
  X(Min) X(Max) X(Addc) X(Subc) X(Madc) X(Dp4a) X(Dp2a)                            \
  X(Popc) X(Clz) X(Bfind) X(Fns) X(Brev) X(Bfe) X(Bfi) X(Bmsk) X(Szext) X(Prmt)      \
  X(Shf) X(Shl) X(Shr) X(And) X(Or) X(Xor) X(Not) X(Cnot) X(Lop3)                  \
  X(Setp) X(Selp) X(Slct) X(Set)                                                    \
  X(Fma) X(Rcp) X(Sqrt) X(Rsqrt) X(Ex2) X(Lg2) X(Sin) X(Cos) X(Tanh) X(Testp)        \
  X(Copysign)                                                                       \
  X(Cvt) X(Cvta) X(Mov) X(Isspacep)                                                 \
  X(Ld) X(Ldu) X(St) X(Atom) X(Red) X(Prefetch) X(Prefetchu)                        \
  X(Bar) X(Barrier) X(BarWarp) X(Membar) X(Fence)                                   \
  X(Vote) X(Shfl) X(Activemask) X(Match) X(Redux)                                   \
  X(Bra) X(Brx) X(Call) X(Ret) X(Exit) X(Trap) X(Brkpt) X(Nanosleep) X(Pmevent)      \
  X(Tex) X(Tld4) X(Txq) X(Suld) X(Sust) X(Suq)                                      \
  X(Vadd) X(Vsub) X(Vabsdiff) X(Vmin) X(Vmax) X(Vshl) X(Vshr) X(Vmad) X(Vset)        \
  X(Vadd2) X(Vsub2) X(Vavrg2) X(Vabsdiff2) X(Vmin2) X(Vmax2) X(Vset2)               \
  X(Vadd4) X(Vsub4) X(Vavrg4) X(Vabsdiff4) X(Vmin4) X(Vmax4) X(Vset4)               \
  X(Wmma) X(Mma) X(Ldmatrix) X(Cp)

enum class Op : uint16_t {
#define SIMT_X(name) name,
  SIMT_PTX_OPCODES(SIMT_X)
#undef SIMT_X
  Count
};
const char* op_name(Op op);  // lower-case PTX mnemonic, e.g. "bar" for Bar ("bar.warp" for BarWarp)

// Instruction class used by schedulers, power gating and the Origami type counters.
// Tensor: warp matrix multiply-accumulate (wmma.mma, mma); its loads and
// stores (wmma.load/store, ldmatrix) are Ldst.
enum class InstrClass : uint8_t { Int, Fp, Sfu, Ldst, Branch, Barrier, Tensor };
const char* class_name(InstrClass c);

// ---------------------------------------------------------------- modifiers
enum class Rnd : uint8_t { None, Rn, Rz, Rm, Rp, Rna, Rni, Rzi, Rmi, Rpi };

// Boolean modifier flags (Instr::flags).
enum Flag : uint32_t {
  kSat = 1u << 0,
  kFtz = 1u << 1,
  kApprox = 1u << 2,
  kFull = 1u << 3,
  kHi = 1u << 4,      // mul.hi / mad.hi
  kLo = 1u << 5,      // mul.lo / mad.lo
  kWide = 1u << 6,    // mul.wide / mad.wide: destination is twice the source width
  kCC = 1u << 7,      // .cc: writes the carry flag
  kUni = 1u << 8,     // bra.uni / call.uni / ret.uni: the programmer says it does not diverge
  kVolatile = 1u << 9,
  kWrap = 1u << 10,   // shf.wrap
  kClamp = 1u << 11,  // shf.clamp, bmsk.clamp
  kLeft = 1u << 12,   // shf.l
  kRight = 1u << 13,  // shf.r
  kShiftAmt = 1u << 14,  // bfind.shiftamt
  kAligned = 1u << 15,   // bar.sync.aligned / barrier.sync.aligned
  kArrive = 1u << 16,    // bar.arrive / barrier.arrive
  kRedBar = 1u << 17,    // bar.red.{popc,and,or}
  kToSpace = 1u << 18,   // cvta.to.<space> (generic -> space) rather than cvta.<space>
  kNc = 1u << 19,        // ld.global.nc
  kRelu = 1u << 20,      // min/max .relu
  kNaN = 1u << 21,       // min/max .NaN
  kXorSign = 1u << 22,   // min/max .xorsign.abs
  kUnsignedCmp = 1u << 23,
  kTexLevel = 1u << 24,   // tex.level / tld4 with an explicit level of detail
  kTexGrad = 1u << 25,    // tex.grad: level of detail from gradients
  kSurfFormatted = 1u << 26,  // suld.p / sust.p (formatted, as opposed to .b raw bits)
  kVideoBTyped = 1u << 27,    // video instructions: the b operand's type was given ...
  kVideoBSigned = 1u << 28,   // ... and is .s32 (dtype and atype are in type / type2)
  kVideoPlusOne = 1u << 29,   // vmad.po
  kTf32 = 1u << 30,           // cvt.*.tf32.f32: the destination is tf32 (in a .b32; `type` is B32)
  kSatFinite = 1u << 31,      // cvt .satfinite
};

// Video instructions (vadd ... vset4): where each family sits.
inline bool is_video_op(Op op) { return op >= Op::Vadd && op <= Op::Vset4; }
inline bool is_video_simd2(Op op) { return op >= Op::Vadd2 && op <= Op::Vset2; }
inline bool is_video_simd4(Op op) { return op >= Op::Vadd4 && op <= Op::Vset4; }
inline bool is_video_set(Op op) { return op == Op::Vset || op == Op::Vset2 || op == Op::Vset4; }

enum class CmpOp : uint8_t {
  None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs,
  Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
};
enum class BoolOp : uint8_t { None, And, Or, Xor, Popc };

// Per-opcode sub-mode (Instr::mode); which enum applies depends on the opcode.
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
enum class AtomOp : uint8_t { Add, Min, Max, Inc, Dec, Cas, Exch, And, Or, Xor };
enum class ReduxOp : uint8_t { Add, Min, Max, And, Or, Xor };
enum class PrmtMode : uint8_t { Default, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };
enum class TestpClass : uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };
enum class MatchMode : uint8_t { Any, All };
enum class TexGeom : uint8_t { D1, D2, D3, A1D, A2D, Cube, ACube, D2MS, A2DMS };
// Instr::aux for the texture family: tld4's component, the surface
// instructions' out-of-range mode, txq/suq's query.
enum class Tld4Comp : uint8_t { R, G, B, A };
enum class SurfClamp : uint8_t { Trap, Clamp, Zero };
// Instr::mode of the video instructions: the secondary operation; Instr::aux
// of vmad: its scale.
enum class VideoOp2 : uint8_t { None, Add, Min, Max };
enum class VideoScale : uint8_t { None, Shr7, Shr15 };
// Warp matrix instructions (func/exec_mma.cpp, shapes in ptx/mma_shape.h).
// Instr::mode of wmma: which of its forms; Instr::aux of wmma/mma/ldmatrix:
// the shape (low 4 bits) and the layout bits below; Instr::vec of ldmatrix:
// .x1/.x2/.x4. Types: `type` = the fragment's (wmma.load/store) or d's
// (wmma.mma, mma), `type2` = c's, `type3` = a's and b's; .tf32 is Type::B32.
enum class WmmaKind : uint8_t { LoadA, LoadB, LoadC, StoreD, Mma };
enum class MmaShape : uint8_t { None, M16N16K16, M32N8K16, M8N32K16, M16N16K8, M8N8K4, M16N8K16, M16N8K8, M8N8 };
inline constexpr uint8_t kMmaShapeMask = 0x0f;
inline constexpr uint8_t kMmaACol = 0x10;   // wmma.load/store .col; wmma.mma/mma: a is .col
inline constexpr uint8_t kMmaBCol = 0x20;   // wmma.mma/mma: b is .col
inline constexpr uint8_t kMmaTrans = 0x40;  // ldmatrix .trans
inline MmaShape mma_shape(uint8_t aux) { return static_cast<MmaShape>(aux & kMmaShapeMask); }
inline bool is_mma_op(Op op) { return op == Op::Wmma || op == Op::Mma || op == Op::Ldmatrix; }
// cp.async (Op::Cp; Instr::mode): the copy, and the group bookkeeping.
enum class CpAsyncKind : uint8_t { Copy, CommitGroup, WaitGroup, WaitAll };
enum class TexQuery : uint8_t {
  Width, Height, Depth, ChannelDataType, ChannelOrder, NormalizedCoords, FilterMode,
  AddrMode0, AddrMode1, AddrMode2, ArraySize, NumMipmapLevels, NumSamples, ForceUnnormalizedCoords,
  MemoryLayout,
};

// ---------------------------------------------------------------- special registers
#define SIMT_PTX_SREGS(X)                                                     \
  X(TidX, "%tid.x") X(TidY, "%tid.y") X(TidZ, "%tid.z")                        \
  X(NtidX, "%ntid.x") X(NtidY, "%ntid.y") X(NtidZ, "%ntid.z")                  \
  X(CtaidX, "%ctaid.x") X(CtaidY, "%ctaid.y") X(CtaidZ, "%ctaid.z")            \
  X(NctaidX, "%nctaid.x") X(NctaidY, "%nctaid.y") X(NctaidZ, "%nctaid.z")      \
  X(Laneid, "%laneid") X(Warpid, "%warpid") X(Nwarpid, "%nwarpid")             \
  X(Smid, "%smid") X(Nsmid, "%nsmid") X(Gridid, "%gridid")                     \
  X(LanemaskEq, "%lanemask_eq") X(LanemaskLe, "%lanemask_le")                  \
  X(LanemaskLt, "%lanemask_lt") X(LanemaskGe, "%lanemask_ge")                  \
  X(LanemaskGt, "%lanemask_gt")                                                \
  X(Clock, "%clock") X(ClockHi, "%clock_hi") X(Clock64, "%clock64")            \
  X(Globaltimer, "%globaltimer") X(GlobaltimerLo, "%globaltimer_lo")           \
  X(GlobaltimerHi, "%globaltimer_hi")                                          \
  X(DynamicSmemSize, "%dynamic_smem_size") X(TotalSmemSize, "%total_smem_size") \
  X(Envreg0, "%envreg0") X(Envreg1, "%envreg1") X(Envreg2, "%envreg2") X(Envreg3, "%envreg3") \
  X(Envreg4, "%envreg4") X(Envreg5, "%envreg5") X(Envreg6, "%envreg6") X(Envreg7, "%envreg7") \
  X(Envreg8, "%envreg8") X(Envreg9, "%envreg9") X(Envreg10, "%envreg10") X(Envreg11, "%envreg11") \
  X(Envreg12, "%envreg12") X(Envreg13, "%envreg13") X(Envreg14, "%envreg14") X(Envreg15, "%envreg15") \
  X(Envreg16, "%envreg16") X(Envreg17, "%envreg17") X(Envreg18, "%envreg18") X(Envreg19, "%envreg19") \
  X(Envreg20, "%envreg20") X(Envreg21, "%envreg21") X(Envreg22, "%envreg22") X(Envreg23, "%envreg23") \
  X(Envreg24, "%envreg24") X(Envreg25, "%envreg25") X(Envreg26, "%envreg26") X(Envreg27, "%envreg27") \
  X(Envreg28, "%envreg28") X(Envreg29, "%envreg29") X(Envreg30, "%envreg30") X(Envreg31, "%envreg31") \
  X(WarpSz, "WARP_SZ")

enum class Sreg : uint8_t {
#define SIMT_X(name, text) name,
  SIMT_PTX_SREGS(SIMT_X)
#undef SIMT_X
  Count
};
const char* sreg_name(Sreg s);

// ---------------------------------------------------------------- operands
inline constexpr uint32_t kNoReg = 0xffffffffu;   // also the `_` sink in vectors
inline constexpr uint32_t kNoPc = 0xffffffffu;
// A PC with this bit set is a return address "one call level up": the
// reconvergence PC of a call's stack entry and the PC a `ret` leaves. A
// recursive call from the same call site then cannot mistake the caller's
// resume PC for its own return (they differ in the tag). PCs stay below it.
inline constexpr uint32_t kReturnTag = 0x8000'0000u;

enum class ImmKind : uint8_t {
  Int,      // integer literal; `imm` holds its 64-bit two's-complement value
  F32Bits,  // 0fXXXXXXXX; low 32 bits of `imm` are the IEEE single bits
  F64Bits,  // 0dXXXXXXXXXXXXXXXX or a decimal float literal; `imm` holds IEEE double bits
};

struct Operand {
  enum class Kind : uint8_t {
    None,
    Reg,     // reg
    Imm,     // imm / imm_kind
    Sreg,    // sreg
    Addr,    // [base + imm]: reg == kNoReg means an absolute address (symbol resolved by the linker)
    Vec,     // {vec[0..vec_n)} registers, kNoReg for `_` (more than 4: warp matrix fragments only)
    Label,   // branch target; in a Program `imm` holds the target PC
    Sym,     // Module level only: symbol by name index (`sym`); the linker replaces it
  };
  // The small fields first, so that they share one 8-byte word.
  Kind kind = Kind::None;
  bool neg = false;             // `!%p` predicate negation
  ImmKind imm_kind = ImmKind::Int;
  uint8_t vec_n = 0;
  Sreg sreg = Sreg::TidX;
  // Module level only: an Addr operand whose base is symbol `sym` ([sym+imm]) rather than a register.
  bool sym_base = false;
  // Video instructions: the register's byte or half-word selector (`%r1.b3210`,
  // `%r2.h1`); see video_sel_*(). 0: none. `neg` is vmad's `-a` there.
  uint16_t sel = 0;
  uint32_t reg = kNoReg;
  uint32_t sym = 0;             // Module level: index into Function/Module symbol names
  int64_t imm = 0;
  // 8: a warp matrix fragment ({%r1, ..., %r8}); ld/st/mov/tex take at most 4.
  std::array<uint32_t, 8> vec{{kNoReg, kNoReg, kNoReg, kNoReg, kNoReg, kNoReg, kNoReg, kNoReg}};
};
inline constexpr int kMaxVec = 8;

// A video selector: kind (byte or half-word), digit count 1..4, digits in
// the order written (most significant element first).
inline constexpr uint16_t kVideoSelByte = 1u << 14, kVideoSelHalf = 2u << 14;
inline uint32_t video_sel_count(uint16_t sel) { return ((sel >> 12) & 3u) + 1; }
inline uint32_t video_sel_digit(uint16_t sel, uint32_t i) { return (sel >> (3 * i)) & 7u; }
inline bool video_sel_half(uint16_t sel) { return (sel & 0xc000u) == kVideoSelHalf; }

inline constexpr int kMaxOperands = 6;

// One decoded instruction. Operands are in PTX order, destination first.
// A `d|p` destination pair keeps d in ops[0] and p in `pout`.
struct Instr {
  Op op = Op::Mov;
  Type type = Type::None;    // main type suffix (cvt: destination; setp/set: comparison type)
  Type type2 = Type::None;   // second type suffix (cvt: source; set: destination; slct: c's type)
  Space space = Space::None; // ld/st/atom/red/cvta/isspacep/prefetch
  Rnd rnd = Rnd::None;
  CmpOp cmp = CmpOp::None;
  BoolOp bop = BoolOp::None; // setp/set combine; bar.red / vote mode lives in `mode`
  uint8_t mode = 0;          // VoteMode / ShflMode / AtomOp / ReduxOp / PrmtMode / TestpClass / MatchMode / TexGeom
  uint8_t vec = 1;           // .v2 / .v4 on ld/st/mov/tex
  uint8_t nops = 0;
  InstrClass cls = InstrClass::Int;
  uint8_t aux = 0;           // Tld4Comp / SurfClamp / TexQuery / MmaShape and layout bits
  Type type3 = Type::None;   // wmma.mma / mma: the type of a and b (in padding: Instr keeps its size)
  uint32_t flags = 0;        // Flag bits
  Operand guard;             // Kind::None when not predicated; else Reg with `neg`
  Operand pout;              // second destination of `d|p`
  std::array<Operand, kMaxOperands> ops;
  // Calls (Program level): callee entry PC, or a builtin; see CallInfo.
  uint32_t call_info = kNoPc;  // index into Program::calls for Call instructions
  uint32_t line = 0, col = 0;  // where it came from in the source file
};

// ---------------------------------------------------------------- module level
// What a Module-level symbol (Function::symbols[i]) names; the parser resolves
// scoped names (e.g. `param0` re-declared in every call block) so the linker
// never looks names up again.
enum class SymKind : uint8_t {
  Var,     // Function::vars[index] (function-scope .local/.shared/.param, incl. call-site params)
  Param,   // Function::params[index] (formal parameter)
  Ret,     // Function::rets[index] (return parameter)
  Global,  // Module::globals[index]
  Func,    // Module::functions[index]
};
struct SymRef {
  SymKind kind = SymKind::Var;
  uint32_t index = 0;
};

// Module level: the operands of one `call` (Instr::call_info indexes Function::calls).
struct CallSite {
  uint32_t callee_sym = 0xffffffffu;  // Function::symbols index of the callee (a Func symbol)
  uint32_t callee_reg = 0xffffffffu;  // indirect call: register holding the target (then callee_sym unset)
  std::vector<uint32_t> rets, args;   // Function::symbols indexes of the .param variables
};

// The hidden register a `0` element of a vector operand reads (never written,
// so always 0); the name cannot clash with a PTX identifier.
inline constexpr const char* kZeroRegName = "%<zero>";

struct RegInfo {
  std::string name;   // "%r12"
  Type type = Type::None;
};

struct Variable {          // a .global/.const/.shared/.local/.param variable
  std::string name;
  Space space = Space::None;
  Type type = Type::B8;    // element type
  uint32_t align = 0;      // 0 = natural alignment of `type`
  uint64_t count = 1;      // elements (array length; 0 for `extern .shared x[]`)
  bool is_array = false;
  // Linkage (module scope; see ptx/merge.h): .extern (a declaration), .visible,
  // .weak, .common; none of them: internal to its module.
  bool is_extern = false;
  bool visible = false, weak = false, common = false;
  bool managed = false;      // .attribute(.managed): a __managed__ variable (unified memory)
  std::vector<uint8_t> init;  // little-endian initial bytes (may be shorter than the size; rest zero)
  uint32_t line = 0;
  uint64_t size_bytes() const { return count * type_bytes(type); }
  // Address initialisers (`generic(sym)+N`, `sym+N`; .global/.const only). `init`
  // holds zero at `offset`; the loader writes the address of module variable
  // `symbol` plus `addend` there once every variable is placed, as wide as the
  // element type (8 bytes for .u64, 4 for .u32).
  struct AddrInit {
    uint64_t offset = 0;     // byte offset in the variable
    std::string symbol;
    int64_t addend = 0;
    bool generic = false;    // generic(sym): the same value as sym for .global/.const in this model
  };
  std::vector<AddrInit> addr_inits;
};

struct Param {             // a formal parameter of .entry/.func
  std::string name;
  Type type = Type::B32;
  uint32_t align = 0;
  uint64_t count = 1;      // .param .align 8 .b8 p[24]
  bool is_ptr = false;     // .ptr attribute (ignored semantically)
  uint64_t size_bytes() const { return count * type_bytes(type); }
};

struct Function {
  std::string name;
  bool is_entry = false;
  bool is_extern = false;    // declaration only (e.g. vprintf)
  bool visible = false;
  bool weak = false;         // .weak: a .visible definition elsewhere wins (ptx/merge.h)
  std::vector<Param> params;
  std::vector<Param> rets;   // .func (.param .b32 retval) name(...)
  std::vector<RegInfo> regs;
  std::vector<Variable> vars;           // function-scope .local/.shared/.param (incl. call-site .param)
  std::vector<Instr> code;
  std::vector<std::string> text;        // source text of each instruction, for traces and messages
  std::vector<std::string> symbols;     // names referenced by Operand::Kind::Sym
  std::vector<std::pair<std::string, uint32_t>> labels;  // label -> index into code
  std::array<uint32_t, 3> maxntid{{0, 0, 0}}, reqntid{{0, 0, 0}};
  uint32_t minnctapersm = 0, maxnreg = 0;
  std::vector<std::string> pragmas;
  uint32_t line = 0;
  std::vector<SymRef> symrefs;   // parallel to `symbols`: what each one resolves to
  std::vector<CallSite> calls;   // one per call instruction (Instr::call_info at Module level)
};

struct Module {
  std::string path;          // file it was parsed from (for messages)
  std::string version, target;
  uint32_t address_size = 64;
  std::vector<Variable> globals;   // module-scope .global/.const/.shared/.local
  std::vector<Function> functions;
  const Function* find(const std::string& name) const;
};

// ---------------------------------------------------------------- program level (linked kernel)
// Builtins that nvcc calls like functions and the executor implements itself.
enum class Builtin : uint8_t { None, Vprintf, Malloc, Free, AssertFail };

struct CallInfo {
  uint32_t callee_pc = kNoPc;   // entry PC of the callee (kNoPc for builtins and indirect calls)
  uint32_t callee_func = 0;     // index into Program::funcs (direct calls)
  uint32_t caller_func = 0;     // index into Program::funcs of the function holding the call
  uint32_t callee_reg = kNoReg; // indirect call: the register holding the target's address
  Builtin builtin = Builtin::None;
  // Arguments and return values travel through per-thread local memory:
  // each pair copies `size` bytes from `from` to `to` (local-space offsets).
  struct Copy { uint32_t from, to, size; };
  std::vector<Copy> args;       // done at the call
  std::vector<Copy> rets;       // done at the return
  // Builtins and indirect calls know only the caller's side: args[i].from is
  // the caller's local slot of argument i and rets[i].to its slot for return
  // value i (the other field unused). The executor reads/writes builtins'
  // slots directly and pairs an indirect call's with the callee's
  // FuncRange::params / rets once it knows the callee.
};

// Where one .func formal or return value lives in the per-thread local area.
struct FrameSlot { uint32_t addr = 0, size = 0; };

struct FuncRange {
  std::string name;
  uint32_t begin = 0, end = 0;  // [begin, end) PCs of its body
  uint32_t retaddr_reg = kNoReg;  // hidden per-thread register holding the return PC
  uint32_t local_base = 0;        // offset of its local frame in the per-thread local area
  // Recursion: a call into a function that may already be active in the
  // thread (caller and callee in the same cyclic component of the call
  // graph) saves the callee's registers [reg_begin, reg_end) and local frame
  // [local_base, local_base + frame_bytes) on the thread's call stack, and
  // its return restores them.
  uint32_t reg_begin = 0, reg_end = 0;
  uint32_t frame_bytes = 0;
  uint32_t scc = 0;               // strongly connected component of the call graph
  bool recursive = false;         // its component has a cycle
  std::vector<FrameSlot> params, rets;  // .func formals / return values (not the entry's)
};

struct ParamSlot {                // one kernel parameter in the launch's parameter buffer
  std::string name;
  Type type = Type::B32;
  uint32_t offset = 0, size = 0, align = 0;
};

// Addresses of module-scope .global/.const variables, chosen by the loader
// (the device) before linking; indexed like Module::globals (0 for others).
using SymbolAddresses = std::vector<uint64_t>;

// The address of a function (`mov.u64 %rd, f;`, a function name in an
// initialiser): a tag plus the function's index in its Module, so that the
// loader can write it before any kernel is linked. It is not device memory:
// loads and stores there fault.
inline constexpr uint64_t kFuncAddrBase = 0x0000'7300'0000'0000ull;
inline constexpr uint64_t kFuncAddrStride = 16;
inline uint64_t func_address(uint32_t module_index) { return kFuncAddrBase + kFuncAddrStride * module_index; }
// The module function index `addr` names, or false when it names none of `count`.
inline bool func_index_of(uint64_t addr, size_t count, uint32_t& index) {
  if (addr < kFuncAddrBase || (addr - kFuncAddrBase) % kFuncAddrStride) return false;
  const uint64_t i = (addr - kFuncAddrBase) / kFuncAddrStride;
  if (i >= count) return false;
  index = static_cast<uint32_t>(i);
  return true;
}

struct Program {
  std::string kernel;                   // entry name
  std::string source_path;
  std::vector<Instr> code;              // entry body first (PC 0), then callees
  std::vector<std::string> text;        // per PC: source text
  std::vector<FuncRange> funcs;         // funcs[0] is the entry
  std::vector<CallInfo> calls;
  // Module function index -> index into funcs (kNoPc: not linked into this
  // program); indirect calls look their target up here.
  std::vector<uint32_t> func_by_module;
  bool recursive = false;               // some function may be active twice in a thread
  std::vector<RegInfo> regs;            // one register space for the whole program
  // Storage row of each register in a CTA's register file, and how many rows
  // there are (ptx/register_slots.h). Empty: one row per register.
  std::vector<uint32_t> reg_slot;
  uint32_t reg_slots = 0;
  std::vector<ParamSlot> params;
  uint32_t param_bytes = 0;             // size of the kernel parameter buffer
  uint64_t static_shared_bytes = 0;     // extern (dynamic) shared starts here (aligned 16); 64-bit: never wraps
  uint32_t local_bytes = 0;             // per-thread local memory incl. call-site .param slots
  std::array<uint32_t, 3> reqntid{{0, 0, 0}}, maxntid{{0, 0, 0}};
  uint32_t num_regs() const { return static_cast<uint32_t>(regs.size()); }
  uint32_t num_slots() const { return reg_slot.empty() ? num_regs() : reg_slots; }
};

}  // namespace simt::ptx
