#include "ptx/ir.h"

#include <cctype>
#include <string>
#include <vector>

namespace simt::ptx {

uint32_t type_bytes(Type t) {
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

bool type_is_float(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2 ||
         t == Type::F32 || t == Type::F64;
}

bool type_is_signed(Type t) {
  return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64;
}

const char* type_name(Type t) {
  static const char* const names[] = {"",    "b8",  "b16", "b32", "b64",  "b128",  "u8",
                                      "u16", "u32", "u64", "s8",  "s16",  "s32",   "s64",
                                      "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "pred"};
  return names[static_cast<int>(t)];
}

const char* space_name(Space s) {
  static const char* const names[] = {"",       "reg",   "sreg",  "global", "shared",
                                      "local",  "const", "param", "generic", "tex"};
  return names[static_cast<int>(s)];
}

const char* op_name(Op op) {
  // Lower-cased enumerator names, except where the mnemonic has a dot.
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = {
#define SIMT_X(name) #name,
        SIMT_PTX_OPCODES(SIMT_X)
#undef SIMT_X
    };
    for (auto& n : v)
      for (auto& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    v[static_cast<size_t>(Op::BarWarp)] = "bar.warp";
    return v;
  }();
  size_t i = static_cast<size_t>(op);
  return i < names.size() ? names[i].c_str() : "?";
}

const char* class_name(InstrClass c) {
  static const char* const names[] = {"INT", "FP", "SFU", "LDST", "BRANCH", "BARRIER"};
  return names[static_cast<int>(c)];
}

const char* sreg_name(Sreg s) {
  static const char* const names[] = {
#define SIMT_X(name, text) text,
      SIMT_PTX_SREGS(SIMT_X)
#undef SIMT_X
  };
  return names[static_cast<int>(s)];
}

const Function* Module::find(const std::string& name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace simt::ptx
