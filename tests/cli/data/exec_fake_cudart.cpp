// A stand-in for a CUDA runtime library (built as libcudart.so.12 and
// libcudart.so.13 for tests/cli/test_exec.cpp): one entry point that says
// which one answered.
extern "C" int cudaGetDeviceCount(int* count) {
  *count = SIMT_FAKE_CUDA;
  return 0;
}
