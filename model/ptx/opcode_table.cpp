#include "ptx/opcode_table.h"

#include <string>
#include <utility>
#include <unordered_map>

namespace simt::ptx {
namespace {

const std::unordered_map<std::string_view, Op>& op_table() {
  static const std::unordered_map<std::string_view, Op> table = [] {
    std::unordered_map<std::string_view, Op> t;
    for (int i = 0; i < static_cast<int>(Op::Count); ++i) {
      Op op = static_cast<Op>(i);
      if (op != Op::BarWarp) t.emplace(op_name(op), op);  // bar.warp is found through "bar"
    }
    return t;
  }();
  return table;
}

template <class E>
bool lookup(std::string_view s, const std::pair<const char*, E>* table, size_t n, E& out) {
  for (size_t i = 0; i < n; ++i)
    if (s == table[i].first) {
      out = table[i].second;
      return true;
    }
  return false;
}
#define SIMT_LOOKUP(s, table, out) lookup(s, table, sizeof(table) / sizeof(table[0]), out)

const std::pair<const char*, Type> kTypes[] = {
    {"b8", Type::B8},     {"b16", Type::B16},     {"b32", Type::B32},   {"b64", Type::B64},
    {"b128", Type::B128}, {"u8", Type::U8},       {"u16", Type::U16},   {"u32", Type::U32},
    {"u64", Type::U64},   {"s8", Type::S8},       {"s16", Type::S16},   {"s32", Type::S32},
    {"s64", Type::S64},   {"f16", Type::F16},     {"f16x2", Type::F16x2}, {"bf16", Type::BF16},
    {"bf16x2", Type::BF16x2}, {"f32", Type::F32}, {"f64", Type::F64},   {"pred", Type::Pred},
};
const std::pair<const char*, Rnd> kRnd[] = {
    {"rn", Rnd::Rn},   {"rz", Rnd::Rz},   {"rm", Rnd::Rm},   {"rp", Rnd::Rp},   {"rna", Rnd::Rna},
    {"rni", Rnd::Rni}, {"rzi", Rnd::Rzi}, {"rmi", Rnd::Rmi}, {"rpi", Rnd::Rpi},
};
const std::pair<const char*, CmpOp> kCmp[] = {
    {"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},   {"le", CmpOp::Le},
    {"gt", CmpOp::Gt},   {"ge", CmpOp::Ge},   {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},
    {"hi", CmpOp::Hi},   {"hs", CmpOp::Hs},   {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu},
    {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu}, {"geu", CmpOp::Geu},
    {"num", CmpOp::Num}, {"nan", CmpOp::Nan},
};
const std::pair<const char*, BoolOp> kBool[] = {
    {"and", BoolOp::And}, {"or", BoolOp::Or}, {"xor", BoolOp::Xor}};
const std::pair<const char*, Space> kSpaces[] = {
    {"global", Space::Global},         {"shared", Space::Shared}, {"shared::cta", Space::Shared},
    {"local", Space::Local},           {"const", Space::Const},   {"param", Space::Param},
    {"param::entry", Space::Param},    {"param::func", Space::Param},
};
const std::pair<const char*, AtomOp> kAtom[] = {
    {"add", AtomOp::Add}, {"min", AtomOp::Min},   {"max", AtomOp::Max},   {"inc", AtomOp::Inc},
    {"dec", AtomOp::Dec}, {"cas", AtomOp::Cas},   {"exch", AtomOp::Exch}, {"and", AtomOp::And},
    {"or", AtomOp::Or},   {"xor", AtomOp::Xor},
};
const std::pair<const char*, ReduxOp> kRedux[] = {
    {"add", ReduxOp::Add}, {"min", ReduxOp::Min}, {"max", ReduxOp::Max},
    {"and", ReduxOp::And}, {"or", ReduxOp::Or},   {"xor", ReduxOp::Xor},
};
const std::pair<const char*, VoteMode> kVote[] = {
    {"all", VoteMode::All}, {"any", VoteMode::Any}, {"uni", VoteMode::Uni}, {"ballot", VoteMode::Ballot}};
const std::pair<const char*, ShflMode> kShfl[] = {
    {"up", ShflMode::Up}, {"down", ShflMode::Down}, {"bfly", ShflMode::Bfly}, {"idx", ShflMode::Idx}};
const std::pair<const char*, PrmtMode> kPrmt[] = {
    {"f4e", PrmtMode::F4e}, {"b4e", PrmtMode::B4e}, {"rc8", PrmtMode::Rc8},
    {"ecl", PrmtMode::Ecl}, {"ecr", PrmtMode::Ecr}, {"rc16", PrmtMode::Rc16}};
const std::pair<const char*, TestpClass> kTestp[] = {
    {"finite", TestpClass::Finite},         {"infinite", TestpClass::Infinite},
    {"number", TestpClass::Number},         {"notanumber", TestpClass::NotANumber},
    {"normal", TestpClass::Normal},         {"subnormal", TestpClass::Subnormal}};
const std::pair<const char*, MatchMode> kMatch[] = {{"any", MatchMode::Any}, {"all", MatchMode::All}};
const std::pair<const char*, TexGeom> kTexGeom[] = {
    {"1d", TexGeom::D1},   {"2d", TexGeom::D2},   {"3d", TexGeom::D3},
    {"a1d", TexGeom::A1D}, {"a2d", TexGeom::A2D}, {"cube", TexGeom::Cube},
    {"acube", TexGeom::ACube}, {"2dms", TexGeom::D2MS}, {"a2dms", TexGeom::A2DMS}};
const std::pair<const char*, Tld4Comp> kTld4Comp[] = {
    {"r", Tld4Comp::R}, {"g", Tld4Comp::G}, {"b", Tld4Comp::B}, {"a", Tld4Comp::A}};
const std::pair<const char*, SurfClamp> kSurfClamp[] = {
    {"trap", SurfClamp::Trap}, {"clamp", SurfClamp::Clamp}, {"zero", SurfClamp::Zero}};
const std::pair<const char*, TexQuery> kTexQuery[] = {
    {"width", TexQuery::Width},
    {"height", TexQuery::Height},
    {"depth", TexQuery::Depth},
    {"channel_data_type", TexQuery::ChannelDataType},
    {"channel_order", TexQuery::ChannelOrder},
    {"normalized_coords", TexQuery::NormalizedCoords},
    {"filter_mode", TexQuery::FilterMode},
    {"addr_mode_0", TexQuery::AddrMode0},
    {"addr_mode_1", TexQuery::AddrMode1},
    {"addr_mode_2", TexQuery::AddrMode2},
    {"array_size", TexQuery::ArraySize},
    {"num_mipmap_levels", TexQuery::NumMipmapLevels},
    {"num_samples", TexQuery::NumSamples},
    {"force_unnormalized_coords", TexQuery::ForceUnnormalizedCoords},
    {"memory_layout", TexQuery::MemoryLayout}};

// Modifiers that only tune caching, memory ordering or scope: accepted, no effect here.
bool ignorable_memory_mod(std::string_view m) {
  static const char* const names[] = {"ca",   "cg",      "cs",      "lu",  "cv",     "wb",  "wt",
                                      "relaxed", "acquire", "release", "sc", "acq_rel", "weak",
                                      "mmio", "cta",     "gpu",     "sys", "cluster"};
  for (const char* n : names)
    if (m == n) return true;
  return m.rfind("L1::", 0) == 0 || m.rfind("L2::", 0) == 0;
}

bool is_memory_op(Op op) {
  switch (op) {
    case Op::Ld: case Op::Ldu: case Op::St: case Op::Atom: case Op::Red: case Op::Prefetch:
    case Op::Prefetchu: case Op::Cvta: case Op::Isspacep:
      return true;
    default:
      return false;
  }
}

// Video instructions: three types (d, a, b), the compare, the secondary
// operation, vshl/vshr's shift mode and vmad's .po and scale.
bool decode_video_mod(std::string_view m, Instr& in) {
  if (m == "u32" || m == "s32") {
    const Type t = m == "u32" ? Type::U32 : Type::S32;
    if (is_video_set(in.op) && in.type == Type::None) in.type = Type::U32;  // no dtype: 0 or 1
    if (in.type == Type::None) in.type = t;
    else if (in.type2 == Type::None) in.type2 = t;
    else if (!(in.flags & kVideoBTyped)) in.flags |= kVideoBTyped | (t == Type::S32 ? uint32_t{kVideoBSigned} : 0u);
    else return false;
    return true;
  }
  CmpOp c;
  if (is_video_set(in.op) && in.cmp == CmpOp::None && SIMT_LOOKUP(m, kCmp, c)) { in.cmp = c; return true; }
  if (m == "add") { in.mode = static_cast<uint8_t>(VideoOp2::Add); return true; }
  if (!is_video_simd2(in.op) && !is_video_simd4(in.op)) {
    if (m == "min") { in.mode = static_cast<uint8_t>(VideoOp2::Min); return true; }
    if (m == "max") { in.mode = static_cast<uint8_t>(VideoOp2::Max); return true; }
  }
  if (in.op == Op::Vshl || in.op == Op::Vshr) {
    if (m == "clamp") { in.flags |= kClamp; return true; }
    if (m == "wrap") { in.flags |= kWrap; return true; }
  }
  if (in.op == Op::Vmad) {
    if (m == "po") { in.flags |= kVideoPlusOne; return true; }
    if (m == "shr7") { in.aux = static_cast<uint8_t>(VideoScale::Shr7); return true; }
    if (m == "shr15") { in.aux = static_cast<uint8_t>(VideoScale::Shr15); return true; }
  }
  return false;
}

// Warp matrix instructions (wmma, mma, ldmatrix): their modifiers, decoded
// apart because their types come in fours (d, a, b, c) and .tf32 is no
// ordinary type.
struct MmaDecode {
  Type types[4] = {};
  int ntypes = 0, layouts = 0;
  bool load = false, store = false;  // wmma.load / wmma.store seen, matrix not yet
  bool num = false;                  // ldmatrix .x1/.x2/.x4 seen
};

const std::pair<const char*, MmaShape> kMmaShapes[] = {
    {"m16n16k16", MmaShape::M16N16K16}, {"m32n8k16", MmaShape::M32N8K16}, {"m8n32k16", MmaShape::M8N32K16},
    {"m16n16k8", MmaShape::M16N16K8},   {"m8n8k4", MmaShape::M8N8K4},     {"m16n8k16", MmaShape::M16N8K16},
    {"m16n8k8", MmaShape::M16N8K8},     {"m8n8", MmaShape::M8N8}};

bool decode_mma_mod(std::string_view m, Instr& in, bool first_mod, MmaDecode& st) {
  const bool wmma = in.op == Op::Wmma;
  if (wmma && first_mod) {
    if (m == "load") st.load = true;
    else if (m == "store") st.store = true;
    else if (m == "mma") in.mode = static_cast<uint8_t>(WmmaKind::Mma);
    else return false;
    return true;
  }
  if (st.load || st.store) {  // the matrix right after load/store
    if (st.load && (m == "a" || m == "b" || m == "c"))
      in.mode = static_cast<uint8_t>(m == "a" ? WmmaKind::LoadA : m == "b" ? WmmaKind::LoadB : WmmaKind::LoadC);
    else if (st.store && m == "d")
      in.mode = static_cast<uint8_t>(WmmaKind::StoreD);
    else
      return false;
    st.load = st.store = false;
    return true;
  }
  if (m == "sync" || m == "aligned") return true;
  MmaShape sh;
  if (SIMT_LOOKUP(m, kMmaShapes, sh)) {
    if (mma_shape(in.aux) != MmaShape::None) return false;
    in.aux = static_cast<uint8_t>(in.aux | static_cast<uint8_t>(sh));
    return true;
  }
  if (in.op != Op::Ldmatrix && (m == "row" || m == "col")) {
    if (st.layouts == 2) return false;
    if (m == "col") in.aux = static_cast<uint8_t>(in.aux | (st.layouts == 0 ? kMmaACol : kMmaBCol));
    ++st.layouts;
    return true;
  }
  if (in.op == Op::Ldmatrix) {
    if (m == "x1" || m == "x2" || m == "x4") {
      if (st.num) return false;
      st.num = true;
      in.vec = static_cast<uint8_t>(m[1] - '0');
      return true;
    }
    if (m == "trans") { in.aux = static_cast<uint8_t>(in.aux | kMmaTrans); return true; }
  }
  Space s;
  if (in.op != Op::Mma && in.space == Space::None && SIMT_LOOKUP(m, kSpaces, s) &&
      (s == Space::Global || s == Space::Shared)) {
    in.space = s;
    return true;
  }
  if (in.op != Op::Ldmatrix && m == "satfinite") { in.flags |= kSat; return true; }
  Rnd r;
  if (in.op == Op::Wmma && in.rnd == Rnd::None && SIMT_LOOKUP(m, kRnd, r)) { in.rnd = r; return true; }
  Type t = m == "tf32" ? Type::B32 : Type::None;
  if (t == Type::None) SIMT_LOOKUP(m, kTypes, t);
  if (t == Type::None || st.ntypes == 4) return false;
  st.types[st.ntypes++] = t;
  return true;
}

// After the last modifier: every part given, types in place (see ir.h).
bool finish_mma(Instr& in, const MmaDecode& st) {
  if (mma_shape(in.aux) == MmaShape::None) return false;
  if (in.op == Op::Ldmatrix) {
    if (st.ntypes != 1 || !st.num) return false;
    in.type = st.types[0];
  } else if (in.op == Op::Wmma && static_cast<WmmaKind>(in.mode) != WmmaKind::Mma) {
    if (st.load || st.store || st.ntypes != 1 || st.layouts != 1) return false;
    in.type = st.types[0];
  } else {
    if (st.layouts != 2) return false;
    if (st.ntypes == 2 && in.op == Op::Wmma) {  // wmma .f16 form: .dtype.ctype
      in.type = st.types[0];
      in.type2 = st.types[1];
      in.type3 = Type::F16;
    } else if (st.ntypes == 4 && st.types[1] == st.types[2]) {  // .dtype.atype.btype.ctype
      in.type = st.types[0];
      in.type3 = st.types[1];
      in.type2 = st.types[3];
    } else {
      return false;  // mixed a/b types (s8 with u8) are not supported
    }
  }
  if (in.op != Op::Mma && in.space == Space::None) in.space = Space::Generic;
  return true;
}

// Modifiers whose meaning depends on the opcode. Returns true if consumed.
bool decode_op_specific(std::string_view m, Instr& in, bool first_mod) {
  if (is_video_op(in.op)) return decode_video_mod(m, in);
  switch (in.op) {
    case Op::Add: case Op::Sub: case Op::Addc: case Op::Subc:
      if (m == "cc") { in.flags |= kCC; return true; }
      break;
    case Op::Mad: case Op::Madc:
      if (m == "cc") { in.flags |= kCC; return true; }
      [[fallthrough]];
    case Op::Mul: case Op::Mul24: case Op::Mad24:
      if (m == "hi") { in.flags |= kHi; return true; }
      if (m == "lo") { in.flags |= kLo; return true; }
      if (m == "wide") { in.flags |= kWide; return true; }
      break;
    case Op::Dp2a:
      if (m == "hi") { in.flags |= kHi; return true; }
      if (m == "lo") { in.flags |= kLo; return true; }
      break;
    case Op::Setp: case Op::Set: {
      CmpOp c;
      BoolOp b;
      if (in.cmp == CmpOp::None && SIMT_LOOKUP(m, kCmp, c)) { in.cmp = c; return true; }
      if (in.cmp != CmpOp::None && in.bop == BoolOp::None && SIMT_LOOKUP(m, kBool, b)) {
        in.bop = b;
        return true;
      }
      break;
    }
    case Op::Atom: case Op::Red: {
      AtomOp a;
      if (SIMT_LOOKUP(m, kAtom, a)) { in.mode = static_cast<uint8_t>(a); return true; }
      if (m == "noftz") return true;
      break;
    }
    case Op::Redux: {
      ReduxOp r;
      if (SIMT_LOOKUP(m, kRedux, r)) { in.mode = static_cast<uint8_t>(r); return true; }
      if (m == "sync") return true;
      break;
    }
    case Op::Vote: {
      VoteMode v;
      if (SIMT_LOOKUP(m, kVote, v)) { in.mode = static_cast<uint8_t>(v); return true; }
      if (m == "sync") return true;
      break;
    }
    case Op::Shfl: {
      ShflMode s;
      if (SIMT_LOOKUP(m, kShfl, s)) { in.mode = static_cast<uint8_t>(s); return true; }
      if (m == "sync") return true;
      break;
    }
    case Op::Match: {
      MatchMode s;
      if (SIMT_LOOKUP(m, kMatch, s)) { in.mode = static_cast<uint8_t>(s); return true; }
      if (m == "sync") return true;
      break;
    }
    case Op::Prmt: {
      PrmtMode p;
      if (SIMT_LOOKUP(m, kPrmt, p)) { in.mode = static_cast<uint8_t>(p); return true; }
      break;
    }
    case Op::Testp: {
      TestpClass t;
      if (SIMT_LOOKUP(m, kTestp, t)) { in.mode = static_cast<uint8_t>(t); return true; }
      break;
    }
    case Op::Shf:
      if (m == "l") { in.flags |= kLeft; return true; }
      if (m == "r") { in.flags |= kRight; return true; }
      if (m == "wrap") { in.flags |= kWrap; return true; }
      if (m == "clamp") { in.flags |= kClamp; return true; }
      break;
    case Op::Bmsk: case Op::Szext:
      if (m == "wrap") { in.flags |= kWrap; return true; }
      if (m == "clamp") { in.flags |= kClamp; return true; }
      break;
    case Op::Bfind:
      if (m == "shiftamt") { in.flags |= kShiftAmt; return true; }
      break;
    case Op::Cvta:
      if (m == "to" && first_mod) { in.flags |= kToSpace; return true; }
      break;
    case Op::Cp: {  // cp.async.{ca,cg}.shared{::cta}.global{.L2::...} / .commit_group / .wait_group / .wait_all
      if (first_mod) return m == "async";
      const auto kind = static_cast<CpAsyncKind>(in.mode);
      if (m == "commit_group" || m == "wait_group" || m == "wait_all") {
        if (kind != CpAsyncKind::Copy || in.space != Space::None || in.aux) return false;
        in.mode = static_cast<uint8_t>(m == "commit_group" ? CpAsyncKind::CommitGroup
                                       : m == "wait_group" ? CpAsyncKind::WaitGroup
                                                           : CpAsyncKind::WaitAll);
        in.aux = 1;  // a group form: no more modifiers
        return true;
      }
      if (in.aux) return false;
      if (m == "ca" || m == "cg") return true;
      if (m == "shared" || m == "shared::cta") { in.space = Space::Shared; return true; }
      if (m == "global") return in.space == Space::Shared;  // the destination's space comes first
      if (m == "L2::64B" || m == "L2::128B" || m == "L2::256B" || m == "L2::cache_hint") return true;
      return false;  // cp.async.bulk, .mbarrier forms: not supported
    }
    case Op::Cvt:  // cvt.rna.tf32.f32: tf32 is a .b32 destination with its own rounding
      if (m == "tf32" && in.type == Type::None) { in.type = Type::B32; in.flags |= kTf32; return true; }
      if (m == "satfinite") { in.flags |= kSatFinite; return true; }
      break;
    case Op::Min: case Op::Max:
      if (m == "relu") { in.flags |= kRelu; return true; }
      if (m == "NaN") { in.flags |= kNaN; return true; }
      if (m == "xorsign") { in.flags |= kXorSign; return true; }
      if (m == "abs" && (in.flags & kXorSign)) return true;
      break;
    case Op::Bar: case Op::Barrier:
      if (in.op == Op::Bar && m == "warp" && first_mod) { in.op = Op::BarWarp; return true; }
      if (m == "sync" || m == "cta") return true;
      if (m == "aligned") { in.flags |= kAligned; return true; }
      if (m == "arrive") { in.flags |= kArrive; return true; }
      if (m == "red") { in.flags |= kRedBar; return true; }
      if (in.flags & kRedBar) {
        BoolOp b = BoolOp::None;
        if (m == "popc") b = BoolOp::Popc;
        else SIMT_LOOKUP(m, kBool, b);
        if (b != BoolOp::None) {
          in.bop = b;
          in.mode = static_cast<uint8_t>(b);
          return true;
        }
      }
      break;
    case Op::BarWarp:
      if (m == "sync") return true;
      break;
    case Op::Membar:
      if (m == "cta" || m == "gl" || m == "sys") return true;
      break;
    case Op::Fence:
      if (m == "sc" || m == "acq_rel" || m == "cta" || m == "gpu" || m == "sys" || m == "cluster")
        return true;
      break;
    case Op::Bra: case Op::Call: case Op::Ret:
      if (m == "uni") { in.flags |= kUni; return true; }
      break;
    case Op::Brx:
      if (m == "idx") return true;
      if (m == "uni") { in.flags |= kUni; return true; }
      break;
    case Op::Tex: case Op::Tld4: case Op::Suld: case Op::Sust: {
      TexGeom g;
      if (SIMT_LOOKUP(m, kTexGeom, g)) { in.mode = static_cast<uint8_t>(g); return true; }
      if (in.op == Op::Tld4) {
        Tld4Comp c;
        if (SIMT_LOOKUP(m, kTld4Comp, c)) { in.aux = static_cast<uint8_t>(c); return true; }
      }
      if (in.op == Op::Suld || in.op == Op::Sust) {
        SurfClamp c;
        if (SIMT_LOOKUP(m, kSurfClamp, c)) { in.aux = static_cast<uint8_t>(c); return true; }
        if (m == "b" && first_mod) return true;
        if (m == "p" && first_mod) { in.flags |= kSurfFormatted; return true; }
        if (ignorable_memory_mod(m)) return true;  // .ca/.cg/.cs/.cv/.wb/.wt cache hints
      }
      if (in.op == Op::Tex || in.op == Op::Tld4) {
        if (m == "base") return true;
        if (m == "level") { in.flags |= kTexLevel; return true; }
        if (m == "grad") { in.flags |= kTexGrad; return true; }
      }
      break;
    }
    case Op::Txq: case Op::Suq: {
      TexQuery q;
      if (SIMT_LOOKUP(m, kTexQuery, q)) { in.aux = static_cast<uint8_t>(q); return true; }
      if (in.op == Op::Txq && m == "level" && first_mod) { in.flags |= kTexLevel; return true; }
      break;
    }
    case Op::Prefetch: case Op::Prefetchu:
      if (m == "L1" || m == "L2") return true;
      break;
    case Op::Nanosleep: case Op::Activemask: case Op::Exit: case Op::Trap: case Op::Brkpt:
    default:
      break;
  }
  return false;
}

}  // namespace

Type type_from_name(std::string_view s) {
  Type t = Type::None;
  SIMT_LOOKUP(s, kTypes, t);
  return t;
}

bool decode_mnemonic(std::string_view mn, Instr& in) {
  size_t dot = mn.find('.');
  std::string_view head = mn.substr(0, dot);
  const auto& table = op_table();
  auto it = table.find(head);
  if (it == table.end()) return false;
  in.op = it->second;
  bool first = true;
  MmaDecode mma;
  while (dot != std::string_view::npos) {
    size_t next = mn.find('.', dot + 1);
    std::string_view m = mn.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1);
    dot = next;
    if (m.empty()) return false;
    if (is_mma_op(in.op)) {
      if (!decode_mma_mod(m, in, first, mma)) return false;
      first = false;
      continue;
    }
    bool mem = is_memory_op(in.op);
    Type t;
    Rnd r;
    Space s;
    if (decode_op_specific(m, in, first)) {
    } else if (SIMT_LOOKUP(m, kTypes, t)) {
      if (in.type == Type::None) in.type = t;
      else if (in.type2 == Type::None) in.type2 = t;
      else return false;
    } else if (SIMT_LOOKUP(m, kRnd, r)) {
      if (in.rnd != Rnd::None) return false;
      in.rnd = r;
    } else if (mem && SIMT_LOOKUP(m, kSpaces, s)) {
      if (in.space != Space::None) return false;
      in.space = s;
    } else if (m == "v2" || m == "v4") {
      in.vec = static_cast<uint8_t>(m[1] - '0');
    } else if (m == "sat") {
      in.flags |= kSat;
    } else if (m == "ftz") {
      in.flags |= kFtz;
    } else if (m == "approx") {
      in.flags |= kApprox;
    } else if (m == "full") {
      in.flags |= kFull;
    } else if (mem && m == "volatile") {
      in.flags |= kVolatile;
    } else if ((in.op == Op::Ld || in.op == Op::Ldu) && m == "nc") {
      in.flags |= kNc;
    } else if ((mem || in.op == Op::Fence) && ignorable_memory_mod(m)) {
    } else {
      return false;
    }
    first = false;
  }
  if (in.op == Op::Ld || in.op == Op::Ldu || in.op == Op::St || in.op == Op::Atom ||
      in.op == Op::Red || in.op == Op::Prefetch || in.op == Op::Prefetchu) {
    if (in.space == Space::None) in.space = Space::Generic;
  }
  if (in.op == Op::Tex || in.op == Op::Tld4 || in.op == Op::Txq || in.op == Op::Suld ||
      in.op == Op::Sust || in.op == Op::Suq) {
    in.space = Space::Tex;
  }
  if (in.op == Op::Set) std::swap(in.type, in.type2);  // `type` is the comparison type, as for setp
  if (is_mma_op(in.op) && !finish_mma(in, mma)) return false;
  if (in.op == Op::Cp) {
    const auto kind = static_cast<CpAsyncKind>(in.mode);
    if (kind == CpAsyncKind::Copy && in.space != Space::Shared) return false;  // needs .shared.global
    in.aux = 0;
    in.space = kind == CpAsyncKind::Copy ? Space::Global : Space::None;  // the copy reads global memory
  }
  in.cls = classify(in);
  return true;
}

InstrClass classify(const Instr& in) {
  switch (in.op) {
    case Op::Bra: case Op::Brx: case Op::Call: case Op::Ret: case Op::Exit: case Op::Trap:
      return InstrClass::Branch;
    case Op::Bar: case Op::Barrier: case Op::BarWarp: case Op::Membar: case Op::Fence:
      return InstrClass::Barrier;
    case Op::Ld: case Op::Ldu: case Op::St: case Op::Atom: case Op::Red: case Op::Prefetch:
    case Op::Prefetchu: case Op::Tex: case Op::Tld4: case Op::Txq: case Op::Suld: case Op::Sust:
    case Op::Suq:
      return InstrClass::Ldst;
    case Op::Rcp: case Op::Sqrt: case Op::Rsqrt: case Op::Sin: case Op::Cos: case Op::Ex2:
    case Op::Lg2: case Op::Tanh:
      return InstrClass::Sfu;
    case Op::Mma:
      return InstrClass::Tensor;
    case Op::Wmma:  // wmma.load/store move fragments through the LDST unit
      return static_cast<WmmaKind>(in.mode) == WmmaKind::Mma ? InstrClass::Tensor : InstrClass::Ldst;
    case Op::Ldmatrix:
      return InstrClass::Ldst;
    case Op::Cp:  // the copy is a memory access; commit/wait only order the thread's copies
      return static_cast<CpAsyncKind>(in.mode) == CpAsyncKind::Copy ? InstrClass::Ldst : InstrClass::Barrier;
    case Op::Div:
      if (in.type == Type::F32 && (in.flags & (kApprox | kFull))) return InstrClass::Sfu;
      return type_is_float(in.type) ? InstrClass::Fp : InstrClass::Int;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mad: case Op::Fma: case Op::Abs:
    case Op::Neg: case Op::Min: case Op::Max: case Op::Setp: case Op::Testp: case Op::Copysign:
      return type_is_float(in.type) ? InstrClass::Fp : InstrClass::Int;
    case Op::Set: case Op::Cvt:
      return (type_is_float(in.type) || type_is_float(in.type2)) ? InstrClass::Fp : InstrClass::Int;
    case Op::Slct:
      return type_is_float(in.type2) ? InstrClass::Fp : InstrClass::Int;
    default:
      return InstrClass::Int;
  }
}

}  // namespace simt::ptx
