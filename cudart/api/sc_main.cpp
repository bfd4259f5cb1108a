// libsystemc refers to the program's sc_main and is bound immediately at load
// (BIND_NOW), so a library that links SystemC must define it, visibly: the
// version script exports it under a node of its own (SIMTLAB_SYSTEMC), apart
// from CUDA's entry points. The library starts the simulation itself
// (sc_start); SystemC's own main, the only caller of sc_main, never runs.
#include <cstdio>

extern "C" int sc_main(int, char**) {
  std::fprintf(stderr, "simtlab: internal error: SystemC called sc_main inside libcudart.so.13\n");
  return 6;  // ExitCode::Internal (docs/exit-codes.md)
}
