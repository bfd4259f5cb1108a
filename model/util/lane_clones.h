// SIMT_LANE_LOOP marks a function whose work is one loop over a warp's or
// CTA's threads (the functional kernels of func/fast_path.cpp and
// func/fast_memory.cpp). Where the build allows it (x86-64, a compiler that
// takes target_clones with flatten, as GCC does; no sanitizer: CMake then
// defines SIMT_TARGET_CLONES), such a function is compiled twice, for AVX2
// and for the base x86-64 ISA, and the loader picks the one this CPU runs
// (function multiversioning): four 64-bit register lanes a vector
// instruction instead of two, with one binary for every x86-64 machine.
// flatten compiles the helpers the function calls into each version.
// Elsewhere it is a plain function.
#pragma once

#if defined(SIMT_TARGET_CLONES)
#define SIMT_LANE_LOOP [[gnu::flatten, gnu::target_clones("avx2", "default")]]
#else
#define SIMT_LANE_LOOP
#endif
