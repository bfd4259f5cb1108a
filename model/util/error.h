// The one exception type the model throws for anything a user can cause.
// The command line maps it to an exit code: 2 = bad input (PTX, config,
// manifest, option), 3 = the kernel misbehaved at run time (bad address,
// barrier deadlock, trap).
#pragma once

#include <stdexcept>
#include <string>

namespace simt {

enum class ExitCode : int { Ok = 0, Failure = 1, BadInput = 2, KernelFault = 3 };

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// Bad input: malformed PTX, unknown kernel, bad manifest or option value.
inline Error input_error(const std::string& what) { return Error(ExitCode::BadInput, what); }
// The kernel did something a GPU would fault or hang on.
inline Error kernel_fault(const std::string& what) { return Error(ExitCode::KernelFault, what); }

}  // namespace simt
