// The run options of simtlab's CUDA runtime library (libcudart.so.13).
// `simtlab exec [run options] -- PROGRAM` passes its option tokens to the
// program's library as SIMTLAB_ARGV, a JSON array of strings; a program run
// without the launcher may set one variable per option instead
// (SIMTLAB_MODE=functional, SIMTLAB_CONFIG=a.toml,b.toml, ...; docs/cli.md).
// Both are parsed by the option definitions of `simtlab run`
// (tb/run_options.h), so an option means the same everywhere.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "launch_set.h"
#include "run_options.h"

namespace CLI { class App; }

namespace simt::tb {

struct LibraryOptions {
  RunOptions run;
  std::shared_ptr<Machine> machine;  // loaded: config files, --set and flags applied
  LaunchSet launches;                // run.launches, parsed
};

// Parses option tokens exactly as `simtlab exec` received them and makes
// the checks `simtlab run` makes before it simulates (except those of the
// output files, which RunOutputs makes when it is created). Throws
// simt::Error(BadInput) with a one-line reason; --help is BadInput too.
LibraryOptions parse_library_options(const std::vector<std::string>& tokens);

// The checks of parse_library_options() after `cmd` (made with
// add_run_options and add_exec_options) parsed into `o` and `m`;
// `simtlab exec` makes them on its own command line. Loads the machine.
LaunchSet check_library_options(const CLI::App& cmd, const RunOptions& o, Machine& m);

// The option tokens of this process's environment: SIMTLAB_ARGV (a JSON
// array of strings) if set; else one or two tokens per SIMTLAB_<OPTION>
// variable that is set and not empty (library_option_variables()), in
// that order. Throws BadInput naming the variable when one is malformed.
std::vector<std::string> tokens_from_environment();

// The variables tokens_from_environment() reads besides SIMTLAB_ARGV.
struct OptionVariable {
  const char* variable;  // "SIMTLAB_MODE"
  const char* option;    // "--mode"
  enum Kind { Value, List, Flag } kind;  // List: comma-separated, one option per item
};
const std::vector<OptionVariable>& library_option_variables();

}  // namespace simt::tb
