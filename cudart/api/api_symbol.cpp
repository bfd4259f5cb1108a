// __device__ and __constant__ variables, named by their host shadow's
// address: copies to and from them, their device address and size.
#include "cudart/runtime_state.h"

using namespace simt::cudart;
using namespace simt::cudart::abi;

namespace {

simt::runtime::Device::Symbol lookup(RuntimeState& rt, const void* symbol) {
  VarRecord* v = rt.registry().var(symbol);
  if (!v) throw CudaError{cudaErrorInvalidSymbol, "not a registered __device__ or __constant__ variable"};
  return rt.device().symbol(rt.module_of(*v), v->name);
}

void copy_symbol(RuntimeState& rt, const void* symbol, void* host, size_t count, size_t offset, cudaMemcpyKind kind,
                 bool to_symbol) {
  const auto sym = lookup(rt, symbol);
  if (offset > sym.bytes || count > sym.bytes - offset)
    throw CudaError{cudaErrorInvalidValue, std::to_string(count) + " bytes at offset " + std::to_string(offset) +
                                               " do not fit the " + std::to_string(sym.bytes) + "-byte variable"};
  // The symbol's side is device memory; `kind` says what the other side is.
  const bool other_device = kind == cudaMemcpyDeviceToDevice ||
                            (kind == cudaMemcpyDefault && rt.is_device(host));
  if (kind != cudaMemcpyDefault && kind != cudaMemcpyDeviceToDevice &&
      kind != (to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost))
    throw CudaError{cudaErrorInvalidMemcpyDirection, "this direction does not copy " +
                                                         std::string(to_symbol ? "to" : "from") + " a symbol"};
  CopySide s{sym.addr + offset, true}, h{RuntimeState::addr(host), other_device};
  if (to_symbol) copy_box(rt.device(), s, h, CopyBox{count});
  else copy_box(rt.device(), h, s, CopyBox{count});
}

}  // namespace

extern "C" {

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind) {
  return api_call("cudaMemcpyToSymbol", [&](RuntimeState& rt) {
    copy_symbol(rt, symbol, const_cast<void*>(src), count, offset, kind, true);
  });
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
  return api_call("cudaMemcpyFromSymbol", [&](RuntimeState& rt) {
    copy_symbol(rt, symbol, dst, count, offset, kind, false);
  });
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t stream) {
  return api_call("cudaMemcpyToSymbolAsync", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    copy_symbol(rt, symbol, const_cast<void*>(src), count, offset, kind, true);
  });
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t stream) {
  return api_call("cudaMemcpyFromSymbolAsync", [&](RuntimeState& rt) {
    rt.check_stream(stream);
    copy_symbol(rt, symbol, dst, count, offset, kind, false);
  });
}

cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  return api_call("cudaGetSymbolAddress", [&](RuntimeState& rt) {
    if (!devPtr) throw CudaError{cudaErrorInvalidValue, ""};
    *devPtr = RuntimeState::ptr(lookup(rt, symbol).addr);
  });
}

cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  return api_call("cudaGetSymbolSize", [&](RuntimeState& rt) {
    if (!size) throw CudaError{cudaErrorInvalidValue, ""};
    *size = lookup(rt, symbol).bytes;
  });
}

}  // extern "C"
