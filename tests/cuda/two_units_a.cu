// Two translation units without -rdc: each has its own fatbin, registered
// separately; a kernel of each runs, and each unit's __device__ variable of
// the same name is its own.
#include "check.cuh"

static __device__ int unit_value = 100;  // static: each unit has its own (host shadows too)

__global__ void from_a(int* out) { out[threadIdx.x] = unit_value + threadIdx.x; }

void run_a(int* out) { from_a<<<1, 8>>>(out); }
