// Every copy the CUDA runtime offers (linear, 2D, 3D, to and from arrays and
// symbols) is a box of rows: `height x depth` rows of `width` bytes, each
// side with its own start, row pitch and slice pitch, each side in host or
// device memory. The copy engine moves one such box; the entry points only
// describe their boxes. Device sides are checked against the allocations,
// row by row, before a byte moves (a bad copy changes nothing).
#pragma once

#include <cstdint>

#include "cudart/cuda_abi.h"
#include "runtime/device.h"

namespace simt::cudart {

struct CopySide {
  uint64_t addr = 0;           // a host pointer or a device address
  bool device = false;
  uint64_t pitch = 0;          // bytes from one row to the next
  uint64_t slice_pitch = 0;    // bytes from one slice (depth step) to the next
};

struct CopyBox {
  uint64_t width = 0, height = 1, depth = 1;  // width in bytes
};

// Which sides are device memory for `kind` (cudaMemcpyDefault: by address).
// Throws CudaError (cudaErrorInvalidMemcpyDirection) for an unknown kind.
void resolve_kind(runtime::Device& dev, abi::cudaMemcpyKind kind, CopySide& dst, CopySide& src);

void copy_box(runtime::Device& dev, const CopySide& dst, const CopySide& src, const CopyBox& box);
void fill_box(runtime::Device& dev, const CopySide& dst, uint8_t value, const CopyBox& box);

// A CUDA array (cudaMallocArray, cudaMalloc3DArray): texels in a pitched
// device allocation, rows aligned as texture hardware wants them.
struct DeviceArray {
  abi::cudaChannelFormatDesc desc{};
  uint64_t width = 0, height = 0, depth = 0;  // in elements; 0 = dimension unused
  unsigned flags = 0;
  uint64_t addr = 0, pitch = 0, elem_bytes = 0;
  uint64_t rows() const { return height ? height : 1; }
  uint64_t slices() const { return depth ? depth : 1; }
  uint64_t slice_pitch() const { return pitch * rows(); }
};

// Bytes per element of a channel description (0: unusable description).
uint64_t element_bytes(const abi::cudaChannelFormatDesc& d);

}  // namespace simt::cudart
