// Streams and events on simtlab's one timeline (cudart/stream_clock.h):
// everything issued has finished when its call returns, so queries say
// ready and synchronisation returns at once; events carry modelled time.
#include "cudart/runtime_state.h"

using namespace simt::cudart;
using namespace simt::cudart::abi;

namespace {

Event& live_event(RuntimeState& rt, cudaEvent_t e) {
  Event* ev = rt.clock().event(e);
  if (!ev) throw CudaError{cudaErrorInvalidResourceHandle, "not a live event"};
  return *ev;
}

}  // namespace

extern "C" {

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority) {
  return api_call("cudaStreamCreate", [&](RuntimeState& rt) {
    if (!pStream) throw CudaError{cudaErrorInvalidValue, ""};
    *pStream = rt.clock().create_stream(flags, priority);
  });
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t* pStream) { return cudaStreamCreateWithPriority(pStream, 0, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  return api_call("cudaStreamDestroy", [&](RuntimeState& rt) {
    if (!rt.clock().destroy(stream)) throw CudaError{cudaErrorInvalidResourceHandle, "not a live stream"};
  });
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return api_call("cudaStreamSynchronize", [&](RuntimeState& rt) { rt.check_stream(stream); });
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return api_call("cudaStreamQuery", [&](RuntimeState& rt) { rt.check_stream(stream); });
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return api_call("cudaStreamWaitEvent", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    live_event(rt, event);
  });
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags) {
  return api_call("cudaStreamGetFlags", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    if (!flags) throw CudaError{cudaErrorInvalidValue, ""};
    const Stream* s = rt.clock().stream(stream);
    *flags = s ? s->flags : 0;
  });
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
  return api_call("cudaStreamGetPriority", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    if (!priority) throw CudaError{cudaErrorInvalidValue, ""};
    const Stream* s = rt.clock().stream(stream);
    *priority = s ? s->priority : 0;
  });
}

// Host functions run when the work before them is done: now.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  cudaError_t rc = api_call("cudaLaunchHostFunc", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    if (!fn) throw CudaError{cudaErrorInvalidValue, ""};
  });
  if (rc == cudaSuccess) fn(userData);
  return rc;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags) {
  cudaError_t rc = api_call("cudaStreamAddCallback", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    if (!callback || flags != 0) throw CudaError{cudaErrorInvalidValue, ""};
  });
  if (rc == cudaSuccess) callback(stream, cudaSuccess, userData);
  return rc;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return api_call("cudaEventCreate", [&](RuntimeState& rt) {
    if (!event) throw CudaError{cudaErrorInvalidValue, ""};
    *event = rt.clock().create_event(flags);
  });
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return api_call("cudaEventRecord", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    rt.clock().record(live_event(rt, event));
  });
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return api_call("cudaEventSynchronize", [&](RuntimeState& rt) { live_event(rt, event); });
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  return api_call("cudaEventQuery", [&](RuntimeState& rt) { live_event(rt, event); });
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return api_call("cudaEventDestroy", [&](RuntimeState& rt) {
    if (!rt.clock().destroy(event)) throw CudaError{cudaErrorInvalidResourceHandle, "not a live event"};
  });
}

// Modelled time between the two records, in ms: the timing model's cycles
// at sm.clock_mhz; 0 for work run functionally.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return api_call("cudaEventElapsedTime", [&](RuntimeState& rt) {
    if (!ms) throw CudaError{cudaErrorInvalidValue, ""};
    const Event& a = live_event(rt, start);
    const Event& b = live_event(rt, end);
    if ((a.flags | b.flags) & cudaEventDisableTiming)
      throw CudaError{cudaErrorInvalidResourceHandle, "an event created with cudaEventDisableTiming"};
    if (!a.recorded || !b.recorded) throw CudaError{cudaErrorInvalidResourceHandle, "an event never recorded"};
    *ms = static_cast<float>((b.time_ns - a.time_ns) / 1e6);
  });
}

}  // extern "C"
