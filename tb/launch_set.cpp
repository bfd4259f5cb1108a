#include "launch_set.h"

#include <algorithm>

#include "util/error.h"

namespace simt::tb {

namespace {

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

// A launch number: decimal digits, 1 to 2^64-1.
uint64_t number(const std::string& text, const std::string& part) {
  const auto bad = [&](const std::string& why) {
    return input_error("--launches: '" + part + "': " + why + " (expected N, A-B or A-, from 1, joined by commas)");
  };
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw bad("'" + text + "' is not a launch number");
  uint64_t n = 0;
  for (char c : text) {
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (n > (UINT64_MAX - digit) / 10) throw bad(text + " is too large");
    n = n * 10 + digit;
  }
  if (n == 0) throw bad("launches are numbered from 1");
  return n;
}

}  // namespace

LaunchSet LaunchSet::parse(const std::string& text) {
  if (trimmed(text).empty()) throw input_error("--launches: empty; give launch numbers such as 3-5,9");
  LaunchSet s;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string part = trimmed(text.substr(start, comma - start));
    if (part.empty()) throw input_error("--launches: '" + text + "': an empty item between commas");
    const size_t dash = part.find('-');
    uint64_t first, last;
    if (dash == std::string::npos) {
      first = last = number(part, part);
    } else {
      first = number(trimmed(part.substr(0, dash)), part);
      const std::string end = trimmed(part.substr(dash + 1));
      last = end.empty() ? UINT64_MAX : number(end, part);
      if (last < first) throw input_error("--launches: '" + part + "': the range ends before it starts");
    }
    s.ranges_.emplace_back(first, last);
    start = comma + 1;
  }
  // Sorted and merged, so contains() is a binary search.
  std::sort(s.ranges_.begin(), s.ranges_.end());
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (const auto& r : s.ranges_) {
    if (!merged.empty() && (merged.back().second == UINT64_MAX || r.first <= merged.back().second + 1))
      merged.back().second = std::max(merged.back().second, r.second);
    else
      merged.push_back(r);
  }
  s.ranges_ = std::move(merged);
  return s;
}

bool LaunchSet::contains(uint64_t n) const {
  if (all()) return true;
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), std::make_pair(n, UINT64_MAX));
  if (it == ranges_.begin()) return false;
  --it;
  return n >= it->first && n <= it->second;
}

}  // namespace simt::tb
