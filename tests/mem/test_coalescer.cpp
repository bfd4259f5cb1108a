#define BOOST_TEST_MODULE coalescer
#include <boost/test/unit_test.hpp>

#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "mem/coalescer.h"
#include "stats/stats.h"
#include "util/error.h"

using simt::func::MemAccess;
using simt::mem::AccessKind;
using simt::mem::Coalescer;
using simt::mem::CoalescerParams;
using simt::mem::LineRequest;
using simt::ptx::Space;

namespace {

CoalescerParams line_of(uint32_t bytes) {
  CoalescerParams p;
  p.line = bytes;
  return p;
}

// Thread t accesses base + t * stride, `size` bytes each, threads [0, n).
std::vector<MemAccess> strided(uint64_t base, uint64_t stride, uint8_t size, uint32_t n = 32,
                               Space s = Space::Global) {
  std::vector<MemAccess> v;
  for (uint32_t t = 0; t < n; ++t) v.push_back(MemAccess{t, s, size, base + t * stride});
  return v;
}

// A .v4 access of `elem`-byte elements, as the executor reports it: one
// access per element, consecutive addresses, in thread order.
std::vector<MemAccess> vec4(uint64_t base, uint8_t elem, uint32_t n = 32) {
  std::vector<MemAccess> v;
  for (uint32_t t = 0; t < n; ++t)
    for (uint32_t e = 0; e < 4; ++e) v.push_back(MemAccess{t, Space::Global, elem, base + (t * 4 + e) * elem});
  return v;
}

struct Fixture {
  simt::stats::Registry st;
  std::vector<LineRequest> out;
  size_t run(uint32_t line, const std::vector<MemAccess>& acc, AccessKind k = AccessKind::Read) {
    Coalescer c(line_of(line), st, "sm0.coal");
    return c.coalesce(acc, k, out);
  }
};

}  // namespace

BOOST_FIXTURE_TEST_CASE(unit_stride_words, Fixture) {
  BOOST_TEST(run(128, strided(0x1000, 4, 4)) == 1u);
  BOOST_TEST(out[0].line_addr == 0x1000u);
  BOOST_TEST(out[0].bytes == 128u);
  BOOST_TEST(out[0].threads.count() == 32u);
  BOOST_TEST(run(64, strided(0x1000, 4, 4)) == 2u);
  BOOST_TEST(out[0].line_addr == 0x1000u);
  BOOST_TEST(out[1].line_addr == 0x1040u);
  BOOST_TEST(out[0].threads.count() == 16u);
  BOOST_TEST(out[1].threads.test(16));
  BOOST_TEST(!out[1].threads.test(15));
  BOOST_TEST(run(32, strided(0x1000, 4, 4)) == 4u);
}

BOOST_FIXTURE_TEST_CASE(line_stride_gives_one_request_per_thread, Fixture) {
  BOOST_TEST(run(128, strided(0, 128, 4)) == 32u);
  for (uint32_t t = 0; t < 32; ++t) {
    BOOST_TEST(out[t].line_addr == t * 128u);
    BOOST_TEST(out[t].bytes == 4u);
    BOOST_TEST(out[t].threads.count() == 1u);
    BOOST_TEST(out[t].threads.test(t));
  }
  BOOST_TEST(run(128, strided(0, 8, 4)) == 2u);    // stride 2 words: 256 B
  BOOST_TEST(out[0].bytes == 64u);                 // half of each line touched
  BOOST_TEST(run(128, strided(0, 4096, 4)) == 32u);
}

BOOST_FIXTURE_TEST_CASE(same_address_broadcast_is_one_request, Fixture) {
  BOOST_TEST(run(128, strided(0x40, 0, 4)) == 1u);
  BOOST_TEST(out[0].bytes == 4u);
  BOOST_TEST(out[0].threads.count() == 32u);
}

BOOST_FIXTURE_TEST_CASE(misaligned_warp_crosses_a_line, Fixture) {
  // 32 x 4 B starting half-way into a line: 64..191 spans two lines.
  BOOST_TEST(run(128, strided(64, 4, 4)) == 2u);
  BOOST_TEST(out[0].line_addr == 0u);
  BOOST_TEST(out[1].line_addr == 128u);
  BOOST_TEST(out[0].bytes == 64u);
  BOOST_TEST(out[1].bytes == 64u);
  // An access wider than the line is split over lines: 8 B with 4 B lines.
  BOOST_TEST(run(4, strided(0, 8, 8, 1)) == 2u);
  BOOST_TEST(out[0].threads.test(0));
  BOOST_TEST(out[1].threads.test(0));
}

BOOST_FIXTURE_TEST_CASE(eight_byte_accesses, Fixture) {
  BOOST_TEST(run(128, strided(0, 8, 8)) == 2u);  // 256 B
  BOOST_TEST(out[0].bytes == 128u);
  BOOST_TEST(out[0].threads.count() == 16u);
  BOOST_TEST(run(64, strided(0, 8, 8)) == 4u);
}

BOOST_FIXTURE_TEST_CASE(vector_accesses, Fixture) {
  // v4.f32: 16 B per thread, 512 B per warp -> 4 lines of 128 B, 8 threads each.
  BOOST_TEST(run(128, vec4(0, 4)) == 4u);
  for (const LineRequest& r : out) {
    BOOST_TEST(r.bytes == 128u);
    BOOST_TEST(r.threads.count() == 8u);
  }
  // v4.f64: 32 B per thread -> 8 lines.
  BOOST_TEST(run(128, vec4(0, 8)) == 8u);
  // v2 with only 8 threads, 64 B lines.
  std::vector<MemAccess> v;
  for (uint32_t t = 0; t < 8; ++t)
    for (uint32_t e = 0; e < 2; ++e) v.push_back(MemAccess{t, Space::Global, 4, 0x200 + (t * 2 + e) * 4});
  BOOST_TEST(run(64, v) == 1u);
  BOOST_TEST(out[0].bytes == 64u);
}

BOOST_FIXTURE_TEST_CASE(random_addresses_match_a_reference_count, Fixture) {
  uint64_t x = 99;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<MemAccess> acc;
    std::set<uint64_t> lines;
    std::vector<uint64_t> first_touch;
    const uint64_t span = 1 + trial * 97;  // from all-in-one-line to widely spread
    for (uint32_t t = 0; t < 32; ++t) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const uint64_t a = ((x >> 24) % span) * 4;
      acc.push_back(MemAccess{t, Space::Global, 4, a});
      if (lines.insert(a / 128).second) first_touch.push_back(a / 128 * 128);
    }
    BOOST_REQUIRE_EQUAL(run(128, acc), lines.size());
    uint32_t threads = 0;
    for (size_t i = 0; i < out.size(); ++i) {
      BOOST_REQUIRE_EQUAL(out[i].line_addr, first_touch[i]);  // order of first touch
      threads += out[i].threads.count();
    }
    BOOST_REQUIRE_EQUAL(threads, 32u);  // every thread in exactly one request (4 B aligned)
  }
}

BOOST_FIXTURE_TEST_CASE(kind_space_and_shared_skipped, Fixture) {
  std::vector<MemAccess> acc = strided(0, 4, 4, 8);
  for (uint32_t t = 8; t < 16; ++t) acc.push_back(MemAccess{t, Space::Shared, 4, t * 4u});
  acc.push_back(MemAccess{16, Space::Const, 4, 0});  // same line number, other space
  BOOST_TEST(run(128, acc, AccessKind::Write) == 2u);
  BOOST_TEST((out[0].space == Space::Global));
  BOOST_TEST((out[0].kind == AccessKind::Write));
  BOOST_TEST(out[0].threads.count() == 8u);
  BOOST_TEST((out[1].space == Space::Const));
  // All-shared: no request, no instruction counted.
  simt::stats::Registry st2;
  Coalescer c(line_of(128), st2, "c");
  BOOST_TEST(c.coalesce(strided(0, 4, 4, 32, Space::Shared), AccessKind::Read, out) == 0u);
  BOOST_TEST(st2.value("c.instructions") == 0u);
}

BOOST_FIXTURE_TEST_CASE(local_memory_is_interleaved_across_threads, Fixture) {
  // Every thread reads its own local word 3: interleaving makes the 32 words contiguous.
  const simt::mem::LocalLayout layout{0x10000, 64};
  Coalescer c(line_of(128), st, "c");
  BOOST_TEST(c.coalesce(strided(12, 0, 4, 32, Space::Local), AccessKind::Read, out, &layout) == 1u);
  BOOST_TEST(out[0].line_addr == 0x10000u + 3 * 64 * 4);
  BOOST_TEST((out[0].space == Space::Global));
  // An 8-byte local access covers two words `threads` words apart.
  BOOST_TEST(c.coalesce(strided(0, 0, 8, 32, Space::Local), AccessKind::Read, out, &layout) == 2u);
  BOOST_TEST(out[1].line_addr == 0x10000u + 64 * 4);
  BOOST_CHECK_THROW(c.coalesce(strided(0, 0, 4, 1, Space::Local), AccessKind::Read, out), std::invalid_argument);
}

BOOST_FIXTURE_TEST_CASE(each_cta_part_uses_its_own_local_layout, Fixture) {
  // A warp holding threads of two CTAs (DWF's SM-wide pool): threads 0-15
  // of part 0 and 16-31 of part 1 read local word 0. Each part's words are
  // contiguous in its own CTA's local region.
  const simt::mem::LocalLayout layouts[2] = {{0x10000, 32}, {0x90000, 32}};
  std::vector<MemAccess> v = strided(0, 0, 4, 32, Space::Local);
  for (uint32_t t = 16; t < 32; ++t) v[t].part = 1;
  Coalescer c(line_of(128), st, "c");
  BOOST_TEST(c.coalesce(v, AccessKind::Read, out, layouts, 2) == 2u);
  BOOST_TEST(out[0].line_addr == 0x10000u);
  BOOST_TEST(out[1].line_addr == 0x90000u);
  BOOST_TEST(out[1].bytes == 64u);  // threads 16-31 of part 1: words 16-31 of its line
  // A part without a layout is refused, not read from another CTA's.
  BOOST_CHECK_THROW(c.coalesce(v, AccessKind::Read, out, layouts, 1), std::invalid_argument);
}

BOOST_FIXTURE_TEST_CASE(counters_and_histogram, Fixture) {
  Coalescer c(line_of(128), st, "sm0.coal");
  c.coalesce(strided(0, 4, 4), AccessKind::Read, out);    // 1
  c.coalesce(strided(0, 128, 4), AccessKind::Read, out);  // 32
  c.coalesce(strided(0, 8, 8), AccessKind::Read, out);    // 2
  BOOST_TEST(st.value("sm0.coal.instructions") == 3u);
  BOOST_TEST(st.value("sm0.coal.requests") == 35u);
  BOOST_TEST(st.value("sm0.coal.bytes") == 128u + 128u + 256u);
  const auto j = st.to_json();
  const auto& bins = j["histograms"]["sm0.coal.requests_per_instruction"]["bins"];
  BOOST_TEST(bins[1].get<uint64_t>() == 1u);
  BOOST_TEST(bins[2].get<uint64_t>() == 1u);
  BOOST_TEST(bins[32].get<uint64_t>() == 1u);
  BOOST_TEST(bins[0].get<uint64_t>() == 0u);
}

BOOST_AUTO_TEST_CASE(validate_line) {
  CoalescerParams p;
  p.line = 100;
  BOOST_CHECK_THROW(p.validate("sm.coalescer"), simt::Error);
  p.line = 2;
  BOOST_CHECK_THROW(p.validate("sm.coalescer"), simt::Error);
  p.line = 32;
  BOOST_CHECK_NO_THROW(p.validate("sm.coalescer"));
}

// Random access lists against a byte-by-byte reference: one request per
// line in order of first touch, with the threads and the distinct bytes of
// each. Line sizes 32-256 B, sizes 1-16 B, accesses that run on in the line
// of the one before (the fast path), jump, or straddle two lines.
BOOST_FIXTURE_TEST_CASE(random_lists_match_a_byte_by_byte_reference, Fixture) {
  std::mt19937_64 rng(2026);
  for (uint32_t line : {32u, 64u, 128u, 256u}) {
    for (int round = 0; round < 200; ++round) {
      std::vector<MemAccess> acc;
      uint64_t addr = 0x10000 + (rng() % 4096);
      const uint32_t n = 1 + static_cast<uint32_t>(rng() % 64);
      for (uint32_t k = 0; k < n; ++k) {
        const uint8_t size = static_cast<uint8_t>(1u << (rng() % 5));
        const uint32_t how = static_cast<uint32_t>(rng() % 8);
        if (how == 0) addr = 0x10000 + (rng() % 4096);  // a jump
        else if (how == 1) addr = (addr | (line - 1)) - (size - 1) + (rng() % 3);  // at or over a line's end
        const uint32_t tid = static_cast<uint32_t>(rng() % 6 == 0 ? rng() % 256 : k);
        acc.push_back(MemAccess{tid, Space::Global, size, addr});
        addr += size;
      }
      // Reference.
      std::vector<uint64_t> order;
      std::map<uint64_t, std::pair<std::set<uint32_t>, std::set<uint64_t>>> ref;
      for (const MemAccess& a : acc)
        for (uint64_t b = a.addr; b < a.addr + a.size; ++b) {
          const uint64_t l = b & ~uint64_t{line - 1};
          if (!ref.count(l)) order.push_back(l);
          ref[l].first.insert(a.tid);
          ref[l].second.insert(b);
        }
      BOOST_TEST_REQUIRE(run(line, acc) == order.size(), "line " << line << " round " << round);
      for (size_t r = 0; r < order.size(); ++r) {
        BOOST_TEST_REQUIRE(out[r].line_addr == order[r]);
        BOOST_TEST_REQUIRE(out[r].bytes == ref[order[r]].second.size(), "line " << line << " round " << round);
        BOOST_TEST_REQUIRE(out[r].threads.count() == ref[order[r]].first.size());
        for (uint32_t t : ref[order[r]].first) BOOST_TEST_REQUIRE(out[r].threads.test(t));
      }
    }
  }
}
