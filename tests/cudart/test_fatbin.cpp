#define BOOST_TEST_MODULE fatbin
#include <boost/test/unit_test.hpp>

#include <lz4.h>
#include <stdlib.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cudart/fatbin.h"
#include "cudart/fatbin_builder.h"
#include "ptx/parser.h"
#include "util/error.h"

// Fatbins and wrappers assembled here around committed PTX (data/
// fatbin_kernel.ptx, from data/fatbin_kernel.cu), laid out as nvcc 13 lays
// them out (docs/cuda-apps.md, "Fatbins"): uncompressed, zstd and LZ4; several
// PTX versions and archs; SASS only; -rdc wrappers; and malformed input, which
// must be BadInput naming the place, never a crash. The last case reads real
// nvcc output when nvcc is installed.

using namespace simt;
using namespace simt::cudart;
using namespace simt::cudart::testing;

namespace {

const char* kPtxFile = SIMT_SOURCE_DIR "/tests/cudart/data/fatbin_kernel.ptx";
const char* kCuFile = SIMT_SOURCE_DIR "/tests/cudart/data/fatbin_kernel.cu";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string& base_ptx() {
  static const std::string text = slurp(kPtxFile);
  return text;
}

// The committed PTX with another .version / .target, so a test can tell which
// image was picked from its text as well as its header.
std::string ptx_variant(uint32_t major, uint32_t minor, uint32_t arch) {
  std::string t = base_ptx();
  auto swap = [&](const std::string& from, const std::string& to) {
    const size_t at = t.find(from);
    BOOST_REQUIRE(at != std::string::npos);
    t.replace(at, from.size(), to);
  };
  swap(".version 9.0", ".version " + std::to_string(major) + "." + std::to_string(minor));
  swap(".target sm_75", ".target sm_" + std::to_string(arch));
  return t;
}

// `fn` must throw simt::Error(BadInput) whose message holds every `parts`.
template <class F>
void expect_bad(F fn, const std::vector<std::string>& parts) {
  try {
    fn();
    BOOST_FAIL("no error; expected one with: " + parts.front());
  } catch (const Error& e) {
    BOOST_TEST(int(e.code()) == int(ExitCode::BadInput));
    for (const auto& p : parts) BOOST_TEST(std::string(e.what()).find(p) != std::string::npos, e.what() << " lacks: " << p);
  }
}

void expect_bad_bytes(const std::vector<uint8_t>& b, const std::vector<std::string>& parts) {
  std::vector<std::string> all = parts;
  all.insert(all.begin(), "t.fatbin: byte ");
  expect_bad([&] { read_fatbin(b.data(), b.size(), "t.fatbin"); }, all);
}

}  // namespace

BOOST_AUTO_TEST_CASE(uncompressed_ptx_and_sass) {
  const Fatbin f = make_fatbin({sass_entry(75), ptx_entry(base_ptx(), 9, 0, 75, Codec::None)});
  const FatbinContents c = read_fatbin(f.data(), f.size, "t");
  BOOST_REQUIRE_EQUAL(c.ptx.size(), 1u);
  BOOST_TEST(c.ptx[0].text == base_ptx());  // the NUL padding is gone
  BOOST_TEST(c.ptx[0].arch == 75u);
  BOOST_TEST(c.ptx[0].ptx_major == 9u);
  BOOST_TEST(c.ptx[0].ptx_minor == 0u);
  BOOST_TEST(c.sass_archs == std::vector<uint32_t>{75});
  BOOST_TEST(c.sass_names == std::vector<std::string>{"sm_75"});
  // Without a size bound the header's own size is used.
  BOOST_TEST(read_fatbin(f.data(), "t").ptx.at(0).text == base_ptx());
  // What simtlab will load parses.
  const ptx::Module m = ptx::parse(pick_ptx(c, "t").text, "t.ptx");
  BOOST_TEST(m.functions.size() == 2u);
}

BOOST_AUTO_TEST_CASE(zstd_and_lz4_payloads) {
  for (Codec codec : {Codec::Zstd, Codec::Lz4}) {
    const Fatbin f = make_fatbin({ptx_entry(base_ptx(), 9, 0, 75, codec), sass_entry(75)});
    const auto entries = list_entries(f.data(), f.size, "t");
    BOOST_REQUIRE_EQUAL(entries.size(), 2u);
    BOOST_TEST(int(entries[0].codec) ==
               int(codec == Codec::Zstd ? FatbinEntry::Codec::Zstd : FatbinEntry::Codec::Lz4));
    BOOST_TEST(entries[0].decompressed_size == base_ptx().size() + 1);
    BOOST_TEST(entries[0].compressed_size < base_ptx().size());
    BOOST_TEST(int(entries[1].kind) == int(FatbinEntry::Kind::Sass));
    const FatbinContents c = read_fatbin(f.data(), f.size, "t");
    BOOST_REQUIRE_EQUAL(c.ptx.size(), 1u);
    BOOST_TEST(c.ptx[0].text == base_ptx());
  }
}

BOOST_AUTO_TEST_CASE(pick_highest_accepted_version) {
  const Fatbin f = make_fatbin({
      ptx_entry(ptx_variant(8, 0, 75), 8, 0, 75, Codec::None),
      ptx_entry(ptx_variant(9, 0, 75), 9, 0, 75, Codec::Zstd),
      ptx_entry(ptx_variant(9, 1, 90), 9, 1, 90, Codec::Lz4),
      ptx_entry(ptx_variant(9, 0, 80), 9, 0, 80, Codec::Lz4),
      sass_entry(86),
  });
  const FatbinContents c = read_fatbin(f.data(), f.size, "t");
  BOOST_REQUIRE_EQUAL(c.ptx.size(), 4u);
  std::string warning = "stale";
  const PtxImage& p = pick_ptx(c, "t", &warning);
  BOOST_TEST(p.ptx_major == 9u);
  BOOST_TEST(p.ptx_minor == 0u);
  BOOST_TEST(p.arch == 80u);  // same version: the highest arch
  BOOST_TEST(p.text == ptx_variant(9, 0, 80));
  BOOST_TEST(warning.empty());

  // Only newer than simtlab knows: the lowest of them, with a warning.
  const Fatbin g = make_fatbin({ptx_entry(ptx_variant(9, 2, 90), 9, 2, 90, Codec::None),
                                ptx_entry(ptx_variant(9, 1, 100), 9, 1, 100, Codec::Zstd)});
  const FatbinContents newer = read_fatbin(g.data(), g.size, "t");
  const PtxImage& q = pick_ptx(newer, "app.so", &warning);
  BOOST_TEST(q.text == ptx_variant(9, 1, 100));
  BOOST_TEST(warning.find("app.so") != std::string::npos);
  BOOST_TEST(warning.find("ISA 9.1, newer than the 9.0") != std::string::npos, warning);
}

BOOST_AUTO_TEST_CASE(arch_suffixes) {
  const Fatbin f = make_fatbin({ptx_entry(ptx_variant(9, 0, 90), 9, 0, 90, Codec::Zstd, 0x100000),
                                sass_entry(100, 0x1200000)});
  const FatbinContents c = read_fatbin(f.data(), f.size, "t");
  BOOST_TEST(c.ptx.at(0).arch_suffix == 'a');
  BOOST_TEST(c.sass_names == std::vector<std::string>{"sm_100f"});
  BOOST_TEST(arch_name("compute_", 90, 'a') == "compute_90a");
}

BOOST_AUTO_TEST_CASE(sass_only_names_the_option) {
  const Fatbin f = make_fatbin({sass_entry(90, 0x100000), sass_entry(75), sass_entry(75)});
  const FatbinContents c = read_fatbin(f.data(), f.size, "./app");
  BOOST_TEST(c.ptx.empty());
  expect_bad([&] { pick_ptx(c, "./app"); },
             {"./app: the fatbin holds no PTX, only SASS for sm_90a, sm_75;",
              "-gencode arch=compute_75,code=compute_75", "-arch=sm_75, which embeds both"});
  const Fatbin empty = make_fatbin({});
  expect_bad([&] { pick_ptx(read_fatbin(empty.data(), empty.size, "e"), "e"); }, {"e: ", "neither PTX nor SASS"});
}

BOOST_AUTO_TEST_CASE(wrappers_v1_and_v2) {
  const Fatbin one = make_fatbin({ptx_entry(ptx_variant(9, 0, 75), 9, 0, 75, Codec::Zstd)});
  Wrapper w1;
  w1.data = one.data();
  const auto u1 = read_wrapper(&w1, "app");
  BOOST_REQUIRE_EQUAL(u1.size(), 1u);
  BOOST_TEST(u1[0].ptx.at(0).text == ptx_variant(9, 0, 75));

  // -rdc=true: the linked fatbin is SASS only; each prelinked one has its TU's PTX.
  const Fatbin linked = make_fatbin({sass_entry(75)});
  const Fatbin tu1 = make_fatbin({sass_entry(75), ptx_entry(ptx_variant(9, 0, 75), 9, 0, 75, Codec::Zstd)});
  const Fatbin tu2 = make_fatbin({ptx_entry(ptx_variant(8, 5, 80), 8, 5, 80, Codec::Lz4)});
  const void* list[] = {tu1.data(), tu2.data(), nullptr};
  Wrapper w2;
  w2.version = 2;
  w2.data = linked.data();
  w2.filename_or_fatbins = list;
  const auto u2 = read_wrapper(&w2, "app");
  BOOST_REQUIRE_EQUAL(u2.size(), 2u);
  BOOST_TEST(pick_ptx(u2[0], "app").text == ptx_variant(9, 0, 75));
  BOOST_TEST(pick_ptx(u2[1], "app").text == ptx_variant(8, 5, 80));
  BOOST_TEST(u2[0].sass_archs == std::vector<uint32_t>{75});

  // A bad prelinked fatbin is named by its place in the list.
  std::vector<uint64_t> junk(4, 0);
  const void* bad_list[] = {tu1.data(), junk.data(), nullptr};
  w2.filename_or_fatbins = bad_list;
  expect_bad([&] { read_wrapper(&w2, "app"); }, {"app (prelinked fatbin 2): byte 0: not a fatbin"});

  // Version 2 with no list: its one fatbin.
  w2.filename_or_fatbins = nullptr;
  w2.data = tu2.data();
  BOOST_TEST(read_wrapper(&w2, "app").at(0).ptx.at(0).text == ptx_variant(8, 5, 80));
}

BOOST_AUTO_TEST_CASE(bad_wrappers) {
  const Fatbin one = make_fatbin({ptx_entry(base_ptx(), 9, 0, 75, Codec::None)});
  Wrapper w;
  w.data = one.data();
  expect_bad([&] { read_wrapper(nullptr, "app"); }, {"app: the fatbin wrapper pointer is null"});
  w.magic = 0x12345678;
  expect_bad([&] { read_wrapper(&w, "app"); }, {"app (wrapper): byte 0: not a fatbin wrapper: magic 0x12345678"});
  w.magic = 0x466243b1;
  w.version = 3;
  expect_bad([&] { read_wrapper(&w, "app"); }, {"app (wrapper): byte 4: unsupported fatbin wrapper version 3"});
  w.version = 1;
  w.data = nullptr;
  expect_bad([&] { read_wrapper(&w, "app"); }, {"app (wrapper): byte 8: the wrapper's fatbin pointer is null"});
}

BOOST_AUTO_TEST_CASE(malformed_fatbins) {
  const std::vector<uint8_t> good = make_fatbin({ptx_entry(base_ptx(), 9, 0, 75, Codec::Zstd)}).bytes();
  const std::vector<uint8_t> lz4 = make_fatbin({ptx_entry(base_ptx(), 9, 0, 75, Codec::Lz4)}).bytes();
  const std::vector<uint8_t> plain = make_fatbin({ptx_entry(base_ptx(), 9, 0, 75, Codec::None)}).bytes();
  const size_t e = 16;  // the first entry's header
  auto with = [](std::vector<uint8_t> b, auto edit) {
    edit(b);
    return b;
  };

  expect_bad_bytes(with(good, [](auto& b) { put<uint32_t>(b, 0, 0xBA55ED51); }), {"0: not a fatbin: magic 0xba55ed51"});
  expect_bad_bytes(with(good, [](auto& b) { put<uint16_t>(b, 4, 2); }), {"4: unsupported fatbin version 2"});
  expect_bad_bytes(with(good, [](auto& b) { put<uint16_t>(b, 6, 8); }), {"6: fatbin header size 8 is below 16"});
  expect_bad_bytes(with(good, [](auto& b) { put<uint64_t>(b, 8, uint64_t(1) << 31); }),
                   {"8: fatbin size 2147483648 is beyond the sane limit"});
  expect_bad_bytes(with(good, [](auto& b) { put<uint64_t>(b, 8, ~uint64_t(0)); }), {"8: fatbin size", "sane limit"});
  // Truncated: the buffer ends before the header's size, or before the header.
  expect_bad([&] { read_fatbin(good.data(), good.size() - 1, "t.fatbin"); },
             {"t.fatbin: byte 8: truncated: the header says " + std::to_string(good.size())});
  expect_bad([&] { read_fatbin(good.data(), 10, "t.fatbin"); }, {"t.fatbin: byte 0: truncated: 10 bytes"});
  expect_bad([&] { read_fatbin(nullptr, "t.fatbin"); }, {"t.fatbin: byte 0: the fatbin pointer is null"});
  // The header's size ends inside an entry header.
  expect_bad_bytes(with(good, [](auto& b) { put<uint64_t>(b, 8, 40); }), {"16: truncated entry header: 40 bytes"});
  // Entry header and payload sizes past the end.
  expect_bad_bytes(with(good, [&](auto& b) { put<uint32_t>(b, e + 4, 32); }), {"20: entry header size 32 is below 64"});
  expect_bad_bytes(with(good, [&](auto& b) { put<uint32_t>(b, e + 4, 0xffffffffu); }),
                   {"20: entry header size 4294967295 is past the fatbin's end"});
  expect_bad_bytes(with(good, [&](auto& b) { put<uint64_t>(b, e + 8, peek<uint64_t>(b, e + 8) + 8); }),
                   {"24: entry payload of", "runs past the fatbin's end"});
  expect_bad_bytes(with(good, [&](auto& b) { put<uint64_t>(b, e + 8, ~uint64_t(0) - 40); }),
                   {"24: entry payload of", "runs past"});
  expect_bad_bytes(with(good, [&](auto& b) { put<uint16_t>(b, e + 2, 0x0102); }),
                   {"18: unsupported fatbin entry version 0x102"});
  // Compressed sizes that do not fit.
  expect_bad_bytes(with(good, [&](auto& b) { put<uint32_t>(b, e + 16, 0); }),
                   {"32: PTX entry (compute_75): compressed size 0 does not fit"});
  expect_bad_bytes(with(good, [&](auto& b) { put<uint32_t>(b, e + 16, uint32_t(peek<uint64_t>(b, e + 8) + 1)); }),
                   {"32: PTX entry (compute_75): compressed size", "does not fit"});
  expect_bad_bytes(with(good, [&](auto& b) { put<uint64_t>(b, e + 56, 0); }), {"72: ", "decompressed size 0 is not"});
  expect_bad_bytes(with(good, [&](auto& b) { put<uint64_t>(b, e + 56, uint64_t(1) << 40); }),
                   {"72: ", "decompressed size 1099511627776 is not"});
  // Unknown compression: both codec bits.
  expect_bad_bytes(with(good, [&](auto& b) { put<uint64_t>(b, e + 40, 0xa011); }),
                   {"56: PTX entry (compute_75): unknown compression (flags 0xa011", "-no-compress"});
  // Corrupt compressed data: zstd and LZ4.
  const size_t payload = e + 80;
  expect_bad_bytes(with(good, [&](auto& b) { b[payload] ^= 0xff; }), {"96: the zstd-compressed PTX entry", "-no-compress"});
  expect_bad_bytes(with(good, [&](auto& b) { put<uint32_t>(b, e + 16, peek<uint32_t>(b, e + 16) - 4); }),
                   {"the zstd-compressed PTX entry (compute_75) cannot be decompressed", "-no-compress"});
  expect_bad_bytes(with(lz4, [&](auto& b) { std::memset(&b[payload], 0xff, 16); }),
                   {"96: the LZ4-compressed PTX entry (compute_75) cannot be decompressed", "-no-compress"});
  // Decompressed size mismatch, both ways, both codecs.
  const uint64_t dsize = base_ptx().size() + 1;
  expect_bad_bytes(with(good, [&](auto& b) { put<uint64_t>(b, e + 56, dsize + 1); }),
                   {"16: PTX entry (compute_75): the header's decompressed size " + std::to_string(dsize + 1) +
                    " differs from the zstd frame's " + std::to_string(dsize)});
  expect_bad_bytes(with(lz4, [&](auto& b) { put<uint64_t>(b, e + 56, dsize + 1); }),
                   {"16: PTX entry (compute_75): decompressed to " + std::to_string(dsize) + " bytes, the header says " +
                    std::to_string(dsize + 1)});
  expect_bad_bytes(with(lz4, [&](auto& b) { put<uint64_t>(b, e + 56, dsize - 1); }),
                   {"96: the LZ4-compressed", "more than the " + std::to_string(dsize - 1) + " bytes"});
  expect_bad_bytes(with(lz4, [&](auto& b) { put<uint64_t>(b, e + 56, uint64_t(1) << 29); }),
                   {"16: PTX entry (compute_75): decompressed size 536870912 is impossible"});
  // A PTX entry of NULs only.
  expect_bad_bytes(with(plain, [&](auto& b) { std::memset(&b[payload], 0, b.size() - payload); }),
                   {"96: PTX entry (compute_75) holds no text"});
}

// Every truncation and every single-byte corruption of a valid fatbin is
// either read or refused with BadInput; none crashes (run it under the
// sanitizer build to see reads out of bounds).
BOOST_AUTO_TEST_CASE(every_truncation_and_byte_flip) {
  const std::string small = ".version 9.0\n.target sm_75\n.address_size 64\n";
  for (Codec codec : {Codec::None, Codec::Zstd, Codec::Lz4}) {
    const std::vector<uint8_t> good =
        make_fatbin({sass_entry(75), ptx_entry(small + small + small, 9, 0, 75, codec)}).bytes();
    size_t refused = 0, read = 0;
    auto attempt = [&](const std::vector<uint8_t>& b, size_t avail) {
      try {
        read_fatbin(b.data(), avail, "f");
        ++read;
      } catch (const Error& err) {
        BOOST_TEST(int(err.code()) == int(ExitCode::BadInput));
        ++refused;
      }
    };
    for (size_t n = 0; n < good.size(); ++n) {
      std::vector<uint8_t> cut(good.begin(), good.begin() + n);  // exactly n bytes, so ASan sees overreads
      attempt(cut, n);
    }
    BOOST_TEST(refused == good.size());
    for (size_t i = 0; i < good.size(); ++i)
      for (uint8_t mask : {0x01, 0x80, 0xff}) {
        std::vector<uint8_t> b = good;
        b[i] ^= mask;
        attempt(b, b.size());
      }
    BOOST_TEST(read > 0u);
  }
}

// Real nvcc output, when nvcc is installed: the default (compressed),
// -no-compress and LZ4 (--compress-mode=speed) fatbins of
// data/fatbin_kernel.cu give the same PTX, which parses.
BOOST_AUTO_TEST_CASE(real_nvcc_output) {
  const std::string nvcc = "/usr/local/cuda/bin/nvcc";
  if (!std::filesystem::exists(nvcc)) {
    std::cout << "SKIP: nvcc not found (" << nvcc << "); the real-nvcc case did not run" << std::endl;
    return;
  }
  char tmpl[] = "/tmp/simt_fatbin_XXXXXX";
  BOOST_REQUIRE(mkdtemp(tmpl));
  const std::string dir = tmpl;
  struct Cleanup {
    std::string d;
    ~Cleanup() { std::filesystem::remove_all(d); }
  } cleanup{dir};
  auto build = [&](const std::string& name, const std::string& opts, bool required = true) {
    const std::string out = dir + "/" + name + ".fatbin";
    const std::string cmd = nvcc + " -fatbin -arch=sm_75 " + opts + " " + kCuFile + " -o " + out + " > " + dir +
                            "/" + name + ".log 2>&1";
    const int rc = std::system(cmd.c_str());
    if (rc != 0 && !required) return std::string();
    if (rc != 0) {
      std::ifstream log(dir + "/" + name + ".log");
      std::ostringstream text;
      text << log.rdbuf();
      BOOST_FAIL(cmd + " failed (" + std::to_string(rc) + "): " + text.str());
    }
    return slurp(out);
  };
  const std::string packed = build("default", "");
  const std::string plain = build("plain", "-no-compress");
  auto ptx_codec = [](const std::string& bin) {
    for (const FatbinEntry& e : list_entries(bin.data(), bin.size(), "nvcc"))
      if (e.kind == FatbinEntry::Kind::Ptx) return e.codec;
    BOOST_FAIL("no PTX entry");
    return FatbinEntry::Codec::None;
  };
  BOOST_TEST(int(ptx_codec(packed)) != int(FatbinEntry::Codec::None));
  BOOST_TEST(int(ptx_codec(plain)) == int(FatbinEntry::Codec::None));
  const FatbinContents a = read_fatbin(packed.data(), packed.size(), dir + "/default.fatbin");
  const FatbinContents b = read_fatbin(plain.data(), plain.size(), dir + "/plain.fatbin");
  BOOST_TEST(a.sass_archs == std::vector<uint32_t>{75});
  BOOST_TEST(b.sass_archs == std::vector<uint32_t>{75});
  const PtxImage& pa = pick_ptx(a, "default");
  const PtxImage& pb = pick_ptx(b, "plain");
  BOOST_TEST(pa.text == pb.text);
  BOOST_TEST(pa.arch == 75u);
  BOOST_TEST(pa.text.find(".entry _Z5scalePffi") != std::string::npos);
  BOOST_TEST(ptx::parse(pa.text, "default.ptx").functions.size() == 2u);
  // nvcc 13's LZ4 mode (nvcc 12's default codec); older nvcc lack the option.
  const std::string speed = build("speed", "--compress-mode=speed", false);
  if (speed.empty()) {
    std::cout << "note: nvcc has no --compress-mode=speed; real LZ4 output not checked" << std::endl;
    return;
  }
  BOOST_TEST(int(ptx_codec(speed)) == int(FatbinEntry::Codec::Lz4));
  BOOST_TEST(pick_ptx(read_fatbin(speed.data(), speed.size(), "speed"), "speed").text == pb.text);
}
