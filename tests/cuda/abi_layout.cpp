// Checks cudart/cuda_abi.h against NVIDIA's own headers: every struct's size
// and alignment, every field's offset, size and kind, and the value of every
// constant we declare. Almost all checks are static_asserts, so a mismatch
// stops the build of this program and names the field; main() runs the few
// checks that are not constant expressions (the special stream handles).
// Built only where CUDA 13's headers exist (cmake/cuda_tests.cmake); it links
// no CUDA library.
#include <cuda_runtime_api.h>
#include <driver_types.h>
#include <surface_types.h>
#include <texture_types.h>
#include <vector_types.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#if CUDART_VERSION / 1000 != 13
#error "abi_layout.cpp checks the CUDA 13 ABI; these headers are another version"
#endif

// CUDA spells its flags as macros, which would rewrite our constants of the
// same name: take their values first, then remove the macros.
// CAPTURE_MACRO(X) declares X_v = (X): `##` keeps the name unexpanded.
#define CAPTURE_MACRO(name) constexpr long long name##_v = static_cast<long long>(name);
namespace cuda_macro {
const std::uintptr_t stream_legacy = reinterpret_cast<std::uintptr_t>(cudaStreamLegacy);
const std::uintptr_t stream_per_thread = reinterpret_cast<std::uintptr_t>(cudaStreamPerThread);
#include "abi_macro_capture.inc"  // generated: CAPTURE_MACRO(X) #undef X
}  // namespace cuda_macro
#undef cudaStreamLegacy
#undef cudaStreamPerThread

#include "cudart/cuda_abi.h"

namespace ours = simt::cudart::abi;

namespace {

// A coarse classification of a field's type: enough to catch a signed field
// declared unsigned, a float declared int, or a pointer declared an integer,
// which size and offset alone would not.
enum class Kind { pointer, floating, signed_int, unsigned_int, aggregate, other };

template <typename T>
constexpr Kind kind_of() {
  using E = std::remove_cv_t<std::remove_all_extents_t<T>>;
  if constexpr (std::is_pointer_v<E>) {
    return Kind::pointer;
  } else if constexpr (std::is_floating_point_v<E>) {
    return Kind::floating;
  } else if constexpr (std::is_enum_v<E>) {
    return std::is_signed_v<std::underlying_type_t<E>> ? Kind::signed_int : Kind::unsigned_int;
  } else if constexpr (std::is_integral_v<E>) {
    return std::is_signed_v<E> ? Kind::signed_int : Kind::unsigned_int;
  } else if constexpr (std::is_class_v<E> || std::is_union_v<E>) {
    return Kind::aggregate;
  } else {
    return Kind::other;
  }
}

template <typename A, typename B>
constexpr bool same_shape() {
  return sizeof(A) == sizeof(B) && alignof(A) == alignof(B) && kind_of<A>() == kind_of<B>() &&
         std::extent_v<A> == std::extent_v<B>;
}

}  // namespace

// A whole type: size, alignment, kind.
#define SAME_TYPE(T) static_assert(same_shape<ours::T, ::T>(), "type " #T " differs from CUDA's")
// One field (nested members allowed: res.linear.desc): offset, size, kind.
#define SAME_FIELD(T, f)                                                                        \
  static_assert(offsetof(ours::T, f) == offsetof(::T, f), "offset of " #T "." #f " differs"); \
  static_assert(same_shape<decltype(std::declval<ours::T&>().f), decltype(std::declval<::T&>().f)>(), \
                "type of " #T "." #f " differs")
// A constant that CUDA declares as an enumerator or constexpr value.
#define SAME_VALUE(e) \
  static_assert(static_cast<long long>(ours::e) == static_cast<long long>(::e), #e " differs from CUDA's")
// A constant that CUDA declares as a macro (captured above).
#define SAME_MACRO(e) \
  static_assert(static_cast<long long>(ours::e) == cuda_macro::e##_v, #e " differs from CUDA's")

// ---- types as a whole -------------------------------------------------------
SAME_TYPE(cudaError_t);
SAME_TYPE(cudaStream_t);
SAME_TYPE(cudaEvent_t);
SAME_TYPE(cudaArray_t);
SAME_TYPE(cudaArray_const_t);
SAME_TYPE(cudaMipmappedArray_t);
SAME_TYPE(cudaMipmappedArray_const_t);
SAME_TYPE(cudaGraphicsResource_t);
SAME_TYPE(cudaExternalMemory_t);
SAME_TYPE(cudaExternalSemaphore_t);
SAME_TYPE(cudaGraph_t);
SAME_TYPE(cudaGraphNode_t);
SAME_TYPE(cudaGraphExec_t);
SAME_TYPE(cudaGraphDeviceNode_t);
SAME_TYPE(cudaUserObject_t);
SAME_TYPE(cudaFunction_t);
SAME_TYPE(cudaKernel_t);
SAME_TYPE(cudaLibrary_t);
SAME_TYPE(cudaMemPool_t);
SAME_TYPE(cudaTextureObject_t);
SAME_TYPE(cudaSurfaceObject_t);
SAME_TYPE(cudaGraphConditionalHandle);
SAME_TYPE(cudaHostFn_t);
SAME_TYPE(cudaStreamCallback_t);
SAME_TYPE(cudaMemcpyKind);
SAME_TYPE(cudaMemoryType);
SAME_TYPE(cudaMemoryAdvise);
SAME_TYPE(cudaMemRangeAttribute);
SAME_TYPE(cudaMemLocationType);
SAME_TYPE(cudaChannelFormatKind);
SAME_TYPE(cudaResourceType);
SAME_TYPE(cudaResourceViewFormat);
SAME_TYPE(cudaTextureAddressMode);
SAME_TYPE(cudaTextureFilterMode);
SAME_TYPE(cudaTextureReadMode);
SAME_TYPE(cudaSurfaceBoundaryMode);
SAME_TYPE(cudaSurfaceFormatMode);
SAME_TYPE(cudaComputeMode);
SAME_TYPE(cudaLimit);
SAME_TYPE(cudaDeviceAttr);
SAME_TYPE(cudaDeviceP2PAttr);
SAME_TYPE(cudaFuncAttribute);
SAME_TYPE(cudaFuncCache);
SAME_TYPE(cudaSharedMemConfig);
SAME_TYPE(cudaSharedCarveout);
SAME_TYPE(cudaAccessProperty);
SAME_TYPE(cudaSynchronizationPolicy);
SAME_TYPE(cudaClusterSchedulingPolicy);
SAME_TYPE(cudaLaunchMemSyncDomain);
SAME_TYPE(cudaLaunchAttributeID);
SAME_TYPE(cudaStreamCaptureStatus);
SAME_TYPE(cudaStreamCaptureMode);
SAME_TYPE(cudaUUID_t);
SAME_TYPE(cudaIpcEventHandle_t);
SAME_TYPE(cudaIpcMemHandle_t);
SAME_TYPE(uint3);
SAME_TYPE(dim3);
SAME_TYPE(cudaPointerAttributes);
SAME_TYPE(cudaPitchedPtr);
SAME_TYPE(cudaExtent);
SAME_TYPE(cudaPos);
SAME_TYPE(cudaMemcpy3DParms);
SAME_TYPE(cudaMemcpy3DPeerParms);
SAME_TYPE(cudaMemLocation);
SAME_TYPE(cudaChannelFormatDesc);
SAME_TYPE(cudaResourceDesc);
SAME_TYPE(cudaResourceViewDesc);
SAME_TYPE(cudaTextureDesc);
SAME_TYPE(cudaDeviceProp);
SAME_TYPE(cudaFuncAttributes);
SAME_TYPE(cudaAccessPolicyWindow);
SAME_TYPE(cudaLaunchMemSyncDomainMap);
SAME_TYPE(cudaLaunchAttributeValue);
SAME_TYPE(cudaLaunchAttribute);
SAME_TYPE(cudaLaunchConfig_t);

// Enums are passed by value through the C calling convention: their
// underlying types must agree, not just their sizes.
static_assert(std::is_same_v<std::underlying_type_t<ours::cudaError>, std::underlying_type_t<::cudaError>>);
static_assert(std::is_same_v<std::underlying_type_t<ours::cudaDeviceAttr>, std::underlying_type_t<::cudaDeviceAttr>>);
static_assert(std::is_same_v<std::underlying_type_t<ours::cudaSharedCarveout>,
                             std::underlying_type_t<::cudaSharedCarveout>>);
// The two callbacks take the same parameters in the same order.
static_assert(std::is_same_v<ours::cudaHostFn_t, void (*)(void*)>);
static_assert(std::is_same_v<::cudaHostFn_t, void (*)(void*)>);

// ---- every field --------------------------------------------------------------
SAME_FIELD(uint3, x);
SAME_FIELD(uint3, y);
SAME_FIELD(uint3, z);
SAME_FIELD(dim3, x);
SAME_FIELD(dim3, y);
SAME_FIELD(dim3, z);
SAME_FIELD(cudaUUID_t, bytes);
SAME_FIELD(cudaIpcEventHandle_t, reserved);
SAME_FIELD(cudaIpcMemHandle_t, reserved);

SAME_FIELD(cudaPointerAttributes, type);
SAME_FIELD(cudaPointerAttributes, device);
SAME_FIELD(cudaPointerAttributes, devicePointer);
SAME_FIELD(cudaPointerAttributes, hostPointer);
SAME_FIELD(cudaPointerAttributes, reserved);

SAME_FIELD(cudaPitchedPtr, ptr);
SAME_FIELD(cudaPitchedPtr, pitch);
SAME_FIELD(cudaPitchedPtr, xsize);
SAME_FIELD(cudaPitchedPtr, ysize);
SAME_FIELD(cudaExtent, width);
SAME_FIELD(cudaExtent, height);
SAME_FIELD(cudaExtent, depth);
SAME_FIELD(cudaPos, x);
SAME_FIELD(cudaPos, y);
SAME_FIELD(cudaPos, z);

SAME_FIELD(cudaMemcpy3DParms, srcArray);
SAME_FIELD(cudaMemcpy3DParms, srcPos);
SAME_FIELD(cudaMemcpy3DParms, srcPtr);
SAME_FIELD(cudaMemcpy3DParms, dstArray);
SAME_FIELD(cudaMemcpy3DParms, dstPos);
SAME_FIELD(cudaMemcpy3DParms, dstPtr);
SAME_FIELD(cudaMemcpy3DParms, extent);
SAME_FIELD(cudaMemcpy3DParms, kind);
SAME_FIELD(cudaMemcpy3DPeerParms, srcArray);
SAME_FIELD(cudaMemcpy3DPeerParms, srcPos);
SAME_FIELD(cudaMemcpy3DPeerParms, srcPtr);
SAME_FIELD(cudaMemcpy3DPeerParms, srcDevice);
SAME_FIELD(cudaMemcpy3DPeerParms, dstArray);
SAME_FIELD(cudaMemcpy3DPeerParms, dstPos);
SAME_FIELD(cudaMemcpy3DPeerParms, dstPtr);
SAME_FIELD(cudaMemcpy3DPeerParms, dstDevice);
SAME_FIELD(cudaMemcpy3DPeerParms, extent);
SAME_FIELD(cudaMemLocation, type);
SAME_FIELD(cudaMemLocation, id);

SAME_FIELD(cudaChannelFormatDesc, x);
SAME_FIELD(cudaChannelFormatDesc, y);
SAME_FIELD(cudaChannelFormatDesc, z);
SAME_FIELD(cudaChannelFormatDesc, w);
SAME_FIELD(cudaChannelFormatDesc, f);

SAME_FIELD(cudaResourceDesc, resType);
SAME_FIELD(cudaResourceDesc, res);
SAME_FIELD(cudaResourceDesc, res.array.array);
SAME_FIELD(cudaResourceDesc, res.mipmap.mipmap);
SAME_FIELD(cudaResourceDesc, res.linear.devPtr);
SAME_FIELD(cudaResourceDesc, res.linear.desc);
SAME_FIELD(cudaResourceDesc, res.linear.sizeInBytes);
SAME_FIELD(cudaResourceDesc, res.pitch2D.devPtr);
SAME_FIELD(cudaResourceDesc, res.pitch2D.desc);
SAME_FIELD(cudaResourceDesc, res.pitch2D.width);
SAME_FIELD(cudaResourceDesc, res.pitch2D.height);
SAME_FIELD(cudaResourceDesc, res.pitch2D.pitchInBytes);
SAME_FIELD(cudaResourceDesc, res.reserved.reserved);
SAME_FIELD(cudaResourceDesc, flags);

SAME_FIELD(cudaResourceViewDesc, format);
SAME_FIELD(cudaResourceViewDesc, width);
SAME_FIELD(cudaResourceViewDesc, height);
SAME_FIELD(cudaResourceViewDesc, depth);
SAME_FIELD(cudaResourceViewDesc, firstMipmapLevel);
SAME_FIELD(cudaResourceViewDesc, lastMipmapLevel);
SAME_FIELD(cudaResourceViewDesc, firstLayer);
SAME_FIELD(cudaResourceViewDesc, lastLayer);
SAME_FIELD(cudaResourceViewDesc, reserved);

SAME_FIELD(cudaTextureDesc, addressMode);
SAME_FIELD(cudaTextureDesc, filterMode);
SAME_FIELD(cudaTextureDesc, readMode);
SAME_FIELD(cudaTextureDesc, sRGB);
SAME_FIELD(cudaTextureDesc, borderColor);
SAME_FIELD(cudaTextureDesc, normalizedCoords);
SAME_FIELD(cudaTextureDesc, maxAnisotropy);
SAME_FIELD(cudaTextureDesc, mipmapFilterMode);
SAME_FIELD(cudaTextureDesc, mipmapLevelBias);
SAME_FIELD(cudaTextureDesc, minMipmapLevelClamp);
SAME_FIELD(cudaTextureDesc, maxMipmapLevelClamp);
SAME_FIELD(cudaTextureDesc, disableTrilinearOptimization);
SAME_FIELD(cudaTextureDesc, seamlessCubemap);

SAME_FIELD(cudaDeviceProp, name);
SAME_FIELD(cudaDeviceProp, uuid);
SAME_FIELD(cudaDeviceProp, luid);
SAME_FIELD(cudaDeviceProp, luidDeviceNodeMask);
SAME_FIELD(cudaDeviceProp, totalGlobalMem);
SAME_FIELD(cudaDeviceProp, sharedMemPerBlock);
SAME_FIELD(cudaDeviceProp, regsPerBlock);
SAME_FIELD(cudaDeviceProp, warpSize);
SAME_FIELD(cudaDeviceProp, memPitch);
SAME_FIELD(cudaDeviceProp, maxThreadsPerBlock);
SAME_FIELD(cudaDeviceProp, maxThreadsDim);
SAME_FIELD(cudaDeviceProp, maxGridSize);
SAME_FIELD(cudaDeviceProp, totalConstMem);
SAME_FIELD(cudaDeviceProp, major);
SAME_FIELD(cudaDeviceProp, minor);
SAME_FIELD(cudaDeviceProp, textureAlignment);
SAME_FIELD(cudaDeviceProp, texturePitchAlignment);
SAME_FIELD(cudaDeviceProp, multiProcessorCount);
SAME_FIELD(cudaDeviceProp, integrated);
SAME_FIELD(cudaDeviceProp, canMapHostMemory);
SAME_FIELD(cudaDeviceProp, maxTexture1D);
SAME_FIELD(cudaDeviceProp, maxTexture1DMipmap);
SAME_FIELD(cudaDeviceProp, maxTexture2D);
SAME_FIELD(cudaDeviceProp, maxTexture2DMipmap);
SAME_FIELD(cudaDeviceProp, maxTexture2DLinear);
SAME_FIELD(cudaDeviceProp, maxTexture2DGather);
SAME_FIELD(cudaDeviceProp, maxTexture3D);
SAME_FIELD(cudaDeviceProp, maxTexture3DAlt);
SAME_FIELD(cudaDeviceProp, maxTextureCubemap);
SAME_FIELD(cudaDeviceProp, maxTexture1DLayered);
SAME_FIELD(cudaDeviceProp, maxTexture2DLayered);
SAME_FIELD(cudaDeviceProp, maxTextureCubemapLayered);
SAME_FIELD(cudaDeviceProp, maxSurface1D);
SAME_FIELD(cudaDeviceProp, maxSurface2D);
SAME_FIELD(cudaDeviceProp, maxSurface3D);
SAME_FIELD(cudaDeviceProp, maxSurface1DLayered);
SAME_FIELD(cudaDeviceProp, maxSurface2DLayered);
SAME_FIELD(cudaDeviceProp, maxSurfaceCubemap);
SAME_FIELD(cudaDeviceProp, maxSurfaceCubemapLayered);
SAME_FIELD(cudaDeviceProp, surfaceAlignment);
SAME_FIELD(cudaDeviceProp, concurrentKernels);
SAME_FIELD(cudaDeviceProp, ECCEnabled);
SAME_FIELD(cudaDeviceProp, pciBusID);
SAME_FIELD(cudaDeviceProp, pciDeviceID);
SAME_FIELD(cudaDeviceProp, pciDomainID);
SAME_FIELD(cudaDeviceProp, tccDriver);
SAME_FIELD(cudaDeviceProp, asyncEngineCount);
SAME_FIELD(cudaDeviceProp, unifiedAddressing);
SAME_FIELD(cudaDeviceProp, memoryBusWidth);
SAME_FIELD(cudaDeviceProp, l2CacheSize);
SAME_FIELD(cudaDeviceProp, persistingL2CacheMaxSize);
SAME_FIELD(cudaDeviceProp, maxThreadsPerMultiProcessor);
SAME_FIELD(cudaDeviceProp, streamPrioritiesSupported);
SAME_FIELD(cudaDeviceProp, globalL1CacheSupported);
SAME_FIELD(cudaDeviceProp, localL1CacheSupported);
SAME_FIELD(cudaDeviceProp, sharedMemPerMultiprocessor);
SAME_FIELD(cudaDeviceProp, regsPerMultiprocessor);
SAME_FIELD(cudaDeviceProp, managedMemory);
SAME_FIELD(cudaDeviceProp, isMultiGpuBoard);
SAME_FIELD(cudaDeviceProp, multiGpuBoardGroupID);
SAME_FIELD(cudaDeviceProp, hostNativeAtomicSupported);
SAME_FIELD(cudaDeviceProp, pageableMemoryAccess);
SAME_FIELD(cudaDeviceProp, concurrentManagedAccess);
SAME_FIELD(cudaDeviceProp, computePreemptionSupported);
SAME_FIELD(cudaDeviceProp, canUseHostPointerForRegisteredMem);
SAME_FIELD(cudaDeviceProp, cooperativeLaunch);
SAME_FIELD(cudaDeviceProp, sharedMemPerBlockOptin);
SAME_FIELD(cudaDeviceProp, pageableMemoryAccessUsesHostPageTables);
SAME_FIELD(cudaDeviceProp, directManagedMemAccessFromHost);
SAME_FIELD(cudaDeviceProp, maxBlocksPerMultiProcessor);
SAME_FIELD(cudaDeviceProp, accessPolicyMaxWindowSize);
SAME_FIELD(cudaDeviceProp, reservedSharedMemPerBlock);
SAME_FIELD(cudaDeviceProp, hostRegisterSupported);
SAME_FIELD(cudaDeviceProp, sparseCudaArraySupported);
SAME_FIELD(cudaDeviceProp, hostRegisterReadOnlySupported);
SAME_FIELD(cudaDeviceProp, timelineSemaphoreInteropSupported);
SAME_FIELD(cudaDeviceProp, memoryPoolsSupported);
SAME_FIELD(cudaDeviceProp, gpuDirectRDMASupported);
SAME_FIELD(cudaDeviceProp, gpuDirectRDMAFlushWritesOptions);
SAME_FIELD(cudaDeviceProp, gpuDirectRDMAWritesOrdering);
SAME_FIELD(cudaDeviceProp, memoryPoolSupportedHandleTypes);
SAME_FIELD(cudaDeviceProp, deferredMappingCudaArraySupported);
SAME_FIELD(cudaDeviceProp, ipcEventSupported);
SAME_FIELD(cudaDeviceProp, clusterLaunch);
SAME_FIELD(cudaDeviceProp, unifiedFunctionPointers);
SAME_FIELD(cudaDeviceProp, deviceNumaConfig);
SAME_FIELD(cudaDeviceProp, deviceNumaId);
SAME_FIELD(cudaDeviceProp, mpsEnabled);
SAME_FIELD(cudaDeviceProp, hostNumaId);
SAME_FIELD(cudaDeviceProp, gpuPciDeviceID);
SAME_FIELD(cudaDeviceProp, gpuPciSubsystemID);
SAME_FIELD(cudaDeviceProp, hostNumaMultinodeIpcSupported);
SAME_FIELD(cudaDeviceProp, reserved);

SAME_FIELD(cudaFuncAttributes, sharedSizeBytes);
SAME_FIELD(cudaFuncAttributes, constSizeBytes);
SAME_FIELD(cudaFuncAttributes, localSizeBytes);
SAME_FIELD(cudaFuncAttributes, maxThreadsPerBlock);
SAME_FIELD(cudaFuncAttributes, numRegs);
SAME_FIELD(cudaFuncAttributes, ptxVersion);
SAME_FIELD(cudaFuncAttributes, binaryVersion);
SAME_FIELD(cudaFuncAttributes, cacheModeCA);
SAME_FIELD(cudaFuncAttributes, maxDynamicSharedSizeBytes);
SAME_FIELD(cudaFuncAttributes, preferredShmemCarveout);
SAME_FIELD(cudaFuncAttributes, clusterDimMustBeSet);
SAME_FIELD(cudaFuncAttributes, requiredClusterWidth);
SAME_FIELD(cudaFuncAttributes, requiredClusterHeight);
SAME_FIELD(cudaFuncAttributes, requiredClusterDepth);
SAME_FIELD(cudaFuncAttributes, clusterSchedulingPolicyPreference);
SAME_FIELD(cudaFuncAttributes, nonPortableClusterSizeAllowed);
SAME_FIELD(cudaFuncAttributes, reserved);

SAME_FIELD(cudaAccessPolicyWindow, base_ptr);
SAME_FIELD(cudaAccessPolicyWindow, num_bytes);
SAME_FIELD(cudaAccessPolicyWindow, hitRatio);
SAME_FIELD(cudaAccessPolicyWindow, hitProp);
SAME_FIELD(cudaAccessPolicyWindow, missProp);
SAME_FIELD(cudaLaunchMemSyncDomainMap, default_);
SAME_FIELD(cudaLaunchMemSyncDomainMap, remote);

SAME_FIELD(cudaLaunchAttributeValue, pad);
SAME_FIELD(cudaLaunchAttributeValue, accessPolicyWindow);
SAME_FIELD(cudaLaunchAttributeValue, cooperative);
SAME_FIELD(cudaLaunchAttributeValue, syncPolicy);
SAME_FIELD(cudaLaunchAttributeValue, clusterDim.x);
SAME_FIELD(cudaLaunchAttributeValue, clusterDim.y);
SAME_FIELD(cudaLaunchAttributeValue, clusterDim.z);
SAME_FIELD(cudaLaunchAttributeValue, clusterSchedulingPolicyPreference);
SAME_FIELD(cudaLaunchAttributeValue, programmaticStreamSerializationAllowed);
SAME_FIELD(cudaLaunchAttributeValue, programmaticEvent.event);
SAME_FIELD(cudaLaunchAttributeValue, programmaticEvent.flags);
SAME_FIELD(cudaLaunchAttributeValue, programmaticEvent.triggerAtBlockStart);
SAME_FIELD(cudaLaunchAttributeValue, priority);
SAME_FIELD(cudaLaunchAttributeValue, memSyncDomainMap);
SAME_FIELD(cudaLaunchAttributeValue, memSyncDomain);
SAME_FIELD(cudaLaunchAttributeValue, preferredClusterDim.x);
SAME_FIELD(cudaLaunchAttributeValue, preferredClusterDim.y);
SAME_FIELD(cudaLaunchAttributeValue, preferredClusterDim.z);
SAME_FIELD(cudaLaunchAttributeValue, launchCompletionEvent.event);
SAME_FIELD(cudaLaunchAttributeValue, launchCompletionEvent.flags);
SAME_FIELD(cudaLaunchAttributeValue, deviceUpdatableKernelNode.deviceUpdatable);
SAME_FIELD(cudaLaunchAttributeValue, deviceUpdatableKernelNode.devNode);
SAME_FIELD(cudaLaunchAttributeValue, sharedMemCarveout);
SAME_FIELD(cudaLaunchAttributeValue, nvlinkUtilCentricScheduling);
SAME_FIELD(cudaLaunchAttribute, id);
SAME_FIELD(cudaLaunchAttribute, pad);
SAME_FIELD(cudaLaunchAttribute, val);
SAME_FIELD(cudaLaunchConfig_t, gridDim);
SAME_FIELD(cudaLaunchConfig_t, blockDim);
SAME_FIELD(cudaLaunchConfig_t, dynamicSmemBytes);
SAME_FIELD(cudaLaunchConfig_t, stream);
SAME_FIELD(cudaLaunchConfig_t, attrs);
SAME_FIELD(cudaLaunchConfig_t, numAttrs);

// ---- every constant -------------------------------------------------------------
// Generated at configure time from both sides: each enumerator and constant of
// cuda_abi.h, plus every error code and device attribute of CUDA's
// driver_types.h (so a code CUDA has and we lack fails to compile here).
#include "abi_values.inc"

int main() {
  int failures = 0;
  auto check = [&failures](bool ok, const char* what) {
    if (!ok) {
      std::fprintf(stderr, "abi_layout: %s differs from CUDA's\n", what);
      ++failures;
    }
  };
  check(reinterpret_cast<std::uintptr_t>(ours::cudaStreamLegacy) == cuda_macro::stream_legacy, "cudaStreamLegacy");
  check(reinterpret_cast<std::uintptr_t>(ours::cudaStreamPerThread) == cuda_macro::stream_per_thread,
        "cudaStreamPerThread");
  // A default-constructed dim3 is 1x1x1 on both sides (launch code relies on it).
  const ours::dim3 a;
  const ::dim3 b;
  check(a.x == b.x && a.y == b.y && a.z == b.z, "default dim3");
  const ours::dim3 c(7);
  const ::dim3 d(7);
  check(c.x == d.x && c.y == d.y && c.z == d.z, "dim3(7)");
  if (failures != 0) return 1;
  std::printf("abi_layout: cuda_abi.h matches CUDA %d.%d's headers\n", CUDART_VERSION / 1000,
              CUDART_VERSION % 1000 / 10);
  return 0;
}
