#define BOOST_TEST_MODULE cache
#include <boost/test/unit_test.hpp>

#include <vector>

#include "config/param_registry.h"
#include "mem/cache.h"
#include "stats/stats.h"
#include "util/error.h"

#include <ostream>

namespace simt::mem {
// Printable outcomes in failure messages.
std::ostream& operator<<(std::ostream& os, Cache::Outcome o) { return os << outcome_name(o); }
std::ostream& operator<<(std::ostream& os, Cache::Probe p) {
  return os << (p == Cache::Probe::Present ? "Present" : p == Cache::Probe::Pending ? "Pending" : "Absent");
}
}  // namespace simt::mem

using simt::mem::Cache;
using simt::mem::CacheParams;
using Outcome = simt::mem::Cache::Outcome;

namespace {

// 4 sets x 2 ways x 64 B lines = 512 B; addresses 256 B apart share a set.
CacheParams small(const char* policy = "write-back") {
  CacheParams p;
  p.size = 512;
  p.line = 64;
  p.assoc = 2;
  p.mshrs = 2;
  p.mshr_merge = 3;
  p.write_policy = policy;
  return p;
}

constexpr uint64_t kSetStride = 256;

std::vector<uint64_t> waiting(const Cache::FillResult& f) { return {f.waiting, f.waiting + f.n_waiting}; }

// Miss then fill, so the line is present afterwards.
void load(Cache& c, uint64_t addr) {
  BOOST_REQUIRE_EQUAL(c.access(addr, false, 0) == Outcome::Miss, true);
  c.fill(c.line_addr(addr));
}

}  // namespace

BOOST_AUTO_TEST_CASE(geometry_and_line_address) {
  simt::stats::Registry st;
  Cache c(small(), st, "l1d");
  BOOST_TEST(c.sets() == 4u);
  BOOST_TEST(c.line_addr(0x12345) == 0x12340u);
  BOOST_TEST(c.line_addr(0x1237f) == 0x12340u);
}

BOOST_AUTO_TEST_CASE(miss_fill_then_hit) {
  simt::stats::Registry st;
  Cache c(small(), st, "l1d");
  BOOST_TEST(c.probe(0x100) == Cache::Probe::Absent);
  BOOST_TEST(c.access(0x104, false, 7) == Outcome::Miss);
  BOOST_TEST(c.probe(0x13f) == Cache::Probe::Pending);
  BOOST_TEST(c.mshrs_in_use() == 1u);
  auto f = c.fill(0x100);
  BOOST_TEST(waiting(f) == std::vector<uint64_t>{7}, boost::test_tools::per_element());
  BOOST_TEST(!f.evicted);
  BOOST_TEST(c.mshrs_in_use() == 0u);
  BOOST_TEST(c.probe(0x13f) == Cache::Probe::Present);
  BOOST_TEST(c.probe(0x140) == Cache::Probe::Absent);
  BOOST_TEST(c.access(0x13c, false, 8) == Outcome::Hit);
  BOOST_TEST(st.value("l1d.accesses") == 2u);
  BOOST_TEST(st.value("l1d.hits") == 1u);
  BOOST_TEST(st.value("l1d.misses") == 1u);
  BOOST_TEST(st.value("l1d.read_hits") == 1u);
  BOOST_TEST(st.value("l1d.read_misses") == 1u);
  BOOST_TEST(st.value("l1d.fills") == 1u);
}

BOOST_AUTO_TEST_CASE(lru_eviction_order_within_a_set) {
  simt::stats::Registry st;
  Cache c(small(), st, "c");
  const uint64_t a = 0x1000, b = a + kSetStride, d = a + 2 * kSetStride;  // same set
  const uint64_t other = a + 64;                                          // next set
  load(c, a);
  load(c, b);
  load(c, other);
  // Touch a: b becomes the LRU way of the set, so d must replace b, not a.
  BOOST_TEST(c.access(a, false, 0) == Outcome::Hit);
  BOOST_TEST(c.access(d, false, 0) == Outcome::Miss);
  auto f = c.fill(d);
  BOOST_TEST(f.evicted);
  BOOST_TEST(f.victim_line == b);
  BOOST_TEST(!f.writeback);
  BOOST_TEST(c.probe(a) == Cache::Probe::Present);
  BOOST_TEST(c.probe(b) == Cache::Probe::Absent);
  BOOST_TEST(c.probe(other) == Cache::Probe::Present);  // other sets untouched
  // Now a is LRU (d was just filled): the next conflicting line evicts a.
  BOOST_TEST(c.access(b, false, 0) == Outcome::Miss);
  BOOST_TEST(c.fill(b).victim_line == a);
  BOOST_TEST(st.value("c.evictions") == 2u);
}

BOOST_AUTO_TEST_CASE(probe_does_not_change_lru) {
  simt::stats::Registry st;
  Cache c(small(), st, "c");
  const uint64_t a = 0, b = kSetStride, d = 2 * kSetStride;
  load(c, a);
  load(c, b);
  BOOST_TEST(c.probe(a) == Cache::Probe::Present);  // must not make a MRU
  c.access(d, false, 0);
  BOOST_TEST(c.fill(d).victim_line == a);
  BOOST_TEST(st.value("c.accesses") == 3u);
}

BOOST_AUTO_TEST_CASE(mshr_merge_and_merge_limit) {
  simt::stats::Registry st;
  Cache c(small(), st, "c");  // mshr_merge = 3 requests per entry
  BOOST_TEST(c.access(0x200, false, 1) == Outcome::Miss);
  BOOST_TEST(c.access(0x208, true, 2) == Outcome::MissMerged);
  BOOST_TEST(c.access(0x23c, false, 3) == Outcome::MissMerged);
  BOOST_TEST(c.access(0x210, false, 4) == Outcome::ReservationFail);  // entry full
  BOOST_TEST(c.mshrs_in_use() == 1u);
  BOOST_TEST(st.value("c.mshr_merges") == 2u);
  BOOST_TEST(st.value("c.misses") == 3u);
  BOOST_TEST(st.value("c.accesses") == 3u);  // the refused one is not an access
  BOOST_TEST(st.value("c.reservation_fails") == 1u);
  auto f = c.fill(0x200);
  BOOST_TEST(waiting(f) == (std::vector<uint64_t>{1, 2, 3}), boost::test_tools::per_element());
  // Write-back: the merged write dirtied the line on fill.
  BOOST_TEST(c.dirty(0x200));
  BOOST_TEST(c.access(0x210, false, 4) == Outcome::Hit);  // the retry now hits
}

BOOST_AUTO_TEST_CASE(no_merging_when_limit_is_one) {
  simt::stats::Registry st;
  CacheParams p = small();
  p.mshr_merge = 1;
  Cache c(p, st, "c");
  BOOST_TEST(c.access(0x0, false, 1) == Outcome::Miss);
  BOOST_TEST(c.access(0x4, false, 2) == Outcome::ReservationFail);
  BOOST_TEST(c.access(0x40, false, 3) == Outcome::Miss);  // another line still gets an entry
}

BOOST_AUTO_TEST_CASE(reservation_fail_when_mshrs_full_and_recovery_after_fill) {
  simt::stats::Registry st;
  Cache c(small(), st, "c");  // 2 MSHRs
  BOOST_TEST(c.access(0x000, false, 1) == Outcome::Miss);
  BOOST_TEST(c.access(0x040, false, 2) == Outcome::Miss);
  BOOST_TEST(c.mshrs_in_use() == 2u);
  BOOST_TEST(c.access(0x080, false, 3) == Outcome::ReservationFail);
  BOOST_TEST(c.probe(0x080) == Cache::Probe::Absent);  // nothing changed
  BOOST_TEST(c.mshrs_in_use() == 2u);
  // A pending line can still take merges while the table is full.
  BOOST_TEST(c.access(0x044, false, 4) == Outcome::MissMerged);
  BOOST_TEST(waiting(c.fill(0x040)) == (std::vector<uint64_t>{2, 4}), boost::test_tools::per_element());
  BOOST_TEST(c.mshrs_in_use() == 1u);
  BOOST_TEST(c.access(0x080, false, 3) == Outcome::Miss);  // retry succeeds
  BOOST_TEST(c.mshrs_in_use() == 2u);
  BOOST_TEST(st.value("c.reservation_fails") == 1u);
}

BOOST_AUTO_TEST_CASE(fill_order_independent_of_miss_order) {
  simt::stats::Registry st;
  Cache c(small(), st, "c");
  c.access(0x000, false, 10);
  c.access(0x040, false, 20);
  BOOST_TEST(waiting(c.fill(0x040)) == std::vector<uint64_t>{20}, boost::test_tools::per_element());
  BOOST_TEST(waiting(c.fill(0x000)) == std::vector<uint64_t>{10}, boost::test_tools::per_element());
  BOOST_CHECK_THROW(c.fill(0x000), std::logic_error);  // no MSHR any more
}

BOOST_AUTO_TEST_CASE(write_back_dirty_victim_reported) {
  simt::stats::Registry st;
  Cache c(small("write-back"), st, "c");
  const uint64_t a = 0x0, b = kSetStride, d = 2 * kSetStride;
  load(c, a);
  BOOST_TEST(c.access(a + 4, true, 0) == Outcome::Hit);  // write hit: dirty, stays here
  BOOST_TEST(c.dirty(a));
  BOOST_TEST(c.access(b, true, 0) == Outcome::Miss);  // write miss allocates
  c.fill(b);
  BOOST_TEST(c.dirty(b));
  c.access(a, false, 0);  // a MRU, b LRU
  c.access(d, false, 0);
  auto f = c.fill(d);
  BOOST_TEST(f.evicted);
  BOOST_TEST(f.writeback);
  BOOST_TEST(f.victim_line == b);
  c.access(0x3 * kSetStride, false, 0);  // evicts a (dirty) next
  auto g = c.fill(3 * kSetStride);
  BOOST_TEST(g.victim_line == a);
  BOOST_TEST(g.writeback);
  BOOST_TEST(st.value("c.writebacks") == 2u);
  BOOST_TEST(st.value("c.write_forwards") == 0u);
  BOOST_TEST(st.value("c.writes") == 2u);
}

BOOST_AUTO_TEST_CASE(clean_victim_is_not_written_back) {
  simt::stats::Registry st;
  Cache c(small("write-back"), st, "c");
  load(c, 0);
  load(c, kSetStride);
  c.access(2 * kSetStride, false, 0);
  auto f = c.fill(2 * kSetStride);
  BOOST_TEST(f.evicted);
  BOOST_TEST(!f.writeback);
  BOOST_TEST(st.value("c.writebacks") == 0u);
}

BOOST_AUTO_TEST_CASE(write_validate_installs_on_a_write_miss_without_a_fill) {
  simt::stats::Registry st;
  Cache c(small("write-validate"), st, "c");
  const uint64_t a = 0x0, b = kSetStride, d = 2 * kSetStride;
  // A write miss: the line is here at once, dirty, with no MSHR and no fill.
  BOOST_TEST(c.access(a + 4, true, 1) == Outcome::Installed);
  BOOST_TEST(c.probe(a) == Cache::Probe::Present);
  BOOST_TEST(c.dirty(a));
  BOOST_TEST(c.mshrs_in_use() == 0u);
  BOOST_TEST(!c.installed().evicted);
  BOOST_TEST(c.access(a + 8, false, 2) == Outcome::Hit);  // read after write
  // A read miss still fetches; a write to its pending line waits for the fill.
  BOOST_TEST(c.access(b, false, 3) == Outcome::Miss);
  BOOST_TEST(c.access(b + 4, true, 4) == Outcome::MissMerged);
  BOOST_TEST(waiting(c.fill(b)) == (std::vector<uint64_t>{3, 4}), boost::test_tools::per_element());
  BOOST_TEST(c.dirty(b));
  // A third line in the full set evicts the LRU one (a, dirty): the owner
  // must write it back.
  BOOST_TEST(c.access(d, true, 5) == Outcome::Installed);
  BOOST_TEST(c.installed().evicted);
  BOOST_TEST(c.installed().writeback);
  BOOST_TEST(c.installed().victim_line == a);
  BOOST_TEST(st.value("c.write_validates") == 2u);
  BOOST_TEST(st.value("c.fills") == 1u);
  BOOST_TEST(st.value("c.write_misses") == 3u);
}

BOOST_AUTO_TEST_CASE(write_through_no_allocate) {
  simt::stats::Registry st;
  Cache c(small("write-through"), st, "c");
  // Write miss: forwarded, nothing allocated, no MSHR.
  BOOST_TEST(c.access(0x0, true, 1) == Outcome::WriteForward);
  BOOST_TEST(c.probe(0x0) == Cache::Probe::Absent);
  BOOST_TEST(c.mshrs_in_use() == 0u);
  // Write hit: line kept (and made MRU), write still forwarded, never dirty.
  load(c, 0x0);
  load(c, kSetStride);
  BOOST_TEST(c.access(0x8, true, 2) == Outcome::WriteForward);
  BOOST_TEST(c.probe(0x0) == Cache::Probe::Present);
  BOOST_TEST(!c.dirty(0x0));
  c.access(2 * kSetStride, false, 3);
  auto f = c.fill(2 * kSetStride);
  BOOST_TEST(f.victim_line == kSetStride);  // the write made line 0 MRU
  BOOST_TEST(!f.writeback);
  BOOST_TEST(st.value("c.write_forwards") == 2u);
  BOOST_TEST(st.value("c.write_hits") == 1u);
  BOOST_TEST(st.value("c.write_misses") == 1u);
  BOOST_TEST(st.value("c.writebacks") == 0u);
}

BOOST_AUTO_TEST_CASE(write_evict_invalidates_on_hit) {
  simt::stats::Registry st;
  Cache c(small("write-evict"), st, "c");
  load(c, 0x40);
  BOOST_TEST(c.access(0x44, true, 1) == Outcome::WriteForward);
  BOOST_TEST(c.probe(0x40) == Cache::Probe::Absent);
  BOOST_TEST(c.access(0x40, false, 2) == Outcome::Miss);  // the next read misses
  BOOST_TEST(c.access(0x80, true, 3) == Outcome::WriteForward);
  BOOST_TEST(c.probe(0x80) == Cache::Probe::Absent);
  BOOST_TEST(st.value("c.write_hits") == 1u);
  BOOST_TEST(st.value("c.write_misses") == 1u);
}

BOOST_AUTO_TEST_CASE(invalidate_all_keeps_pending_mshrs) {
  simt::stats::Registry st;
  Cache c(small(), st, "c");
  load(c, 0x0);
  c.access(0x40, false, 5);
  c.invalidate_all();
  BOOST_TEST(c.probe(0x0) == Cache::Probe::Absent);
  BOOST_TEST(c.probe(0x40) == Cache::Probe::Pending);
  BOOST_TEST(waiting(c.fill(0x40)) == std::vector<uint64_t>{5}, boost::test_tools::per_element());
  BOOST_TEST(c.access(0x0, false, 6) == Outcome::Miss);
}

BOOST_AUTO_TEST_CASE(counters_add_up_over_a_random_sequence) {
  simt::stats::Registry st;
  CacheParams p;  // defaults: 64 KB, 128 B, 8-way, write-back
  p.mshrs = 4;
  Cache c(p, st, "sm0.l1d");
  uint64_t x = 12345, pending_fill = 0;
  std::vector<uint64_t> pending;
  uint64_t outcomes[5] = {};
  for (int i = 0; i < 20000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t addr = (x >> 20) % (256 * 1024);
    const bool write = (x >> 60) & 1;
    const Outcome o = c.access(addr, write, i);
    ++outcomes[static_cast<int>(o)];
    if (o == Outcome::Miss) pending.push_back(c.line_addr(addr));
    if (pending.size() > 2 || (o == Outcome::ReservationFail && !pending.empty())) {
      c.fill(pending.front());
      pending.erase(pending.begin());
      ++pending_fill;
    }
    BOOST_REQUIRE(c.mshrs_in_use() == pending.size());
  }
  const auto v = [&](const char* n) { return st.value(std::string("sm0.l1d.") + n); };
  BOOST_TEST(v("accesses") == v("hits") + v("misses"));
  BOOST_TEST(v("accesses") == v("reads") + v("writes"));
  BOOST_TEST(v("hits") == v("read_hits") + v("write_hits"));
  BOOST_TEST(v("misses") == v("read_misses") + v("write_misses"));
  BOOST_TEST(v("hits") == outcomes[0]);
  BOOST_TEST(v("misses") - v("mshr_merges") == outcomes[1]);
  BOOST_TEST(v("mshr_merges") == outcomes[2]);
  BOOST_TEST(v("reservation_fails") == outcomes[4]);
  BOOST_TEST(v("fills") == pending_fill);
  BOOST_TEST(v("evictions") <= v("fills"));
  BOOST_TEST(v("writebacks") <= v("evictions"));
  BOOST_TEST(v("hits") > 0u);
  BOOST_TEST(v("evictions") > 0u);  // 256 KB footprint in 64 KB
  BOOST_TEST(v("writebacks") > 0u);
}

BOOST_AUTO_TEST_CASE(validate_rejects_bad_geometry) {
  auto rejects = [](CacheParams p, const std::string& what) {
    try {
      p.validate("l2");
    } catch (const simt::Error& e) {
      BOOST_TEST(std::string(e.what()).find("option l2." + what) != std::string::npos, e.what());
      return;
    }
    BOOST_ERROR("accepted a bad " + what);
  };
  CacheParams ok;
  BOOST_CHECK_NO_THROW(ok.validate("l2"));
  CacheParams p = ok;
  p.line = 96;
  rejects(p, "line");
  p = ok;
  p.line = 2;
  rejects(p, "line");
  p = ok;
  p.size = 3 * 128 * 8;  // 3 sets
  rejects(p, "size");
  p = ok;
  p.size = 1000;
  rejects(p, "size");
  p = ok;
  p.write_policy = "write-around";
  rejects(p, "write_policy");
  p = ok;
  p.replacement = "random";
  rejects(p, "replacement");
  p = ok;
  p.mshrs = 0;
  rejects(p, "mshrs");
  p = ok;
  p.mshr_merge = 0;
  rejects(p, "mshr_merge");
  // Fully associative single set is fine.
  p = ok;
  p.size = 128 * 8;
  BOOST_CHECK_NO_THROW(p.validate("l2"));
}

BOOST_AUTO_TEST_CASE(params_bind_to_dotted_names) {
  simt::config::ParamRegistry r;
  CacheParams p;
  p.bind(r, "sm.l1d");
  BOOST_TEST(r.has("sm.l1d.size"));
  BOOST_TEST(r.has("sm.l1d.mshr_merge"));
  r.set("sm.l1d.size", "32768", "test");
  r.set("sm.l1d.write_policy", "write-evict", "test");
  BOOST_TEST(p.size == 32768u);
  BOOST_TEST(p.write_policy == "write-evict");
  BOOST_CHECK_THROW(r.set("sm.l1d.write_policy", "bogus", "test"), simt::Error);
}

// An L2 partition holds only its own chunks. As partition 0 of 4 with
// 128-byte chunks, its lines are 0, 64, 512, 576, 1024, ...: by the global
// address they fall in sets 0 and 1 only, by the partition-local address
// they cover all four sets, so eight of them fit the 8-line cache.
BOOST_AUTO_TEST_CASE(an_l2_partition_indexes_its_sets_by_the_partition_local_address) {
  constexpr uint32_t kInterleave = 128, kParts = 4;
  auto fill_partition0 = [](Cache& c) {
    uint64_t id = 0;
    for (uint64_t chunk = 0; chunk < 4; ++chunk)
      for (uint64_t off = 0; off < kInterleave; off += 64) {
        const uint64_t a = chunk * kParts * kInterleave + off;
        BOOST_TEST_REQUIRE(c.access(a, false, id++) == Outcome::Miss);
        c.fill(a);
      }
    uint32_t present = 0;
    for (uint64_t chunk = 0; chunk < 4; ++chunk)
      for (uint64_t off = 0; off < kInterleave; off += 64)
        present += c.probe(chunk * kParts * kInterleave + off) == Cache::Probe::Present;
    return present;
  };
  simt::stats::Registry st;
  Cache l2(small(), st, "l2");
  l2.index_within_partition(kInterleave, kParts);
  BOOST_TEST(fill_partition0(l2) == 8u);
  Cache global(small(), st, "global");  // the global index: half the sets stay empty
  BOOST_TEST(fill_partition0(global) == 4u);
}
