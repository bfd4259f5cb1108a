#define BOOST_TEST_MODULE shared_memory_banks
#include <boost/test/unit_test.hpp>

#include <vector>

#include "mem/shared_memory_banks.h"
#include "stats/stats.h"
#include "util/error.h"

using simt::func::MemAccess;
using simt::mem::SharedMemoryBanks;
using simt::mem::SharedMemoryParams;
using simt::ptx::Space;

namespace {

std::vector<MemAccess> strided(uint64_t base, uint64_t stride, uint8_t size, uint32_t n = 32) {
  std::vector<MemAccess> v;
  for (uint32_t t = 0; t < n; ++t) v.push_back(MemAccess{t, Space::Shared, size, base + t * stride});
  return v;
}

struct Fixture {
  simt::stats::Registry st;
  SharedMemoryBanks banks{SharedMemoryParams{}, st, "sm0.shmem"};
};

}  // namespace

BOOST_FIXTURE_TEST_CASE(word_strides, Fixture) {
  BOOST_TEST(banks.cycles(strided(0, 4, 4)) == 1u);      // stride 1 word
  BOOST_TEST(banks.cycles(strided(0, 8, 4)) == 2u);      // stride 2: two threads per even bank
  BOOST_TEST(banks.cycles(strided(0, 12, 4)) == 1u);     // odd stride 3: conflict-free
  BOOST_TEST(banks.cycles(strided(0, 16, 4)) == 4u);
  BOOST_TEST(banks.cycles(strided(0, 128, 4)) == 32u);   // stride 32 words: all in bank 0
  BOOST_TEST(banks.cycles(strided(0, 132, 4)) == 1u);    // padded stride 33
  BOOST_TEST(banks.cycles(strided(64, 4, 4)) == 1u);     // base not at bank 0: still one word per bank
}

BOOST_FIXTURE_TEST_CASE(broadcast, Fixture) {
  BOOST_TEST(banks.cycles(strided(0x40, 0, 4)) == 1u);  // every thread the same word
  // Half the threads on word 0, half on word 32 (same bank, different words): 2.
  std::vector<MemAccess> v = strided(0, 0, 4, 16);
  for (uint32_t t = 16; t < 32; ++t) v.push_back(MemAccess{t, Space::Shared, 4, 128});
  BOOST_TEST(banks.cycles(v) == 2u);
  // Bytes of one word from different threads are one access.
  BOOST_TEST(banks.cycles(strided(0, 1, 1)) == 1u);  // 32 bytes = 8 words in 8 banks
}

BOOST_FIXTURE_TEST_CASE(parts_of_different_ctas_never_share_a_word, Fixture) {
  // Every thread reads word 0 of its CTA's shared memory: one CTA is a
  // broadcast; two CTAs (a DWF warp of the SM-wide pool) are two words in
  // bank 0, so two cycles.
  std::vector<MemAccess> v = strided(0, 0, 4);
  BOOST_TEST(banks.cycles(v) == 1u);
  for (uint32_t t = 16; t < 32; ++t) v[t].part = 1;
  BOOST_TEST(banks.cycles(v) == 2u);
  // Conflict-free strides stay conflict-free: bank = word, whatever the CTA.
  v = strided(0, 4, 4);
  for (uint32_t t = 16; t < 32; ++t) v[t].part = 1;
  BOOST_TEST(banks.cycles(v) == 1u);
}

BOOST_FIXTURE_TEST_CASE(eight_byte_and_vector_accesses, Fixture) {
  BOOST_TEST(banks.cycles(strided(0, 8, 8)) == 2u);    // 64 words over 32 banks
  BOOST_TEST(banks.cycles(strided(0, 8, 8, 16)) == 1u);  // a half-warp: conflict-free
  BOOST_TEST(banks.cycles(strided(0, 16, 8)) == 4u);   // stride 2 doubles: words 4t, 4t+1
  BOOST_TEST(banks.cycles(strided(0, 0, 8)) == 1u);    // broadcast of one double
  // v4.f32, as the executor reports it: 4 elements per thread, 512 B in all.
  std::vector<MemAccess> v;
  for (uint32_t t = 0; t < 32; ++t)
    for (uint32_t e = 0; e < 4; ++e) v.push_back(MemAccess{t, Space::Shared, 4, (t * 4 + e) * 4u});
  BOOST_TEST(banks.cycles(v) == 4u);
}

BOOST_FIXTURE_TEST_CASE(non_shared_accesses_are_ignored, Fixture) {
  std::vector<MemAccess> v = strided(0, 128, 4);
  for (MemAccess& a : v) a.space = Space::Global;
  BOOST_TEST(banks.access(v) == 0u);
  BOOST_TEST(st.value("sm0.shmem.instructions") == 0u);
  v[0].space = Space::Shared;
  v[1].space = Space::Shared;  // words 0 and 32: same bank
  BOOST_TEST(banks.access(v) == 2u);
}

BOOST_FIXTURE_TEST_CASE(counters, Fixture) {
  banks.access(strided(0, 4, 4));    // 1 cycle
  banks.access(strided(0, 128, 4));  // 32 cycles
  banks.access(strided(0, 8, 4));    // 2 cycles
  BOOST_TEST(st.value("sm0.shmem.instructions") == 3u);
  BOOST_TEST(st.value("sm0.shmem.cycles") == 35u);
  BOOST_TEST(st.value("sm0.shmem.bank_conflicts") == 0u + 31u + 1u);
  BOOST_TEST(st.value("sm0.shmem.words") == 96u);
  // cycles() alone leaves the stats alone.
  banks.cycles(strided(0, 128, 4));
  BOOST_TEST(st.value("sm0.shmem.bank_conflicts") == 32u);
}

BOOST_AUTO_TEST_CASE(other_geometries) {
  simt::stats::Registry st;
  SharedMemoryParams p;
  p.banks = 16;  // GT200-style: 16 banks
  SharedMemoryBanks b16(p, st, "a");
  BOOST_TEST(b16.cycles(strided(0, 4, 4)) == 2u);
  BOOST_TEST(b16.cycles(strided(0, 4, 4, 16)) == 1u);
  p = SharedMemoryParams{};
  p.bank_width = 8;  // Kepler's 8-byte mode: unit-stride doubles in one cycle
  SharedMemoryBanks b8(p, st, "b");
  BOOST_TEST(b8.cycles(strided(0, 8, 8)) == 1u);
  BOOST_TEST(b8.cycles(strided(0, 4, 4)) == 1u);  // two threads share each 8-byte word
}

BOOST_AUTO_TEST_CASE(validate) {
  SharedMemoryParams p;
  p.banks = 24;
  BOOST_CHECK_THROW(p.validate("sm.shmem"), simt::Error);
  p = SharedMemoryParams{};
  p.bank_width = 3;
  BOOST_CHECK_THROW(p.validate("sm.shmem"), simt::Error);
  p = SharedMemoryParams{};
  p.latency = 0;
  BOOST_CHECK_THROW(p.validate("sm.shmem"), simt::Error);
  BOOST_CHECK_NO_THROW(SharedMemoryParams{}.validate("sm.shmem"));
}
