#include "mem/mshr_table.h"

namespace simt::mem {

MshrTable::MshrTable(uint32_t entries, uint32_t merge)
    : entries_(entries), merge_(merge), slots_(entries), req_ids_(size_t{entries} * merge) {
  active_.reserve(entries);
  active_slot_.reserve(entries);
  free_slots_.reserve(entries);
  // Hand out slot 0 first (purely cosmetic: deterministic either way).
  for (uint32_t s = entries; s-- > 0;) free_slots_.push_back(s);
}

int MshrTable::position(uint64_t line) const {
  const size_t n = active_.size();
  for (size_t i = 0; i < n; ++i)
    if (active_[i] == line) return static_cast<int>(i);
  return -1;
}

MshrTable::AddResult MshrTable::check(uint64_t line) const {
  const int i = position(line);
  if (i >= 0) return slots_[active_slot_[i]].count < merge_ ? AddResult::Merged : AddResult::MergeFull;
  return free_slots_.empty() ? AddResult::NoEntry : AddResult::Allocated;
}

MshrTable::AddResult MshrTable::add(uint64_t line, uint64_t req_id, bool write) {
  const int i = position(line);
  uint32_t s;
  AddResult r;
  if (i >= 0) {
    s = active_slot_[i];
    if (slots_[s].count >= merge_) return AddResult::MergeFull;
    r = AddResult::Merged;
  } else {
    if (free_slots_.empty()) return AddResult::NoEntry;
    s = free_slots_.back();
    free_slots_.pop_back();
    active_.push_back(line);
    active_slot_.push_back(s);
    slots_[s] = Slot{};
    r = AddResult::Allocated;
  }
  Slot& e = slots_[s];
  req_ids_[size_t{s} * merge_ + e.count++] = req_id;
  e.write |= write;
  return r;
}

bool MshrTable::release(uint64_t line, std::vector<uint64_t>& out, bool& had_write) {
  const int i = position(line);
  if (i < 0) return false;
  const uint32_t s = active_slot_[i];
  const uint64_t* ids = &req_ids_[size_t{s} * merge_];
  out.insert(out.end(), ids, ids + slots_[s].count);
  had_write = slots_[s].write;
  // Swap-remove from the compact arrays.
  active_[i] = active_.back();
  active_.pop_back();
  active_slot_[i] = active_slot_.back();
  active_slot_.pop_back();
  free_slots_.push_back(s);
  return true;
}

}  // namespace simt::mem
