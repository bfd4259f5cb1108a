#include "cudart/fatbin.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

#include "util/error.h"

// The layout (docs/cuda-apps.md, "Fatbins"), little-endian:
//   wrapper: i32 magic 0x466243b1, i32 version (1 or 2), ptr data, ptr
//            filename_or_fatbins (version 2: NULL-terminated fatbin pointers)
//   fatbin:  u32 magic 0xBA55ED50, u16 version 1, u16 header size (16),
//            u64 bytes of entries that follow the header
//   entry:   u16 kind (1 PTX, 2 ELF), u16 version 0x0101, u32 header size,
//            u64 payload size (padded to 8), u32 compressed size, u32 options
//            offset, u16 minor, u16 major, u32 arch, u32 name offset, u32 name
//            length, u64 flags, u64 reserved, u64 decompressed size, then
//            header-size - 64 bytes of optional strings, then the payload.

namespace simt::cudart {

namespace {

constexpr uint32_t kWrapperMagic = 0x466243b1;
constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr uint64_t kFatbinHeaderBytes = 16;
constexpr uint64_t kEntryHeaderBytes = 64;
constexpr uint16_t kEntryVersion = 0x0101;
constexpr uint16_t kKindPtx = 1;
constexpr uint16_t kKindElf = 2;
// Entry flag bits seen in nvcc 12/13 output.
constexpr uint64_t kFlagLz4 = 0x2000;       // nvcc 12 default, nvcc 13 --compress-mode=speed
constexpr uint64_t kFlagZstd = 0x8000;      // nvcc 13 default
constexpr uint64_t kFlagArchA = 0x100000;   // sm_90a / compute_90a
constexpr uint64_t kFlagArchF = 0x200000;   // sm_100f / compute_100f
// A version-2 wrapper's list of prelinked fatbins must end this soon.
constexpr size_t kMaxPrelinked = 1 << 16;
const char* kRebuildHint = "rebuild the program with nvcc option -no-compress to embed the PTX uncompressed";

Error fail(const std::string& where, uint64_t offset, const std::string& what) {
  return input_error(where + ": byte " + std::to_string(offset) + ": " + what);
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Fields are read by memcpy: a fatbin is 8-aligned in practice, but nothing
// promises it for the wrapper's users or the tests' buffers.
template <class T>
T get(const uint8_t* p, uint64_t off) {
  T v;
  std::memcpy(&v, p + off, sizeof v);
  return v;
}

std::string entry_label(const FatbinEntry& e) {
  if (e.kind == FatbinEntry::Kind::Ptx) return "PTX entry (" + arch_name("compute_", e.arch, e.arch_suffix) + ")";
  if (e.kind == FatbinEntry::Kind::Sass) return "SASS entry (" + arch_name("sm_", e.arch, e.arch_suffix) + ")";
  return "entry of kind " + std::to_string(e.raw_kind);
}

// The entry's PTX text: the payload, decompressed if need be, up to its first NUL.
std::string ptx_text(const uint8_t* base, const FatbinEntry& e, const std::string& where) {
  const uint8_t* src = base + e.payload_offset;
  std::string out;
  const std::string what = entry_label(e);
  if (e.codec == FatbinEntry::Codec::None) {
    out.assign(reinterpret_cast<const char*>(src), e.payload_size);
  } else if (e.codec == FatbinEntry::Codec::Zstd) {
    // The frame records its own size: compare before allocating.
    const unsigned long long framed = ZSTD_getFrameContentSize(src, e.compressed_size);
    if (framed == ZSTD_CONTENTSIZE_ERROR)
      throw fail(where, e.payload_offset, "the zstd-compressed " + what + " is not a zstd frame; " + kRebuildHint);
    if (framed != ZSTD_CONTENTSIZE_UNKNOWN && framed != e.decompressed_size)
      throw fail(where, e.offset,
                 what + ": the header's decompressed size " + std::to_string(e.decompressed_size) +
                     " differs from the zstd frame's " + std::to_string(framed));
    out.resize(e.decompressed_size);
    const size_t n = ZSTD_decompress(&out[0], out.size(), src, e.compressed_size);
    if (ZSTD_isError(n))
      throw fail(where, e.payload_offset,
                 "the zstd-compressed " + what + " cannot be decompressed (" + ZSTD_getErrorName(n) + "); " +
                     kRebuildHint);
    if (n != e.decompressed_size)
      throw fail(where, e.offset,
                 what + ": decompressed to " + std::to_string(n) + " bytes, the header says " +
                     std::to_string(e.decompressed_size));
  } else {
    // LZ4 expands at most ~255:1; a larger claim is a corrupt header, not
    // something to allocate for.
    if (e.compressed_size > INT_MAX || e.decompressed_size > e.compressed_size * 255 + 64)
      throw fail(where, e.offset,
                 what + ": decompressed size " + std::to_string(e.decompressed_size) + " is impossible for " +
                     std::to_string(e.compressed_size) + " bytes of LZ4");
    out.resize(e.decompressed_size);
    const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(src), &out[0],
                                      static_cast<int>(e.compressed_size), static_cast<int>(out.size()));
    if (n < 0)
      throw fail(where, e.payload_offset,
                 "the LZ4-compressed " + what + " cannot be decompressed (corrupt data, or more than the " +
                     std::to_string(e.decompressed_size) + " bytes the header says); " + kRebuildHint);
    if (static_cast<uint64_t>(n) != e.decompressed_size)
      throw fail(where, e.offset,
                 what + ": decompressed to " + std::to_string(n) + " bytes, the header says " +
                     std::to_string(e.decompressed_size));
  }
  const size_t nul = out.find('\0');
  if (nul != std::string::npos) out.resize(nul);
  if (out.empty()) throw fail(where, e.payload_offset, what + " holds no text");
  return out;
}

}  // namespace

std::string arch_name(const char* prefix, uint32_t arch, char suffix) {
  std::string s = prefix + std::to_string(arch);
  if (suffix) s += suffix;
  return s;
}

uint64_t fatbin_size(const void* data, uint64_t avail, const std::string& where) {
  if (!data) throw fail(where, 0, "the fatbin pointer is null");
  if (avail < kFatbinHeaderBytes)
    throw fail(where, 0,
               "truncated: " + std::to_string(avail) + " bytes, a fatbin header needs " +
                   std::to_string(kFatbinHeaderBytes));
  const uint8_t* p = static_cast<const uint8_t*>(data);
  const uint32_t magic = get<uint32_t>(p, 0);
  if (magic != kFatbinMagic)
    throw fail(where, 0, "not a fatbin: magic " + hex(magic) + ", expected " + hex(kFatbinMagic));
  const uint16_t version = get<uint16_t>(p, 4);
  if (version != 1) throw fail(where, 4, "unsupported fatbin version " + std::to_string(version) + " (expected 1)");
  const uint16_t header = get<uint16_t>(p, 6);
  if (header < kFatbinHeaderBytes)
    throw fail(where, 6, "fatbin header size " + std::to_string(header) + " is below " +
                             std::to_string(kFatbinHeaderBytes));
  const uint64_t body = get<uint64_t>(p, 8);
  if (body > kMaxFatbinBytes - header)
    throw fail(where, 8, "fatbin size " + std::to_string(body) + " is beyond the sane limit of " +
                             std::to_string(kMaxFatbinBytes) + " bytes");
  const uint64_t total = header + body;
  if (total > avail)
    throw fail(where, 8, "truncated: the header says " + std::to_string(total) + " bytes, only " +
                             std::to_string(avail) + " are there");
  return total;
}

std::vector<FatbinEntry> list_entries(const void* data, uint64_t avail, const std::string& where) {
  const uint64_t end = fatbin_size(data, avail, where);
  const uint8_t* p = static_cast<const uint8_t*>(data);
  std::vector<FatbinEntry> entries;
  for (uint64_t off = get<uint16_t>(p, 6); off < end;) {
    if (end - off < kEntryHeaderBytes)
      throw fail(where, off, "truncated entry header: " + std::to_string(end - off) + " bytes left, it needs " +
                                 std::to_string(kEntryHeaderBytes));
    FatbinEntry e;
    e.offset = off;
    e.raw_kind = get<uint16_t>(p, off);
    e.kind = e.raw_kind == kKindPtx ? FatbinEntry::Kind::Ptx
             : e.raw_kind == kKindElf ? FatbinEntry::Kind::Sass
                                      : FatbinEntry::Kind::Other;
    const uint16_t version = get<uint16_t>(p, off + 2);
    const uint32_t header = get<uint32_t>(p, off + 4);
    e.payload_size = get<uint64_t>(p, off + 8);
    e.compressed_size = get<uint32_t>(p, off + 16);
    e.minor = get<uint16_t>(p, off + 24);
    e.major = get<uint16_t>(p, off + 26);
    e.arch = get<uint32_t>(p, off + 28);
    e.flags = get<uint64_t>(p, off + 40);
    e.decompressed_size = get<uint64_t>(p, off + 56);
    e.arch_suffix = (e.flags & kFlagArchA) ? 'a' : (e.flags & kFlagArchF) ? 'f' : 0;
    if (version != kEntryVersion)
      throw fail(where, off + 2, "unsupported fatbin entry version " + hex(version) + " (expected " +
                                     hex(kEntryVersion) + ")");
    if (header < kEntryHeaderBytes || header > end - off)
      throw fail(where, off + 4, "entry header size " + std::to_string(header) + " is " +
                                     (header < kEntryHeaderBytes ? "below 64" : "past the fatbin's end"));
    e.payload_offset = off + header;
    if (e.payload_size > end - e.payload_offset)
      throw fail(where, off + 8, "entry payload of " + std::to_string(e.payload_size) + " bytes runs past the " +
                                     "fatbin's end (" + std::to_string(end - e.payload_offset) + " bytes left)");
    const uint64_t codec = e.flags & (kFlagLz4 | kFlagZstd);
    if (codec == (kFlagLz4 | kFlagZstd))
      throw fail(where, off + 40, entry_label(e) + ": unknown compression (flags " + hex(e.flags) +
                                      " name both LZ4 and zstd); " + kRebuildHint);
    e.codec = codec == kFlagLz4    ? FatbinEntry::Codec::Lz4
              : codec == kFlagZstd ? FatbinEntry::Codec::Zstd
                                   : FatbinEntry::Codec::None;
    if (e.codec != FatbinEntry::Codec::None) {
      if (e.compressed_size == 0 || e.compressed_size > e.payload_size)
        throw fail(where, off + 16, entry_label(e) + ": compressed size " + std::to_string(e.compressed_size) +
                                        " does not fit its payload of " + std::to_string(e.payload_size) + " bytes");
      if (e.decompressed_size == 0 || e.decompressed_size > kMaxFatbinBytes)
        throw fail(where, off + 56, entry_label(e) + ": decompressed size " + std::to_string(e.decompressed_size) +
                                        " is not between 1 and " + std::to_string(kMaxFatbinBytes));
    } else {
      e.compressed_size = 0;
      e.decompressed_size = e.payload_size;
    }
    entries.push_back(e);
    off = e.payload_offset + e.payload_size;
  }
  return entries;
}

FatbinContents read_fatbin(const void* data, uint64_t avail, const std::string& where) {
  FatbinContents c;
  for (const FatbinEntry& e : list_entries(data, avail, where)) {
    if (e.kind == FatbinEntry::Kind::Ptx) {
      PtxImage img;
      img.text = ptx_text(static_cast<const uint8_t*>(data), e, where);
      img.arch = e.arch;
      img.arch_suffix = e.arch_suffix;
      img.ptx_major = e.major;
      img.ptx_minor = e.minor;
      c.ptx.push_back(std::move(img));
    } else if (e.kind == FatbinEntry::Kind::Sass) {
      c.sass_archs.push_back(e.arch);
      c.sass_names.push_back(arch_name("sm_", e.arch, e.arch_suffix));
    }
  }
  return c;
}

std::vector<FatbinContents> read_wrapper(const void* wrapper, const std::string& where) {
  if (!wrapper) throw input_error(where + ": the fatbin wrapper pointer is null");
  // __fatBinC_Wrapper_t (fatbinary_section.h): int magic, int version,
  // const unsigned long long* data, void* filename_or_fatbins.
  struct Wrapper {
    int32_t magic;
    int32_t version;
    const void* data;
    const void* filename_or_fatbins;
  };
  Wrapper w;
  std::memcpy(&w, wrapper, sizeof w);
  const std::string wrap = where + " (wrapper)";
  if (static_cast<uint32_t>(w.magic) != kWrapperMagic)
    throw fail(wrap, 0, "not a fatbin wrapper: magic " + hex(static_cast<uint32_t>(w.magic)) + ", expected " +
                            hex(kWrapperMagic));
  if (w.version != 1 && w.version != 2)
    throw fail(wrap, 4, "unsupported fatbin wrapper version " + std::to_string(w.version) + " (expected 1 or 2)");
  if (!w.data) throw fail(wrap, 8, "the wrapper's fatbin pointer is null");
  std::vector<FatbinContents> units;
  if (w.version == 2 && w.filename_or_fatbins) {
    // -rdc=true: the per-translation-unit fatbins carry the PTX (link.stub).
    const void* const* list = static_cast<const void* const*>(w.filename_or_fatbins);
    for (size_t i = 0; list[i]; ++i) {
      if (i == kMaxPrelinked)
        throw fail(wrap, 16, "the list of prelinked fatbins has no NULL end within " +
                                 std::to_string(kMaxPrelinked) + " entries");
      units.push_back(read_fatbin(list[i], where + " (prelinked fatbin " + std::to_string(i + 1) + ")"));
    }
  }
  if (units.empty()) units.push_back(read_fatbin(w.data, where));
  return units;
}

const PtxImage& pick_ptx(const FatbinContents& contents, const std::string& where, std::string* warning) {
  if (warning) warning->clear();
  auto version = [](const PtxImage& p) { return std::make_pair(p.ptx_major, p.ptx_minor); };
  const auto max = std::make_pair(kMaxPtxMajor, kMaxPtxMinor);
  const PtxImage* best = nullptr;    // highest accepted version, then highest arch
  const PtxImage* newer = nullptr;   // lowest version above the limit
  for (const PtxImage& p : contents.ptx) {
    if (version(p) <= max) {
      if (!best || std::make_pair(version(p), p.arch) > std::make_pair(version(*best), best->arch)) best = &p;
    } else if (!newer || std::make_pair(version(p), p.arch) < std::make_pair(version(*newer), newer->arch)) {
      newer = &p;
    }
  }
  if (best) return *best;
  if (newer) {
    std::string local;
    std::string& w = warning ? *warning : local;
    w = where + ": the fatbin's PTX is ISA " + std::to_string(newer->ptx_major) + "." +
                 std::to_string(newer->ptx_minor) + ", newer than the " + std::to_string(kMaxPtxMajor) + "." +
                 std::to_string(kMaxPtxMinor) + " simtlab is tested on; loading it anyway";
    if (!warning) std::fprintf(stderr, "simtlab: %s\n", w.c_str());
    return *newer;
  }
  if (contents.sass_archs.empty())
    throw input_error(where + ": the fatbin holds neither PTX nor SASS; simtlab needs PTX (build with nvcc -arch=sm_XX)");
  // Name the lowest arch in the suggestion: its PTX runs on every machine.
  size_t low = 0;
  std::vector<std::string> seen;
  std::string names;
  for (size_t i = 0; i < contents.sass_archs.size(); ++i) {
    if (contents.sass_archs[i] < contents.sass_archs[low]) low = i;
    if (std::find(seen.begin(), seen.end(), contents.sass_names[i]) != seen.end()) continue;
    seen.push_back(contents.sass_names[i]);
    names += (names.empty() ? "" : ", ") + contents.sass_names[i];
  }
  const std::string sm = contents.sass_names[low];
  const std::string compute = "compute_" + sm.substr(3);
  throw input_error(where + ": the fatbin holds no PTX, only SASS for " + names +
                    "; simtlab runs PTX: rebuild with -gencode arch=" + compute + ",code=" + compute +
                    " added (or -arch=" + sm + ", which embeds both SASS and PTX)");
}

}  // namespace simt::cudart
