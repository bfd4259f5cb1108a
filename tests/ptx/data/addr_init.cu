// A table of string pointers with a static initialiser: nvcc emits
// `.global .u64 names[2] = {generic($str), generic($str$1)}`.
// nvcc -arch=sm_75 -ptx -O3 addr_init.cu -o addr_init.ptx
__device__ const char* names[] = {"ab", "cde"};

__global__ void copy_names(char* out) {
  int k = 0;
  for (int i = 0; i < 2; ++i)
    for (const char* p = names[i]; *p; ++p) out[k++] = *p;
  out[k] = 0;
}
