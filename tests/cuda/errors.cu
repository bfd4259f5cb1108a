// Errors that are not sticky: the last-error state (GetLastError resets
// it, PeekAtLastError does not), names and descriptions, launches that
// cannot start, bad frees and copies. Afterwards the device still works.
#include <cstring>
#include <vector>

#include "check.cuh"

__global__ void inc(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

__global__ void with_shared(int* v) {
  extern __shared__ int pool[];
  pool[threadIdx.x] = threadIdx.x;
  __syncthreads();
  v[threadIdx.x] = pool[threadIdx.x];
}

static void names() {
  check(std::strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") == 0, "name_success");
  check(std::strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") == 0, "name_invalid_value");
  check(std::strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress") == 0,
        "name_illegal_address");
  check(std::strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration") == 0,
        "name_invalid_configuration");
  check(std::strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0, "string_success", "\"%s\"",
        cudaGetErrorString(cudaSuccess));
  check(std::strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0, "string_invalid_value",
        "\"%s\"", cudaGetErrorString(cudaErrorInvalidValue));
  check(std::strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory") == 0,
        "string_memory_allocation", "\"%s\"", cudaGetErrorString(cudaErrorMemoryAllocation));
  const char* misaligned = cudaGetErrorString(cudaErrorMisalignedAddress);
  check(misaligned && std::strlen(misaligned) > 0, "string_misaligned_not_empty");
  const char* unknown = cudaGetErrorName(static_cast<cudaError_t>(123456));
  check(unknown != nullptr && std::strlen(unknown) > 0, "name_of_unknown_code");
}

int main() {
  expect_ok(cudaGetLastError(), "no_error_at_start");
  expect_ok(cudaPeekAtLastError(), "peek_no_error_at_start");
  names();

  const int n = 64;
  int* v = nullptr;
  expect_ok(cudaMalloc(&v, n * sizeof(int)), "malloc");
  cudaMemset(v, 0, n * sizeof(int));

  // A block larger than any GPU allows.
  inc<<<1, 2048>>>(v, n);
  expect_code(cudaPeekAtLastError(), cudaErrorInvalidConfiguration, "too_many_threads_peek");
  expect_code(cudaPeekAtLastError(), cudaErrorInvalidConfiguration, "peek_does_not_reset");
  expect_code(cudaGetLastError(), cudaErrorInvalidConfiguration, "too_many_threads_get");
  expect_ok(cudaGetLastError(), "get_resets");
  // An empty grid, and a block dimension beyond maxThreadsDim.z (64).
  inc<<<0, 32>>>(v, n);
  expect_code(cudaGetLastError(), cudaErrorInvalidConfiguration, "empty_grid");
  inc<<<1, dim3(1, 1, 65)>>>(v, n);
  expect_code(cudaGetLastError(), cudaErrorInvalidConfiguration, "block_z_too_large");
  // More dynamic shared memory than a block can have, even opted in.
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  cudaGetDeviceProperties(&p, 0);
  with_shared<<<1, 32, p.sharedMemPerBlockOptin + 4096>>>(v);
  expect_code(cudaGetLastError(), cudaErrorInvalidValue, "too_much_dynamic_shared");
  // The default limit without the opt-in (48 KiB on GPUs that allow more).
  if (p.sharedMemPerBlockOptin > p.sharedMemPerBlock) {
    with_shared<<<1, 32, p.sharedMemPerBlock + 1024>>>(v);
    expect_code(cudaGetLastError(), cudaErrorInvalidValue, "shared_beyond_default_without_opt_in");
  }
  // None of these ran: the buffer is still zero.
  std::vector<int> got(n, -1), zeros(n, 0);
  cudaMemcpy(got.data(), v, n * sizeof(int), cudaMemcpyDeviceToHost);
  expect_equal(got.data(), zeros.data(), n, "failed_launches_did_not_run");

  // Frees of what cudaMalloc did not return.
  int on_stack = 0;
  expect_code(cudaFree(&on_stack), cudaErrorInvalidValue, "free_host_pointer");
  expect_code(cudaGetLastError(), cudaErrorInvalidValue, "free_host_pointer_last_error");
  expect_code(cudaFree(v + 3), cudaErrorInvalidValue, "free_interior_pointer");
  cudaGetLastError();

  // Copies from and to device addresses that were never allocated.
  int host[4] = {};
  char* far = reinterpret_cast<char*>(v) + (size_t{1} << 36);
  expect_code(cudaMemcpy(host, far, sizeof host, cudaMemcpyDeviceToHost), cudaErrorInvalidValue,
              "memcpy_from_bad_device_pointer");
  cudaGetLastError();
  expect_code(cudaMemcpy(far, host, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue,
              "memcpy_to_bad_device_pointer");
  cudaGetLastError();
  expect_code(cudaMemcpy(host, v, sizeof host, static_cast<cudaMemcpyKind>(17)), cudaErrorInvalidMemcpyDirection,
              "memcpy_bad_kind");
  cudaGetLastError();

  // Resources that cannot be had.
  void* huge = nullptr;
  expect_code(cudaMalloc(&huge, size_t{1} << 50), cudaErrorMemoryAllocation, "malloc_too_large");
  cudaGetLastError();
  int count = 0;
  cudaGetDeviceCount(&count);
  expect_code(cudaSetDevice(count), cudaErrorInvalidDevice, "set_missing_device");
  cudaGetLastError();
  expect_code(cudaMemcpyToSymbol(host, host, sizeof host), cudaErrorInvalidSymbol, "copy_to_unknown_symbol");
  cudaGetLastError();

  // None of that was sticky: the device works.
  inc<<<1, n>>>(v, n);
  expect_launch_ok("good_launch_after_errors");
  std::vector<int> ones(n, 1);
  expect_ok(cudaMemcpy(got.data(), v, n * sizeof(int), cudaMemcpyDeviceToHost), "memcpy_after_errors");
  expect_equal(got.data(), ones.data(), n, "good_launch_result");
  expect_ok(cudaGetLastError(), "no_error_at_end");
  expect_ok(cudaFree(v), "free");
  return finish();
}
