// Reading the PTX out of what nvcc embeds in a CUDA program: the wrapper
// that __cudaRegisterFatBinary receives, the fatbins it points at, and their
// entries (PTX and SASS, uncompressed, LZ4- or zstd-compressed). The layout
// is documented in docs/cuda-apps.md ("Fatbins"); it was worked out from nvcc
// 12/13 output and public readers, so every field is checked before use and
// anything malformed is a simt::Error(BadInput) naming `where` and the byte
// offset (relative to the fatbin's first byte).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simt::cudart {

// The highest PTX ISA version simtlab's parser is tested on (what nvcc 13
// emits). pick_ptx() prefers PTX at or below it.
constexpr uint32_t kMaxPtxMajor = 9;
constexpr uint32_t kMaxPtxMinor = 0;
// A fatbin (header included) or a decompressed payload larger than this is
// taken as corrupt rather than trusted.
constexpr uint64_t kMaxFatbinBytes = uint64_t(1) << 30;

// One entry's header, as read (no payload decoded).
struct FatbinEntry {
  enum class Kind { Ptx, Sass, Other };
  enum class Codec { None, Lz4, Zstd };
  Kind kind = Kind::Other;
  uint16_t raw_kind = 0;
  uint32_t arch = 0;        // 75 for sm_75 / compute_75
  char arch_suffix = 0;     // 'a' (sm_90a) or 'f' (sm_100f), else 0
  uint32_t major = 0;       // PTX: the ISA version; SASS: the ELF code version
  uint32_t minor = 0;
  Codec codec = Codec::None;
  uint64_t offset = 0;           // of the entry's header, from the fatbin's start
  uint64_t payload_offset = 0;   // of its payload
  uint64_t payload_size = 0;     // bytes stored (NUL- or zero-padded)
  uint64_t compressed_size = 0;  // bytes of the compressed stream (0: uncompressed)
  uint64_t decompressed_size = 0;
  uint64_t flags = 0;
};

struct PtxImage {
  std::string text;  // without the NUL padding
  uint32_t arch = 0;
  char arch_suffix = 0;
  uint32_t ptx_major = 0;
  uint32_t ptx_minor = 0;
};

// Every PTX of one fatbin (decompressed), and the SASS archs present.
struct FatbinContents {
  std::vector<PtxImage> ptx;
  std::vector<uint32_t> sass_archs;
  std::vector<std::string> sass_names;  // "sm_75", "sm_90a", in entry order
};

// "sm_90a" / "compute_75": the name nvcc's -gencode uses for an arch.
std::string arch_name(const char* prefix, uint32_t arch, char suffix);

// The fatbin's size in bytes, header included, from its 16-byte header.
uint64_t fatbin_size(const void* data, uint64_t avail, const std::string& where);
// Walks the entry headers. `avail` bounds what may be read (the size of a
// buffer or file; UINT64_MAX when only the header's own size is known).
std::vector<FatbinEntry> list_entries(const void* data, uint64_t avail, const std::string& where);
// Reads (and decompresses) every PTX entry; SASS entries only by arch.
FatbinContents read_fatbin(const void* data, uint64_t avail, const std::string& where);
inline FatbinContents read_fatbin(const void* data, const std::string& where) {
  return read_fatbin(data, UINT64_MAX, where);
}

// The __fatBinC_Wrapper_t that __cudaRegisterFatBinary receives: one
// FatbinContents per translation unit (version 1: its one fatbin; version 2,
// -rdc=true: each prelinked fatbin of the NULL-terminated array, which carry
// the PTX; the linked fatbin in `data` is SASS only and is not read).
std::vector<FatbinContents> read_wrapper(const void* wrapper, const std::string& where);

// The PTX to load: the highest ISA version up to kMaxPtx (then the highest
// arch). A higher version only when there is nothing else; then `warning`
// says so (without `warning`, stderr gets it as a `simtlab:` line). No PTX
// at all: BadInput naming the SASS archs found and the nvcc option that
// adds PTX.
const PtxImage& pick_ptx(const FatbinContents& contents, const std::string& where,
                         std::string* warning = nullptr);

}  // namespace simt::cudart
