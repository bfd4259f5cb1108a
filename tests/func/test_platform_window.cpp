// GlobalMemory's platform windows: memory a virtual platform owns (its CPU
// wrote the kernel's buffers there) is mapped for kernels, and its bytes are
// left exactly as the platform's storage holds them.
#define BOOST_TEST_MODULE platform_window
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "func/global_memory.h"
#include "util/error.h"

using simt::func::GlobalMemory;

namespace {

// A platform memory: one byte array at [base, base + size), full of 0xee,
// with direct pointers to its pages.
class PlatformRam final : public GlobalMemory::Storage {
 public:
  PlatformRam(uint64_t base, uint64_t size) : base_(base), bytes_(size, 0xee) {}
  uint8_t* direct_page(uint64_t page_no) override {
    const uint64_t a = page_no << GlobalMemory::kPageBits;
    return a >= base_ && a + GlobalMemory::kPageSize <= base_ + bytes_.size() ? &bytes_[a - base_] : nullptr;
  }
  void read(uint64_t addr, void* dst, uint64_t size) override { std::memcpy(dst, &bytes_.at(addr - base_), size); }
  void write(uint64_t addr, const void* src, uint64_t size) override {
    std::memcpy(&bytes_.at(addr - base_), src, size);
  }
  uint8_t at(uint64_t addr) const { return bytes_.at(addr - base_); }

 private:
  uint64_t base_;
  std::vector<uint8_t> bytes_;
};

constexpr uint64_t kRam = 0x8000'0000, kRamSize = 4 << 20;

}  // namespace

BOOST_AUTO_TEST_CASE(a_window_is_mapped_and_its_bytes_are_the_platforms) {
  GlobalMemory mem;
  PlatformRam ram(kRam, kRamSize);
  mem.use_storage(&ram);
  BOOST_TEST(!mem.mapped(kRam + 64, 4));
  mem.map_platform(kRam, kRamSize);
  BOOST_TEST(mem.mapped(kRam + 64, 4));
  BOOST_TEST(mem.mapped(kRam + kRamSize - 4, 4));
  BOOST_TEST(!mem.mapped(kRam + kRamSize - 2, 4));  // runs past the window's end
  BOOST_TEST(!mem.mapped(kRam - 4, 4));
  // What the platform holds is read as it is, never zeroed on first touch.
  BOOST_TEST(mem.load<uint8_t>(kRam + 100) == 0xee);
  uint8_t host[4];
  mem.read_host(kRam + 200, host, 4);
  BOOST_TEST(host[3] == 0xee);
  mem.store<uint32_t>(kRam + 8, 0x01020304);
  BOOST_TEST(ram.at(kRam + 8) == 0x04);
  // Nothing of it is hashed, and nothing counts against the touch limit.
  const uint64_t empty = GlobalMemory().checksum();
  BOOST_TEST(mem.checksum() == empty);
  mem.set_touch_limit(GlobalMemory::kPageSize);
  for (uint64_t a = kRam; a < kRam + kRamSize; a += GlobalMemory::kPageSize) mem.load<uint8_t>(a);
  BOOST_TEST(mem.bytes_touched() == 0u);
}

BOOST_AUTO_TEST_CASE(windows_must_not_be_empty_or_overlap) {
  GlobalMemory mem;
  mem.map_platform(kRam, kRamSize);
  BOOST_CHECK_THROW(mem.map_platform(kRam + kRamSize - 16, 64), simt::Error);
  BOOST_CHECK_THROW(mem.map_platform(kRam - 16, 32), simt::Error);
  BOOST_CHECK_THROW(mem.map_platform(0x10, 0), simt::Error);
  BOOST_CHECK_THROW(mem.map_platform(~uint64_t{0} - 8, 64), simt::Error);
  mem.map_platform(kRam + kRamSize, 64);  // adjacent is fine
  BOOST_TEST(mem.mapped(kRam + kRamSize - 4, 8) == false);  // but one access may not span two windows
}
