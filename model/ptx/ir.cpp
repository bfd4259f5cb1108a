#include "ptx/ir.h"

#include <cctype>
#include <string>
#include <vector>

namespace simt::ptx {

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
  static const char* const names[] = {"INT", "FP", "SFU", "LDST", "BRANCH", "BARRIER", "TENSOR"};
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
