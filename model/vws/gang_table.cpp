#include "vws/gang_table.h"

#include <stdexcept>
#include <string>

namespace simt::vws {

namespace {

uint32_t popcount(uint8_t m) { return static_cast<uint32_t>(__builtin_popcount(m)); }

}  // namespace

GangTable::GangTable(uint32_t sets, uint32_t slices) : sets_(sets), slices_(slices), e_(size_t{sets} * kWays) {
  if (slices < 2 || slices > 8) throw std::invalid_argument("gang table: 2 to 8 slices, not " + std::to_string(slices));
}

void GangTable::out_of_range(uint32_t set, uint32_t way) {
  throw std::out_of_range("gang table: set " + std::to_string(set) + " way " + std::to_string(way));
}

uint8_t GangTable::ganged(uint32_t set) const {
  uint8_t m = 0;
  for (uint32_t w = 0; w < kWays; ++w)
    if (entry(set, w).used) m |= entry(set, w).mask;
  return m;
}

uint32_t GangTable::gangs(uint32_t set) const {
  uint32_t n = 0;
  for (uint32_t w = 0; w < kWays; ++w) n += entry(set, w).used;
  return n;
}

int GangTable::free_way(uint32_t set) const {
  for (uint32_t w = 0; w < kWays; ++w)
    if (!entry(set, w).used) return static_cast<int>(w);
  return -1;
}

void GangTable::put(uint32_t set, uint32_t way, uint8_t mask, uint32_t pc, GangChange& c) {
  GangEntry& g = e_[at(set, way)];
  g = GangEntry{};
  g.used = true;
  g.mask = mask;
  g.pc = pc;
  c.ways |= static_cast<uint8_t>(1u << way);
}

void GangTable::free(uint32_t set, uint32_t way, GangChange& c) {
  GangEntry& g = e_[at(set, way)];
  c.left |= g.mask;
  g = GangEntry{};
  c.ways |= static_cast<uint8_t>(1u << way);
}

void GangTable::settle(uint32_t set, uint32_t way, GangChange& c) {
  if (entry(set, way).used && popcount(entry(set, way).mask) < 2) free(set, way, c);
}

GangChange GangTable::start(uint32_t set, uint8_t members, uint32_t pc) {
  GangChange c;
  if (ganged(set)) throw std::logic_error("gang table: set " + std::to_string(set) + " started twice");
  members &= all();
  if (popcount(members) >= 2) put(set, 0, members, pc, c);
  else c.left = members;
  return c;
}

void GangTable::clear(uint32_t set) {
  for (uint32_t w = 0; w < kWays; ++w) e_[at(set, w)] = GangEntry{};
}

GangChange GangTable::split_on_pcs(uint32_t set, uint32_t way, const std::vector<uint32_t>& next_pc) {
  GangChange c;
  const GangEntry g = entry(set, way);
  if (!g.used) throw std::logic_error("gang table: split of an unused entry");
  if (next_pc.size() < slices_) throw std::invalid_argument("gang table: one next PC per slice");
  uint8_t rest = g.mask;
  bool first = true;
  while (rest) {
    // The group of the lowest remaining member: every member on its PC.
    const uint32_t lead = static_cast<uint32_t>(__builtin_ctz(rest));
    uint8_t group = 0;
    for (uint32_t k = lead; k < slices_; ++k)
      if (((rest >> k) & 1) && next_pc[k] == next_pc[lead]) group |= static_cast<uint8_t>(1u << k);
    rest &= static_cast<uint8_t>(~group);
    if (first && group == g.mask) {  // no divergence: the gang goes on
      e_[at(set, way)].pc = next_pc[lead];
      return c;
    }
    if (first) {
      e_[at(set, way)] = GangEntry{};
      first = false;
    }
    if (popcount(group) < 2) {
      c.left |= group;
      continue;
    }
    const int w = entry(set, way).used ? free_way(set) : static_cast<int>(way);
    if (w < 0) throw std::logic_error("gang table: a split needs more than four entries");
    put(set, static_cast<uint32_t>(w), group, next_pc[lead], c);
  }
  c.ways |= static_cast<uint8_t>(1u << way);
  return c;
}

GangChange GangTable::split_impatient(uint32_t set, uint32_t way) {
  GangChange c;
  if (!entry(set, way).used) throw std::logic_error("gang table: split of an unused entry");
  free(set, way, c);
  return c;
}

GangChange GangTable::split_group(uint32_t set, uint32_t way, uint8_t ready_now) {
  GangChange c;
  const GangEntry g = entry(set, way);
  if (!g.used) throw std::logic_error("gang table: split of an unused entry");
  ready_now &= g.mask;
  if (ready_now == 0 || ready_now == g.mask) return c;  // nobody or everybody: no divergence
  const uint8_t waiting = g.mask & static_cast<uint8_t>(~ready_now);
  // The ready warps form a new gang (a single one leaves); the others keep the entry.
  e_[at(set, way)].mask = waiting;
  e_[at(set, way)].ready = 0;
  c.ways |= static_cast<uint8_t>(1u << way);
  if (popcount(ready_now) >= 2) {
    const int w = free_way(set);
    if (w < 0) throw std::logic_error("gang table: a split needs more than four entries");
    put(set, static_cast<uint32_t>(w), ready_now, g.pc, c);
    e_[at(set, static_cast<uint32_t>(w))].ready = ready_now;
  } else {
    c.left |= ready_now;
  }
  settle(set, way, c);
  return c;
}

GangChange GangTable::reform(uint32_t set, uint8_t candidates, const std::vector<uint32_t>& pc) {
  GangChange c;
  candidates &= static_cast<uint8_t>(all() & ~ganged(set));
  if (candidates && pc.size() < slices_) throw std::invalid_argument("gang table: one PC per slice");
  // Items: the set's gangs and the candidate warps, each with its PC.
  struct Item {
    uint32_t pc;
    uint8_t mask;
    int way;  // -1: an unganged warp
  };
  std::vector<Item> items;
  for (uint32_t w = 0; w < kWays; ++w)
    if (entry(set, w).used) items.push_back(Item{entry(set, w).pc, entry(set, w).mask, static_cast<int>(w)});
  for (uint32_t k = 0; k < slices_; ++k)
    if ((candidates >> k) & 1) items.push_back(Item{pc[k], static_cast<uint8_t>(1u << k), -1});
  std::vector<bool> done(items.size(), false);
  for (size_t i = 0; i < items.size(); ++i) {
    if (done[i]) continue;
    uint8_t mask = items[i].mask, from_warps = 0;
    int keep = items[i].way;
    size_t n = 0;
    for (size_t j = i; j < items.size(); ++j) {
      if (done[j] || items[j].pc != items[i].pc) continue;
      done[j] = true;
      ++n;
      mask |= items[j].mask;
      if (items[j].way < 0) from_warps |= items[j].mask;
      else if (keep < 0 || items[j].way < keep) keep = items[j].way;
    }
    if (n < 2) continue;  // nothing to merge with
    for (size_t j = 0; j < items.size(); ++j)
      if (items[j].way >= 0 && items[j].way != keep && items[j].pc == items[i].pc) {
        e_[at(set, static_cast<uint32_t>(items[j].way))] = GangEntry{};
        c.ways |= static_cast<uint8_t>(1u << items[j].way);
      }
    if (keep < 0) keep = free_way(set);
    if (keep < 0) throw std::logic_error("gang table: a reform needs more than four entries");
    put(set, static_cast<uint32_t>(keep), mask, items[i].pc, c);
    c.joined |= from_warps;
  }
  return c;
}

GangChange GangTable::remove(uint32_t set, uint8_t warps) {
  GangChange c;
  for (uint32_t w = 0; w < kWays; ++w) {
    GangEntry& g = e_[at(set, w)];
    if (!g.used || !(g.mask & warps)) continue;
    g.mask &= static_cast<uint8_t>(~warps);
    g.ready &= g.mask;
    c.ways |= static_cast<uint8_t>(1u << w);
    if (g.mask == 0) g = GangEntry{};
    else settle(set, w, c);
  }
  c.left &= static_cast<uint8_t>(~warps);  // finished warps go nowhere
  return c;
}

}  // namespace simt::vws
