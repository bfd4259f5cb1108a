// What a CUDA program registers with the runtime before main(): its fatbins
// (__cudaRegisterFatBinary), kernels (__cudaRegisterFunction) and device
// variables (__cudaRegisterVar), each known to the program by the address
// of its host-side stub or shadow variable. The PTX of a fatbin is parsed
// and loaded into the device only when the program first uses one of its
// kernels or variables, so that start-up stays short for a program with
// many kernels it never launches (as CUDA's lazy loading does).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace simt::cudart {

struct FatbinRecord;

struct KernelRecord {
  FatbinRecord* fatbin = nullptr;
  std::string name;            // the mangled .entry name
  const void* host_fun = nullptr;
};

struct VarRecord {
  FatbinRecord* fatbin = nullptr;
  std::string name;            // the PTX name of the .global/.const variable
  const void* host_var = nullptr;
  uint64_t size = 0;
  bool constant = false;
  void** managed_ptr = nullptr;  // __managed__: the host pointer the runtime sets
};

struct FatbinRecord {
  const void* wrapper = nullptr;
  std::string where;           // "fatbin #2" (for messages)
  std::vector<std::string> ptx;  // one text per translation unit (several for -rdc)
  uint32_t arch = 0;           // the .target of the chosen PTX (75 for sm_75), 0 when unknown
  std::string error;           // why this fatbin cannot run (set at registration or first load)
  runtime::Module* module = nullptr;  // loaded on first use
  bool unregistered = false;
};

class ModuleRegistry {
 public:
  // Reads the wrapper's PTX now (cheap), parses it later. A fatbin that
  // cannot be read is still registered, with its error kept for first use.
  FatbinRecord& add_fatbin(const void* wrapper);
  FatbinRecord* fatbin(void** handle);
  void add_kernel(void** handle, const void* host_fun, const char* device_name);
  void add_var(void** handle, const void* host_var, const char* device_name, uint64_t size, bool constant,
               void** managed_ptr);

  KernelRecord* kernel(const void* host_fun);           // null: never registered
  VarRecord* var(const void* host_var);                 // null: never registered
  const std::vector<std::unique_ptr<KernelRecord>>& kernels() const { return kernels_; }
  std::vector<VarRecord*> managed_vars();

  // The loaded module of `f` (parsed, merged for -rdc, loaded into `dev`
  // on first call). Throws simt::Error(BadInput) with the fatbin's error.
  runtime::Module& load(FatbinRecord& f, runtime::Device& dev);
  // The highest .target among registered fatbins (compute capability), 0 if none.
  uint32_t max_arch() const;
  size_t fatbin_count() const { return fatbins_.size(); }

  // Handles are stable addresses the program keeps and passes back.
  static void** handle_of(FatbinRecord& f) { return reinterpret_cast<void**>(&f); }

 private:
  std::vector<std::unique_ptr<FatbinRecord>> fatbins_;
  std::vector<std::unique_ptr<KernelRecord>> kernels_;
  std::vector<std::unique_ptr<VarRecord>> vars_;
  std::map<const void*, KernelRecord*> by_host_fun_;
  std::map<const void*, VarRecord*> by_host_var_;
};

}  // namespace simt::cudart
