// The one CUDA runtime of a process: its options (simtlab exec's, from the
// environment), the simulated device, what the program registered, the
// error state, streams and events, and the run report written at exit.
//
// Created by the first entry point the program calls (usually
// __cudaRegisterFatBinary, before main()); every entry point holds its lock.
// Errors follow the CUDA runtime: a call's error becomes the "last error";
// a kernel fault is sticky, returned by every later call until the program
// ends (cudaDeviceReset does not clear it either: a real context is lost).
// An internal error of the model is sticky too (cudaErrorUnknown): the
// simulation it broke cannot run again, and the program's exit status
// becomes 6 so that no result of the run passes for valid.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "cudart/copy_engine.h"
#include "cudart/cuda_abi.h"
#include "cudart/module_registry.h"
#include "cudart/stream_clock.h"
#include "runtime/device.h"
#include "util/error.h"

namespace simt::tb {
struct LibraryOptions;
class RunOutputs;
}  // namespace simt::tb

namespace simt::cudart {

using abi::cudaError_t;
using simt::Error;

// An error with the code the CUDA runtime returns for it.
struct CudaError {
  cudaError_t code;
  std::string message;  // empty: nothing worth printing
};

class RuntimeState {
 public:
  // The process's runtime, created on first use. Bad options end the
  // process with exit code 2 and one `simtlab:` line.
  static RuntimeState& get();
  std::recursive_mutex& lock() { return mutex_; }

  ModuleRegistry& registry() { return registry_; }
  // After the registry took fatbin `f`: writes its PTX out under --save-ptx.
  void fatbin_registered(const FatbinRecord& f);
  runtime::Device& device();  // built on first use
  const gpu::MachineConfig& machine() const;
  bool timing() const;        // --mode timing
  std::string machine_name() const;  // the machine files, or the built-in one
  // cudaDeviceSetLimit values the model keeps but does not use (stack size, printf FIFO, ...).
  std::map<int, size_t>& limits() { return limits_; }
  StreamClock& clock() { return clock_; }
  // Throws CudaError (cudaErrorInvalidResourceHandle) unless `s` is a stream the program may name.
  void check_stream(abi::cudaStream_t s) const;

  // --- errors
  cudaError_t last_error() const { return last_; }
  cudaError_t sticky_error() const { return sticky_; }
  cudaError_t take_last_error();  // cudaGetLastError: returns and resets (sticky errors stay)
  // Records `code` as the last error; prints `message` on stderr once per
  // distinct text. Returns `code`.
  cudaError_t fail(cudaError_t code, const std::string& message);
  // A simt::Error thrown by the model, as the runtime reports it (a kernel
  // fault becomes sticky).
  cudaError_t fail(const Error& e, const char* call);
  void note(const std::string& message);  // one `simtlab:` line on stderr
  // A defect of the model (anything thrown that is not a simt::Error, or an
  // Error with ExitCode::Internal) in `call`: sticky cudaErrorUnknown.
  cudaError_t internal_error(const char* call, const std::string& what);

  // --- kernels
  // The fatbin's module, loaded on first use; its __managed__ variables are
  // then moved into unified memory and the program's pointers set to them.
  runtime::Module& load(FatbinRecord& f);
  runtime::Module& module_of(KernelRecord& k);
  runtime::Module& module_of(VarRecord& v);
  KernelRecord& kernel(const void* host_fun);  // throws CudaError (InvalidDeviceFunction)
  // Launches `k` (the runtime has already checked nothing is sticky).
  void launch(KernelRecord& k, abi::dim3 grid, abi::dim3 block, void** args, uint64_t shared_bytes,
              abi::cudaStream_t stream, bool cooperative);
  uint64_t launches() const { return launch_count_; }

  // --- device memory the program sees as plain pointers
  static void* ptr(uint64_t device_addr) { return reinterpret_cast<void*>(device_addr); }
  static uint64_t addr(const void* p) { return reinterpret_cast<uint64_t>(p); }
  bool is_device(const void* p, uint64_t bytes = 1);  // inside a device allocation

  // Page-locked host memory (cudaMallocHost / cudaHostAlloc): ordinary host
  // memory here, remembered so that cudaFreeHost knows it.
  std::set<void*>& host_allocations() { return host_allocs_; }
  // Unified memory (cudaMallocManaged): host memory that is also device
  // memory at the same address (func::GlobalMemory::map_host).
  void* managed_malloc(uint64_t bytes);
  bool is_managed(const void* p) const { return managed_.count(addr(p)) != 0; }
  bool is_managed_range(const void* p) const;  // inside one such allocation
  // cudaMalloc's allocations (cudaDeviceReset frees them) and CUDA arrays.
  uint64_t device_malloc(uint64_t bytes);
  void device_free(uint64_t addr);  // throws CudaError for an address cudaMalloc did not return
  std::map<const void*, std::unique_ptr<DeviceArray>>& arrays() { return arrays_; }
  DeviceArray& array(const void* handle);  // throws CudaError (cudaErrorInvalidResourceHandle)

  // --- the end of the program: writes --stats/--csv, closes traces; after
  // an internal error, ends the process with exit status 6.
  void finish();
  // cudaDeviceReset: frees every allocation, keeps what was registered.
  void reset();

 private:
  RuntimeState();
  ~RuntimeState();
  void build_device();
  void write_outputs();  // --stats/--csv and traces
  void start_launch(KernelRecord& k, abi::dim3 grid, abi::dim3 block, void** args, uint64_t shared_bytes,
                    abi::cudaStream_t stream, bool cooperative);
  runtime::Module& load_for(FatbinRecord& f, const std::string& what);

  std::recursive_mutex mutex_;
  std::unique_ptr<tb::LibraryOptions> opts_;
  std::unique_ptr<tb::RunOutputs> outputs_;
  std::unique_ptr<runtime::Device> device_;
  ModuleRegistry registry_;
  StreamClock clock_;
  cudaError_t last_ = abi::cudaSuccess, sticky_ = abi::cudaSuccess;
  std::set<std::string> printed_;
  std::set<void*> host_allocs_;
  std::map<int, size_t> limits_;
  std::set<uint64_t> device_allocs_;
  struct Mapping {
    void* raw;
    uint64_t raw_bytes;
  };
  std::map<uint64_t, Mapping> managed_;  // unified allocations by address
  std::map<const void*, std::unique_ptr<DeviceArray>> arrays_;
  uint64_t launch_count_ = 0;
  uint64_t fail_launch_ = 0;  // SIMTLAB_TEST_FAIL_LAUNCH (0: none)
  // Launches the machine refused to run (the report's "refused_launches").
  struct Refusal {
    uint64_t launch;  // the number the launch has (or would have had, refused before it started)
    std::string kernel, reason;
  };
  std::vector<Refusal> refused_;
  bool finished_ = false;
  bool internal_error_ = false;
};

// The body of an entry point: holds the lock, refuses work after a sticky
// error, and turns what the model throws into the runtime's error codes.
template <class Body>
cudaError_t api_call(const char* name, Body body, bool refuse_when_sticky = true) {
  RuntimeState& rt = RuntimeState::get();
  std::lock_guard<std::recursive_mutex> g(rt.lock());
  if (refuse_when_sticky && rt.sticky_error() != abi::cudaSuccess) return rt.sticky_error();
  try {
    body(rt);
    return abi::cudaSuccess;
  } catch (const CudaError& e) {
    return rt.fail(e.code, e.message.empty() ? "" : std::string(name) + ": " + e.message);
  } catch (const Error& e) {
    return rt.fail(e, name);
  } catch (const std::bad_alloc&) {
    return rt.fail(abi::cudaErrorMemoryAllocation, std::string(name) + ": out of host memory");
  } catch (const std::exception& e) {
    return rt.internal_error(name, e.what());
  }
}

}  // namespace simt::cudart
