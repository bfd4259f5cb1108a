// PTX tokenizer. The whole file is tokenized once into a vector (cheap: a
// token is a view into the source text plus its position), which gives the
// parser free lookahead. Comments are dropped; newlines are not tokens, but
// every token knows its line, which is how line-oriented directives such as
// `.loc` are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace simt::ptx {

enum class Tok : uint8_t {
  Word,    // identifier, directive, mnemonic or register: [A-Za-z_$%.][A-Za-z0-9_$.]* with "::" allowed inside
  Number,  // starts with a digit: 12, 0x1F, 0f3F800000, 1.5e-3, 7U
  String,  // "..." (text keeps the quotes)
  Punct,   // one character: , ; : { } [ ] ( ) < > = + - @ ! |
  End,
};

struct Token {
  Tok kind = Tok::End;
  char ch = 0;            // the character for Punct
  uint32_t line = 0, col = 0;
  uint32_t offset = 0;    // byte offset of the token in the source
  std::string_view text;  // view into the source
};

// Tokenizes `src` (which must outlive the tokens). Throws simt::Error
// (BadInput) "path:line:col: ..." on an unterminated comment or string or a
// stray character.
std::vector<Token> tokenize(std::string_view src, const std::string& path);

}  // namespace simt::ptx
