#include "mem/cache.h"

#include <cstdio>
#include <stdexcept>

#include "util/error.h"

namespace simt::mem {

namespace {

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

uint32_t log2u(uint64_t v) { return static_cast<uint32_t>(__builtin_ctzll(v)); }

WritePolicy parse_policy(const std::string& s) {
  if (s == "write-back") return WritePolicy::WriteBack;
  if (s == "write-validate") return WritePolicy::WriteValidate;
  if (s == "write-through") return WritePolicy::WriteThrough;
  return WritePolicy::WriteEvict;  // validate() admits nothing else
}

}  // namespace

// ---------------------------------------------------------------- parameters

void CacheParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".size", size, "capacity in bytes (line * assoc * sets, sets a power of two)", 4, 1u << 30);
  r.add(prefix + ".line", line, "line size in bytes (power of two, >= 4)", 4, 65536);
  r.add(prefix + ".assoc", assoc, "ways per set", 1, 65536);
  r.add(prefix + ".hit_latency", hit_latency, "cycles from access to data on a hit", 1, 100000);
  r.add(prefix + ".mshrs", mshrs, "MSHR entries (distinct lines in flight)", 1, 65536);
  r.add(prefix + ".mshr_merge", mshr_merge,
        "requests one MSHR entry holds, the one that allocated it included (1 = no merging)", 1, 4096);
  r.add_choice(prefix + ".write_policy", write_policy, {"write-back", "write-validate", "write-through", "write-evict"},
               "write-back: write-allocate, dirty lines, victim write-backs; write-validate: write-back, "
               "but a write miss installs its line without fetching it (storage written before it is "
               "read, e.g. the LVC); write-through: no "
               "write-allocate, write hits update the line, all writes go on; write-evict: no "
               "write-allocate, write hits invalidate the line (Fermi L1D)");
  r.add_choice(prefix + ".replacement", replacement, {"lru"}, "replacement policy");
}

void CacheParams::validate(const std::string& prefix) const {
  auto bad = [&](const char* name, const std::string& why) {
    return simt::input_error("option " + prefix + "." + name + ": " + why);
  };
  if (line < 4 || !is_pow2(line)) throw bad("line", std::to_string(line) + " is not a power of two >= 4");
  if (assoc == 0) throw bad("assoc", "must be at least 1");
  const uint64_t per_set = uint64_t{line} * assoc;
  if (size == 0 || size % per_set != 0)
    throw bad("size", std::to_string(size) + " is not a multiple of line * assoc = " + std::to_string(per_set));
  if (!is_pow2(size / per_set))
    throw bad("size", std::to_string(size) + " gives " + std::to_string(size / per_set) +
                          " sets; the number of sets must be a power of two");
  if (hit_latency == 0) throw bad("hit_latency", "must be at least 1");
  if (mshrs == 0) throw bad("mshrs", "must be at least 1");
  if (mshr_merge == 0) throw bad("mshr_merge", "must be at least 1");
  if (write_policy != "write-back" && write_policy != "write-validate" && write_policy != "write-through" &&
      write_policy != "write-evict")
    throw bad("write_policy",
              "'" + write_policy + "' is not one of write-back, write-validate, write-through, write-evict");
  if (replacement != "lru") throw bad("replacement", "'" + replacement + "' is not supported (only lru)");
}

// ---------------------------------------------------------------- cache

Cache::Cache(const CacheParams& p, stats::Registry& st, const std::string& n)
    : p_((p.validate(n), p)),
      policy_(parse_policy(p.write_policy)),
      sets_(p.size / (p.line * p.assoc)),
      line_shift_(log2u(p.line)),
      line_mask_(uint64_t{p.line} - 1),
      ways_(size_t{sets_} * p.assoc),
      mshr_(p.mshrs, p.mshr_merge),
      accesses_(st.counter(n + ".accesses", "accesses accepted (reservation fails excluded)")),
      reads_(st.counter(n + ".reads", "read accesses accepted")),
      writes_(st.counter(n + ".writes", "write accesses accepted")),
      hits_(st.counter(n + ".hits", "accesses that found their line")),
      misses_(st.counter(n + ".misses", "accesses that did not find their line (merged ones included)")),
      read_hits_(st.counter(n + ".read_hits", "read accesses that found their line")),
      write_hits_(st.counter(n + ".write_hits", "write accesses that found their line")),
      read_misses_(st.counter(n + ".read_misses", "read accesses that did not find their line")),
      write_misses_(st.counter(n + ".write_misses", "write accesses that did not find their line")),
      mshr_merges_(st.counter(n + ".mshr_merges", "misses that joined an MSHR already waiting for their line")),
      reservation_fails_(st.counter(n + ".reservation_fails", "accesses refused: no MSHR or merge slot")),
      write_forwards_(st.counter(n + ".write_forwards", "writes passed on to the next level")),
      fills_(st.counter(n + ".fills", "lines installed")),
      evictions_(st.counter(n + ".evictions", "valid lines replaced by a fill")),
      writebacks_(st.counter(n + ".writebacks", "dirty victims written back")) {
  fill_waiting_.reserve(p.mshr_merge);
  if (policy_ == WritePolicy::WriteValidate)
    write_validates_ = &st.counter(n + ".write_validates", "write misses that installed their line without a fill");
}

Cache::Way* Cache::find(uint64_t line) {
  Way* set = &ways_[size_t{set_of(line)} * p_.assoc];
  for (uint32_t w = 0; w < p_.assoc; ++w)
    if (set[w].valid && set[w].tag == line) return &set[w];
  return nullptr;
}

const Cache::Way* Cache::find(uint64_t line) const { return const_cast<Cache*>(this)->find(line); }

Cache::Outcome Cache::miss(uint64_t line, bool write, uint64_t req_id) {
  const MshrTable::AddResult r = mshr_.add(line, req_id, write);
  if (r == MshrTable::AddResult::MergeFull || r == MshrTable::AddResult::NoEntry) {
    ++reservation_fails_;
    return Outcome::ReservationFail;
  }
  ++accesses_;
  ++misses_;
  if (write) { ++writes_; ++write_misses_; } else { ++reads_; ++read_misses_; }
  if (r == MshrTable::AddResult::Merged) {
    ++mshr_merges_;
    return Outcome::MissMerged;
  }
  return Outcome::Miss;
}

Cache::Outcome Cache::access(uint64_t addr, bool write, uint64_t req_id) {
  const uint64_t line = line_addr(addr);
  Way* w = find(line);
  if (!write) {
    if (!w) return miss(line, false, req_id);
    w->last_use = ++clock_;
    ++accesses_; ++reads_; ++hits_; ++read_hits_;
    return Outcome::Hit;
  }
  if (policy_ == WritePolicy::WriteValidate && !w && !mshr_.pending(line)) {
    // Nothing to fetch: the written words are the only ones anyone reads.
    installed_ = FillResult{};
    w = place(line, installed_);
    w->dirty = true;
    ++accesses_; ++writes_; ++misses_; ++write_misses_; ++*write_validates_;
    return Outcome::Installed;
  }
  if (policy_ == WritePolicy::WriteBack || policy_ == WritePolicy::WriteValidate) {
    if (!w) return miss(line, true, req_id);  // (write-validate: a fill is on its way; wait for it)
    w->last_use = ++clock_;
    w->dirty = true;
    ++accesses_; ++writes_; ++hits_; ++write_hits_;
    return Outcome::Hit;
  }
  // No write-allocate: the write always goes on; a hit updates or drops the line.
  ++accesses_; ++writes_; ++write_forwards_;
  if (w) {
    ++hits_; ++write_hits_;
    if (policy_ == WritePolicy::WriteThrough) w->last_use = ++clock_;
    else w->valid = false;  // write-evict
  } else {
    ++misses_; ++write_misses_;
  }
  return Outcome::WriteForward;
}

Cache::FillResult Cache::fill(uint64_t line_addr_in) {
  const uint64_t line = line_addr(line_addr_in);
  fill_waiting_.clear();
  bool had_write = false;
  if (!mshr_.release(line, fill_waiting_, had_write)) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "cache fill of line 0x%llx that has no MSHR",
                  static_cast<unsigned long long>(line));
    throw std::logic_error(buf);  // an owner bug, not user input
  }
  FillResult res;
  res.waiting = fill_waiting_.data();
  res.n_waiting = static_cast<uint32_t>(fill_waiting_.size());
  ++fills_;
  const bool make_dirty =
      had_write && (policy_ == WritePolicy::WriteBack || policy_ == WritePolicy::WriteValidate);
  // Allocate-on-fill: the line cannot be present (a miss found it absent, and
  // a write-validate install never takes a line with an MSHR).
  Way* w = place(line, res);
  w->dirty = make_dirty;
  return res;
}

Cache::Way* Cache::place(uint64_t line, FillResult& res) {
  Way* set = &ways_[size_t{set_of(line)} * p_.assoc];
  Way* victim = &set[0];
  for (uint32_t i = 0; i < p_.assoc; ++i) {
    if (!set[i].valid) { victim = &set[i]; break; }
    if (set[i].last_use < victim->last_use) victim = &set[i];
  }
  if (victim->valid) {
    res.evicted = true;
    res.victim_line = victim->tag;
    ++evictions_;
    if (victim->dirty) {
      res.writeback = true;
      ++writebacks_;
    }
  }
  victim->tag = line;
  victim->valid = true;
  victim->dirty = false;
  victim->last_use = ++clock_;
  return victim;
}

Cache::Probe Cache::probe(uint64_t addr) const {
  const uint64_t line = line_addr(addr);
  if (find(line)) return Probe::Present;
  return mshr_.pending(line) ? Probe::Pending : Probe::Absent;
}

bool Cache::dirty(uint64_t addr) const {
  const Way* w = find(line_addr(addr));
  return w && w->dirty;
}

void Cache::index_within_partition(uint32_t interleave, uint32_t parts) {
  if (interleave == 0 || parts == 0) throw std::invalid_argument("cache: interleave and partitions must be positive");
  interleave_ = interleave;
  parts_ = parts;
}

void Cache::invalidate_all() {
  for (Way& w : ways_) w.valid = w.dirty = false;
}

const char* outcome_name(Cache::Outcome o) {
  switch (o) {
    case Cache::Outcome::Hit: return "Hit";
    case Cache::Outcome::Miss: return "Miss";
    case Cache::Outcome::MissMerged: return "MissMerged";
    case Cache::Outcome::WriteForward: return "WriteForward";
    case Cache::Outcome::ReservationFail: return "ReservationFail";
    case Cache::Outcome::Installed: return "Installed";
  }
  return "?";
}

}  // namespace simt::mem
