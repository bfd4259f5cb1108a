// A program's own shared library that uses the CUDA runtime (the fake
// libcudart.so.13), so the program needs the runtime only through it.
extern "C" int cudaGetDeviceCount(int* count);

extern "C" int fake_mid_device_count() {
  int n = -1;
  cudaGetDeviceCount(&n);
  return n;
}
