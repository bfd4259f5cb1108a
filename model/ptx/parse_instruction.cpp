// Instructions: guard, mnemonic (decoded by opcode_table), operands, calls,
// immediates, and the normalised source text kept for traces.
#include <array>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "ptx/opcode_table.h"
#include "ptx/operand_check.h"
#include "ptx/parser_state.h"

namespace simt::ptx::detail {
namespace {

const std::unordered_map<std::string_view, Sreg>& sreg_table() {
  static const std::unordered_map<std::string_view, Sreg> table = [] {
    std::unordered_map<std::string_view, Sreg> t;
    for (int i = 0; i < static_cast<int>(Sreg::Count); ++i)
      t.emplace(sreg_name(static_cast<Sreg>(i)), static_cast<Sreg>(i));
    return t;
  }();
  return table;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Accumulates digits of `s` in `base`; false on a bad digit or overflow of 64 bits.
bool parse_digits(std::string_view s, int base, uint64_t& out) {
  if (s.empty()) return false;
  uint64_t v = 0;
  for (char c : s) {
    int d = hex_digit(c);
    if (d < 0 || d >= base) return false;
    if (v > (~uint64_t{0} - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) return false;
    v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  out = v;
  return true;
}

}  // namespace

bool Parser::number(std::string_view s, Literal& out) {
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
    uint64_t v;
    if (s.size() != 10 || !parse_digits(s.substr(2), 16, v)) return false;
    out = {ImmKind::F32Bits, static_cast<int64_t>(v)};
    return true;
  }
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
    uint64_t v;
    if (s.size() != 18 || !parse_digits(s.substr(2), 16, v)) return false;
    out = {ImmKind::F64Bits, static_cast<int64_t>(v)};
    return true;
  }
  bool hex = s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (!hex && (s.find('.') != std::string_view::npos || s.find_first_of("eE") != std::string_view::npos)) {
    std::string tmp(s);
    char* end = nullptr;
    double d = std::strtod(tmp.c_str(), &end);
    if (end != tmp.c_str() + tmp.size()) return false;
    uint64_t b;
    std::memcpy(&b, &d, 8);
    out = {ImmKind::F64Bits, static_cast<int64_t>(b)};
    return true;
  }
  if (!s.empty() && (s.back() == 'U' || s.back() == 'u')) s.remove_suffix(1);
  uint64_t v;
  bool ok;
  if (hex) ok = parse_digits(s.substr(2), 16, v);
  else if (s.size() >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) ok = parse_digits(s.substr(2), 2, v);
  else if (s.size() >= 2 && s[0] == '0') ok = parse_digits(s.substr(1), 8, v);
  else ok = parse_digits(s, 10, v);
  if (!ok) return false;
  out = {ImmKind::Int, static_cast<int64_t>(v)};
  return true;
}

Literal Parser::parse_literal() {
  bool neg = accept('-');
  const Token& t = peek();
  Literal lit;
  if (t.kind != Tok::Number || !number(t.text, lit))
    fail(t, "bad number '" + std::string(t.text) + "'");
  next();
  if (neg) {
    if (lit.kind == ImmKind::Int) lit.bits = static_cast<int64_t>(0 - static_cast<uint64_t>(lit.bits));
    else if (lit.kind == ImmKind::F32Bits) lit.bits ^= int64_t{1} << 31;
    else lit.bits = static_cast<int64_t>(static_cast<uint64_t>(lit.bits) ^ (uint64_t{1} << 63));
  }
  return lit;
}

int64_t Parser::parse_int_literal(const char* what) {
  const Token& at = peek();
  Literal lit = parse_literal();
  if (lit.kind != ImmKind::Int) fail(at, std::string("expected an integer ") + what);
  return lit.bits;
}

// ------------------------------------------------------------------ names
bool Parser::is_reg_name(const Token& t) const { return regs_.count(std::string(t.text)) != 0; }

uint32_t Parser::lookup_reg(const Token& t) {
  auto it = regs_.find(std::string(t.text));
  if (it == regs_.end()) fail(t, "undefined register '" + std::string(t.text) + "'");
  return it->second.back();
}

Operand Parser::reg_operand(const Token& t) {
  Operand o;
  auto it = regs_.find(std::string(t.text));
  if (it != regs_.end()) {
    o.kind = Operand::Kind::Reg;
    o.reg = it->second.back();
    return o;
  }
  auto s = sreg_table().find(t.text);
  if (s != sreg_table().end()) {
    o.kind = Operand::Kind::Sreg;
    o.sreg = s->second;
    return o;
  }
  fail(t, "undefined register '" + std::string(t.text) + "'");
}

bool Parser::video_operand(const Token& t, Operand& o) {
  const std::string_view text = t.text;
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos) return false;
  auto it = regs_.find(std::string(text.substr(0, dot)));
  if (it == regs_.end()) return false;
  const std::string_view sel = text.substr(dot + 1);
  const bool half = !sel.empty() && sel[0] == 'h';
  if (sel.size() < 2 || sel.size() > 5 || (sel[0] != 'b' && !half))
    fail(t, "bad selector '." + std::string(sel) + "' (expected .b0 ... .b7654 or .h0 ... .h32)");
  uint16_t v = half ? kVideoSelHalf : kVideoSelByte;
  for (size_t i = 1; i < sel.size(); ++i) {
    const int d = sel[i] - '0';
    if (d < 0 || d > (half ? 3 : 7)) fail(t, "bad selector '." + std::string(sel) + "'");
    v = static_cast<uint16_t>(v | (d << (3 * (i - 1))));
  }
  v = static_cast<uint16_t>(v | ((sel.size() - 2) << 12));
  o.kind = Operand::Kind::Reg;
  o.reg = it->second.back();
  o.sel = v;
  return true;
}

uint32_t Parser::symbol_ref(const Token& t) {
  Function& f = mod_.functions[cur_];
  std::string name(t.text);
  std::string key;
  SymRef ref;
  bool local = false;
  auto it = syms_.find(name);
  if (it != syms_.end()) {
    ref = it->second.back();
    local = true;
    key = std::to_string(static_cast<int>(ref.kind)) + ":" + std::to_string(ref.index);
  } else {
    key = "g:" + name;
  }
  auto k = sym_keys_.find(key);
  if (k != sym_keys_.end()) return k->second;
  uint32_t idx = static_cast<uint32_t>(f.symbols.size());
  f.symbols.push_back(name);
  f.symrefs.push_back(ref);
  sym_keys_.emplace(std::move(key), idx);
  if (!local) deferred_.push_back({cur_, idx, &t});
  return idx;
}

uint32_t Parser::label_ref(const Token& t) {
  Function& f = mod_.functions[cur_];
  std::string name(t.text);
  auto it = labels_.find(name);
  if (it != labels_.end()) {
    if (!label_use_[it->second]) label_use_[it->second] = &t;
    return it->second;
  }
  uint32_t idx = static_cast<uint32_t>(f.labels.size());
  labels_.emplace(name, idx);
  f.labels.emplace_back(name, kNoPc);
  label_use_.push_back(&t);
  return idx;
}

// ------------------------------------------------------------------ operands
Operand Parser::parse_vector(int max) {
  const Token& open = next();  // '{'
  Operand o;
  o.kind = Operand::Kind::Vec;
  do {
    const Token& e = peek();
    if (o.vec_n == max)
      fail(e, "vectors of more than " + std::to_string(max) + " elements are not supported");
    if (e.kind == Tok::Word && e.text == "_") {
      next();
      o.vec[o.vec_n++] = kNoReg;
    } else if (e.kind == Tok::Word && (e.text[0] == '%' || is_reg_name(e))) {
      next();
      o.vec[o.vec_n++] = lookup_reg(e);
    } else if (e.kind == Tok::Number && (e.text == "0" || e.text == "0x0" || e.text == "0X0")) {
      next();
      Function& f = mod_.functions[cur_];
      if (zero_reg_ == kNoReg) {
        zero_reg_ = static_cast<uint32_t>(f.regs.size());
        f.regs.push_back(RegInfo{kZeroRegName, Type::B64});
      }
      o.vec[o.vec_n++] = zero_reg_;
    } else {
      fail(e, "bad operand '" + std::string(e.text) + "' in vector (registers, '_' or 0 expected)");
    }
  } while (accept(','));
  if (!accept('}')) fail(peek(), "expected '}' to close the vector opened at column " + std::to_string(open.col));
  return o;
}

void Parser::parse_address(Instr& in, int& k) {
  next();  // '['
  Operand a;
  a.kind = Operand::Kind::Addr;
  const Token& b = peek();
  if (b.kind == Tok::Word && (b.text[0] == '%' || is_reg_name(b))) {
    next();
    a.reg = lookup_reg(b);
  } else if (b.kind == Tok::Word) {
    next();
    a.sym_base = true;
    a.sym = symbol_ref(b);
  } else if (b.kind == Tok::Number || (b.kind == Tok::Punct && b.ch == '-')) {
    a.imm = parse_int_literal("address");
  } else {
    fail(b, "bad address operand '" + std::string(b.text) + "'");
  }
  if (is_punct(',')) {
    // Texture / surface operand: [tex, {coords}] or [tex, sampler, {coords}].
    if (a.sym_base) {
      a.kind = Operand::Kind::Sym;
      a.sym_base = false;
    } else if (a.reg != kNoReg) {
      a.kind = Operand::Kind::Reg;
    } else {
      fail(b, "bad texture operand");
    }
    if (k >= kMaxOperands) fail(b, "too many operands");
    in.ops[k++] = a;
    while (accept(',')) {
      if (k >= kMaxOperands) fail(peek(), "too many operands");
      if (is_punct('{')) {
        in.ops[k++] = parse_vector();
      } else {
        const Token& s = expect_word("a sampler or coordinate");
        Operand o;
        if (s.text[0] == '%' || is_reg_name(s)) {
          o.kind = Operand::Kind::Reg;
          o.reg = lookup_reg(s);
        } else {
          o.kind = Operand::Kind::Sym;
          o.sym = symbol_ref(s);
        }
        in.ops[k++] = o;
      }
    }
    expect(']', "to close the texture operand");
    return;
  }
  if (a.reg != kNoReg || a.sym_base) {
    if (accept('+')) {
      a.imm = parse_int_literal("address offset");
    } else if (is_punct('-')) {
      a.imm = parse_int_literal("address offset");
    }
  }
  expect(']', "to close the address");
  if (k >= kMaxOperands) fail(b, "too many operands");
  in.ops[k++] = a;
}

void Parser::parse_operand(Instr& in, int& k) {
  const Token& t = peek();
  if (t.kind == Tok::Punct && t.ch == '[') {
    parse_address(in, k);
    return;
  }
  if (k >= kMaxOperands) fail(t, "too many operands");
  Operand& o = in.ops[k];
  if (t.kind == Tok::Punct && t.ch == '{') {
    o = parse_vector(is_mma_op(in.op) ? kMaxVec : 4);
  } else if (t.kind == Tok::Punct && t.ch == '!') {
    next();
    const Token& r = peek();
    if (r.kind != Tok::Word || (r.text[0] != '%' && !is_reg_name(r)))
      fail(r, "bad operand: '!' must precede a predicate register");
    next();
    o.kind = Operand::Kind::Reg;
    o.reg = lookup_reg(r);
    o.neg = true;
  } else if (in.op == Op::Vmad && t.kind == Tok::Punct && t.ch == '-' && peek(1).kind == Tok::Word) {
    next();  // vmad's negated operand: -a, -b, -c
    const Token& r = peek();
    next();
    if (!video_operand(r, o)) o = reg_operand(r);
    if (o.kind != Operand::Kind::Reg) fail(r, "bad operand: '-' must precede a register");
    o.neg = true;
  } else if (t.kind == Tok::Number || (t.kind == Tok::Punct && t.ch == '-')) {
    Literal lit = parse_literal();
    o.kind = Operand::Kind::Imm;
    o.imm_kind = lit.kind;
    o.imm = lit.bits;
  } else if (t.kind == Tok::Word) {
    next();
    if (is_video_op(in.op) && video_operand(t, o)) {
    } else if (t.text[0] == '%' || is_reg_name(t)) {
      o = reg_operand(t);
    } else if (t.text == "_") {
      o.kind = Operand::Kind::Reg;  // sink
      o.reg = kNoReg;
    } else if (t.text == "WARP_SZ") {
      o.kind = Operand::Kind::Sreg;
      o.sreg = Sreg::WarpSz;
    } else if (in.op == Op::Bra || in.op == Op::Brx) {
      o.kind = Operand::Kind::Label;
      if (directive_labels_.count(std::string(t.text))) {
        o.sym = kNoReg;  // a .branchtargets list: the linker refuses brx.idx
        o.imm = kNoPc;
      } else {
        o.sym = label_ref(t);
      }
    } else if (t.text[0] == '.') {
      fail(t, "bad operand '" + std::string(t.text) + "'");
    } else {
      o.kind = Operand::Kind::Sym;
      o.sym = symbol_ref(t);
    }
  } else {
    fail(t, "bad operand '" + std::string(t.text) + "'");
  }
  ++k;
}

void Parser::parse_call(Instr& in) {
  Function& f = mod_.functions[cur_];
  CallSite cs;
  auto param_list = [&](std::vector<uint32_t>& out) {
    next();  // '('
    if (accept(')')) return;
    do {
      const Token& p = peek();
      if (p.kind != Tok::Word || p.text[0] == '%' || p.text[0] == '.')
        fail(p, "bad operand '" + std::string(p.text) + "': call arguments must be .param variables");
      next();
      out.push_back(symbol_ref(p));
    } while (accept(','));
    expect(')', "to close the call's parameter list");
  };
  if (is_punct('(')) {
    param_list(cs.rets);
    expect(',', "after the call's return list");
  }
  const Token& target = expect_word("a call target");
  Operand o;
  if (target.text[0] == '%' || is_reg_name(target)) {
    o.kind = Operand::Kind::Reg;
    o.reg = lookup_reg(target);
    cs.callee_reg = o.reg;
  } else {
    o.kind = Operand::Kind::Sym;
    o.sym = symbol_ref(target);
    cs.callee_sym = o.sym;
  }
  in.ops[0] = o;
  in.nops = 1;
  if (accept(',')) {
    if (is_punct('(')) {
      param_list(cs.args);
      if (accept(',')) expect_word("a call prototype or target list");
    } else {
      expect_word("a call prototype or target list");
    }
  }
  expect(';', "after call");
  in.call_info = static_cast<uint32_t>(f.calls.size());
  f.calls.push_back(std::move(cs));
}

// ------------------------------------------------------------------ instructions
std::string Parser::instruction_text(size_t first, size_t mnemonic, size_t last) const {
  // Tokens joined with one space after the guard, after the mnemonic and after commas.
  std::string s;
  for (size_t i = first; i <= last; ++i) {
    const Token& t = toks_[i];
    bool space = i > first && (i == mnemonic || i == mnemonic + 1 ||
                               (toks_[i - 1].kind == Tok::Punct && toks_[i - 1].ch == ','));
    if (space && !(t.kind == Tok::Punct && t.ch == ';')) s += ' ';
    s.append(t.text.data(), t.text.size());
  }
  return s;
}

void Parser::parse_instruction() {
  Function& f = mod_.functions[cur_];
  size_t first = pos_;
  Instr in;
  const Token& start = peek();
  in.line = start.line;
  in.col = start.col;
  if (accept('@')) {
    bool neg = accept('!');
    const Token& r = peek();
    if (r.kind != Tok::Word || (r.text[0] != '%' && !is_reg_name(r)))
      fail(r, "expected a predicate register after '@'");
    next();
    in.guard.kind = Operand::Kind::Reg;
    in.guard.reg = lookup_reg(r);
    in.guard.neg = neg;
  }
  size_t mn_idx = pos_;
  const Token& mn = peek();
  if (mn.kind != Tok::Word || mn.text[0] == '.' || mn.text[0] == '%')
    fail(mn, "expected an instruction, found '" + std::string(mn.text) + "'");
  next();
  if (!decode_mnemonic(mn.text, in)) fail(mn, "unknown instruction '" + std::string(mn.text) + "'");
  std::array<const Token*, kMaxOperands> op_at{};  // where each operand starts, for messages
  const Token* pout_at = &mn;
  if (in.op == Op::Call) {
    parse_call(in);
  } else {
    int k = 0;
    if (!is_punct(';')) {
      for (;;) {
        const Token* at = &peek();
        const int first_op = k;
        parse_operand(in, k);
        for (int i = first_op; i < k; ++i) op_at[static_cast<size_t>(i)] = at;
        if (k == 1 && accept('|')) {
          const Token& p = peek();
          pout_at = &p;
          if (p.kind != Tok::Word || (p.text[0] != '%' && p.text != "_" && !is_reg_name(p)))
            fail(p, "bad operand '" + std::string(p.text) + "' after '|'");
          next();
          in.pout.kind = Operand::Kind::Reg;
          in.pout.reg = p.text == "_" ? kNoReg : lookup_reg(p);
        }
        if (accept(',')) continue;
        break;
      }
    }
    in.nops = static_cast<uint8_t>(k);
    expect(';', "after instruction");
    OperandError err;
    if (!check_operands(in, f.regs, std::string(mn.text), err)) {
      const Token* at = &mn;
      if (err.index == -2) at = pout_at;
      else if (err.index == -3) at = &start;
      else if (err.index >= 0 && err.index < k && op_at[static_cast<size_t>(err.index)]) at = op_at[static_cast<size_t>(err.index)];
      fail(*at, err.message);
    }
  }
  f.code.push_back(in);
  f.text.push_back(instruction_text(first, mn_idx, pos_ - 1));
}

}  // namespace simt::ptx::detail
