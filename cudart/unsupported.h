#pragma once
// The answer of every runtime entry point simtlab does not model.

namespace simt::cudart {

// Called by an entry point that simtlab does not implement, with its name.
// Prints "simtlab: <name> is not supported (cudaErrorNotSupported)" on stderr
// the first time each name is seen in the process (later calls are silent, so
// a loop over an unsupported call does not flood the program's output) and
// returns the error code the entry point must return (cudaErrorNotSupported).
// Thread-safe.
int unsupported_call(const char* name);

}  // namespace simt::cudart
