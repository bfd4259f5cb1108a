// Shared by the CUDA test programs of tests/cuda/: every check prints
// "PASS <name>" or "FAIL <name>: <why>" on stdout, and the program exits 0
// only when every check held. Plain CUDA runtime API, as on a real GPU.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cuda_runtime.h>

static int g_failed = 0;

// Records one check; `fmt` (printf-style) explains a failure.
static inline void check(bool ok, const char* name, const char* fmt = "", ...) {
  if (ok) {
    std::printf("PASS %s\n", name);
    return;
  }
  ++g_failed;
  std::printf("FAIL %s: ", name);
  va_list ap;
  va_start(ap, fmt);
  std::vprintf(fmt, ap);
  va_end(ap);
  std::printf("\n");
}

// The call returned `want` (cudaSuccess for a call that must work).
static inline bool expect_code(cudaError_t got, cudaError_t want, const char* name) {
  check(got == want, name, "returned %s (%d), expected %s (%d)", cudaGetErrorName(got), static_cast<int>(got),
        cudaGetErrorName(want), static_cast<int>(want));
  return got == want;
}

static inline bool expect_ok(cudaError_t got, const char* name) { return expect_code(got, cudaSuccess, name); }

// A kernel launch and its completion: the launch error, then the
// synchronisation's.
static inline bool expect_launch_ok(const char* name) {
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  const bool ok = launch == cudaSuccess && sync == cudaSuccess;
  check(ok, name, "launch %s, synchronize %s", cudaGetErrorName(launch), cudaGetErrorName(sync));
  return ok;
}

// Compares n values with the CPU's; reports the first difference.
template <typename T>
static inline bool expect_equal(const T* got, const T* want, int n, const char* name) {
  for (int i = 0; i < n; ++i) {
    if (!(got[i] == want[i])) {
      check(false, name, "element %d is %g, expected %g", i, static_cast<double>(got[i]),
            static_cast<double>(want[i]));
      return false;
    }
  }
  check(true, name);
  return true;
}

// After a kernel fault: the launch's completion and every later call that
// uses the device return the same error (a sticky error: the context is
// unusable until the process ends). `live` was allocated before the fault.
static inline void expect_sticky(cudaError_t want, void* live) {
  const cudaError_t launch = cudaGetLastError();  // a GPU may not know yet
  check(launch == cudaSuccess || launch == want, "fault_launch", "launch returned %s", cudaGetErrorName(launch));
  expect_code(cudaDeviceSynchronize(), want, "fault_synchronize");
  expect_code(cudaGetLastError(), want, "fault_get_last_error");
  expect_code(cudaGetLastError(), want, "fault_get_last_error_stays");
  expect_code(cudaPeekAtLastError(), want, "fault_peek_at_last_error");
  void* p = nullptr;
  expect_code(cudaMalloc(&p, 256), want, "fault_malloc_after");
  int h = 0;
  expect_code(cudaMemcpy(&h, live, sizeof h, cudaMemcpyDeviceToHost), want, "fault_memcpy_after");
  expect_code(cudaMemset(live, 0, sizeof h), want, "fault_memset_after");
  expect_code(cudaDeviceSynchronize(), want, "fault_synchronize_again");
}

static inline int finish() {
  if (g_failed) std::printf("%d check(s) failed\n", g_failed);
  std::fflush(stdout);
  return g_failed ? 1 : 0;
}
