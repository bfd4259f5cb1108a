#include "util/process_start.h"

namespace simt::util {

namespace {

// Constant-initialised (no dynamic initialiser can overwrite it), then set
// by a constructor that runs before the default-priority ones.
std::chrono::steady_clock::time_point g_start;

__attribute__((constructor(101))) void note_process_start() { g_start = std::chrono::steady_clock::now(); }

}  // namespace

std::chrono::steady_clock::time_point process_start() { return g_start; }

}  // namespace simt::util
