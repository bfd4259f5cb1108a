// Module structure of a PTX file: header directives, module-scope variables,
// function headers and bodies, declarations and their scopes. Instructions
// and operands are in parse_instruction.cpp.
#include "ptx/parser.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "ptx/opcode_table.h"
#include "ptx/parser_state.h"
#include "util/error.h"

namespace simt::ptx {
namespace detail {

// The largest .align: alignments are kept in 32 bits.
constexpr uint64_t kMaxAlign = uint64_t{1} << 31;

Parser::Parser(std::string_view text, const std::string& path)
    : src_(text), path_(path), toks_(tokenize(text, path)) {
  mod_.path = path;
}

void Parser::fail(const Token& t, const std::string& msg) const {
  throw input_error(path_ + ":" + std::to_string(t.line) + ":" + std::to_string(t.col) + ": " + msg);
}

bool Parser::accept(char c) {
  if (!is_punct(c)) return false;
  next();
  return true;
}

void Parser::expect(char c, const char* what) {
  if (!is_punct(c)) {
    const Token& t = peek();
    if (c == ';' && pos_ > 0 && t.line > toks_[pos_ - 1].line)
      fail(toks_[pos_ - 1], std::string("missing ';' after ") + what);
    fail(t, std::string("expected '") + c + "' " + what + ", found '" +
                (t.kind == Tok::End ? std::string("end of file") : std::string(t.text)) + "'");
  }
  next();
}

const Token& Parser::expect_word(const char* what) {
  if (peek().kind != Tok::Word)
    fail(peek(), std::string("expected ") + what + ", found '" + std::string(peek().text) + "'");
  return next();
}

uint64_t Parser::expect_uint(const char* what) {
  const Token& t = peek();
  Literal lit;
  if (t.kind != Tok::Number || !number(t.text, lit) || lit.kind != ImmKind::Int || lit.bits < 0)
    fail(t, std::string("expected ") + what + ", found '" + std::string(t.text) + "'");
  next();
  return static_cast<uint64_t>(lit.bits);
}

void Parser::skip_line() {
  uint32_t line = peek().line;
  while (peek().kind != Tok::End && peek().line == line) next();
}

void Parser::skip_to_semicolon() {
  while (peek().kind != Tok::End && !is_punct(';')) next();
  expect(';', "to end the directive");
}

void Parser::skip_section() {
  const Token& start = next();  // .section
  while (peek().kind != Tok::End && !is_punct('{')) next();
  int depth = 0;
  do {
    if (peek().kind == Tok::End) fail(start, "unterminated .section");
    if (is_punct('{')) ++depth;
    if (is_punct('}')) --depth;
    next();
  } while (depth > 0);
}

// ------------------------------------------------------------------ module
Module Parser::run() {
  while (peek().kind != Tok::End) parse_module_directive();
  resolve_module_symbols();
  return std::move(mod_);
}

void Parser::parse_module_directive() {
  const Token& t = peek();
  if (t.kind != Tok::Word) fail(t, "unexpected '" + std::string(t.text) + "' at module scope");
  std::string_view w = t.text;
  if (w == ".version") {
    next();
    const Token& v = next();
    if (v.kind != Tok::Number) fail(v, "expected a version number after .version");
    mod_.version = std::string(v.text);
  } else if (w == ".target") {
    next();
    mod_.target = std::string(expect_word("a target name").text);
    while (accept(',')) expect_word("a target option");
  } else if (w == ".address_size") {
    next();
    uint64_t n = expect_uint("an address size");
    if (n != 64 && n != 32) fail(t, "unsupported .address_size " + std::to_string(n));
    if (n != 64) fail(t, ".address_size 32 is not supported (only 64-bit PTX)");
    mod_.address_size = static_cast<uint32_t>(n);
  } else if (w == ".file" || w == ".loc") {
    skip_line();
  } else if (w == ".section") {
    skip_section();
  } else if (w == ".pragma") {
    next();
    skip_to_semicolon();
  } else {
    bool is_extern = false, visible = false, weak = false, common = false;
    const Token* common_at = nullptr;
    while (is_word(".extern") || is_word(".visible") || is_word(".weak") || is_word(".common")) {
      if (is_word(".extern")) is_extern = true;
      if (is_word(".visible")) visible = true;
      if (is_word(".weak")) weak = true;
      if (is_word(".common")) common = true, common_at = &peek();
      next();
    }
    const Token& d = peek();
    // Linkage of module variables (merge_modules() reads it): recorded on
    // every variable the declaration names.
    auto variables = [&](Space s) {
      if (common && s != Space::Global) fail(*common_at, ".common applies only to .global variables");
      const size_t first = mod_.globals.size();
      parse_var_decl(s, is_extern, true);
      for (size_t i = first; i < mod_.globals.size(); ++i) {
        mod_.globals[i].visible = visible;
        mod_.globals[i].weak = weak;
        mod_.globals[i].common = common;
      }
    };
    if (is_word(".entry") || is_word(".func")) {
      if (common) fail(*common_at, ".common applies only to .global variables, not to functions");
      parse_function(is_extern, visible, weak);
    } else if (is_word(".global") || is_word(".const") || is_word(".shared") || is_word(".local")) {
      next();
      variables(d.text == ".global" ? Space::Global
                : d.text == ".const" ? Space::Const
                : d.text == ".shared" ? Space::Shared
                                      : Space::Local);
    } else if (is_word(".tex")) {
      next();
      variables(Space::Tex);
    } else {
      fail(d, "unexpected '" + std::string(d.text) + "' at module scope");
    }
  }
}

void Parser::resolve_module_symbols() {
  for (const Deferred& d : deferred_) {
    Function& f = mod_.functions[d.func];
    const std::string& name = f.symbols[d.sym];
    auto g = global_index_.find(name);
    if (g != global_index_.end()) {
      f.symrefs[d.sym] = SymRef{SymKind::Global, g->second};
      continue;
    }
    auto fn = func_index_.find(name);
    if (fn != func_index_.end()) {
      f.symrefs[d.sym] = SymRef{SymKind::Func, fn->second};
      continue;
    }
    fail(*d.at, "undefined symbol '" + name + "'");
  }
  // Address initialisers may name variables declared further down.
  for (const InitRef& r : init_refs_) {
    std::string name(r.at->text);
    if (global_index_.count(name) || func_index_.count(name)) continue;  // a function: a function pointer
    const std::string& var = mod_.globals[r.var].name;
    fail(*r.at, "undefined symbol '" + name + "' in the initialiser of '" + var + "'");
  }
}

// ------------------------------------------------------------------ functions
void Parser::parse_param_list(std::vector<Param>& out) {
  expect('(', "to open the parameter list");
  if (accept(')')) return;
  do {
    const Token& sp = expect_word("'.param'");
    if (sp.text == ".reg") fail(sp, ".reg parameters are not supported (only .param)");
    if (sp.text != ".param") fail(sp, "expected '.param', found '" + std::string(sp.text) + "'");
    Param p;
    bool have_type = false;
    while (peek().kind == Tok::Word && peek().text[0] == '.') {
      const Token& m = next();
      std::string_view s = m.text.substr(1);
      if (s == "align") {
        const uint64_t a = expect_uint("an alignment");
        if (a == 0 || (a & (a - 1))) fail(m, "alignment must be a power of two");
        if (a > kMaxAlign) fail(m, "alignment " + std::to_string(a) + " exceeds " + std::to_string(kMaxAlign));
        p.align = static_cast<uint32_t>(a);
      } else if (s == "ptr") {
        p.is_ptr = true;
      } else if (p.is_ptr && (s == "global" || s == "shared" || s == "const" || s == "local")) {
        // .ptr .global: a hint about what the pointer points to
      } else if (type_from_name(s) != Type::None && !have_type) {
        p.type = type_from_name(s);
        have_type = true;
      } else {
        fail(m, "unexpected '" + std::string(m.text) + "' in parameter declaration");
      }
    }
    if (!have_type) fail(peek(), "parameter without a type");
    p.name = std::string(expect_word("a parameter name").text);
    if (accept('[')) {
      p.count = expect_uint("an array size");
      expect(']', "to close the array size");
    }
    out.push_back(std::move(p));
  } while (accept(','));
  expect(')', "to close the parameter list");
}

void Parser::parse_perf_directives(Function& f) {
  for (;;) {
    const Token& t = peek();
    if (t.kind != Tok::Word) return;
    auto three = [&](std::array<uint32_t, 3>& dst) {
      next();
      dst = {1, 1, 1};
      for (int i = 0; i < 3; ++i) {
        dst[i] = static_cast<uint32_t>(expect_uint("a thread count"));
        if (!accept(',')) break;
      }
    };
    if (t.text == ".maxntid") {
      three(f.maxntid);
    } else if (t.text == ".reqntid") {
      three(f.reqntid);
    } else if (t.text == ".minnctapersm" || t.text == ".maxnctapersm") {
      next();
      uint32_t v = static_cast<uint32_t>(expect_uint("a CTA count"));
      if (t.text == ".minnctapersm") f.minnctapersm = v;
    } else if (t.text == ".maxnreg") {
      next();
      f.maxnreg = static_cast<uint32_t>(expect_uint("a register count"));
    } else if (t.text == ".noreturn") {
      next();
    } else if (t.text == ".pragma") {
      next();
      const Token& s = next();
      if (s.kind != Tok::String) fail(s, "expected a string after .pragma");
      f.pragmas.emplace_back(s.text.substr(1, s.text.size() - 2));
      expect(';', "after .pragma");
    } else {
      return;
    }
  }
}

void Parser::parse_function(bool is_extern, bool visible, bool weak) {
  const Token& kw = next();  // .entry / .func
  Function f;
  f.is_entry = kw.text == ".entry";
  f.visible = visible;
  f.weak = weak;
  f.line = kw.line;
  if (!f.is_entry && is_punct('(')) parse_param_list(f.rets);
  const Token& name = expect_word("a function name");
  f.name = std::string(name.text);
  if (is_punct('(')) parse_param_list(f.params);
  parse_perf_directives(f);

  auto it = func_index_.find(f.name);
  bool fresh = it == func_index_.end();
  if (fresh) {
    it = func_index_.emplace(f.name, static_cast<uint32_t>(mod_.functions.size())).first;
    mod_.functions.emplace_back();
  }
  cur_ = it->second;
  Function& slot = mod_.functions[cur_];
  if (accept(';')) {  // a declaration (prototype or .extern)
    if (fresh || slot.is_extern) {
      f.is_extern = true;
      slot = std::move(f);
    }
    return;
  }
  if (!is_punct('{')) fail(peek(), "expected '{' or ';' after the header of '" + f.name + "'");
  if (!fresh && !slot.is_extern) fail(name, "function '" + f.name + "' defined twice");
  (void)is_extern;
  slot = std::move(f);
  next();  // '{'
  // Formals live in the function's outermost scope.
  regs_.clear();
  syms_.clear();
  frames_.clear();
  sym_keys_.clear();
  labels_.clear();
  label_use_.clear();
  directive_labels_.clear();
  zero_reg_ = kNoReg;
  push_scope();
  depth_ = 1;
  {
    Function& fn = mod_.functions[cur_];
    for (uint32_t i = 0; i < fn.params.size(); ++i) declare_sym(fn.params[i].name, {SymKind::Param, i}, name);
    for (uint32_t i = 0; i < fn.rets.size(); ++i) declare_sym(fn.rets[i].name, {SymKind::Ret, i}, name);
  }
  parse_body();
  finish_function();
}

void Parser::parse_body() {
  for (;;) {
    const Token& t = peek();
    if (t.kind == Tok::End) fail(t, "missing '}' at end of function '" + mod_.functions[cur_].name + "'");
    if (t.kind == Tok::Punct && t.ch == '{') {
      next();
      push_scope();
      ++depth_;
      continue;
    }
    if (t.kind == Tok::Punct && t.ch == '}') {
      next();
      pop_scope();
      if (--depth_ == 0) return;
      continue;
    }
    if (t.kind == Tok::Word && t.text[0] == '.') {
      std::string_view w = t.text;
      if (w == ".reg") {
        parse_reg_decl();
      } else if (w == ".local" || w == ".shared" || w == ".param") {
        next();
        Space s = w == ".local" ? Space::Local : w == ".shared" ? Space::Shared : Space::Param;
        parse_var_decl(s, false, false);
      } else if (w == ".pragma") {
        next();
        const Token& s = next();
        if (s.kind != Tok::String) fail(s, "expected a string after .pragma");
        mod_.functions[cur_].pragmas.emplace_back(s.text.substr(1, s.text.size() - 2));
        expect(';', "after .pragma");
      } else if (w == ".loc" || w == ".file") {
        skip_line();
      } else {
        fail(t, "unexpected directive '" + std::string(w) + "' in function body");
      }
      continue;
    }
    if (t.kind == Tok::Word && is_punct(':', 1)) {  // label
      std::string name(t.text);
      next();
      next();
      if (is_word(".branchtargets") || is_word(".callprototype") || is_word(".calltargets")) {
        directive_labels_.insert(name);
        skip_to_semicolon();
        continue;
      }
      Function& f = mod_.functions[cur_];
      auto it = labels_.find(name);
      if (it == labels_.end()) {
        labels_.emplace(name, static_cast<uint32_t>(f.labels.size()));
        f.labels.emplace_back(name, static_cast<uint32_t>(f.code.size()));
        label_use_.push_back(nullptr);
      } else if (f.labels[it->second].second != kNoPc) {
        fail(t, "label '" + name + "' defined twice");
      } else {
        f.labels[it->second].second = static_cast<uint32_t>(f.code.size());
      }
      continue;
    }
    if (t.kind == Tok::Word || (t.kind == Tok::Punct && t.ch == '@')) {
      parse_instruction();
      continue;
    }
    fail(t, "unexpected '" + std::string(t.text) + "' in function body");
  }
}

void Parser::finish_function() {
  Function& f = mod_.functions[cur_];
  for (size_t i = 0; i < f.labels.size(); ++i)
    if (f.labels[i].second == kNoPc) fail(*label_use_[i], "undefined label '" + f.labels[i].first + "'");
  for (Instr& in : f.code)
    for (int k = 0; k < in.nops; ++k)
      if (in.ops[k].kind == Operand::Kind::Label && in.ops[k].sym != kNoReg)
        in.ops[k].imm = f.labels[in.ops[k].sym].second;
}

// ------------------------------------------------------------------ scopes
void Parser::push_scope() { frames_.emplace_back(); }

void Parser::pop_scope() {
  for (auto& [is_reg, name] : frames_.back()) {
    if (is_reg) {
      auto it = regs_.find(name);
      it->second.pop_back();
      if (it->second.empty()) regs_.erase(it);
    } else {
      auto it = syms_.find(name);
      it->second.pop_back();
      if (it->second.empty()) syms_.erase(it);
    }
  }
  frames_.pop_back();
}

void Parser::declare_reg(const std::string& name, Type t, const Token& at) {
  Function& f = mod_.functions[cur_];
  auto& stack = regs_[name];
  // Re-declaring in the same scope is an error; shadowing an outer one is fine.
  for (auto& [is_reg, n] : frames_.back())
    if (is_reg && n == name) fail(at, "register '" + name + "' declared twice");
  stack.push_back(static_cast<uint32_t>(f.regs.size()));
  f.regs.push_back(RegInfo{name, t});
  frames_.back().emplace_back(true, name);
}

void Parser::declare_sym(const std::string& name, SymRef ref, const Token& at) {
  for (auto& [is_reg, n] : frames_.back())
    if (!is_reg && n == name) fail(at, "'" + name + "' declared twice in the same scope");
  syms_[name].push_back(ref);
  frames_.back().emplace_back(false, name);
}

// ------------------------------------------------------------------ declarations
void Parser::parse_reg_decl() {
  next();  // .reg
  Type type = Type::None;
  while (peek().kind == Tok::Word && peek().text[0] == '.') {
    const Token& m = next();
    Type t = type_from_name(m.text.substr(1));
    if (m.text == ".v2" || m.text == ".v4") fail(m, "vector registers are not supported");
    if (t == Type::None || type != Type::None) fail(m, "unexpected '" + std::string(m.text) + "' in .reg declaration");
    type = t;
  }
  if (type == Type::None) fail(peek(), ".reg without a type");
  do {
    const Token& n = expect_word("a register name");
    std::string base(n.text);
    if (accept('<')) {
      uint64_t count = expect_uint("a register count");
      expect('>', "to close the register range");
      if (count > (1u << 20)) fail(n, "register range too large");
      for (uint64_t i = 0; i < count; ++i) declare_reg(base + std::to_string(i), type, n);
    } else {
      declare_reg(base, type, n);
    }
  } while (accept(','));
  expect(';', "after .reg declaration");
}

void Parser::parse_var_decl(Space space, bool is_extern, bool module_scope) {
  uint32_t align = 0;
  Type type = Type::None;
  bool managed = false;
  while (peek().kind == Tok::Word && peek().text[0] == '.') {
    const Token& m = next();
    std::string_view s = m.text.substr(1);
    if (s == "attribute") {
      // .attribute(.managed) marks a __managed__ variable (unified memory,
      // placed by the CUDA runtime library); .unified(a, b) names a variable
      // shared with the host by uuid: taken and ignored.
      expect('(', "after .attribute");
      do {
        const Token& a = expect_word("a variable attribute");
        if (a.text == ".managed") {
          managed = true;
        } else if (a.text == ".unified") {
          if (accept('(')) {
            do expect_uint("a uuid half"); while (accept(','));
            expect(')', "to close .unified");
          }
        } else {
          fail(a, "unknown variable attribute '" + std::string(a.text) + "' (expected .managed or .unified)");
        }
      } while (accept(','));
      expect(')', "to close .attribute");
    } else if (s == "align") {
      // Checked before narrowing: .align 0x100000010 must not become 16.
      const uint64_t a = expect_uint("an alignment");
      if (a == 0 || (a & (a - 1))) fail(m, "alignment must be a power of two");
      if (a > kMaxAlign) fail(m, "alignment " + std::to_string(a) + " exceeds " + std::to_string(kMaxAlign));
      align = static_cast<uint32_t>(a);
    } else if (s == "texref" || s == "samplerref" || s == "surfref") {
      space = Space::Tex;
      type = Type::B64;
    } else if (s == "v2" || s == "v4") {
      fail(m, "vector variables are not supported");
    } else if (type_from_name(s) != Type::None && type == Type::None) {
      type = type_from_name(s);
    } else {
      fail(m, "unexpected '" + std::string(m.text) + "' in variable declaration");
    }
  }
  if (type == Type::None) fail(peek(), "variable declaration without a type");
  do {
    const Token& n = expect_word("a variable name");
    Variable v;
    v.name = std::string(n.text);
    v.space = space;
    v.type = type;
    v.align = align;
    v.is_extern = is_extern;
    v.managed = managed;
    v.line = n.line;
    bool open_size = false;
    while (accept('[')) {
      v.is_array = true;
      if (accept(']')) {
        open_size = true;
        v.count = 0;
        continue;
      }
      const Token& at = peek();
      const uint64_t dim = expect_uint("an array size");
      // Sizes are 64-bit from here on (ptx/link.cpp adds them up checked);
      // only a size that 64 bits cannot hold is refused here.
      if (dim && v.count > UINT64_MAX / std::max<uint64_t>(type_bytes(type), 1) / dim)
        fail(at, "array '" + v.name + "' is larger than 2^64 bytes");
      v.count *= dim;
      expect(']', "to close the array size");
    }
    if (accept('=')) {
      if (open_size) v.count = 0;
      parse_initializer(v);
      if (open_size) open_size = false;
    }
    if (open_size && !(space == Space::Shared && is_extern))
      fail(n, "array '" + v.name + "' has no size (only extern .shared arrays may be unsized)");
    if (module_scope) {
      if (global_index_.count(v.name)) fail(n, "'" + v.name + "' declared twice");
      global_index_.emplace(v.name, static_cast<uint32_t>(mod_.globals.size()));
      mod_.globals.push_back(std::move(v));
    } else {
      Function& f = mod_.functions[cur_];
      uint32_t idx = static_cast<uint32_t>(f.vars.size());
      std::string name = v.name;
      f.vars.push_back(std::move(v));
      declare_sym(name, {SymKind::Var, idx}, n);
    }
  } while (accept(','));
  expect(';', "after variable declaration");
}

void Parser::parse_initializer(Variable& v) {
  const Token& start = peek();
  bool sized = v.count != 0;
  uint64_t elems = 0;
  auto element = [&]() {
    const Token& at = peek();
    if (sized && elems >= v.count) fail(at, "too many initialisers for '" + v.name + "'");
    if (at.kind == Tok::Word) {
      put_init_address(v, at);
    } else {
      if (at.kind == Tok::Number && is_punct('(', 1))
        fail(at, "mask() initialisers ('" + std::string(at.text) + "(...)') are not supported");
      put_init_value(v, parse_literal(), at);
    }
    ++elems;
  };
  if (is_punct('{')) {
    // Nested braces (multi-dimensional arrays) are flattened in order.
    int depth = 0;
    do {
      if (accept('{')) {
        ++depth;
        continue;
      }
      if (accept('}')) {
        --depth;
        if (depth > 0) accept(',');
        continue;
      }
      element();
      if (!accept(',') && !is_punct('}')) fail(peek(), "expected ',' or '}' in initialiser");
    } while (depth > 0);
  } else {
    element();
  }
  if (!sized) v.count = elems;
  if (v.count == 0) fail(start, "empty initialiser for '" + v.name + "'");
}

void Parser::put_init_value(Variable& v, const Literal& lit, const Token& at) {
  uint64_t bits = static_cast<uint64_t>(lit.bits);
  double dv = 0;
  bool is_float_lit = lit.kind != ImmKind::Int;
  if (lit.kind == ImmKind::F32Bits) {
    float f;
    uint32_t b = static_cast<uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    dv = f;
  } else if (lit.kind == ImmKind::F64Bits) {
    std::memcpy(&dv, &bits, 8);
  }
  uint32_t size = type_bytes(v.type);
  switch (v.type) {
    case Type::F32: {
      float f = is_float_lit ? static_cast<float>(dv) : static_cast<float>(lit.bits);
      if (lit.kind == ImmKind::F32Bits) {
        uint32_t b = static_cast<uint32_t>(bits);
        std::memcpy(&f, &b, 4);
      }
      uint32_t b;
      std::memcpy(&b, &f, 4);
      bits = b;
      break;
    }
    case Type::F64: {
      double d = is_float_lit ? dv : static_cast<double>(lit.bits);
      std::memcpy(&bits, &d, 8);
      break;
    }
    case Type::F16: case Type::BF16: case Type::F16x2: case Type::BF16x2:
      if (is_float_lit) fail(at, "floating-point initialisers for half types are not supported");
      break;
    default:  // integer types take the literal's bits as they are
      break;
  }
  for (uint32_t i = 0; i < size; ++i) v.init.push_back(static_cast<uint8_t>(bits >> (8 * i)));
}

// `sym`, `generic(sym)`, each with optional `+N` terms after it (PTX puts the
// offset outside generic()). The bytes stay zero: the loader writes the
// address once every variable is placed.
void Parser::put_init_address(Variable& v, const Token& at) {
  if (v.space != Space::Global && v.space != Space::Const)
    fail(at, "address initialiser in '" + v.name + "': only .global and .const variables may hold one");
  uint32_t size = type_bytes(v.type);
  if (type_is_float(v.type) || (size != 4 && size != 8))  // .u8 would need mask()
    fail(at, "address initialiser in '" + v.name + "': element type ." + type_name(v.type) +
                 " cannot hold an address (use .u32 or .u64)");
  Variable::AddrInit r;
  r.offset = v.init.size();
  r.generic = at.text == "generic" && is_punct('(', 1);
  if (r.generic) {
    next();
    next();
  }
  const Token& sym = expect_word("a variable name");
  if (r.generic && !is_punct(')'))
    fail(peek(), "expected ')' after generic(" + std::string(sym.text) + "; an offset goes outside: generic(" +
                     std::string(sym.text) + ")+N");
  if (r.generic) next();
  r.symbol = std::string(sym.text);
  while (accept('+'))  // unsigned: offsets wrap like the address arithmetic they stand for
    r.addend = static_cast<int64_t>(static_cast<uint64_t>(r.addend) +
                                    static_cast<uint64_t>(parse_int_literal("address offset")));
  v.init.resize(v.init.size() + size, 0);
  v.addr_inits.push_back(std::move(r));
  // Only module-scope variables are .global/.const, and `v` becomes the next one.
  init_refs_.push_back({static_cast<uint32_t>(mod_.globals.size()), &sym});
}

}  // namespace detail

Module parse(const std::string& text, const std::string& path) {
  detail::Parser p(text, path);
  return p.run();
}

Module parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path + ": cannot open PTX file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw input_error(path + ": cannot read PTX file");
  return parse(ss.str(), path);
}

}  // namespace simt::ptx
