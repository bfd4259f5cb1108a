// Indirect calls and recursion, for tests/runtime/test_calls.cpp.
// Regenerate: nvcc -arch=sm_75 -ptx calls_kernel.cu -o calls_kernel.ptx
typedef float (*op_t)(float, float);
__device__ __noinline__ float op_add(float a, float b) { return a + b; }
__device__ __noinline__ float op_mul(float a, float b) { return a * b; }
__device__ __noinline__ float op_max(float a, float b) { return a > b ? a : b; }
__device__ op_t ops[3] = {op_add, op_mul, op_max};

// A table of function pointers: neighbouring threads call different functions.
extern "C" __global__ void apply(const float* a, const float* b, float* out, const int* which, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = ops[which[i] % 3](a[i], b[i]);
}

// A pointer chosen in the kernel (mov of a function's address).
extern "C" __global__ void pick(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  op_t f = (i & 1) ? op_add : op_mul;
  if (i < n) out[i] = f(a[i], b[i]);
}

// Recursion through the same call site, twice per level.
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

// A frame in local memory (indexed by a run-time value) that must survive the
// recursive call.
__device__ __noinline__ int walk(int d, int* trace) {
  int local[8];
  for (int k = 0; k < 8; ++k) local[k] = d * 100 + k;
  int s = d > 0 ? walk(d - 1, trace) : 0;
  s += local[(d * 3) & 7];
  trace[d] = s;
  return s;
}

// Mutual recursion.
__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

extern "C" __global__ void recurse(const int* in, int* out, int* trace, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = in[i];
    out[i] = fib(v % 16) + walk(v % 8, trace + 8 * i) + (is_even(v) ? 1000 : 0);
  }
}

// Recursion as deep as the caller asks: overflows a small call stack. The
// store after the call keeps nvcc from turning it into a loop.
__device__ __noinline__ int depth(int d, volatile int* sink) {
  if (d == 0) return 0;
  const int r = 1 + depth(d - 1, sink);
  *sink = r;
  return r;
}
extern "C" __global__ void deep(int* out, int d) { out[threadIdx.x] = depth(d, out + 32 + threadIdx.x); }
