// A stand-in for a program built with `nvcc -cudart shared`: it needs
// libcudart.so.N (the fake of exec_fake_cudart.cpp), directly or through a
// library of its own (SIMT_FAKE_THROUGH_LIBRARY: exec_fake_mid.cpp), calls
// it, prints its arguments and exits 7, so a test sees all of them come through.
#include <cstdio>

#ifdef SIMT_FAKE_THROUGH_LIBRARY
extern "C" int fake_mid_device_count();
#else
extern "C" int cudaGetDeviceCount(int* count);
#endif

int main(int argc, char** argv) {
  int n = -1;
#ifdef SIMT_FAKE_THROUGH_LIBRARY
  n = fake_mid_device_count();
#else
  cudaGetDeviceCount(&n);
#endif
  std::printf("fake app: runtime %d", n);
  for (int i = 1; i < argc; ++i) std::printf(" [%s]", argv[i]);
  std::printf("\n");
  return 7;
}
