// Runs any PTX without C++ code: a JSON manifest names the PTX file, the
// device buffers and how to fill them, the launches in order (with their
// arguments) and which buffers to write out as raw little-endian files.
// The format is documented in docs/manifest.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ptx/ir.h"
#include "runtime/device.h"

namespace simt::runtime {

enum class ElemType : uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };
uint32_t elem_bytes(ElemType t);
const char* elem_name(ElemType t);
bool elem_is_float(ElemType t);
bool elem_is_signed(ElemType t);

struct BufferInit {
  enum class Kind : uint8_t { Fill, Iota, Random, File } kind = Kind::Fill;
  double value = 0;          // fill
  uint64_t bits = 0;         // fill: `value` as the buffer type's little-endian bits (exact)
  double start = 0;          // iota
  uint64_t seed = 1;         // random
  double min = 0, max = 1;   // random: integers in [min, max], floats in [min, max)
  std::string path;          // file (absolute)
};

struct BufferSpec {
  std::string name;
  ElemType type = ElemType::I32;
  uint64_t count = 0;
  BufferInit init;
};

// A buffer's device address plus a byte offset, in a struct argument's bytes.
struct PointerField {
  size_t at = 0;          // byte offset in the struct
  std::string buffer;
  uint64_t offset = 0;
};

// A texture or surface object over a buffer (cudaCreateTextureObject /
// cudaCreateSurfaceObject): `desc` with its base filled in at run time.
struct ImageSpec {
  std::string name;
  std::string buffer;
  uint64_t offset = 0;      // bytes into the buffer
  func::TextureDesc desc;   // surfaces use only desc.layout
};

struct ArgSpec {
  std::string buffer;     // non-empty: pass this buffer's device address (u64) plus `offset`
  std::string texture;    // non-empty: pass this texture object's handle (u64)
  std::string surface;    // non-empty: pass this surface object's handle (u64)
  uint64_t offset = 0;
  ElemType type = ElemType::I32;
  uint64_t bits = 0;      // scalar value, little-endian bits of `type`
  // A struct passed by value (align > 0): its bytes, fields at their natural
  // alignment (or given raw), and the pointers to patch in at run time.
  uint32_t align = 0;
  std::vector<uint8_t> bytes;
  std::vector<PointerField> pointers;
};

// A buffer's first element compared with, or set to, a value.
struct FlagSpec {
  std::string buffer;  // empty: none
  uint64_t bits = 0;   // the value, little-endian bits of the buffer's type
};

// A device-to-device copy between launches (cudaMemcpy DeviceToDevice, or
// cudaMemcpyToSymbol / FromSymbol of device data): `bytes` from one buffer or
// module variable, at a byte offset, to another.
struct CopySpec {
  struct End {
    std::string name;     // a buffer's name, or a module variable's (symbol = true)
    bool symbol = false;
    uint64_t offset = 0;  // bytes into it
  };
  End from, to;
  uint64_t bytes = 0;     // 0: the rest of the source from its offset
};

// A launch, a copy (is_copy), or (kernel empty) a loop of them: the host's
// `do { flag = 0; launch...; copy flag back } while (flag)` or a fixed count.
struct LaunchSpec {
  std::string kernel;
  Dim3 grid{{1, 1, 1}}, block{{1, 1, 1}};
  uint32_t dynamic_shared_bytes = 0;
  bool cooperative = false;  // cudaLaunchCooperativeKernel (grid.sync())
  std::vector<ArgSpec> args;
  // A loop: `repeat` runs pass after pass; before each, `set` is written;
  // after each, the loop ends when `until` holds, or after `times` passes.
  std::vector<LaunchSpec> repeat;
  uint64_t times = 0;   // 0: until `until` holds, at most `max` passes
  uint64_t max = 0;     // more passes than this is a kernel fault (a runaway loop)
  FlagSpec set, until;
  bool is_copy = false;  // a copy step, not a launch
  CopySpec copy;
};

struct OutputSpec {
  std::string buffer;  // a buffer's name, or a symbol's (symbol = true)
  bool symbol = false;
  std::string path;  // relative to --out-dir (absolute or outside it only if allowed: ManifestRunOptions)
};

struct Manifest {
  std::string file;       // the manifest's own path, for messages
  std::string ptx_path;   // absolute or relative to the manifest's folder, resolved
  std::vector<BufferSpec> buffers;
  std::vector<BufferSpec> symbols;  // module variables filled by name (name, type, count, init)
  std::vector<ImageSpec> textures, surfaces;
  std::vector<LaunchSpec> launches;
  std::vector<OutputSpec> outputs;
  // Bytes of the device heap for in-kernel malloc (cudaLimitMallocHeapSize);
  // 0: the device's default (8 MiB).
  uint64_t malloc_heap_size = 0;

  // Reads and validates a manifest; throws simt::Error(BadInput) naming the
  // file and the JSON path of the bad item (e.g. "launches[0].args[2]").
  static Manifest load(const std::string& path);
  static Manifest parse(const std::string& json_text, const std::string& path);
};

struct ManifestRun {
  std::vector<LaunchStats> launches;
  std::vector<std::string> written;  // output files, in order
};

struct ManifestRunOptions {
  // Outputs may be written outside --out-dir (an absolute path, "..", a
  // symlink out of it): simtlab's --allow-outside-out-dir. Off, such an
  // output is refused, so a manifest from elsewhere cannot overwrite any
  // file the user can write.
  bool allow_outside_out_dir = false;
  // Host memory a buffer's initial contents are made in, piece by piece
  // (a multiple of the element size is used), however large the buffer.
  uint64_t staging_bytes = uint64_t{64} << 20;
};

// Where each of m.outputs is written (--out-dir/path), in order. Throws
// input_error naming "outputs[i].path" for a path that leaves `out_dir`
// (unless opts allow it) and for two outputs that land on the same file.
// Creates the sub-folders below `out_dir` that the paths name; `out_dir`
// itself must exist.
std::vector<std::string> output_targets(const Manifest& m, const std::string& out_dir,
                                        const ManifestRunOptions& opts = {});

// Creates and fills the buffers, runs the launches in order and, only after
// all of them succeeded, writes every output (each through a temporary file
// renamed into place, so no half-written output is ever left behind).
// Initialised buffers that cannot fit in the device memory the run may
// touch (--max-device-memory) are refused (exit 5) before any is made.
ManifestRun run_manifest(const Manifest& m, Device& dev, const std::string& out_dir,
                         const ManifestRunOptions& opts = {});

}  // namespace simt::runtime
