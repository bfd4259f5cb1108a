#include "cudart/error_names.h"

#include "cudart/cuda_abi.h"

namespace simt::cudart {
namespace {

struct ErrorText {
  int code;
  const char* name;
  const char* text;
};

// One row per enumerator of abi::cudaError, in value order. The name is the
// enumerator itself turned into text, so it cannot be misspelt. The errors a
// program commonly prints carry the text CUDA's runtime gives them, so a
// program's output is the same as on a GPU; the others are described in our
// words.
#define SIMT_ERROR(enumerator, text) {abi::enumerator, #enumerator, text}
constexpr ErrorText kErrors[] = {
    SIMT_ERROR(cudaSuccess, "no error"),
    SIMT_ERROR(cudaErrorInvalidValue, "invalid argument"),
    SIMT_ERROR(cudaErrorMemoryAllocation, "out of memory"),
    SIMT_ERROR(cudaErrorInitializationError, "initialization error"),
    SIMT_ERROR(cudaErrorCudartUnloading, "driver shutting down"),
    SIMT_ERROR(cudaErrorProfilerDisabled, "profiling is turned off for this run"),
    SIMT_ERROR(cudaErrorProfilerNotInitialized, "the profiler was not initialised (deprecated code)"),
    SIMT_ERROR(cudaErrorProfilerAlreadyStarted, "the profiler is already running (deprecated code)"),
    SIMT_ERROR(cudaErrorProfilerAlreadyStopped, "the profiler is already stopped (deprecated code)"),
    SIMT_ERROR(cudaErrorInvalidConfiguration, "invalid configuration argument"),
    SIMT_ERROR(cudaErrorInvalidPitchValue, "invalid pitch argument"),
    SIMT_ERROR(cudaErrorInvalidSymbol, "invalid device symbol"),
    SIMT_ERROR(cudaErrorInvalidHostPointer, "the host pointer is not valid here (deprecated code)"),
    SIMT_ERROR(cudaErrorInvalidDevicePointer, "the device pointer is not valid here (deprecated code)"),
    SIMT_ERROR(cudaErrorInvalidTexture, "invalid texture reference"),
    SIMT_ERROR(cudaErrorInvalidTextureBinding, "the texture is not bound to valid memory"),
    SIMT_ERROR(cudaErrorInvalidChannelDescriptor, "invalid channel descriptor"),
    SIMT_ERROR(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
    SIMT_ERROR(cudaErrorAddressOfConstant, "the address of constant memory was asked for (deprecated code)"),
    SIMT_ERROR(cudaErrorTextureFetchFailed, "a texture fetch failed (deprecated code)"),
    SIMT_ERROR(cudaErrorTextureNotBound, "the texture is not bound (deprecated code)"),
    SIMT_ERROR(cudaErrorSynchronizationError, "a synchronisation failed (deprecated code)"),
    SIMT_ERROR(cudaErrorInvalidFilterSetting, "linear filtering is not possible for this texture format"),
    SIMT_ERROR(cudaErrorInvalidNormSetting, "normalised reads are not possible for this texture format"),
    SIMT_ERROR(cudaErrorMixedDeviceExecution, "device and device-emulation code were mixed (deprecated code)"),
    SIMT_ERROR(cudaErrorNotYetImplemented, "the function is not implemented (deprecated code)"),
    SIMT_ERROR(cudaErrorMemoryValueTooLarge, "a value is too large for a device memory field (deprecated code)"),
    SIMT_ERROR(cudaErrorStubLibrary, "the program loaded a stub library instead of the real driver"),
    SIMT_ERROR(cudaErrorInsufficientDriver, "the installed driver is older than this runtime needs"),
    SIMT_ERROR(cudaErrorCallRequiresNewerDriver, "this call needs a newer driver than the one installed"),
    SIMT_ERROR(cudaErrorInvalidSurface, "the surface is not valid"),
    SIMT_ERROR(cudaErrorDuplicateVariableName, "two device variables share one name"),
    SIMT_ERROR(cudaErrorDuplicateTextureName, "two textures share one name"),
    SIMT_ERROR(cudaErrorDuplicateSurfaceName, "two surfaces share one name"),
    SIMT_ERROR(cudaErrorDevicesUnavailable, "every device is busy or unavailable"),
    SIMT_ERROR(cudaErrorIncompatibleDriverContext, "the current driver context cannot be used by the runtime"),
    SIMT_ERROR(cudaErrorMissingConfiguration, "__global__ function call is not configured"),
    SIMT_ERROR(cudaErrorPriorLaunchFailure, "an earlier launch failed (deprecated code)"),
    SIMT_ERROR(cudaErrorLaunchMaxDepthExceeded, "device-side launches are nested too deeply"),
    SIMT_ERROR(cudaErrorLaunchFileScopedTex, "a device-side launch uses a file-scope texture"),
    SIMT_ERROR(cudaErrorLaunchFileScopedSurf, "a device-side launch uses a file-scope surface"),
    SIMT_ERROR(cudaErrorSyncDepthExceeded, "a device-side synchronisation is nested too deeply"),
    SIMT_ERROR(cudaErrorLaunchPendingCountExceeded, "too many device-side launches are waiting to run"),
    SIMT_ERROR(cudaErrorInvalidDeviceFunction, "invalid device function"),
    SIMT_ERROR(cudaErrorNoDevice, "no CUDA-capable device is detected"),
    SIMT_ERROR(cudaErrorInvalidDevice, "invalid device ordinal"),
    SIMT_ERROR(cudaErrorDeviceNotLicensed, "the device lacks a valid licence"),
    SIMT_ERROR(cudaErrorSoftwareValidityNotEstablished, "the device's software integrity checks failed"),
    SIMT_ERROR(cudaErrorStartupFailure, "the runtime failed to start"),
    SIMT_ERROR(cudaErrorInvalidKernelImage, "the device code image is not valid"),
    SIMT_ERROR(cudaErrorDeviceUninitialized, "the device context is not initialised"),
    SIMT_ERROR(cudaErrorMapBufferObjectFailed, "a graphics buffer could not be mapped"),
    SIMT_ERROR(cudaErrorUnmapBufferObjectFailed, "a graphics buffer could not be unmapped"),
    SIMT_ERROR(cudaErrorArrayIsMapped, "the array is mapped and cannot be destroyed"),
    SIMT_ERROR(cudaErrorAlreadyMapped, "the resource is already mapped"),
    SIMT_ERROR(cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device"),
    SIMT_ERROR(cudaErrorAlreadyAcquired, "the resource is already acquired"),
    SIMT_ERROR(cudaErrorNotMapped, "the resource is not mapped"),
    SIMT_ERROR(cudaErrorNotMappedAsArray, "the resource is not mapped as an array"),
    SIMT_ERROR(cudaErrorNotMappedAsPointer, "the resource is not mapped as a pointer"),
    SIMT_ERROR(cudaErrorECCUncorrectable, "the device memory had an error ECC could not correct"),
    SIMT_ERROR(cudaErrorUnsupportedLimit, "limit is not supported on this architecture"),
    SIMT_ERROR(cudaErrorDeviceAlreadyInUse, "another thread already uses the device exclusively"),
    SIMT_ERROR(cudaErrorPeerAccessUnsupported, "the two devices cannot access each other's memory"),
    SIMT_ERROR(cudaErrorInvalidPtx, "the PTX could not be compiled"),
    SIMT_ERROR(cudaErrorInvalidGraphicsContext, "the graphics context is not valid"),
    SIMT_ERROR(cudaErrorNvlinkUncorrectable, "an NVLink error could not be corrected"),
    SIMT_ERROR(cudaErrorJitCompilerNotFound, "the PTX compiler library is missing"),
    SIMT_ERROR(cudaErrorUnsupportedPtxVersion, "the PTX uses a version this runtime does not accept"),
    SIMT_ERROR(cudaErrorJitCompilationDisabled, "compiling PTX at run time is turned off"),
    SIMT_ERROR(cudaErrorUnsupportedExecAffinity, "the execution affinity asked for is not supported"),
    SIMT_ERROR(cudaErrorUnsupportedDevSideSync, "the kernel synchronises on the device, which this build does not allow"),
    SIMT_ERROR(cudaErrorContained, "an error was contained on the device; the process should restart"),
    SIMT_ERROR(cudaErrorInvalidSource, "the device code source is not valid"),
    SIMT_ERROR(cudaErrorFileNotFound, "a file was not found"),
    SIMT_ERROR(cudaErrorSharedObjectSymbolNotFound, "a shared-object symbol could not be resolved"),
    SIMT_ERROR(cudaErrorSharedObjectInitFailed, "a shared object failed to initialise"),
    SIMT_ERROR(cudaErrorOperatingSystem, "an operating-system call failed"),
    SIMT_ERROR(cudaErrorInvalidResourceHandle, "invalid resource handle"),
    SIMT_ERROR(cudaErrorIllegalState, "the resource is not in a state that allows this operation"),
    SIMT_ERROR(cudaErrorLossyQuery, "the answer would lose information"),
    SIMT_ERROR(cudaErrorSymbolNotFound, "no symbol of that name was found"),
    SIMT_ERROR(cudaErrorNotReady, "device not ready"),
    SIMT_ERROR(cudaErrorIllegalAddress, "an illegal memory access was encountered"),
    SIMT_ERROR(cudaErrorLaunchOutOfResources, "too many resources requested for launch"),
    SIMT_ERROR(cudaErrorLaunchTimeout, "the launch timed out and was terminated"),
    SIMT_ERROR(cudaErrorLaunchIncompatibleTexturing, "the launch uses a texturing mode the device lacks"),
    SIMT_ERROR(cudaErrorPeerAccessAlreadyEnabled, "access to the peer device is already on"),
    SIMT_ERROR(cudaErrorPeerAccessNotEnabled, "access to the peer device was never turned on"),
    SIMT_ERROR(cudaErrorSetOnActiveProcess, "the setting can only change before the device is in use"),
    SIMT_ERROR(cudaErrorContextIsDestroyed, "the context has been destroyed"),
    SIMT_ERROR(cudaErrorAssert, "device-side assert triggered"),
    SIMT_ERROR(cudaErrorTooManyPeers, "too many peer devices are mapped"),
    SIMT_ERROR(cudaErrorHostMemoryAlreadyRegistered, "the host memory is already registered"),
    SIMT_ERROR(cudaErrorHostMemoryNotRegistered, "the host memory was never registered"),
    SIMT_ERROR(cudaErrorHardwareStackError, "a kernel overflowed or corrupted its call stack"),
    SIMT_ERROR(cudaErrorIllegalInstruction, "a kernel executed an illegal instruction"),
    SIMT_ERROR(cudaErrorMisalignedAddress, "misaligned address"),
    SIMT_ERROR(cudaErrorInvalidAddressSpace, "a kernel used an address in the wrong memory space"),
    SIMT_ERROR(cudaErrorInvalidPc, "a kernel's program counter left its code"),
    SIMT_ERROR(cudaErrorLaunchFailure, "unspecified launch failure"),
    SIMT_ERROR(cudaErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"),
    SIMT_ERROR(cudaErrorTensorMemoryLeak, "a kernel exited without freeing its tensor memory"),
    SIMT_ERROR(cudaErrorNotPermitted, "the operation is not permitted"),
    SIMT_ERROR(cudaErrorNotSupported, "operation not supported"),
    SIMT_ERROR(cudaErrorSystemNotReady, "the system is not ready for GPU work"),
    SIMT_ERROR(cudaErrorSystemDriverMismatch, "the display driver and the kernel driver versions differ"),
    SIMT_ERROR(cudaErrorCompatNotSupportedOnDevice, "forward-compatibility mode is not supported on this device"),
    SIMT_ERROR(cudaErrorMpsConnectionFailed, "the MPS server could not be reached"),
    SIMT_ERROR(cudaErrorMpsRpcFailure, "a call to the MPS server failed"),
    SIMT_ERROR(cudaErrorMpsServerNotReady, "the MPS server is not ready"),
    SIMT_ERROR(cudaErrorMpsMaxClientsReached, "the MPS server has as many clients as it allows"),
    SIMT_ERROR(cudaErrorMpsMaxConnectionsReached, "the MPS server has as many connections as it allows"),
    SIMT_ERROR(cudaErrorMpsClientTerminated, "the MPS client was terminated by the server"),
    SIMT_ERROR(cudaErrorCdpNotSupported, "device-side launches are not supported here"),
    SIMT_ERROR(cudaErrorCdpVersionMismatch, "the device-side launch interface versions differ"),
    SIMT_ERROR(cudaErrorStreamCaptureUnsupported, "the operation is not allowed while the stream is captured"),
    SIMT_ERROR(cudaErrorStreamCaptureInvalidated, "the stream capture was invalidated by an earlier error"),
    SIMT_ERROR(cudaErrorStreamCaptureMerge, "the operation would merge two separate captures"),
    SIMT_ERROR(cudaErrorStreamCaptureUnmatched, "the capture was not started in this stream"),
    SIMT_ERROR(cudaErrorStreamCaptureUnjoined, "a forked capture was never joined back"),
    SIMT_ERROR(cudaErrorStreamCaptureIsolation, "the operation would cross a capture's isolation"),
    SIMT_ERROR(cudaErrorStreamCaptureImplicit, "the legacy default stream would be captured implicitly"),
    SIMT_ERROR(cudaErrorCapturedEvent, "the event was recorded in a capture and cannot be used this way"),
    SIMT_ERROR(cudaErrorStreamCaptureWrongThread, "the capture was started by another thread"),
    SIMT_ERROR(cudaErrorTimeout, "the wait timed out"),
    SIMT_ERROR(cudaErrorGraphExecUpdateFailure, "the executable graph could not be updated"),
    SIMT_ERROR(cudaErrorExternalDevice, "an external device reported an error"),
    SIMT_ERROR(cudaErrorInvalidClusterSize, "the cluster size is not valid"),
    SIMT_ERROR(cudaErrorFunctionNotLoaded, "the function's module is not loaded"),
    SIMT_ERROR(cudaErrorInvalidResourceType, "the resource type is not valid for this operation"),
    SIMT_ERROR(cudaErrorInvalidResourceConfiguration, "the resource configuration is not valid"),
    SIMT_ERROR(cudaErrorUnknown, "unknown error"),
    SIMT_ERROR(cudaErrorApiFailureBase, "an API call failed (base of the API failure codes)"),
};
#undef SIMT_ERROR

constexpr const char* kUnrecognized = "unrecognized error code";

const ErrorText* find(int code) {
  for (const ErrorText& e : kErrors) {
    if (e.code == code) return &e;
  }
  return nullptr;
}

}  // namespace

const char* error_name(int code) {
  const ErrorText* e = find(code);
  return e != nullptr ? e->name : kUnrecognized;
}

const char* error_string(int code) {
  const ErrorText* e = find(code);
  return e != nullptr ? e->text : kUnrecognized;
}

}  // namespace simt::cudart
