// Miss status holding registers: one entry per line being fetched from the
// next level, each holding up to `merge` request ids (the allocating one
// included) in arrival order. Fixed storage, no allocation after
// construction; lookups scan a compact array of the lines in flight, which
// for the tens of entries a cache has is faster than any map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simt::mem {

class MshrTable {
 public:
  enum class AddResult : uint8_t {
    Allocated,  // new entry for the line
    Merged,     // joined the line's entry
    MergeFull,  // the line's entry already holds `merge` requests: nothing changed
    NoEntry,    // no entry for the line and none free: nothing changed
  };

  MshrTable(uint32_t entries, uint32_t merge);

  // Would add() succeed, and would it allocate? (No state change.)
  AddResult check(uint64_t line) const;
  AddResult add(uint64_t line, uint64_t req_id, bool write);
  bool pending(uint64_t line) const { return position(line) >= 0; }

  // Frees the line's entry, appending its request ids (arrival order) to `out`.
  // Returns false if the line had no entry. `had_write`: a write was among them.
  bool release(uint64_t line, std::vector<uint64_t>& out, bool& had_write);

  uint32_t in_use() const { return static_cast<uint32_t>(active_.size()); }
  uint32_t entries() const { return entries_; }
  uint32_t merge_limit() const { return merge_; }

 private:
  struct Slot {
    uint32_t count = 0;
    bool write = false;
  };
  int position(uint64_t line) const;  // index into active_, or -1

  uint32_t entries_, merge_;
  std::vector<uint64_t> active_;       // lines in flight (compact; order irrelevant)
  std::vector<uint32_t> active_slot_;  // slot of active_[i]
  std::vector<uint32_t> free_slots_;
  std::vector<Slot> slots_;
  std::vector<uint64_t> req_ids_;      // [slot * merge + i]
};

}  // namespace simt::mem
