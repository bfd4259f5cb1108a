// Unit 1 of an -rdc program: kernel k calls twice(), which rdc_r2.cu defines.
// nvcc -arch=sm_75 -rdc=true -keep rdc_r1.cu rdc_r2.cu (nvcc 13.0): rdc_r1.ptx
extern __device__ int twice(int);
__global__ void k(int* a){ a[threadIdx.x]=twice(threadIdx.x); }
void launch(int* a){ k<<<1,32>>>(a); }
