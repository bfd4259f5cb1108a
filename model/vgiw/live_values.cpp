#include "vgiw/live_values.h"

#include <algorithm>

#include "ptx/def_use.h"
#include "ptx/liveness.h"

namespace simt::vgiw {

namespace {

// One block's live set walked backward over its instructions.
std::vector<uint32_t> live_above(const ptx::Program& p, uint32_t begin, uint32_t end, std::vector<uint8_t>& live,
                                 const std::vector<uint32_t>& below) {
  std::fill(live.begin(), live.end(), 0);
  for (uint32_t r : below) live[r] = 1;
  for (uint32_t pc = end; pc-- > begin;) {
    const ptx::DefUse du = ptx::def_use(p.code[pc]);
    if (!du.partial_defs)
      for (uint32_t r : du.defs) live[r] = 0;
    for (uint32_t r : du.uses) live[r] = 1;
  }
  std::vector<uint32_t> out;
  for (uint32_t r = 0; r < live.size(); ++r)
    if (live[r]) out.push_back(r);
  return out;
}

}  // namespace

LiveValues::LiveValues(const ptx::Program& p, const ptx::Cfg& cfg, const BlockGraph& g) {
  const ptx::Liveness lv(p, cfg);
  const auto& blocks = g.blocks();
  in_.assign(blocks.size(), {});
  out_.assign(blocks.size(), {});
  std::vector<uint8_t> live(p.num_regs(), 0);
  // Pieces of one Cfg block are consecutive: walk them last to first.
  for (uint32_t i = static_cast<uint32_t>(blocks.size()); i-- > 0;) {
    const Block& b = blocks[i];
    const bool last_piece = i + 1 == blocks.size() || blocks[i + 1].cfg_block != b.cfg_block;
    out_[i] = last_piece ? lv.live_out_regs(b.cfg_block) : in_[i + 1];
    in_[i] = live_above(p, b.begin, b.end, live, out_[i]);
  }

  // Interference: registers live together at some boundary of a reachable block.
  std::vector<std::vector<uint32_t>> sets_of(p.num_regs());
  std::vector<const std::vector<uint32_t>*> sets;
  for (uint32_t i = 0; i < blocks.size(); ++i) {
    if (!blocks[i].reachable) continue;
    for (const auto* s : {&in_[i], &out_[i]}) {
      if (s->empty()) continue;
      for (uint32_t r : *s) sets_of[r].push_back(static_cast<uint32_t>(sets.size()));
      sets.push_back(s);
    }
  }
  id_.assign(p.num_regs(), kNone);
  std::vector<uint8_t> used;
  for (uint32_t r = 0; r < p.num_regs(); ++r) {
    if (sets_of[r].empty()) continue;
    used.assign(count_ + 1, 0);
    for (uint32_t s : sets_of[r])
      for (uint32_t o : *sets[s])
        if (id_[o] != kNone) used[id_[o]] = 1;
    const uint32_t id = static_cast<uint32_t>(std::find(used.begin(), used.end(), 0) - used.begin());
    id_[r] = id;
    count_ = std::max(count_, id + 1);
    ++regs_;
  }
}

}  // namespace simt::vgiw
