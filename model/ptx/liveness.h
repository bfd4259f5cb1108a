// Per-block live registers (VGIW live values, register pressure reports).
//
// Classic backward dataflow, solved per function over its blocks:
//   live_out(b) = union of live_in(s) over successors s (the virtual exit
//                 contributes nothing);
//   live_in(b)  = uses(b) | (live_out(b) - kills(b)).
// A guarded (predicated) definition does not kill the register: threads
// whose guard is false keep the old value, so it stays live above it.
// `call` reads and writes no registers (arguments travel through local
// memory) and functions own disjoint registers after linking, so the
// functions never interfere. Sets are bitsets over Program::regs, stored as
// `words()` uint64_t per block.
#pragma once

#include <cstdint>
#include <vector>

#include "ptx/cfg.h"
#include "ptx/ir.h"

namespace simt::ptx {

class Liveness {
 public:
  Liveness(const Program& p, const Cfg& cfg);

  uint32_t words() const { return words_; }  // uint64_t words per set
  // data() + offset, not &v[offset]: with no registers (words_ == 0) the
  // vectors are empty and v[0] would bind a reference to nothing.
  const uint64_t* live_in(uint32_t block) const { return in_.data() + static_cast<size_t>(block) * words_; }
  const uint64_t* live_out(uint32_t block) const { return out_.data() + static_cast<size_t>(block) * words_; }
  bool is_live_in(uint32_t block, uint32_t reg) const { return test(live_in(block), reg); }
  bool is_live_out(uint32_t block, uint32_t reg) const { return test(live_out(block), reg); }
  uint32_t live_in_count(uint32_t block) const { return count(live_in(block)); }
  uint32_t live_out_count(uint32_t block) const { return count(live_out(block)); }
  std::vector<uint32_t> live_in_regs(uint32_t block) const { return list(live_in(block)); }
  std::vector<uint32_t> live_out_regs(uint32_t block) const { return list(live_out(block)); }

 private:
  bool test(const uint64_t* set, uint32_t reg) const {
    return reg / 64 < words_ && ((set[reg / 64] >> (reg % 64)) & 1u) != 0;
  }
  uint32_t count(const uint64_t* set) const;
  std::vector<uint32_t> list(const uint64_t* set) const;

  uint32_t words_ = 0;
  std::vector<uint64_t> in_, out_;
};

}  // namespace simt::ptx
