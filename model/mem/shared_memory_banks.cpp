#include "mem/shared_memory_banks.h"

#include <algorithm>

#include "util/error.h"

namespace simt::mem {

namespace {
bool is_pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

void SharedMemoryParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".banks", banks, "shared-memory banks (power of two)", 1, 1024);
  r.add(prefix + ".bank_width", bank_width, "bytes per bank word (power of two)", 1, 64);
  r.add(prefix + ".latency", latency, "cycles of a conflict-free shared-memory access", 1, 100000);
}

void SharedMemoryParams::validate(const std::string& prefix) const {
  if (!is_pow2(banks) || banks > 1024)
    throw simt::input_error("option " + prefix + ".banks: " + std::to_string(banks) +
                            " is not a power of two from 1 to 1024");
  if (!is_pow2(bank_width) || bank_width > 64)
    throw simt::input_error("option " + prefix + ".bank_width: " + std::to_string(bank_width) +
                            " is not a power of two from 1 to 64");
  if (latency == 0) throw simt::input_error("option " + prefix + ".latency: must be at least 1");
}

SharedMemoryBanks::SharedMemoryBanks(const SharedMemoryParams& p, stats::Registry& st, const std::string& n)
    : p_((p.validate(n), p)),
      width_shift_(static_cast<uint32_t>(__builtin_ctz(p.bank_width))),
      per_bank_(p.banks, 0),
      instructions_(st.counter(n + ".instructions", "warp instructions with shared-memory accesses")),
      words_served_(st.counter(n + ".words", "distinct bank words accessed")),
      cycles_(st.counter(n + ".cycles", "bank cycles (max distinct words per bank, per instruction)")),
      bank_conflicts_(st.counter(n + ".bank_conflicts", "extra bank cycles: sum of (cycles - 1)")) {
  words_.reserve(256);
}

uint32_t SharedMemoryBanks::cycles(const std::vector<func::MemAccess>& accesses) {
  words_.clear();
  for (const func::MemAccess& a : accesses) {
    if (a.space != ptx::Space::Shared || a.size == 0) continue;
    // Parts of a warp from different CTAs (MemAccess::part) use different
    // shared memories: their words never coincide, their banks are the same.
    const uint64_t first = a.addr >> width_shift_, last = (a.addr + a.size - 1) >> width_shift_;
    const uint64_t other_cta = uint64_t{a.part} << 48;
    for (uint64_t w = first; w <= last; ++w) words_.push_back(w + other_cta);
  }
  if (words_.empty()) return 0;
  // Broadcast: a word read by many threads is one access.
  std::sort(words_.begin(), words_.end());
  words_.erase(std::unique(words_.begin(), words_.end()), words_.end());
  const uint64_t bank_mask = p_.banks - 1;
  uint32_t worst = 0;
  for (uint64_t w : words_) worst = std::max(worst, ++per_bank_[w & bank_mask]);
  for (uint64_t w : words_) per_bank_[w & bank_mask] = 0;
  return worst;
}

uint32_t SharedMemoryBanks::access(const std::vector<func::MemAccess>& accesses) {
  const uint32_t c = cycles(accesses);
  if (c == 0) return 0;
  ++instructions_;
  words_served_ += words_.size();
  cycles_ += c;
  bank_conflicts_ += c - 1;
  return c;
}

}  // namespace simt::mem
