// One set-associative cache class for every cache of the machine (L0I, L1I,
// L1D, L2, LVC): tags, LRU replacement, miss status holding registers (MSHRs)
// and the write policy. It is cycle-free: access() and fill() say what
// happened and the owner (an sc_module wrapper, or a test) decides when
// things happen and talks to the next level.
//
// Allocation happens on fill: a miss reserves an MSHR, not a line, so a
// cache never refuses an access because every way of a set is pending;
// the only structural refusal is running out of MSHRs or merge slots.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/param_registry.h"
#include "mem/mshr_table.h"
#include "mem/partition_map.h"
#include "stats/stats.h"

namespace simt::mem {

struct CacheParams {
  uint32_t size = 65536;        // capacity in bytes = line * assoc * sets
  uint32_t line = 128;          // line size in bytes (power of two >= 4)
  uint32_t assoc = 8;           // ways per set
  uint32_t hit_latency = 1;     // cycles from access to data on a hit (used by the owner)
  uint32_t mshrs = 32;          // MSHR entries (distinct lines in flight)
  uint32_t mshr_merge = 8;      // requests one MSHR entry holds, the allocating one included
  std::string write_policy = "write-back";  // write-back | write-validate | write-through | write-evict
  std::string replacement = "lru";

  void bind(config::ParamRegistry& r, const std::string& prefix);
  // Throws simt::input_error("option <prefix>.<name>: ...") on a bad value.
  void validate(const std::string& prefix) const;
};

enum class WritePolicy : uint8_t {
  WriteBack,     // write-allocate, dirty lines, dirty victims written back
  WriteValidate, // write-back, but a write miss installs its line without fetching it:
                 // for storage whose words are written before they are read (the LVC)
  WriteThrough,  // no write-allocate; a write hit updates the line; every write goes on
  WriteEvict,    // no write-allocate; a write hit invalidates the line (Fermi L1D)
};

class Cache {
 public:
  enum class Outcome : uint8_t {
    Hit,              // data is here (a write-back write hit also dirtied the line)
    Miss,             // a new MSHR was allocated: the owner sends a line fill to the next level
    MissMerged,       // joined the MSHR already waiting for this line
    WriteForward,     // write not kept here (write-through / write-evict): the owner forwards it
    ReservationFail,  // no free MSHR or the line's entry is full: nothing changed, retry later
    Installed,        // write-validate write miss: the line is now here and dirty, like a hit,
                      // with no fill; installed() says whether a dirty victim must be written back
  };
  enum class Probe : uint8_t { Absent, Present, Pending };

  // What fill() did. `waiting` points into the cache and stays valid until
  // the next fill() call.
  struct FillResult {
    bool evicted = false;      // a valid line was replaced
    bool writeback = false;    // ... and it was dirty: the owner writes it to the next level
    uint64_t victim_line = 0;  // line address of the replaced line (when evicted)
    const uint64_t* waiting = nullptr;  // req_ids that waited for this line, in arrival order
    uint32_t n_waiting = 0;
  };

  // Counters are registered as "<stats_name>.hits" etc.
  Cache(const CacheParams& p, stats::Registry& stats, const std::string& stats_name);

  Outcome access(uint64_t addr, bool write, uint64_t req_id);
  // Installs `line_addr` (which must have an MSHR from a Miss) and releases its MSHR.
  FillResult fill(uint64_t line_addr);
  // The victim of the last Installed access (evicted, writeback, victim_line;
  // no waiting requests).
  const FillResult& installed() const { return installed_; }

  Probe probe(uint64_t addr) const;  // no side effects (no LRU update, no counters)
  bool dirty(uint64_t addr) const;   // present and dirty
  // Drops every line (dirty data is discarded: this is a kernel-boundary flush
  // of caches that hold no dirty data, e.g. L1s). Pending MSHRs stay.
  void invalidate_all();

  uint32_t mshrs_in_use() const { return mshr_.in_use(); }
  uint64_t line_addr(uint64_t addr) const { return addr & ~line_mask_; }
  const CacheParams& params() const { return p_; }
  uint32_t sets() const { return sets_; }
  // An L2 partition sees only the addresses of its own chunks (`interleave`
  // bytes out of every `parts` chunks): it picks the set from the
  // partition-local address (partition_local), not the global one, whose
  // partition bits would be the same for every line it holds.
  void index_within_partition(uint32_t interleave, uint32_t parts);

 private:
  struct Way {
    uint64_t tag = 0;   // line address (the whole of it: simple and unambiguous)
    uint64_t last_use = 0;
    bool valid = false;
    bool dirty = false;
  };

  Way* find(uint64_t line);
  const Way* find(uint64_t line) const;
  uint32_t set_of(uint64_t line) const {
    const uint64_t a = parts_ > 1 ? partition_local(line, interleave_, parts_) : line;
    return static_cast<uint32_t>((a >> line_shift_) & (sets_ - 1));
  }
  Outcome miss(uint64_t line, bool write, uint64_t req_id);
  // Puts `line` into its set (an invalid way or the LRU one) and says what
  // was replaced.
  Way* place(uint64_t line, FillResult& res);

  CacheParams p_;
  WritePolicy policy_;
  uint32_t sets_;
  uint32_t line_shift_;
  uint32_t interleave_ = 1, parts_ = 1;  // index_within_partition()
  uint64_t line_mask_;
  uint64_t clock_ = 0;  // LRU stamp source, bumped per touch
  std::vector<Way> ways_;  // [set * assoc + way]
  MshrTable mshr_;
  std::vector<uint64_t> fill_waiting_;  // scratch for FillResult::waiting
  FillResult installed_;

  stats::Counter& accesses_;
  stats::Counter& reads_;
  stats::Counter& writes_;
  stats::Counter& hits_;
  stats::Counter& misses_;
  stats::Counter& read_hits_;
  stats::Counter& write_hits_;
  stats::Counter& read_misses_;
  stats::Counter& write_misses_;
  stats::Counter& mshr_merges_;
  stats::Counter& reservation_fails_;
  stats::Counter& write_forwards_;
  stats::Counter& fills_;
  stats::Counter& evictions_;
  stats::Counter& writebacks_;
  stats::Counter* write_validates_ = nullptr;  // write-validate caches only
};

const char* outcome_name(Cache::Outcome o);

}  // namespace simt::mem
