// CUDA arrays: texel storage for textures and surfaces, kept in a pitched
// device allocation, and the copies into and out of them.
#include "cudart/runtime_state.h"

using namespace simt::cudart;
using namespace simt::cudart::abi;

namespace {

// Rows of texture storage start on this boundary (cudaDeviceProp::texturePitchAlignment).
constexpr uint64_t kRowAlign = 32;

cudaArray_t make_array(RuntimeState& rt, const cudaChannelFormatDesc* desc, uint64_t w, uint64_t h, uint64_t d,
                       unsigned flags) {
  if (!desc) throw CudaError{cudaErrorInvalidValue, "null channel description"};
  const uint64_t elem = element_bytes(*desc);
  if (!elem || w == 0) throw CudaError{cudaErrorInvalidValue, "unusable channel description or zero width"};
  auto a = std::make_unique<DeviceArray>();
  a->desc = *desc;
  a->width = w;
  a->height = h;
  a->depth = d;
  a->flags = flags;
  a->elem_bytes = elem;
  a->pitch = (w * elem + kRowAlign - 1) / kRowAlign * kRowAlign;
  a->addr = rt.device().malloc(a->pitch * a->rows() * a->slices());
  // The handle is the record's address: opaque to the program.
  auto* handle = reinterpret_cast<cudaArray_t>(a.get());
  rt.arrays()[handle] = std::move(a);
  return handle;
}

// The array side of a 2D copy at (w_offset bytes, h_offset rows).
CopySide array_side(const DeviceArray& a, uint64_t w_offset, uint64_t h_offset, uint64_t width, uint64_t height) {
  if (w_offset + width > a.width * a.elem_bytes || h_offset + height > a.rows())
    throw CudaError{cudaErrorInvalidValue, "the copy reaches outside the array"};
  return CopySide{a.addr + h_offset * a.pitch + w_offset, true, a.pitch, a.slice_pitch()};
}

// The linear side of a copy to or from an array: `kind` says host or device.
CopySide linear_side(RuntimeState& rt, const void* p, uint64_t pitch, cudaMemcpyKind kind, bool is_dst) {
  CopySide lin{RuntimeState::addr(p), false, pitch}, arr{0, true};
  if (is_dst) resolve_kind(rt.device(), kind, lin, arr);
  else resolve_kind(rt.device(), kind, arr, lin);
  return lin;
}

void to_array(RuntimeState& rt, cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
              size_t width, size_t height, cudaMemcpyKind kind) {
  const DeviceArray& a = rt.array(dst);
  copy_box(rt.device(), array_side(a, w_offset, h_offset, width, height), linear_side(rt, src, spitch, kind, false),
           CopyBox{width, height, 1});
}

void from_array(RuntimeState& rt, void* dst, size_t dpitch, cudaArray_const_t src, size_t w_offset, size_t h_offset,
                size_t width, size_t height, cudaMemcpyKind kind) {
  const DeviceArray& a = rt.array(src);
  copy_box(rt.device(), linear_side(rt, dst, dpitch, kind, true), array_side(a, w_offset, h_offset, width, height),
           CopyBox{width, height, 1});
}

}  // namespace

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                            unsigned int flags) {
  return api_call("cudaMallocArray", [&](RuntimeState& rt) {
    if (!array) throw CudaError{cudaErrorInvalidValue, ""};
    *array = make_array(rt, desc, width, height, 0, flags);
  });
}

cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                              unsigned int flags) {
  return api_call("cudaMalloc3DArray", [&](RuntimeState& rt) {
    if (!array) throw CudaError{cudaErrorInvalidValue, ""};
    *array = make_array(rt, desc, extent.width, extent.height, extent.depth, flags);
  });
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  return api_call("cudaFreeArray", [&](RuntimeState& rt) {
    if (!array) return;
    const DeviceArray& a = rt.array(array);
    rt.device().free(a.addr);
    rt.arrays().erase(array);
  });
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags,
                             cudaArray_t array) {
  return api_call("cudaArrayGetInfo", [&](RuntimeState& rt) {
    const DeviceArray& a = rt.array(array);
    if (desc) *desc = a.desc;
    if (extent) *extent = cudaExtent{a.width, a.height, a.depth};
    if (flags) *flags = a.flags;
  });
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  return api_call("cudaGetChannelDesc", [&](RuntimeState& rt) {
    if (!desc) throw CudaError{cudaErrorInvalidValue, ""};
    *desc = rt.array(array).desc;
  });
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind kind) {
  return api_call("cudaMemcpy2DToArray",
                  [&](RuntimeState& rt) { to_array(rt, dst, wOffset, hOffset, src, spitch, width, height, kind); });
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                     size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                                     cudaStream_t stream) {
  return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, cudaMemcpyKind kind) {
  return api_call("cudaMemcpy2DFromArray",
                  [&](RuntimeState& rt) { from_array(rt, dst, dpitch, src, wOffset, hOffset, width, height, kind); });
}

cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind,
                                       cudaStream_t stream) {
  return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

// The deprecated 1D forms: `count` bytes starting at (wOffset, hOffset),
// wrapping from row to row as the array's rows are packed in CUDA.
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                              cudaMemcpyKind kind) {
  return api_call("cudaMemcpyToArray", [&](RuntimeState& rt) {
    const DeviceArray& a = rt.array(dst);
    const uint64_t row = a.width * a.elem_bytes;
    if (wOffset == 0 && count % row == 0) to_array(rt, dst, 0, hOffset, src, row, row, count / row, kind);
    else to_array(rt, dst, wOffset, hOffset, src, count, count, 1, kind);
  });
}

cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                cudaMemcpyKind kind) {
  return api_call("cudaMemcpyFromArray", [&](RuntimeState& rt) {
    const DeviceArray& a = rt.array(src);
    const uint64_t row = a.width * a.elem_bytes;
    if (wOffset == 0 && count % row == 0) from_array(rt, dst, row, src, 0, hOffset, row, count / row, kind);
    else from_array(rt, dst, count, src, wOffset, hOffset, count, 1, kind);
  });
}

}  // extern "C"
