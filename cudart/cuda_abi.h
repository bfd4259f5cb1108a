#pragma once
// The binary interface of NVIDIA's CUDA runtime 13 (libcudart.so.13), declared
// by us so that simtlab builds without CUDA installed. Every name, field order,
// field type and enum value here is a fact of that interface: a program built
// by nvcc passes these structures to our library byte for byte. Nothing may be
// reordered, resized or renumbered; tests/cuda/abi_layout.cpp checks every
// field and constant against CUDA's own headers when they are present.
//
// The types live in simt::cudart::abi under CUDA's own spelling, so the
// library's entry points (extern "C", cudart/api/) read like the API they
// implement, and never clash with CUDA's headers where both are seen.
#include <cstddef>
#include <cstdint>

#include "cudart/cuda_abi_codes.h"

namespace simt::cudart::abi {


// ---- opaque handles -----------------------------------------------------------
// Pointers to types the application never sees inside; our library decides what
// they point at. The struct tags are CUDA's (the C API has no mangling, but
// keeping the tags makes debugger output match what users expect).
struct CUstream_st;
struct CUevent_st;
struct cudaArray;
struct cudaMipmappedArray;
struct cudaGraphicsResource;
struct CUexternalMemory_st;
struct CUexternalSemaphore_st;
struct CUgraph_st;
struct CUgraphNode_st;
struct CUgraphExec_st;
struct CUgraphDeviceUpdatableNode_st;
struct CUuserObject_st;
struct CUfunc_st;
struct CUkern_st;
struct CUlib_st;
struct CUmemPoolHandle_st;
using cudaStream_t = CUstream_st*;               // a stream (nullptr: the legacy default stream)
using cudaEvent_t = CUevent_st*;                 // an event
using cudaArray_t = cudaArray*;                  // a CUDA array (texture/surface storage)
using cudaArray_const_t = const cudaArray*;
using cudaMipmappedArray_t = cudaMipmappedArray*;
using cudaMipmappedArray_const_t = const cudaMipmappedArray*;
using cudaGraphicsResource_t = cudaGraphicsResource*;
using cudaExternalMemory_t = CUexternalMemory_st*;
using cudaExternalSemaphore_t = CUexternalSemaphore_st*;
using cudaGraph_t = CUgraph_st*;
using cudaGraphNode_t = CUgraphNode_st*;
using cudaGraphExec_t = CUgraphExec_st*;
using cudaGraphDeviceNode_t = CUgraphDeviceUpdatableNode_st*;
using cudaUserObject_t = CUuserObject_st*;
using cudaFunction_t = CUfunc_st*;               // a driver-level function handle
using cudaKernel_t = CUkern_st*;
using cudaLibrary_t = CUlib_st*;
using cudaMemPool_t = CUmemPoolHandle_st*;
// Texture and surface objects are 64-bit values the kernel reads as handles.
using cudaTextureObject_t = unsigned long long;
using cudaSurfaceObject_t = unsigned long long;
using cudaGraphConditionalHandle = unsigned long long;

// The two special stream handles: per-call "legacy" default stream and the
// calling thread's own default stream. Not constexpr: they are pointer casts.
inline const cudaStream_t cudaStreamLegacy = reinterpret_cast<cudaStream_t>(std::uintptr_t{0x1});
inline const cudaStream_t cudaStreamPerThread = reinterpret_cast<cudaStream_t>(std::uintptr_t{0x2});

// Callbacks handed to cudaLaunchHostFunc and cudaStreamAddCallback.
using cudaHostFn_t = void (*)(void* userData);
using cudaStreamCallback_t = void (*)(cudaStream_t stream, cudaError_t status, void* userData);

// ---- flag constants (CUDA defines them as macros; ours are typed constants) --
// cudaHostAlloc flags.
inline constexpr unsigned cudaHostAllocDefault = 0x00;
inline constexpr unsigned cudaHostAllocPortable = 0x01;
inline constexpr unsigned cudaHostAllocMapped = 0x02;
inline constexpr unsigned cudaHostAllocWriteCombined = 0x04;
// cudaHostRegister flags.
inline constexpr unsigned cudaHostRegisterDefault = 0x00;
inline constexpr unsigned cudaHostRegisterPortable = 0x01;
inline constexpr unsigned cudaHostRegisterMapped = 0x02;
inline constexpr unsigned cudaHostRegisterIoMemory = 0x04;
inline constexpr unsigned cudaHostRegisterReadOnly = 0x08;
inline constexpr unsigned cudaPeerAccessDefault = 0x00;
// cudaStreamCreateWithFlags flags.
inline constexpr unsigned cudaStreamDefault = 0x00;
inline constexpr unsigned cudaStreamNonBlocking = 0x01;
// cudaEventCreateWithFlags, cudaEventRecordWithFlags, cudaStreamWaitEvent flags.
inline constexpr unsigned cudaEventDefault = 0x00;
inline constexpr unsigned cudaEventBlockingSync = 0x01;
inline constexpr unsigned cudaEventDisableTiming = 0x02;
inline constexpr unsigned cudaEventInterprocess = 0x04;
inline constexpr unsigned cudaEventRecordDefault = 0x00;
inline constexpr unsigned cudaEventRecordExternal = 0x01;
inline constexpr unsigned cudaEventWaitDefault = 0x00;
inline constexpr unsigned cudaEventWaitExternal = 0x01;
// cudaSetDeviceFlags flags: how the host waits, plus mapping options.
inline constexpr unsigned cudaDeviceScheduleAuto = 0x00;
inline constexpr unsigned cudaDeviceScheduleSpin = 0x01;
inline constexpr unsigned cudaDeviceScheduleYield = 0x02;
inline constexpr unsigned cudaDeviceScheduleBlockingSync = 0x04;
inline constexpr unsigned cudaDeviceBlockingSync = 0x04;  // older spelling of the same flag
inline constexpr unsigned cudaDeviceScheduleMask = 0x07;
inline constexpr unsigned cudaDeviceMapHost = 0x08;
inline constexpr unsigned cudaDeviceLmemResizeToMax = 0x10;
inline constexpr unsigned cudaDeviceSyncMemops = 0x80;
inline constexpr unsigned cudaDeviceMask = 0xff;
// cudaMallocArray / cudaMalloc3DArray flags.
inline constexpr unsigned cudaArrayDefault = 0x00;
inline constexpr unsigned cudaArrayLayered = 0x01;
inline constexpr unsigned cudaArraySurfaceLoadStore = 0x02;
inline constexpr unsigned cudaArrayCubemap = 0x04;
inline constexpr unsigned cudaArrayTextureGather = 0x08;
inline constexpr unsigned cudaArrayColorAttachment = 0x20;
inline constexpr unsigned cudaArraySparse = 0x40;
inline constexpr unsigned cudaArrayDeferredMapping = 0x80;
inline constexpr unsigned cudaIpcMemLazyEnablePeerAccess = 0x01;
// cudaMallocManaged / cudaStreamAttachMemAsync flags.
inline constexpr unsigned cudaMemAttachGlobal = 0x01;
inline constexpr unsigned cudaMemAttachHost = 0x02;
inline constexpr unsigned cudaMemAttachSingle = 0x04;
// cudaOccupancy*WithFlags flags.
inline constexpr unsigned cudaOccupancyDefault = 0x00;
inline constexpr unsigned cudaOccupancyDisableCachingOverride = 0x01;
// Device ids with a special meaning (prefetch and advice targets).
inline constexpr int cudaCpuDeviceId = -1;
inline constexpr int cudaInvalidDeviceId = -2;
inline constexpr unsigned cudaInitDeviceFlagsAreValid = 0x01;
// Texture and surface kinds (cudaResourceDesc users and layered arrays).
inline constexpr unsigned cudaTextureType1D = 0x01;
inline constexpr unsigned cudaTextureType2D = 0x02;
inline constexpr unsigned cudaTextureType3D = 0x03;
inline constexpr unsigned cudaTextureTypeCubemap = 0x0C;
inline constexpr unsigned cudaTextureType1DLayered = 0xF1;
inline constexpr unsigned cudaTextureType2DLayered = 0xF2;
inline constexpr unsigned cudaTextureTypeCubemapLayered = 0xFC;
inline constexpr unsigned cudaSurfaceType1D = 0x01;
inline constexpr unsigned cudaSurfaceType2D = 0x02;
inline constexpr unsigned cudaSurfaceType3D = 0x03;
inline constexpr unsigned cudaSurfaceTypeCubemap = 0x0C;
inline constexpr unsigned cudaSurfaceType1DLayered = 0xF1;
inline constexpr unsigned cudaSurfaceType2DLayered = 0xF2;
inline constexpr unsigned cudaSurfaceTypeCubemapLayered = 0xFC;
inline constexpr int CUDA_IPC_HANDLE_SIZE = 64;

// ---- launch geometry ----------------------------------------------------------
// Three unsigned components; what the kernel sees as threadIdx/blockIdx.
struct uint3 {
  unsigned int x, y, z;
};
// A grid or block shape; a missing component is 1, as in CUDA.
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

// ---- memory -----------------------------------------------------------------
// Direction of a copy; Default means "work it out from the pointers".
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

// Where a pointer lives (cudaPointerGetAttributes).
enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

// The answer of cudaPointerGetAttributes.
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
  long reserved[8];
};

// A pitched (row-padded) allocation: base, bytes per row, logical width/height.
struct cudaPitchedPtr {
  void* ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};

// Size of a 3D region: width in bytes for linear memory, elements for arrays.
struct cudaExtent {
  size_t width;
  size_t height;
  size_t depth;
};

// A position inside a 3D region (same units as cudaExtent).
struct cudaPos {
  size_t x;
  size_t y;
  size_t z;
};

// cudaMemcpy3D's argument: each side is either an array or a pitched pointer.
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};

// cudaMemcpy3DPeer's argument: as above, with a device per side and no kind.
struct cudaMemcpy3DPeerParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  int srcDevice;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  int dstDevice;
  cudaExtent extent;
};

// Unified-memory hints (cudaMemAdvise) and the queries of cudaMemRangeGetAttribute.
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};
enum cudaMemRangeAttribute {
  cudaMemRangeAttributeReadMostly = 1,
  cudaMemRangeAttributePreferredLocation = 2,
  cudaMemRangeAttributeAccessedBy = 3,
  cudaMemRangeAttributeLastPrefetchLocation = 4,
  cudaMemRangeAttributePreferredLocationType = 5,
  cudaMemRangeAttributePreferredLocationId = 6,
  cudaMemRangeAttributeLastPrefetchLocationType = 7,
  cudaMemRangeAttributeLastPrefetchLocationId = 8
};

// A place memory can live: CUDA 13's cudaMemPrefetchAsync and cudaMemAdvise
// take it by value (8 bytes: passed in one register).
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeNone = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};

// A device's unique id and the inter-process handles (opaque bytes).
struct CUuuid_st {
  char bytes[16];
};
using cudaUUID_t = CUuuid_st;
struct cudaIpcEventHandle_st {
  char reserved[CUDA_IPC_HANDLE_SIZE];
};
using cudaIpcEventHandle_t = cudaIpcEventHandle_st;
struct cudaIpcMemHandle_st {
  char reserved[CUDA_IPC_HANDLE_SIZE];
};
using cudaIpcMemHandle_t = cudaIpcMemHandle_st;

// ---- arrays, textures and surfaces --------------------------------------------
// How one channel of a texel is encoded.
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
  cudaChannelFormatKindNV12 = 4,
  cudaChannelFormatKindUnsignedNormalized8X1 = 5,
  cudaChannelFormatKindUnsignedNormalized8X2 = 6,
  cudaChannelFormatKindUnsignedNormalized8X4 = 7,
  cudaChannelFormatKindUnsignedNormalized16X1 = 8,
  cudaChannelFormatKindUnsignedNormalized16X2 = 9,
  cudaChannelFormatKindUnsignedNormalized16X4 = 10,
  cudaChannelFormatKindSignedNormalized8X1 = 11,
  cudaChannelFormatKindSignedNormalized8X2 = 12,
  cudaChannelFormatKindSignedNormalized8X4 = 13,
  cudaChannelFormatKindSignedNormalized16X1 = 14,
  cudaChannelFormatKindSignedNormalized16X2 = 15,
  cudaChannelFormatKindSignedNormalized16X4 = 16,
  cudaChannelFormatKindUnsignedBlockCompressed1 = 17,
  cudaChannelFormatKindUnsignedBlockCompressed1SRGB = 18,
  cudaChannelFormatKindUnsignedBlockCompressed2 = 19,
  cudaChannelFormatKindUnsignedBlockCompressed2SRGB = 20,
  cudaChannelFormatKindUnsignedBlockCompressed3 = 21,
  cudaChannelFormatKindUnsignedBlockCompressed3SRGB = 22,
  cudaChannelFormatKindUnsignedBlockCompressed4 = 23,
  cudaChannelFormatKindSignedBlockCompressed4 = 24,
  cudaChannelFormatKindUnsignedBlockCompressed5 = 25,
  cudaChannelFormatKindSignedBlockCompressed5 = 26,
  cudaChannelFormatKindUnsignedBlockCompressed6H = 27,
  cudaChannelFormatKindSignedBlockCompressed6H = 28,
  cudaChannelFormatKindUnsignedBlockCompressed7 = 29,
  cudaChannelFormatKindUnsignedBlockCompressed7SRGB = 30,
  cudaChannelFormatKindUnsignedNormalized1010102 = 31
};

// Bits per channel (x, y, z, w; 0 = channel absent) and their encoding.
// Returned BY VALUE from cudaCreateChannelDesc (20 bytes: through a hidden
// result pointer on x86-64).
struct cudaChannelFormatDesc {
  int x;
  int y;
  int z;
  int w;
  cudaChannelFormatKind f;
};

// What a texture or surface object reads from.
enum cudaResourceType {
  cudaResourceTypeArray = 0x00,
  cudaResourceTypeMipmappedArray = 0x01,
  cudaResourceTypeLinear = 0x02,
  cudaResourceTypePitch2D = 0x03
};

// Reinterpretation of an array's texels by a resource view.
enum cudaResourceViewFormat {
  cudaResViewFormatNone = 0x00,
  cudaResViewFormatUnsignedChar1 = 0x01,
  cudaResViewFormatUnsignedChar2 = 0x02,
  cudaResViewFormatUnsignedChar4 = 0x03,
  cudaResViewFormatSignedChar1 = 0x04,
  cudaResViewFormatSignedChar2 = 0x05,
  cudaResViewFormatSignedChar4 = 0x06,
  cudaResViewFormatUnsignedShort1 = 0x07,
  cudaResViewFormatUnsignedShort2 = 0x08,
  cudaResViewFormatUnsignedShort4 = 0x09,
  cudaResViewFormatSignedShort1 = 0x0a,
  cudaResViewFormatSignedShort2 = 0x0b,
  cudaResViewFormatSignedShort4 = 0x0c,
  cudaResViewFormatUnsignedInt1 = 0x0d,
  cudaResViewFormatUnsignedInt2 = 0x0e,
  cudaResViewFormatUnsignedInt4 = 0x0f,
  cudaResViewFormatSignedInt1 = 0x10,
  cudaResViewFormatSignedInt2 = 0x11,
  cudaResViewFormatSignedInt4 = 0x12,
  cudaResViewFormatHalf1 = 0x13,
  cudaResViewFormatHalf2 = 0x14,
  cudaResViewFormatHalf4 = 0x15,
  cudaResViewFormatFloat1 = 0x16,
  cudaResViewFormatFloat2 = 0x17,
  cudaResViewFormatFloat4 = 0x18,
  cudaResViewFormatUnsignedBlockCompressed1 = 0x19,
  cudaResViewFormatUnsignedBlockCompressed2 = 0x1a,
  cudaResViewFormatUnsignedBlockCompressed3 = 0x1b,
  cudaResViewFormatUnsignedBlockCompressed4 = 0x1c,
  cudaResViewFormatSignedBlockCompressed4 = 0x1d,
  cudaResViewFormatUnsignedBlockCompressed5 = 0x1e,
  cudaResViewFormatSignedBlockCompressed5 = 0x1f,
  cudaResViewFormatUnsignedBlockCompressed6H = 0x20,
  cudaResViewFormatSignedBlockCompressed6H = 0x21,
  cudaResViewFormatUnsignedBlockCompressed7 = 0x22
};

// The memory behind a texture or surface object; resType picks the union arm.
struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
};

// An optional reinterpretation of the resource (format, sub-range of levels/layers).
struct cudaResourceViewDesc {
  cudaResourceViewFormat format;
  size_t width;
  size_t height;
  size_t depth;
  unsigned int firstMipmapLevel;
  unsigned int lastMipmapLevel;
  unsigned int firstLayer;
  unsigned int lastLayer;
  unsigned int reserved[16];
};

// Out-of-range coordinates: repeat, clamp to edge, mirror, or border colour.
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
// Nearest texel or linear interpolation.
enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1
};
// Return texels as stored, or integers scaled to [0,1] / [-1,1] floats.
enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1
};

// How a texture object samples its resource.
struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

// Surface stores out of range: write nothing, clamp, or trap.
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
enum cudaSurfaceFormatMode {
  cudaFormatModeForced = 0,
  cudaFormatModeAuto = 1
};

// ---- devices ------------------------------------------------------------------
// Who may use the device at once.
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};

// Per-device resource limits (cudaDeviceSetLimit / cudaDeviceGetLimit).
enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06
};

// Peer-to-peer queries (cudaDeviceGetP2PAttribute).
enum cudaDeviceP2PAttr {
  cudaDevP2PAttrPerformanceRank = 1,
  cudaDevP2PAttrAccessSupported = 2,
  cudaDevP2PAttrNativeAtomicSupported = 3,
  cudaDevP2PAttrCudaArrayAccessSupported = 4,
  cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5
};

// cudaGetDeviceProperties' answer, in CUDA 13's layout (1008 bytes on
// x86-64). CUDA 13 dropped several older fields (clockRate, memoryClockRate,
// kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear, ...): those are
// only reachable through cudaDeviceGetAttribute now, and the trailing
// reserved words keep the size stable for later additions.
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
};

// ---- kernels --------------------------------------------------------------------
// What cudaFuncGetAttributes reports about one kernel.
struct cudaFuncAttributes {
  size_t sharedSizeBytes;       // static shared memory
  size_t constSizeBytes;
  size_t localSizeBytes;        // per thread
  int maxThreadsPerBlock;       // the most this kernel can launch with
  int numRegs;
  int ptxVersion;               // major*10+minor
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};

// What cudaFuncSetAttribute may change (the numbering starts at 8).
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax
};

// L1/shared split preference (cudaFuncSetCacheConfig, cudaDeviceSetCacheConfig).
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

// Shared-memory bank width; CUDA 13 keeps the type (cudaDeviceGetSharedMemConfig
// and friends are gone from the API but old code may still name the values).
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};

// Special values of the shared-memory carveout percentage.
enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1,
  cudaSharedmemCarveoutMaxShared = 100,
  cudaSharedmemCarveoutMaxL1 = 0
};

// ---- extensible launch (cudaLaunchKernelExC) ------------------------------------
// L2 persistence hint for an address window.
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2
};
struct cudaAccessPolicyWindow {
  void* base_ptr;
  size_t num_bytes;
  float hitRatio;
  cudaAccessProperty hitProp;
  cudaAccessProperty missProp;
};

// How the host waits for work of a stream.
enum cudaSynchronizationPolicy {
  cudaSyncPolicyAuto = 1,
  cudaSyncPolicySpin = 2,
  cudaSyncPolicyYield = 3,
  cudaSyncPolicyBlockingSync = 4
};

// How a cluster's blocks are spread over the SMs.
enum cudaClusterSchedulingPolicy {
  cudaClusterSchedulingPolicyDefault = 0,
  cudaClusterSchedulingPolicySpread = 1,
  cudaClusterSchedulingPolicyLoadBalancing = 2
};

// Memory-synchronisation domains of a launch.
enum cudaLaunchMemSyncDomain {
  cudaLaunchMemSyncDomainDefault = 0,
  cudaLaunchMemSyncDomainRemote = 1
};
struct cudaLaunchMemSyncDomainMap_st {
  unsigned char default_;
  unsigned char remote;
};
using cudaLaunchMemSyncDomainMap = cudaLaunchMemSyncDomainMap_st;

// Which member of cudaLaunchAttributeValue an attribute carries (15 unused).
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10,
  cudaLaunchAttributePreferredClusterDimension = 11,
  cudaLaunchAttributeLaunchCompletionEvent = 12,
  cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
  cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
  cudaLaunchAttributeNvlinkUtilCentricScheduling = 16
};

// The value of one launch attribute: a 64-byte union.
union cudaLaunchAttributeValue {
  char pad[64];
  cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  cudaSynchronizationPolicy syncPolicy;
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
  cudaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  struct {
    cudaEvent_t event;
    int flags;
    int triggerAtBlockStart;
  } programmaticEvent;
  int priority;
  cudaLaunchMemSyncDomainMap memSyncDomainMap;
  cudaLaunchMemSyncDomain memSyncDomain;
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } preferredClusterDim;
  struct {
    cudaEvent_t event;
    int flags;
  } launchCompletionEvent;
  struct {
    int deviceUpdatable;
    cudaGraphDeviceNode_t devNode;
  } deviceUpdatableKernelNode;
  unsigned int sharedMemCarveout;
  unsigned int nvlinkUtilCentricScheduling;
};

// One launch attribute: the id padded to 8 bytes, then the value.
struct cudaLaunchAttribute_st {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};
using cudaLaunchAttribute = cudaLaunchAttribute_st;

// A whole launch for cudaLaunchKernelExC: shape, dynamic shared memory,
// stream and a list of attributes.
struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
};
using cudaLaunchConfig_t = cudaLaunchConfig_st;

// ---- streams and graphs (only what stream queries return) -----------------------
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};

}  // namespace simt::cudart::abi
