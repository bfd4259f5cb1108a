// Where each state space lives in the 64-bit generic address space.
//
// Global and const share one space: .const variables are placed in device
// memory by the loader, so cvta.const / cvta.to.const are identities and a
// generic pointer to const data is just its global address. Shared, local and
// kernel-parameter memory are reached from generic pointers through windows.
#pragma once

#include <cstdint>

namespace simt::func {

inline constexpr uint64_t kWindowSize = uint64_t{1} << 32;
inline constexpr uint64_t kSharedWindow = 0x0000'7100'0000'0000ull;  // + shared offset
inline constexpr uint64_t kLocalWindow = 0x0000'7200'0000'0000ull;   // + local offset of the accessing thread
inline constexpr uint64_t kParamWindow = 0x0000'7300'0000'0000ull;   // + kernel parameter offset
inline constexpr uint64_t kGlobalHeapBase = 0x0000'0001'0000'0000ull;  // first device allocation

inline bool in_window(uint64_t addr, uint64_t base) { return addr - base < kWindowSize; }

}  // namespace simt::func
