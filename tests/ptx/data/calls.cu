#include <cassert>
#include <cstdio>
struct S { int a; double b; float c[3]; };
__device__ __noinline__ float helper(float x, int n) { float s = 0; for (int i = 0; i < n; ++i) s += x * i; return s; }
__device__ __noinline__ S mk(int a) { S s; s.a = a; s.b = a * 2.0; s.c[0]=1; s.c[1]=2; s.c[2]=a; return s; }
__constant__ float coef[8] = {1.0f, 2.5f, -3.0f};
__device__ int counter = 5;
__device__ unsigned char bytes[4] = {1,2,3,4};
__device__ double dd[2] = {1.5, 2.25};
extern __shared__ float dyn[];
__global__ void kern(float* out, const int* in, int n, S byval) {
  __shared__ int tile[64];
  int local[16];
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  for (int i = 0; i < 16; ++i) local[i] = in[(t + i) % n];
  tile[threadIdx.x % 64] = local[in[t] & 15];
  dyn[threadIdx.x] = t;
  __syncthreads();
  S s = mk(t);
  float r = helper((float)tile[(threadIdx.x + 1) % 64] + dyn[0], n) + coef[t & 7] + s.c[2] + byval.b;
  if (t == 0) printf("hello %d %f\n", t, (double)r);
  double d = (double)r * dd[t&1] / 3.0;
  atomicAdd(&counter, 1);
  out[t] = (float)sqrt(d) + __shfl_down_sync(0xffffffff, r, 1) + __popc(__ballot_sync(0xffffffff, r > 0)) + bytes[t&3];
  assert(t < 1000000);
}
