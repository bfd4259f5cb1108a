// A stand-in for a program built with `nvcc -cudart shared`: it needs
// libcudart.so.N (the fake of exec_fake_cudart.cpp), calls it, prints its
// arguments and exits 7, so a test sees all of them come through.
#include <cstdio>

extern "C" int cudaGetDeviceCount(int* count);

int main(int argc, char** argv) {
  int n = -1;
  cudaGetDeviceCount(&n);
  std::printf("fake app: runtime %d", n);
  for (int i = 1; i < argc; ++i) std::printf(" [%s]", argv[i]);
  std::printf("\n");
  return 7;
}
