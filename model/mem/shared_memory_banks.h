// Shared-memory banks: how many cycles one warp instruction's shared
// accesses occupy the banks. Consecutive `bank_width`-byte words sit in
// consecutive banks (word w in bank w % banks); each bank serves one
// distinct word per cycle, and every thread reading the same word is served
// by that one access (broadcast). So cycles = the largest number of
// distinct words any one bank must serve, and bank conflicts = cycles - 1.
//
// Wider accesses: the executor reports a .v2/.v4 access as one access per
// element, and an element wider than a bank word (an 8-byte element with
// 4-byte banks) covers consecutive words, i.e. consecutive banks. All those
// words go through the same rule. For unit-stride 8-byte (16-byte) accesses
// this gives 2 (4) cycles, which is what Fermi's split into half-warps
// (quarter-warps) costs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/param_registry.h"
#include "func/executor.h"
#include "stats/stats.h"

namespace simt::mem {

struct SharedMemoryParams {
  uint32_t banks = 32;       // power of two
  uint32_t bank_width = 4;   // bytes per bank word (power of two)
  // Pipeline cycles of a conflict-free access. Fermi's shared-memory
  // load-to-use latency is about 17-24 cycles; 13 leaves ~4 for issue and
  // operand read.
  uint32_t latency = 13;

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

class SharedMemoryBanks {
 public:
  // Counters under "<stats_name>.bank_conflicts" etc.
  SharedMemoryBanks(const SharedMemoryParams& p, stats::Registry& stats, const std::string& stats_name);

  // Bank cycles of one warp instruction: accesses outside the shared space
  // are ignored; 0 if none is shared. Counts the instruction in the stats.
  uint32_t access(const std::vector<func::MemAccess>& accesses);
  // The same computation without touching the stats.
  uint32_t cycles(const std::vector<func::MemAccess>& accesses);

  const SharedMemoryParams& params() const { return p_; }

 private:
  SharedMemoryParams p_;
  uint32_t width_shift_;
  std::vector<uint64_t> words_;    // scratch: words touched by one instruction
  std::vector<uint32_t> per_bank_;  // scratch: distinct words per bank

  stats::Counter& instructions_;
  stats::Counter& words_served_;
  stats::Counter& cycles_;
  stats::Counter& bank_conflicts_;
};

}  // namespace simt::mem
