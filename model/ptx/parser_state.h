// Internal to the parser: the state shared by parser.cpp (module structure,
// declarations, scopes) and parse_instruction.cpp (instructions, operands,
// immediates). Not part of the public API; include ptx/parser.h instead.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ptx/ir.h"
#include "ptx/lexer.h"

namespace simt::ptx::detail {

// A parsed numeric literal.
struct Literal {
  ImmKind kind = ImmKind::Int;
  int64_t bits = 0;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& path);
  Module run();

 private:
  // ---- tokens
  const Token& peek(size_t k = 0) const { return toks_[pos_ + k < toks_.size() ? pos_ + k : toks_.size() - 1]; }
  const Token& next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool is_punct(char c, size_t k = 0) const { return peek(k).kind == Tok::Punct && peek(k).ch == c; }
  bool is_word(std::string_view w, size_t k = 0) const { return peek(k).kind == Tok::Word && peek(k).text == w; }
  bool accept(char c);
  void expect(char c, const char* what);
  const Token& expect_word(const char* what);
  uint64_t expect_uint(const char* what);
  [[noreturn]] void fail(const Token& t, const std::string& msg) const;
  void skip_line();            // .loc / .file: no ';', ends at the newline
  void skip_to_semicolon();
  void skip_section();         // .section name { ... }

  // ---- module structure (parser.cpp)
  void parse_module_directive();
  void parse_function(bool is_extern, bool visible, bool weak);
  void parse_param_list(std::vector<Param>& out);
  void parse_perf_directives(Function& f);
  void parse_body();
  void parse_reg_decl();
  void parse_var_decl(Space space, bool is_extern, bool module_scope);
  void parse_initializer(Variable& v);
  void put_init_value(Variable& v, const Literal& lit, const Token& at);
  void put_init_address(Variable& v, const Token& at);
  void finish_function();
  void resolve_module_symbols();

  // ---- scopes
  void push_scope();
  void pop_scope();
  void declare_reg(const std::string& name, Type t, const Token& at);
  void declare_sym(const std::string& name, SymRef ref, const Token& at);

  // ---- instructions (parse_instruction.cpp)
  void parse_instruction();
  void parse_call(Instr& in);
  void parse_operand(Instr& in, int& k);
  void parse_address(Instr& in, int& k);
  Operand parse_vector(int max = 4);  // warp matrix fragments: up to kMaxVec
  Operand reg_operand(const Token& t);
  // Video instructions: a register with a byte/half-word selector (`%r1.b3210`).
  bool video_operand(const Token& t, Operand& o);
  uint32_t lookup_reg(const Token& t);
  bool is_reg_name(const Token& t) const;  // registers need not start with '%'
  uint32_t symbol_ref(const Token& t);
  uint32_t label_ref(const Token& t);
  Literal parse_literal();     // optional '-' then a Number token
  int64_t parse_int_literal(const char* what);
  std::string instruction_text(size_t first_tok, size_t mnemonic_tok, size_t last_tok) const;

 public:
  // Parses one numeric literal (no sign); false if malformed.
  static bool number(std::string_view s, Literal& out);

 private:
  std::string_view src_;
  std::string path_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  Module mod_;
  std::unordered_map<std::string, uint32_t> global_index_, func_index_;

  // Current function.
  uint32_t cur_ = 0;
  int depth_ = 0;
  std::unordered_map<std::string, std::vector<uint32_t>> regs_;    // name -> stack of reg indices
  std::unordered_map<std::string, std::vector<SymRef>> syms_;      // name -> stack of local symbols
  std::vector<std::vector<std::pair<bool, std::string>>> frames_;  // per scope: (is_reg, name) declared
  std::unordered_map<std::string, uint32_t> sym_keys_;             // resolution key -> symbols index
  std::unordered_map<std::string, uint32_t> labels_;               // name -> Function::labels index
  std::vector<const Token*> label_use_;                            // first use of each label
  std::unordered_set<std::string> directive_labels_;               // .branchtargets / .callprototype names
  // A `0` element of a vector operand (`mov.b32 f, {0, %rs1}`, as cuda_bf16.hpp
  // writes bf16 -> f32) reads this hidden register of the function, which
  // nothing writes and so always holds 0. kNoReg until first needed.
  uint32_t zero_reg_ = kNoReg;
  struct Deferred {
    uint32_t func, sym;
    const Token* at;
  };
  std::vector<Deferred> deferred_;  // module-level names, resolved after the whole file
  struct InitRef {
    uint32_t var;        // Module::globals index of the initialised variable
    const Token* at;     // the symbol in its initialiser
  };
  std::vector<InitRef> init_refs_;  // address initialisers, checked after the whole file
};

}  // namespace simt::ptx::detail
