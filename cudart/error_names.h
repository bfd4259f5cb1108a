#pragma once
// Names and descriptions of the runtime's error codes, for cudaGetErrorName,
// cudaGetErrorString and simtlab's own messages.

namespace simt::cudart {

// The enumerator's spelling ("cudaErrorMemoryAllocation") of a cudaError_t
// value; "unrecognized error code" for a value that is none of them, as
// CUDA's cudaGetErrorName answers. The text has static storage.
const char* error_name(int code);

// A one-line description of the code in simtlab's words; "unrecognized error
// code" for an unknown value, as cudaGetErrorString answers.
const char* error_string(int code);

}  // namespace simt::cudart
