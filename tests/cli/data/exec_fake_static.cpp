// A stand-in for a program built with nvcc's default, the static CUDA
// runtime: it defines one of the runtime's own symbols itself.
extern "C" void** __cudaRegisterFatBinary(void* fatbin) { return static_cast<void**>(fatbin); }

int main() { return __cudaRegisterFatBinary(nullptr) ? 1 : 0; }
