// Unit 2 of an -rdc program: defines twice() for rdc_r1.cu and kernel k2.
// nvcc -arch=sm_75 -rdc=true -keep rdc_r1.cu rdc_r2.cu (nvcc 13.0): rdc_r2.ptx
#include <cstdio>
__device__ int twice(int x){ return 2*x; }
__global__ void k2(int* a){ a[threadIdx.x]+=twice(1); }
void launch(int*);
int main(){ int* d; cudaMalloc(&d,128); launch(d); k2<<<1,32>>>(d); int h[32]; cudaMemcpy(h,d,128,cudaMemcpyDeviceToHost); printf("%d\n",h[3]); }
