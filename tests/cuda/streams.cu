// Streams and events: creation with and without flags, ordering across
// streams through cudaStreamWaitEvent, queries, host functions in stream
// order, and event timing ("INFO elapsed_ms=<x>": the test driver expects
// modelled time in timing mode and 0 in functional mode).
#include <vector>

#include "check.cuh"

__global__ void fill(int* a, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = k * i;
}

__global__ void twice_plus(const int* a, int* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = 2 * a[i] + 1;
}

// Some work per thread, so the timed kernel takes modelled time.
__global__ void churn(float* v, int n, int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = v[i];
  for (int r = 0; r < rounds; ++r) x = x * 0.5f + 1.0f;
  v[i] = x;
}

struct HostCall {
  const int* watched;  // page-locked memory a copy earlier in the stream filled
  int seen;
  int calls;
};

static void CUDART_CB on_host(void* user) {
  HostCall* c = static_cast<HostCall*>(user);
  c->seen = c->watched[5];
  ++c->calls;
}

int main() {
  const int n = 512;
  cudaStream_t s1, s2;
  expect_ok(cudaStreamCreate(&s1), "stream_create");
  expect_ok(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), "stream_create_with_flags");
  unsigned flags = 99;
  expect_ok(cudaStreamGetFlags(s2, &flags), "stream_get_flags");
  check(flags == cudaStreamNonBlocking, "stream_flags_kept", "flags %u", flags);
  int *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));

  // s2 waits for s1's kernel through an event.
  cudaEvent_t produced;
  expect_ok(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming), "event_create_with_flags");
  fill<<<n / 128, 128, 0, s1>>>(a, n, 3);
  expect_ok(cudaGetLastError(), "fill_on_s1_launch");
  expect_ok(cudaEventRecord(produced, s1), "event_record");
  expect_ok(cudaStreamWaitEvent(s2, produced, 0), "stream_wait_event");
  twice_plus<<<n / 128, 128, 0, s2>>>(a, b, n);
  expect_ok(cudaGetLastError(), "twice_plus_on_s2_launch");
  const cudaError_t q = cudaStreamQuery(s2);
  check(q == cudaSuccess || q == cudaErrorNotReady, "stream_query_while_busy", "%s", cudaGetErrorName(q));
  expect_ok(cudaStreamSynchronize(s2), "stream_synchronize");
  expect_ok(cudaStreamQuery(s2), "stream_query_after_synchronize");
  expect_ok(cudaEventQuery(produced), "event_query_after_synchronize");
  std::vector<int> got(n), want(n);
  cudaMemcpy(got.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) want[i] = 6 * i + 1;
  expect_equal(got.data(), want.data(), n, "cross_stream_result");

  // A host function runs after the stream's earlier work (here a copy).
  int* pinned = nullptr;
  cudaMallocHost(&pinned, n * sizeof(int));
  HostCall call{pinned, -1, 0};
  fill<<<n / 128, 128, 0, s1>>>(a, n, 11);
  cudaMemcpyAsync(pinned, a, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
  expect_ok(cudaLaunchHostFunc(s1, on_host, &call), "launch_host_func");
  expect_ok(cudaStreamSynchronize(s1), "stream_synchronize_host_func");
  check(call.calls == 1 && call.seen == 55, "host_func_in_stream_order", "calls %d, saw %d, expected 55",
        call.calls, call.seen);

  // Event timing around one kernel.
  cudaEvent_t start, stop;
  expect_ok(cudaEventCreate(&start), "event_create_start");
  expect_ok(cudaEventCreate(&stop), "event_create_stop");
  float* v = nullptr;
  cudaMalloc(&v, n * sizeof(float));
  cudaMemset(v, 0, n * sizeof(float));
  expect_ok(cudaEventRecord(start, s1), "event_record_start");
  churn<<<n / 128, 128, 0, s1>>>(v, n, 64);
  expect_ok(cudaEventRecord(stop, s1), "event_record_stop");
  expect_ok(cudaEventSynchronize(stop), "event_synchronize");
  expect_ok(cudaGetLastError(), "churn_launch");
  float ms = -1.0f;
  expect_ok(cudaEventElapsedTime(&ms, start, stop), "event_elapsed_time");
  std::printf("INFO elapsed_ms=%.9g\n", ms);
  check(ms >= 0.0f, "elapsed_not_negative", "%g ms", ms);
  std::vector<float> vf(n);
  cudaMemcpy(vf.data(), v, n * sizeof(float), cudaMemcpyDeviceToHost);
  float x = 0.0f;
  for (int r = 0; r < 64; ++r) x = x * 0.5f + 1.0f;
  std::vector<float> want_v(n, x);
  expect_equal(vf.data(), want_v.data(), n, "churn_result");
  // The recorded order: the stop event cannot come before the start event.
  float back = 1.0f;
  expect_ok(cudaEventElapsedTime(&back, stop, start), "event_elapsed_reverse");
  check(back <= 0.0f && back == -ms, "elapsed_reverse_negates", "%g ms against %g ms", back, ms);

  // What the documentation says ElapsedTime answers for events that cannot time.
  float unused = 0.0f;
  expect_code(cudaEventElapsedTime(&unused, start, produced), cudaErrorInvalidResourceHandle,
              "elapsed_with_disable_timing_event");
  cudaEvent_t never;
  cudaEventCreate(&never);
  expect_code(cudaEventElapsedTime(&unused, start, never), cudaErrorInvalidResourceHandle,
              "elapsed_with_unrecorded_event");
  cudaGetLastError();

  // The legacy default stream.
  fill<<<n / 128, 128>>>(a, n, 1);
  expect_ok(cudaStreamSynchronize(0), "default_stream_synchronize");
  cudaMemcpy(got.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) want[i] = i;
  expect_equal(got.data(), want.data(), n, "default_stream_result");

  expect_ok(cudaEventDestroy(start), "event_destroy_start");
  expect_ok(cudaEventDestroy(stop), "event_destroy_stop");
  expect_ok(cudaEventDestroy(produced), "event_destroy_produced");
  expect_ok(cudaEventDestroy(never), "event_destroy_never");
  expect_ok(cudaStreamDestroy(s1), "stream_destroy_s1");
  expect_ok(cudaStreamDestroy(s2), "stream_destroy_s2");
  cudaFreeHost(pinned);
  cudaFree(a);
  cudaFree(b);
  cudaFree(v);
  return finish();
}
