// Device-side malloc/free, for tests/e2e/test_device_malloc.cpp.
// Regenerate: nvcc -arch=sm_75 -ptx device_malloc.cu -o device_malloc.ptx

// Each thread allocates n ints, writes them, reads them back and frees the
// block: out[i] is the sum, -1 when malloc returned NULL, -2 for a block
// that is not 16-byte aligned.
extern "C" __global__ void round_trip(int* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int* p = static_cast<int*>(malloc(n * sizeof(int)));
  if (!p) {
    out[i] = -1;
    return;
  }
  for (unsigned k = 0; k < n; ++k) p[k] = static_cast<int>(i * 1000 + k);
  int sum = 0;
  for (unsigned k = 0; k < n; ++k) sum += p[k];
  out[i] = (reinterpret_cast<unsigned long long>(p) & 15) ? -2 : sum;
  free(p);
}

// Each thread keeps a block of `bytes` for a later launch: its address in
// ptrs[i] (0 when the heap is exhausted) and the thread's index in its first int.
extern "C" __global__ void keep(unsigned long long* ptrs, unsigned long long bytes) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int* p = static_cast<int*>(malloc(bytes));
  ptrs[i] = reinterpret_cast<unsigned long long>(p);
  if (p) p[0] = static_cast<int>(i) * 7 + 3;
}

// Reads what keep() stored and frees the blocks (free(NULL) for the threads
// that got none): out[i] is the stored int, or -1.
extern "C" __global__ void release(const unsigned long long* ptrs, int* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int* p = reinterpret_cast<int*>(ptrs[i]);
  out[i] = p ? p[0] : -1;
  free(p);
}

// Thread `who` frees p + 4 bytes: not a block malloc returned.
extern "C" __global__ void bad_free(const unsigned long long* ptrs, unsigned who) {
  if (threadIdx.x == who) free(reinterpret_cast<char*>(ptrs[0]) + 4);
}
