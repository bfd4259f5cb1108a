#include "func/device_printf.h"

#include <cstdio>
#include <cstring>

#include "func/address_space.h"
#include "func/exec_context.h"

namespace simt::func {

bool read_generic(ExecContext& c, uint32_t t, uint64_t addr, void* dst, size_t n, std::string& error) {
  auto window = [&](const uint8_t* base, uint64_t size, uint64_t off, const char* what) {
    if (off > size || n > size - off) {
      error = std::string(what) + " address out of range";
      return false;
    }
    std::memcpy(dst, base + off, n);
    return true;
  };
  if (in_window(addr, kSharedWindow))
    return window(c.cta.shared().data(), c.cta.shared().size(), addr - kSharedWindow, "shared");
  if (in_window(addr, kLocalWindow))
    return window(c.cta.local(t), c.cta.local_bytes(), addr - kLocalWindow, "local");
  if (in_window(addr, kParamWindow))
    return window(c.cta.params().data(), c.cta.params().size(), addr - kParamWindow, "param");
  if (!c.env.global || !c.env.global->mapped(addr, n)) {
    error = "load from unmapped global address";
    return false;
  }
  c.env.global->read(addr, dst, n);
  return true;
}

bool read_device_string(ExecContext& c, uint32_t t, uint64_t addr, std::string& s, std::string& error,
                        size_t max_len) {
  s.clear();
  for (size_t i = 0; i < max_len; ++i) {
    char ch;
    if (!read_generic(c, t, addr + i, &ch, 1, error)) return false;
    if (ch == '\0') return true;
    s.push_back(ch);
  }
  error = "string longer than " + std::to_string(max_len) + " bytes (missing terminator?)";
  return false;
}

namespace {

// Sequential reader of the packed argument buffer.
struct ArgReader {
  ExecContext& c;
  uint32_t t;
  uint64_t addr;
  uint64_t off = 0;
  std::string& error;

  bool next(uint32_t size, uint64_t& v) {
    off = (off + size - 1) / size * size;  // each argument is aligned to its size
    v = 0;
    if (addr == 0) {
      error = "printf argument buffer is null but the format needs arguments";
      return false;
    }
    if (!read_generic(c, t, addr + off, &v, size, error)) {
      error = "printf argument: " + error;
      return false;
    }
    off += size;
    return true;
  }
};

// Appends snprintf(spec, value) to `out`.
template <class T>
void append(std::string& out, const std::string& spec, T value) {
  char small[128];
  const int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof small) {
    out.append(small, static_cast<size_t>(n));
    return;
  }
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(&big[0], big.size(), spec.c_str(), value);
  out.append(big.data(), static_cast<size_t>(n));
}

}  // namespace

bool format_device_printf(ExecContext& c, uint32_t t, uint64_t fmt_addr, uint64_t args, std::string& out,
                          std::string& error) {
  std::string fmt;
  if (!read_device_string(c, t, fmt_addr, fmt, error)) {
    error = "printf format string: " + error;
    return false;
  }
  ArgReader ar{c, t, args, 0, error};
  out.clear();
  size_t i = 0;
  while (i < fmt.size()) {
    const char ch = fmt[i];
    if (ch != '%') {
      out.push_back(ch);
      ++i;
      continue;
    }
    const size_t start = i++;
    if (i < fmt.size() && fmt[i] == '%') {
      out.push_back('%');
      ++i;
      continue;
    }
    // The conversion spec handed to snprintf: flags, then width/precision
    // with any `*` replaced by the argument's value, then our own length.
    std::string spec = "%";
    while (i < fmt.size() && std::strchr("-+ #0", fmt[i])) spec.push_back(fmt[i++]);
    auto number = [&](bool allow_star) -> bool {
      if (i < fmt.size() && fmt[i] == '*' && allow_star) {
        ++i;
        uint64_t v;
        if (!ar.next(4, v)) return false;
        spec += std::to_string(static_cast<int32_t>(v));
        return true;
      }
      while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') spec.push_back(fmt[i++]);
      return true;
    };
    if (!number(true)) return false;
    if (i < fmt.size() && fmt[i] == '.') {
      spec.push_back(fmt[i++]);
      if (!number(true)) return false;
    }
    // Length modifier: how many bytes the argument occupies and how to cast it.
    int len = 0;  // 0 none, -1 h, -2 hh, 1 l, 2 ll, 3 z/j/t
    if (i < fmt.size()) {
      if (fmt[i] == 'h') {
        len = -1;
        if (++i < fmt.size() && fmt[i] == 'h') { len = -2; ++i; }
      } else if (fmt[i] == 'l') {
        len = 1;
        if (++i < fmt.size() && fmt[i] == 'l') { len = 2; ++i; }
      } else if (fmt[i] == 'z' || fmt[i] == 'j' || fmt[i] == 't') {
        len = 3;
        ++i;
      } else if (fmt[i] == 'L') {
        error = "printf: long double (%L) is not supported";
        return false;
      }
    }
    if (i >= fmt.size()) {  // dangling '%...': printed as written
      out.append(fmt, start, std::string::npos);
      break;
    }
    const char conv = fmt[i++];
    uint64_t v;
    switch (conv) {
      case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': {
        const uint32_t size = len >= 1 ? 8 : 4;
        if (!ar.next(size, v)) return false;
        const bool sgn = conv == 'd' || conv == 'i';
        long long sv;
        unsigned long long uv;
        switch (len) {
          case -2: sv = static_cast<signed char>(v); uv = static_cast<unsigned char>(v); break;
          case -1: sv = static_cast<int16_t>(v); uv = static_cast<uint16_t>(v); break;
          case 0: sv = static_cast<int32_t>(v); uv = static_cast<uint32_t>(v); break;
          default: sv = static_cast<long long>(v); uv = v; break;
        }
        spec += "ll";
        spec.push_back(conv);
        if (sgn) append(out, spec, sv);
        else append(out, spec, uv);
        break;
      }
      case 'c':
        if (!ar.next(4, v)) return false;
        spec.push_back('c');
        append(out, spec, static_cast<int>(static_cast<unsigned char>(v)));
        break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        if (!ar.next(8, v)) return false;
        double d;
        std::memcpy(&d, &v, 8);
        spec.push_back(conv);
        append(out, spec, d);
        break;
      }
      case 's': {
        if (!ar.next(8, v)) return false;
        std::string s;
        if (v == 0) {
          s = "(null)";
        } else if (!read_device_string(c, t, v, s, error)) {
          error = "printf %s argument: " + error;
          return false;
        }
        spec.push_back('s');
        append(out, spec, s.c_str());
        break;
      }
      case 'p':
        if (!ar.next(8, v)) return false;
        spec.push_back('p');
        append(out, spec, reinterpret_cast<void*>(static_cast<uintptr_t>(v)));
        break;
      default:
        error = std::string("printf: unsupported conversion '%") + conv + "'";
        return false;
    }
  }
  return true;
}

}  // namespace simt::func
