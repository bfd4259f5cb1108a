// Fatbins and their wrappers assembled in a test, laid out as nvcc 13 lays
// them out (docs/cuda-apps.md, "Fatbins"), around PTX the test supplies:
// uncompressed, zstd or LZ4 payloads, PTX and (fake) SASS entries.
#pragma once

#include <boost/test/unit_test.hpp>

#include <lz4.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace simt::cudart::testing {

enum class Codec { None, Zstd, Lz4 };

template <class T>
void put(std::vector<uint8_t>& b, size_t off, T v) {
  BOOST_REQUIRE(off + sizeof v <= b.size());
  std::memcpy(&b[off], &v, sizeof v);
}
template <class T>
T peek(const std::vector<uint8_t>& b, size_t off) {
  T v;
  std::memcpy(&v, &b[off], sizeof v);
  return v;
}

// One entry: its header (64 bytes, or 80 for PTX as nvcc writes it) and payload.
inline std::vector<uint8_t> entry(uint16_t kind, uint32_t arch, uint16_t major, uint16_t minor, uint64_t flags,
                           const std::string& stored, uint32_t csize, uint64_t dsize) {
  const size_t header = kind == 1 ? 80 : 64;
  const size_t padded = (stored.size() + 7) & ~size_t(7);
  std::vector<uint8_t> e(header + padded, 0);
  put<uint16_t>(e, 0, kind);
  put<uint16_t>(e, 2, 0x0101);
  put<uint32_t>(e, 4, uint32_t(header));
  put<uint64_t>(e, 8, padded);
  put<uint32_t>(e, 16, csize);
  put<uint32_t>(e, 20, kind == 1 ? 64 : 0);  // PTX: where its (empty) options string is
  put<uint16_t>(e, 24, minor);
  put<uint16_t>(e, 26, major);
  put<uint32_t>(e, 28, arch);
  put<uint64_t>(e, 40, flags);
  put<uint64_t>(e, 56, dsize);
  if (kind == 1) put<uint32_t>(e, 64, 72);
  std::memcpy(&e[header], stored.data(), stored.size());
  return e;
}

inline std::vector<uint8_t> ptx_entry(const std::string& text, uint16_t major, uint16_t minor, uint32_t arch,
                               Codec codec, uint64_t extra_flags = 0) {
  const std::string with_nul = text + '\0';  // nvcc's decompressed size counts the NUL
  std::string packed;
  uint64_t flags = 0x11 | extra_flags;
  if (codec == Codec::Zstd) {
    packed.resize(ZSTD_compressBound(with_nul.size()));
    const size_t n = ZSTD_compress(&packed[0], packed.size(), with_nul.data(), with_nul.size(), 19);
    BOOST_REQUIRE(!ZSTD_isError(n));
    packed.resize(n);
    flags |= 0x8000;
  } else if (codec == Codec::Lz4) {
    packed.resize(LZ4_compressBound(int(with_nul.size())));
    const int n = LZ4_compress_default(with_nul.data(), &packed[0], int(with_nul.size()), int(packed.size()));
    BOOST_REQUIRE(n > 0);
    packed.resize(n);
    flags |= 0x2000;
  }
  if (codec == Codec::None) return entry(1, arch, major, minor, flags, with_nul, 0, 0);
  return entry(1, arch, major, minor, flags, packed, uint32_t(packed.size()), with_nul.size());
}

inline std::vector<uint8_t> sass_entry(uint32_t arch, uint64_t extra_flags = 0) {
  return entry(2, arch, 1, 8, 0x11 | extra_flags, std::string("\x7f" "ELF\x02\x01\x01\x41", 8) + "not a cubin", 0, 0);
}

// A fatbin of the given entries; stored in 8-byte words, as in .nv_fatbin.
struct Fatbin {
  std::vector<uint64_t> words;
  size_t size = 0;
  const void* data() const { return words.data(); }
  std::vector<uint8_t> bytes() const {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(words.data());
    return std::vector<uint8_t>(p, p + size);
  }
};

inline Fatbin make_fatbin(const std::vector<std::vector<uint8_t>>& entries) {
  std::vector<uint8_t> b(16, 0);
  for (const auto& e : entries) b.insert(b.end(), e.begin(), e.end());
  put<uint32_t>(b, 0, 0xBA55ED50);
  put<uint16_t>(b, 4, 1);
  put<uint16_t>(b, 6, 16);
  put<uint64_t>(b, 8, b.size() - 16);
  Fatbin f;
  f.size = b.size();
  f.words.resize((b.size() + 7) / 8);
  std::memcpy(f.words.data(), b.data(), b.size());
  return f;
}

// __fatBinC_Wrapper_t's layout (fatbinary_section.h).
struct Wrapper {
  int32_t magic = 0x466243b1;
  int32_t version = 1;
  const void* data = nullptr;
  const void* filename_or_fatbins = nullptr;
};

}  // namespace simt::cudart::testing
