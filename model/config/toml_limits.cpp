// The pre-scan of toml_limits.h: one pass over the text that knows just
// enough TOML (comments, the four kinds of strings, keys versus values,
// brackets) to measure keys and nesting without building anything.
#include "config/toml_limits.h"

#include <vector>

#include "util/error.h"

namespace simt::config {
namespace {

bool bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

class Scanner {
 public:
  Scanner(std::string_view text, const std::string& origin) : t_(text), origin_(origin) {}

  void run() {
    for (i_ = 0; i_ < t_.size(); ++i_) {
      const char c = t_[i_];
      if (c == '\n') {
        new_line();
      } else if (c == '#') {
        while (i_ + 1 < t_.size() && t_[i_ + 1] != '\n') ++i_;
      } else if (c == '"' || c == '\'') {
        const size_t len = skip_string(c);
        if (in_key_) key_chars(len);
      } else if (bare_key_char(c)) {
        if (in_key_) key_chars(1);
      } else if (c == '.') {
        if (in_key_) key_dot();
      } else if (c == '=') {
        if (in_key_) {
          value_parts_ = parts_;
          in_key_ = false;
        }
      } else if (c == '[') {
        if (in_key_ && (open_.empty() || open_.back().header) && key_len_ == 0)
          push(true, 1);  // [table] or [[array of tables]]
        else if (!in_key_)
          push(false, 1 + value_parts_);  // an array value
      } else if (c == '{') {
        if (!in_key_) {
          push(false, 1 + value_parts_);
          start_key();
        }
      } else if (c == ']' || c == '}') {
        if (!open_.empty()) {
          depth_ -= open_.back().cost;
          open_.pop_back();
        }
        in_key_ = false;
        value_parts_ = 0;
      } else if (c == ',') {
        if (!open_.empty() && open_.back().inline_table)
          start_key();
        else
          value_parts_ = 0;
      }
    }
  }

 private:
  struct Open {
    size_t cost;        // levels it adds: 1 plus the parts of the key it is the value of
    bool header;        // [table] / [[array]] (never spans lines)
    bool inline_table;  // { ... } (keys follow its commas)
  };

  [[noreturn]] void fail(const std::string& what) const {
    throw input_error(origin_ + ":" + std::to_string(line_) + ": " + what);
  }

  void start_key() {
    in_key_ = true;
    parts_ = key_len_ = 0;
  }

  void new_line() {
    ++line_;
    while (!open_.empty() && open_.back().header) {  // an unclosed header: the library reports it
      depth_ -= open_.back().cost;
      open_.pop_back();
    }
    if (open_.empty()) {
      start_key();
      value_parts_ = 0;
    }
  }

  void push(bool header, size_t cost) {
    const bool inline_table = t_[i_] == '{';
    open_.push_back(Open{cost, header, inline_table});
    depth_ += cost;
    value_parts_ = 0;  // the key's parts count once, at its value's outermost bracket
    if (depth_ > kMaxTomlDepth) too_deep();
  }

  void key_chars(size_t n) {
    if (parts_ == 0) parts_ = 1;
    key_len_ += n;
    if (key_len_ > kMaxTomlKeyLength)
      fail("TOML key longer than " + std::to_string(kMaxTomlKeyLength) + " characters");
    if (depth_ + parts_ > kMaxTomlDepth) too_deep();
  }

  void key_dot() {
    ++parts_;
    key_chars(1);
  }

  [[noreturn]] void too_deep() const {
    fail("TOML nested deeper than " + std::to_string(kMaxTomlDepth) +
         " levels (the parts of a dotted key or table header, plus its enclosing arrays and inline tables)");
  }

  // Skips the string starting at i_ (quote `q`), leaving i_ on its last
  // character; returns its length with quotes. A one-line string stops
  // before a newline (malformed: the library reports it).
  size_t skip_string(char q) {
    const size_t start = i_;
    const bool multi = t_.compare(i_, 3, std::string(3, q)) == 0;
    i_ += multi ? 3 : 1;
    for (; i_ < t_.size(); ++i_) {
      const char c = t_[i_];
      if (c == '\n') {
        if (!multi) break;
        ++line_;
      } else if (c == '\\' && q == '"') {
        if (i_ + 1 < t_.size() && t_[i_ + 1] == '\n') ++line_;
        ++i_;
      } else if (c == q && (!multi || t_.compare(i_, 3, std::string(3, q)) == 0)) {
        if (multi) {
          i_ += 2;
          while (i_ + 1 < t_.size() && t_[i_ + 1] == q) ++i_;  // up to two quotes may end the content
        }
        return i_ + 1 - start;
      }
    }
    i_ = (i_ < t_.size() ? i_ : t_.size()) - 1;  // on the newline's predecessor, or the last character
    return i_ + 1 - start;
  }

  std::string_view t_;
  const std::string& origin_;
  size_t i_ = 0;
  size_t line_ = 1;
  std::vector<Open> open_;
  size_t depth_ = 0;        // sum of open_[].cost
  bool in_key_ = true;      // reading a key (line start, header, after '{' or an inline table's ',')
  size_t parts_ = 0;        // parts of the key being read
  size_t key_len_ = 0;      // its characters so far
  size_t value_parts_ = 0;  // parts of the key whose value is being read
};

}  // namespace

void check_toml_limits(std::string_view text, const std::string& origin) { Scanner(text, origin).run(); }

std::string shorten(std::string_view s, size_t max) {
  if (s.size() <= max) return std::string(s);
  return std::string(s.substr(0, max)) + "... (" + std::to_string(s.size()) + " characters)";
}

}  // namespace simt::config
