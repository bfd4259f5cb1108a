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

}  // namespace

std::vector<Token> tokenize(std::string_view src, const std::string& path) {
  std::vector<Token> toks;
  toks.reserve(src.size() / 4 + 16);
  size_t i = 0, n = src.size();
  uint32_t line = 1;
  size_t line_start = 0;
  auto fail = [&](size_t at, const std::string& msg) {
    return input_error(path + ":" + std::to_string(line) + ":" +
                       std::to_string(at - line_start + 1) + ": " + msg);
  };
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
      size_t start = i;
      i += 2;
      while (i + 1 < n && !(src[i] == '*' && src[i + 1] == '/')) {
        if (src[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
        ++i;
      }
      if (i + 1 >= n) throw fail(start, "unterminated /* comment");
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
        if (src[i] == '\\' && i + 1 < n) ++i;
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
          throw fail(start, std::string("unexpected character '") + c + "'");
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
