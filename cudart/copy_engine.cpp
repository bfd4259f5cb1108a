#include "cudart/copy_engine.h"

#include <cstring>
#include <vector>

#include "cudart/runtime_state.h"

namespace simt::cudart {

void resolve_kind(runtime::Device& dev, abi::cudaMemcpyKind kind, CopySide& dst, CopySide& src) {
  switch (kind) {
    case abi::cudaMemcpyHostToHost: dst.device = src.device = false; return;
    case abi::cudaMemcpyHostToDevice: dst.device = true; src.device = false; return;
    case abi::cudaMemcpyDeviceToHost: dst.device = false; src.device = true; return;
    case abi::cudaMemcpyDeviceToDevice: dst.device = src.device = true; return;
    case abi::cudaMemcpyDefault:  // unified addressing: the address tells
      dst.device = dev.memory().mapped(dst.addr, 1);
      src.device = dev.memory().mapped(src.addr, 1);
      return;
  }
  throw CudaError{abi::cudaErrorInvalidMemcpyDirection, "unknown cudaMemcpyKind " + std::to_string(static_cast<int>(kind))};
}

namespace {

uint64_t row_start(const CopySide& s, uint64_t y, uint64_t z) { return s.addr + z * s.slice_pitch + y * s.pitch; }

void check_side(runtime::Device& dev, const CopySide& s, const CopyBox& b, const char* which) {
  if (!s.device) {
    if (!s.addr) throw CudaError{abi::cudaErrorInvalidValue, std::string("null host pointer as ") + which};
    return;
  }
  for (uint64_t z = 0; z < b.depth; ++z)
    for (uint64_t y = 0; y < b.height; ++y)
      if (!dev.memory().mapped(row_start(s, y, z), b.width))
        throw CudaError{abi::cudaErrorInvalidValue, std::string(which) + " is not inside one device allocation"};
}

}  // namespace

void copy_box(runtime::Device& dev, const CopySide& dst, const CopySide& src, const CopyBox& box) {
  if (!box.width || !box.height || !box.depth) return;
  check_side(dev, dst, box, "the destination");
  check_side(dev, src, box, "the source");
  std::vector<uint8_t> row;
  for (uint64_t z = 0; z < box.depth; ++z)
    for (uint64_t y = 0; y < box.height; ++y) {
      const uint64_t d = row_start(dst, y, z), s = row_start(src, y, z);
      if (!dst.device && !src.device) {
        std::memmove(reinterpret_cast<void*>(d), reinterpret_cast<const void*>(s), box.width);
      } else if (dst.device && !src.device) {
        dev.copy_to_device(d, reinterpret_cast<const void*>(s), box.width);
      } else if (!dst.device) {
        dev.copy_to_host(reinterpret_cast<void*>(d), s, box.width);
      } else {
        row.resize(box.width);
        dev.copy_to_host(row.data(), s, box.width);
        dev.copy_to_device(d, row.data(), box.width);
      }
    }
}

void fill_box(runtime::Device& dev, const CopySide& dst, uint8_t value, const CopyBox& box) {
  if (!box.width || !box.height || !box.depth) return;
  check_side(dev, dst, box, "the destination");
  for (uint64_t z = 0; z < box.depth; ++z)
    for (uint64_t y = 0; y < box.height; ++y) dev.memset(row_start(dst, y, z), value, box.width);
}

uint64_t element_bytes(const abi::cudaChannelFormatDesc& d) {
  for (int bits : {d.x, d.y, d.z, d.w})
    if (bits < 0 || bits % 8 != 0) return 0;
  return static_cast<uint64_t>(d.x + d.y + d.z + d.w) / 8;
}

}  // namespace simt::cudart
