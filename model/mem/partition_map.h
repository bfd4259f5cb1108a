// How addresses spread over the memory partitions (DRAM channels, each with
// its L2 slice): chunks of `interleave` bytes rotate over the partitions.
// Shared by the crossbar's routing, the DRAM's decoding and the L2's set
// index, so the three always agree.
#pragma once

#include <cstdint>

namespace simt::mem {

// The channel (= L2 partition) that owns `addr`: chunks of `interleave`
// bytes rotate over `parts`. Shared by Dram and the crossbar's routing.
inline uint32_t partition_of(uint64_t addr, uint32_t interleave, uint32_t parts) {
  return uint32_t((addr / interleave) % parts);
}
// The address within its partition (the partition's chunks back to back):
// what a channel decodes into banks and rows, and what an L2 partition
// indexes its sets by, so that every set of every partition is used.
inline uint64_t partition_local(uint64_t addr, uint32_t interleave, uint32_t parts) {
  return (addr / interleave / parts) * interleave + addr % interleave;
}

}  // namespace simt::mem
