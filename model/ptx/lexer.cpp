#include "ptx/lexer.h"

#include "util/error.h"

namespace simt::ptx {
namespace {

bool word_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' ||
         c == '.';
}
bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '.';
}
bool digit(char c) { return c >= '0' && c <= '9'; }

// 'x' for a printable character, 0xNN for any other byte (a NUL or a
// UTF-8 byte would garble the message).
std::string shown_char(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static const char hex[] = "0123456789ABCDEF";
  return std::string("0x") + hex[u >> 4] + hex[u & 15];
}

}  // namespace

std::vector<Token> tokenize(std::string_view src, const std::string& path) {
  std::vector<Token> toks;
  toks.reserve(src.size() / 4 + 16);
  size_t i = 0, n = src.size();
  uint32_t line = 1;
  size_t line_start = 0;
  // `at_line`/`at_line_start` are those of the construct's first character:
  // a comment that spans lines has moved `line`/`line_start` past it, and
  // `at - line_start` would wrap around.
  auto fail_at = [&](uint32_t at_line, size_t at_line_start, size_t at, const std::string& msg) {
    return input_error(path + ":" + std::to_string(at_line) + ":" +
                       std::to_string(at - at_line_start + 1) + ": " + msg);
  };
  auto fail = [&](size_t at, const std::string& msg) { return fail_at(line, line_start, at, msg); };
  while (i < n) {
    char c = src[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      while (i < n && src[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      const size_t start = i, start_line_start = line_start;
      const uint32_t start_line = line;
      i += 2;
      while (i + 1 < n && !(src[i] == '*' && src[i + 1] == '/')) {
        if (src[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
        ++i;
      }
      if (i + 1 >= n) throw fail_at(start_line, start_line_start, start, "unterminated /* comment");
      i += 2;
      continue;
    }
    Token t;
    t.line = line;
    t.col = static_cast<uint32_t>(i - line_start + 1);
    t.offset = static_cast<uint32_t>(i);
    size_t start = i;
    if (word_start(c)) {
      ++i;
      while (i < n) {
        if (word_char(src[i])) {
          ++i;
        } else if (src[i] == ':' && i + 1 < n && src[i + 1] == ':') {
          i += 2;  // cache hints such as .L2::cache_hint
        } else {
          break;
        }
      }
      t.kind = Tok::Word;
    } else if (digit(c)) {
      // Hex-like prefixes (0x, 0f, 0d, 0b) never take an exponent sign.
      bool prefixed = c == '0' && i + 1 < n &&
                      (src[i + 1] == 'x' || src[i + 1] == 'X' || src[i + 1] == 'f' ||
                       src[i + 1] == 'F' || src[i + 1] == 'd' || src[i + 1] == 'D' ||
                       src[i + 1] == 'b' || src[i + 1] == 'B');
      ++i;
      while (i < n) {
        char d = src[i];
        if (word_char(d) && d != '$') {
          ++i;
        } else if ((d == '+' || d == '-') && !prefixed && (src[i - 1] == 'e' || src[i - 1] == 'E') &&
                   i + 1 < n && digit(src[i + 1])) {
          ++i;
        } else {
          break;
        }
      }
      t.kind = Tok::Number;
    } else if (c == '"') {
      ++i;
      while (i < n && src[i] != '"' && src[i] != '\n') {
        // An escape never swallows the newline: the string is unterminated
        // there, and `line` stays right for every later token.
        if (src[i] == '\\' && i + 1 < n && src[i + 1] != '\n') ++i;
        ++i;
      }
      if (i >= n || src[i] != '"') throw fail(start, "unterminated string");
      ++i;
      t.kind = Tok::String;
    } else {
      switch (c) {
        case ',': case ';': case ':': case '{': case '}': case '[': case ']': case '(':
        case ')': case '<': case '>': case '=': case '+': case '-': case '@': case '!':
        case '|':
          break;
        default:
          throw fail(start, "unexpected character " + shown_char(c));
      }
      ++i;
      t.kind = Tok::Punct;
      t.ch = c;
    }
    t.text = src.substr(start, i - start);
    toks.push_back(t);
  }
  Token end;
  end.kind = Tok::End;
  end.line = line;
  end.col = static_cast<uint32_t>(i - line_start + 1);
  end.offset = static_cast<uint32_t>(n);
  toks.push_back(end);
  return toks;
}

}  // namespace simt::ptx
