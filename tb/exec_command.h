// `simtlab exec [run options] [--launches A-B,C] -- PROGRAM [ARGS...]`: runs
// a CUDA application built with `nvcc -cudart shared` on simtlab. The
// options are checked here (exit 2 before the program starts, as `simtlab
// run` checks them), then simtlab replaces itself with the program
// (execvp), which finds simtlab's libcudart.so.13 first:
//   SIMTLAB_ARGV     the option tokens as a JSON array of strings (the
//                    library parses them with tb::parse_library_options);
//   LD_PRELOAD       <libdir>/libcudart.so.13 before any value it had;
//   LD_LIBRARY_PATH  <libdir> before any value it had.
// The program's stdout, stderr and exit code are its own.
#pragma once

#include <string>
#include <vector>

#include "run_options.h"

namespace CLI { class App; }

namespace simt::tb {

inline constexpr const char* kCudartName = "libcudart.so.13";

// The folder of simtlab's libcudart.so.13: $SIMTLAB_CUDART_DIR if set,
// else beside this simtlab: <dir>/lib/simtlab in the build tree,
// <dir>/../<libdir>/simtlab when installed. Absolute. Throws BadInput
// naming where it looked when the library is not there.
std::string cudart_dir();

// PROGRAM as execvp finds it: as given when it holds a '/', else the first
// executable file of that name in the folders of PATH. Throws BadInput
// naming it when there is none.
std::string find_program(const std::string& program);

// Why the program at `path` (given as `name`) would not run on simtlab's
// runtime, in one line ("" when it would, or when it is not an ELF
// program: a script runs as it is, and the programs it starts inherit the
// preload). Throws BadInput for a malformed ELF file.
std::string cuda_runtime_problem(const std::string& name, const std::string& path);

// The whole command after CLI11 parsed `cmd` into `o` and `m`: `tokens` are
// the option tokens as given (before "--"), `program` the words after it.
// Returns only by throwing simt::Error.
[[noreturn]] void exec_command(const CLI::App& cmd, const RunOptions& o, Machine& m,
                               const std::vector<std::string>& tokens, const std::vector<std::string>& program);

}  // namespace simt::tb
