// Limits checked on a TOML text before the TOML library (toml++) sees it.
// toml++ parses dotted keys, table headers and nested arrays/inline tables
// recursively: a key of 50,000 parts (`a.a.a...= 1`, `[a.a.a...]`) or
// 50,000 nested brackets overflows the stack (SIGSEGV), and a 10 MB key
// takes a minute and ends up, twice, in the error message. A cheap scan of
// the text refuses such input first, with file:line, as a config error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace simt::config {

// Nesting: the parts of one dotted key (or table header) plus, for every
// enclosing array or inline table, one level and the parts of the key that
// opened it. Real configurations use 2 or 3.
inline constexpr size_t kMaxTomlDepth = 64;
// Characters of one key (all its parts, dots and quotes included).
inline constexpr size_t kMaxTomlKeyLength = 1024;

// Throws simt::Error(BadInput) "origin:line: ..." when `text` nests deeper
// than kMaxTomlDepth or has a key longer than kMaxTomlKeyLength. Anything
// else (including malformed TOML) is left to the TOML library.
void check_toml_limits(std::string_view text, const std::string& origin);

// `s` itself when at most `max` characters, else its first `max` characters
// followed by "... (N characters)": keeps an echoed key or value from
// swamping a message.
std::string shorten(std::string_view s, size_t max = 120);

}  // namespace simt::config
