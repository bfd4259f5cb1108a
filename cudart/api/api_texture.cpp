// Texture and surface objects over linear memory, pitched 2D memory and
// CUDA arrays: the runtime's descriptions turned into the model's
// (func/texture.h), whose tex/tld4/suld/sust instructions read them.
#include "cudart/runtime_state.h"

using namespace simt::cudart;
using namespace simt::cudart::abi;
namespace func = simt::func;

namespace {

func::ChannelFormat channel_format(const cudaChannelFormatDesc& d) {
  func::ChannelFormat f;
  const int bits[4] = {d.x, d.y, d.z, d.w};
  int channels = 0;
  for (int b : bits) {
    if (b == 0) break;
    if (b != d.x) throw CudaError{cudaErrorInvalidChannelDescriptor, "channels of different widths"};
    ++channels;
  }
  if ((channels != 1 && channels != 2 && channels != 4) || (d.x != 8 && d.x != 16 && d.x != 32))
    throw CudaError{cudaErrorInvalidChannelDescriptor, "1, 2 or 4 channels of 8, 16 or 32 bits"};
  switch (d.f) {
    case cudaChannelFormatKindSigned: f.kind = func::ChannelKind::Signed; break;
    case cudaChannelFormatKindUnsigned: f.kind = func::ChannelKind::Unsigned; break;
    case cudaChannelFormatKindFloat: f.kind = func::ChannelKind::Float; break;
    default: throw CudaError{cudaErrorInvalidChannelDescriptor, "unsupported channel format kind"};
  }
  f.bits = static_cast<uint8_t>(d.x);
  f.channels = static_cast<uint8_t>(channels);
  return f;
}

// Where the texels are, from a resource description.
func::ImageLayout layout(RuntimeState& rt, const cudaResourceDesc* r) {
  if (!r) throw CudaError{cudaErrorInvalidValue, "null resource description"};
  func::ImageLayout l;
  switch (r->resType) {
    case cudaResourceTypeLinear:
      l.format = channel_format(r->res.linear.desc);
      l.base = RuntimeState::addr(r->res.linear.devPtr);
      l.dims = 1;
      l.width = static_cast<uint32_t>(r->res.linear.sizeInBytes / l.format.texel_bytes());
      break;
    case cudaResourceTypePitch2D:
      l.format = channel_format(r->res.pitch2D.desc);
      l.base = RuntimeState::addr(r->res.pitch2D.devPtr);
      l.dims = 2;
      l.width = static_cast<uint32_t>(r->res.pitch2D.width);
      l.height = static_cast<uint32_t>(r->res.pitch2D.height);
      l.pitch = r->res.pitch2D.pitchInBytes;
      break;
    case cudaResourceTypeArray: {
      const DeviceArray& a = rt.array(r->res.array.array);
      l.format = channel_format(a.desc);
      l.base = a.addr;
      l.dims = a.depth ? 3 : a.height ? 2 : 1;
      l.width = static_cast<uint32_t>(a.width);
      l.height = static_cast<uint32_t>(a.rows());
      l.depth = static_cast<uint32_t>(a.slices());
      l.pitch = a.pitch;
      l.slice_pitch = a.slice_pitch();
      if (a.flags & cudaArrayLayered) {  // the last dimension counts layers
        l.layers = a.depth ? l.depth : l.height;
        l.dims = a.depth ? 2 : 1;
        if (!a.depth) l.height = 1;
        l.depth = 1;
        if (!a.depth) l.slice_pitch = a.pitch;
      }
      break;
    }
    default: throw CudaError{cudaErrorNotSupported, "mipmapped arrays are not modelled"};
  }
  if (l.width == 0) throw CudaError{cudaErrorInvalidValue, "an empty resource"};
  return l;
}

func::AddressMode address_mode(cudaTextureAddressMode m) {
  switch (m) {
    case cudaAddressModeWrap: return func::AddressMode::Wrap;
    case cudaAddressModeClamp: return func::AddressMode::Clamp;
    case cudaAddressModeMirror: return func::AddressMode::Mirror;
    case cudaAddressModeBorder: return func::AddressMode::Border;
  }
  throw CudaError{cudaErrorInvalidValue, "unknown address mode"};
}

// The model's answer to an unusable description (simt::Error) is the
// runtime's cudaErrorInvalidValue with the reason.
template <class F>
uint64_t create(F f) {
  try {
    return f();
  } catch (const simt::Error& e) {
    throw CudaError{cudaErrorInvalidValue, e.what()};
  }
}

}  // namespace

extern "C" {

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc,
                                    const cudaTextureDesc* pTexDesc, const cudaResourceViewDesc* pResViewDesc) {
  return api_call("cudaCreateTextureObject", [&](RuntimeState& rt) {
    if (!pTexObject || !pTexDesc) throw CudaError{cudaErrorInvalidValue, ""};
    if (pResViewDesc) throw CudaError{cudaErrorNotSupported, "resource views are not modelled"};
    func::TextureDesc t;
    t.layout = layout(rt, pResDesc);
    for (int i = 0; i < 3; ++i) t.address[i] = address_mode(pTexDesc->addressMode[i]);
    t.filter = pTexDesc->filterMode == cudaFilterModeLinear ? func::FilterMode::Linear : func::FilterMode::Point;
    t.read = pTexDesc->readMode == cudaReadModeNormalizedFloat ? func::ReadMode::NormalizedFloat
                                                               : func::ReadMode::ElementType;
    t.normalized = pTexDesc->normalizedCoords != 0;
    for (int i = 0; i < 4; ++i) t.border[i] = pTexDesc->borderColor[i];
    *pTexObject = create([&] { return rt.device().create_texture(t, "cudaCreateTextureObject"); });
  });
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  return api_call("cudaDestroyTextureObject", [&](RuntimeState& rt) {
    if (!rt.device().textures().texture(texObject))
      throw CudaError{cudaErrorInvalidValue, "not a texture object"};
  });
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const cudaResourceDesc* pResDesc) {
  return api_call("cudaCreateSurfaceObject", [&](RuntimeState& rt) {
    if (!pSurfObject) throw CudaError{cudaErrorInvalidValue, ""};
    // CUDA takes arrays only; linear and pitched memory work here too (docs/cuda-apps.md).
    func::SurfaceDesc s;
    s.layout = layout(rt, pResDesc);
    *pSurfObject = create([&] { return rt.device().create_surface(s, "cudaCreateSurfaceObject"); });
  });
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  return api_call("cudaDestroySurfaceObject", [&](RuntimeState& rt) {
    if (!rt.device().textures().surface(surfObject)) throw CudaError{cudaErrorInvalidValue, "not a surface object"};
  });
}

}  // extern "C"
