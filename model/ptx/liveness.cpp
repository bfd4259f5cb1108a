#include "ptx/liveness.h"

#include <string>

#include "ptx/def_use.h"
#include "util/error.h"

namespace simt::ptx {

Liveness::Liveness(const Program& p, const Cfg& cfg) {
  const uint32_t nregs = p.num_regs();
  words_ = (nregs + 63) / 64;
  const auto& blocks = cfg.blocks();
  const size_t nb = blocks.size();
  in_.assign(nb * words_, 0);
  out_.assign(nb * words_, 0);
  // Per-block upward-exposed uses (gen) and unconditional definitions (kill).
  std::vector<uint64_t> gen(nb * words_, 0), kill(nb * words_, 0);
  for (const BasicBlock& b : blocks) {
    uint64_t* g = gen.data() + size_t{b.id} * words_;
    uint64_t* k = kill.data() + size_t{b.id} * words_;
    for (uint32_t pc = b.begin; pc < b.end; ++pc) {
      const DefUse du = def_use(p.code[pc]);
      for (uint32_t r : du.uses) {
        if (r >= nregs)
          throw input_error("liveness: register index " + std::to_string(r) + " out of range at pc " +
                            std::to_string(pc));
        if (!((k[r / 64] >> (r % 64)) & 1u)) g[r / 64] |= uint64_t{1} << (r % 64);
      }
      if (du.partial_defs) continue;
      for (uint32_t r : du.defs) {
        if (r >= nregs)
          throw input_error("liveness: register index " + std::to_string(r) + " out of range at pc " +
                            std::to_string(pc));
        k[r / 64] |= uint64_t{1} << (r % 64);
      }
    }
  }
  // Round-robin iteration in reverse block order (fast for backward problems)
  // until nothing changes; blocks of different functions never connect.
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t i = nb; i-- > 0;) {
      const BasicBlock& b = blocks[i];
      uint64_t* o = out_.data() + i * words_;
      for (uint32_t s : b.succs) {
        const uint64_t* si = in_.data() + static_cast<size_t>(s) * words_;
        for (uint32_t w = 0; w < words_; ++w) o[w] |= si[w];
      }
      uint64_t* in = in_.data() + i * words_;
      const uint64_t* g = gen.data() + i * words_;
      const uint64_t* k = kill.data() + i * words_;
      for (uint32_t w = 0; w < words_; ++w) {
        const uint64_t v = g[w] | (o[w] & ~k[w]);
        if (v != in[w]) {
          in[w] = v;
          changed = true;
        }
      }
    }
  }
}

uint32_t Liveness::count(const uint64_t* set) const {
  uint32_t c = 0;
  for (uint32_t w = 0; w < words_; ++w) c += static_cast<uint32_t>(__builtin_popcountll(set[w]));
  return c;
}

std::vector<uint32_t> Liveness::list(const uint64_t* set) const {
  std::vector<uint32_t> regs;
  for (uint32_t w = 0; w < words_; ++w)
    for (uint64_t bits = set[w]; bits; bits &= bits - 1)
      regs.push_back(w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits)));
  return regs;
}

}  // namespace simt::ptx
