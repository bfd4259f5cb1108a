#include "ptx/register_pressure.h"

#include <algorithm>
#include <vector>

#include "ptx/def_use.h"
#include "ptx/liveness.h"

namespace simt::ptx {

namespace {
uint32_t slots(const RegInfo& r) {
  if (r.type == Type::Pred) return 0;
  return type_bytes(r.type) > 4 ? 2 : 1;
}
}  // namespace

uint32_t max_live_registers(const Program& p, const Cfg& cfg) {
  Liveness live(p, cfg);
  std::vector<uint8_t> in_set(p.regs.size(), 0);
  uint32_t best = 0;
  for (uint32_t b = 0; b < cfg.blocks().size(); ++b) {
    const BasicBlock& bb = cfg.blocks()[b];
    // Walk the block backwards from its live-out set.
    std::fill(in_set.begin(), in_set.end(), 0);
    uint32_t now = 0;
    for (uint32_t r : live.live_out_regs(b)) {
      in_set[r] = 1;
      now += slots(p.regs[r]);
    }
    best = std::max(best, now);
    for (uint32_t pc = bb.end; pc-- > bb.begin;) {
      DefUse du = def_use(p.code[pc]);
      if (!du.partial_defs)
        for (uint32_t r : du.defs)
          if (in_set[r]) { in_set[r] = 0; now -= slots(p.regs[r]); }
      for (uint32_t r : du.uses)
        if (!in_set[r]) { in_set[r] = 1; now += slots(p.regs[r]); }
      // Values defined here are live too at this point (the result is written
      // while the operands are read).
      uint32_t defs_here = 0;
      for (uint32_t r : du.defs)
        if (!in_set[r]) defs_here += slots(p.regs[r]);
      best = std::max(best, now + defs_here);
    }
  }
  return best;
}

}  // namespace simt::ptx
