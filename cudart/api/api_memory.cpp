// Device memory: allocation, copies (1D, 2D, 3D; the Async forms run at
// once, in order), memset, page-locked host memory and pointer queries.
// Copies between host and device take no modelled time (docs/cuda-apps.md).
#include <cstdlib>
#include <cstring>

#include "cudart/runtime_state.h"

using namespace simt::cudart;
using namespace simt::cudart::abi;

namespace {

CopySide side(const void* p, uint64_t pitch = 0, uint64_t slice_pitch = 0) {
  return CopySide{RuntimeState::addr(p), false, pitch, slice_pitch};
}

void copy_2d(RuntimeState& rt, void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
             cudaMemcpyKind kind) {
  if (height > 1 && (width > dpitch || width > spitch))
    throw CudaError{cudaErrorInvalidPitchValue, "width exceeds a pitch"};
  CopySide d = side(dst, dpitch), s = side(src, spitch);
  resolve_kind(rt.device(), kind, d, s);
  copy_box(rt.device(), d, s, CopyBox{width, height, 1});
}

// One side of cudaMemcpy3DParms: a CUDA array or a pitched pointer, at pos.
// `width_bytes` returns the extent's width in bytes (arrays count elements).
CopySide side_3d(RuntimeState& rt, cudaArray_t array, const cudaPos& pos, const cudaPitchedPtr& ptr,
                 const cudaExtent& extent, uint64_t* width_bytes) {
  if (array) {
    const DeviceArray& a = rt.array(array);
    *width_bytes = extent.width * a.elem_bytes;
    CopySide s{a.addr + pos.z * a.slice_pitch() + pos.y * a.pitch + pos.x * a.elem_bytes, true, a.pitch,
               a.slice_pitch()};
    return s;
  }
  *width_bytes = extent.width;
  const uint64_t rows = ptr.ysize ? ptr.ysize : 1;
  const uint64_t base = RuntimeState::addr(ptr.ptr);
  return CopySide{base + pos.z * ptr.pitch * rows + pos.y * ptr.pitch + pos.x, false, ptr.pitch, ptr.pitch * rows};
}

void copy_3d(RuntimeState& rt, const cudaMemcpy3DParms* p) {
  if (!p) throw CudaError{cudaErrorInvalidValue, "null parameters"};
  if ((p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
    throw CudaError{cudaErrorInvalidValue, "a side names both an array and a pointer"};
  uint64_t ws = 0, wd = 0;
  CopySide s = side_3d(rt, p->srcArray, p->srcPos, p->srcPtr, p->extent, &ws);
  CopySide d = side_3d(rt, p->dstArray, p->dstPos, p->dstPtr, p->extent, &wd);
  const bool s_array = p->srcArray != nullptr, d_array = p->dstArray != nullptr;
  // Arrays are always device memory; the kind decides the pointer sides.
  CopySide ks = s, kd = d;
  resolve_kind(rt.device(), p->kind, kd, ks);
  if (!s_array) s.device = ks.device;
  if (!d_array) d.device = kd.device;
  const uint64_t width = s_array ? ws : d_array ? wd : p->extent.width;
  copy_box(rt.device(), d, s, CopyBox{width, p->extent.height, p->extent.depth});
}

}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** devPtr, size_t size) {
  return api_call("cudaMalloc", [&](RuntimeState& rt) {
    if (!devPtr) throw CudaError{cudaErrorInvalidValue, ""};
    *devPtr = RuntimeState::ptr(rt.device_malloc(size));
  });
}

cudaError_t cudaFree(void* devPtr) {
  return api_call("cudaFree", [&](RuntimeState& rt) {
    if (devPtr) rt.device_free(RuntimeState::addr(devPtr));
    else rt.device();  // cudaFree(0): the idiom that creates the context
  });
}

cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  return api_call("cudaMallocPitch", [&](RuntimeState& rt) {
    if (!devPtr || !pitch) throw CudaError{cudaErrorInvalidValue, ""};
    *pitch = (width + 511) / 512 * 512;  // rows aligned like texture rows (textureAlignment)
    *devPtr = RuntimeState::ptr(rt.device_malloc(uint64_t{*pitch} * (height ? height : 1)));
  });
}

cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent) {
  return api_call("cudaMalloc3D", [&](RuntimeState& rt) {
    if (!pitchedDevPtr) throw CudaError{cudaErrorInvalidValue, ""};
    const uint64_t pitch = (extent.width + 511) / 512 * 512;
    const uint64_t rows = uint64_t{extent.height ? extent.height : 1} * (extent.depth ? extent.depth : 1);
    void* p = RuntimeState::ptr(rt.device_malloc(pitch * rows));
    *pitchedDevPtr = cudaPitchedPtr{p, pitch, extent.width, extent.height};
  });
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return api_call("cudaMemcpy", [&](RuntimeState& rt) {
    CopySide d = side(dst), s = side(src);
    resolve_kind(rt.device(), kind, d, s);
    copy_box(rt.device(), d, s, CopyBox{count, 1, 1});
  });
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  return api_call("cudaMemcpyAsync", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    CopySide d = side(dst), s = side(src);
    resolve_kind(rt.device(), kind, d, s);
    copy_box(rt.device(), d, s, CopyBox{count, 1, 1});
  });
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind) {
  return api_call("cudaMemcpy2D", [&](RuntimeState& rt) { copy_2d(rt, dst, dpitch, src, spitch, width, height, kind); });
}

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream) {
  return api_call("cudaMemcpy2DAsync", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    copy_2d(rt, dst, dpitch, src, spitch, width, height, kind);
  });
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  return api_call("cudaMemcpy3D", [&](RuntimeState& rt) { copy_3d(rt, p); });
}

cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  return api_call("cudaMemcpy3DAsync", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    copy_3d(rt, p);
  });
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  return api_call("cudaMemset", [&](RuntimeState& rt) {
    fill_box(rt.device(), CopySide{RuntimeState::addr(devPtr), true}, static_cast<uint8_t>(value), CopyBox{count});
  });
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return api_call("cudaMemsetAsync", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    fill_box(rt.device(), CopySide{RuntimeState::addr(devPtr), true}, static_cast<uint8_t>(value), CopyBox{count});
  });
}

cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  return api_call("cudaMemset2D", [&](RuntimeState& rt) {
    fill_box(rt.device(), CopySide{RuntimeState::addr(devPtr), true, pitch}, static_cast<uint8_t>(value),
             CopyBox{width, height, 1});
  });
}

cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
  return api_call("cudaMemset2DAsync", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    fill_box(rt.device(), CopySide{RuntimeState::addr(devPtr), true, pitch}, static_cast<uint8_t>(value),
             CopyBox{width, height, 1});
  });
}

cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent extent) {
  return api_call("cudaMemset3D", [&](RuntimeState& rt) {
    const uint64_t rows = p.ysize ? p.ysize : 1;
    fill_box(rt.device(), CopySide{RuntimeState::addr(p.ptr), true, p.pitch, p.pitch * rows},
             static_cast<uint8_t>(value), CopyBox{extent.width, extent.height, extent.depth});
  });
}

// Page-locked host memory is mapped into the device at its own address, as
// with unified addressing on a GPU (unified memory's mechanism, so kernels
// may use it: zero-copy); copies from it are as untimed as any other.
cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  return api_call("cudaHostAlloc", [&](RuntimeState& rt) {
    if (!pHost || (flags & ~(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)))
      throw CudaError{cudaErrorInvalidValue, ""};
    void* p = rt.managed_malloc(size);
    rt.host_allocations().insert(p);
    *pHost = p;
  });
}

cudaError_t cudaMallocHost(void** ptr, size_t size) { return cudaHostAlloc(ptr, size, cudaHostAllocDefault); }

cudaError_t cudaFreeHost(void* ptr) {
  return api_call("cudaFreeHost", [&](RuntimeState& rt) {
    if (!ptr) return;
    if (!rt.host_allocations().erase(ptr))
      throw CudaError{cudaErrorInvalidValue, "cudaFreeHost of memory cudaMallocHost/cudaHostAlloc did not return"};
    rt.device_free(RuntimeState::addr(ptr));
  });
}

// The device sees page-locked memory at the host's own address.
cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  return api_call("cudaHostGetDevicePointer", [&](RuntimeState& rt) {
    if (!pDevice || flags != 0) throw CudaError{cudaErrorInvalidValue, ""};
    if (!rt.is_managed_range(pHost))
      throw CudaError{cudaErrorInvalidValue, "not memory from cudaHostAlloc, cudaMallocHost or cudaMallocManaged"};
    *pDevice = pHost;
  });
}

cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  return api_call("cudaHostRegister", [&](RuntimeState&) {
    if (!ptr || !size) throw CudaError{cudaErrorInvalidValue, ""};
  });
}

cudaError_t cudaHostUnregister(void* ptr) {
  return api_call("cudaHostUnregister", [&](RuntimeState&) {
    if (!ptr) throw CudaError{cudaErrorInvalidValue, ""};
  });
}

cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  return api_call("cudaHostGetFlags", [&](RuntimeState& rt) {
    if (!pFlags || !rt.host_allocations().count(pHost)) throw CudaError{cudaErrorInvalidValue, ""};
    *pFlags = 0;
  });
}

cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  return api_call("cudaMemGetInfo", [&](RuntimeState& rt) {
    const auto& mem = rt.device().memory();
    const uint64_t t = mem.touch_limit();
    if (total) *total = t;
    if (free) *free = t > mem.bytes_allocated() ? t - mem.bytes_allocated() : 0;
  });
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  return api_call("cudaPointerGetAttributes", [&](RuntimeState& rt) {
    if (!attributes) throw CudaError{cudaErrorInvalidValue, ""};
    *attributes = cudaPointerAttributes{};
    if (rt.host_allocations().count(const_cast<void*>(ptr))) {
      attributes->type = cudaMemoryTypeHost;
      attributes->hostPointer = const_cast<void*>(ptr);
      attributes->devicePointer = const_cast<void*>(ptr);
    } else if (rt.is_managed_range(ptr)) {
      attributes->type = cudaMemoryTypeManaged;
      attributes->hostPointer = const_cast<void*>(ptr);
      attributes->devicePointer = const_cast<void*>(ptr);
    } else if (rt.is_device(ptr)) {
      attributes->type = cudaMemoryTypeDevice;
      attributes->device = 0;
      attributes->devicePointer = const_cast<void*>(ptr);
    } else {
      attributes->type = cudaMemoryTypeUnregistered;
    }
  });
}

}  // extern "C"

extern "C" {

// Unified memory: the pointer is a host address that kernels use as is
// (func::GlobalMemory::map_host), so host and device share the bytes.
cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  return api_call("cudaMallocManaged", [&](RuntimeState& rt) {
    if (!devPtr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
      throw CudaError{cudaErrorInvalidValue, ""};
    *devPtr = rt.managed_malloc(size);
  });
}

// Hints about where unified memory should live: one memory here.
cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream) {
  return api_call("cudaMemPrefetchAsync", [&](RuntimeState& rt) { rt.check_stream(stream); });
}

cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice, cudaMemLocation location) {
  return api_call("cudaMemAdvise", [](RuntimeState&) {});
}

}  // extern "C"
