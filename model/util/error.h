// The one exception type the model throws for anything a user can cause,
// and the exit codes the command line maps it to. Every code has one
// meaning; docs/exit-codes.md lists them for users.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace simt {

enum class ExitCode : int {
  Ok = 0,
  Failure = 1,        // a workload ran but its results failed verification
  BadInput = 2,       // PTX, config, manifest, option, or an output path that cannot be written
  KernelFault = 3,    // the kernel misbehaved: bad address, barrier deadlock, trap, runaway limit
  OutputError = 4,    // writing a result failed after the run had started (disk full, I/O error)
  HostResources = 5,  // the host cannot hold what the run needs (out of host memory)
  Internal = 6,       // a bug in simtlab: please report it
  Interrupted = 130,  // SIGINT/SIGTERM: stopped by the user, partial outputs removed
};

// What kind of fault a thread's instruction caused: the CUDA runtime library
// (cudart/) answers each with the error a GPU gives (cudaErrorIllegalAddress,
// cudaErrorMisalignedAddress, cudaErrorAssert, cudaErrorLaunchFailure).
enum class FaultKind : uint8_t { Other, IllegalAddress, Misaligned, Trap, Assert };

// Where a kernel fault happened, when one thread's instruction caused it:
// the numbers behind the message (a virtual platform's fault registers).
struct FaultSite {
  FaultKind kind = FaultKind::Other;
  uint32_t cta[3] = {0, 0, 0};
  uint32_t thread[3] = {0, 0, 0};
  uint32_t pc = 0;
  uint64_t addr = 0;
  bool has_addr = false;
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  ExitCode code() const { return code_; }
  // The fault's place, when a thread's instruction caused it (else null).
  const FaultSite* site() const { return site_.get(); }
  Error& at(const FaultSite& s) {
    site_ = std::make_shared<const FaultSite>(s);
    return *this;
  }

 private:
  ExitCode code_;
  std::shared_ptr<const FaultSite> site_;
};

// Bad input: malformed PTX, unknown kernel, bad manifest or option value.
inline Error input_error(const std::string& what) { return Error(ExitCode::BadInput, what); }
// The kernel did something a GPU would fault or hang on.
inline Error kernel_fault(const std::string& what) { return Error(ExitCode::KernelFault, what); }
// Writing an output failed while or after the run (the path itself was checked before).
inline Error output_error(const std::string& what) { return Error(ExitCode::OutputError, what); }
// The host machine cannot provide what the run needs.
inline Error resource_error(const std::string& what) { return Error(ExitCode::HostResources, what); }
// A broken invariant inside simtlab, not the user's fault.
inline Error internal_error(const std::string& what) { return Error(ExitCode::Internal, what); }

}  // namespace simt
