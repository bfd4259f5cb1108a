// Device-side printf (the `vprintf` builtin nvcc calls) and the small
// generic-memory readers it and __assertfail need. Not a hot path: each call
// formats one thread's output into a std::string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace simt::func {

struct ExecContext;

// Reads `n` bytes at generic address `addr` as thread `t` sees it (shared,
// local and parameter windows, else global memory). False if any byte is not
// accessible; `error` then says why.
bool read_generic(ExecContext& c, uint32_t t, uint64_t addr, void* dst, size_t n, std::string& error);

// Reads a NUL-terminated string (at most `max_len` bytes) at generic address `addr`.
bool read_device_string(ExecContext& c, uint32_t t, uint64_t addr, std::string& s, std::string& error,
                        size_t max_len = 1u << 16);

// Formats one printf call of thread `t`: the format string at generic address
// `fmt`, the packed argument buffer at generic address `args` (each argument
// aligned to its own size; floats arrive promoted to double). Supports
// %d %i %u %x %X %o %c %s %p %f %F %e %E %g %G %a %A %% with flags, width,
// precision (incl. `*`) and the lengths h hh l ll z j t. False with `error`
// set for a bad pointer or an unsupported conversion.
bool format_device_printf(ExecContext& c, uint32_t t, uint64_t fmt, uint64_t args, std::string& out,
                          std::string& error);

}  // namespace simt::func
