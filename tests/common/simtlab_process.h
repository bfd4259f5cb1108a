// For end-to-end tests: run the real `simtlab` binary of this build and
// capture what it prints and how it exits.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace simt::test {

struct ProcessRun {
  int code;         // exit code, -1 if it did not exit normally
  std::string out;  // stdout
  std::string err;  // stderr
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Runs the shell command `cmd`; its stdout and stderr pass through the
// files `dir`/out and `dir`/err (overwritten by the next run in the same folder).
inline ProcessRun run_command(const std::string& cmd, const std::filesystem::path& dir) {
  const int status = std::system((cmd + " >" + (dir / "out").string() + " 2>" + (dir / "err").string()).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "out"), slurp(dir / "err")};
}

// Runs `<program> <args>` (a program of this build, e.g. "simtlab" or
// "vp_example"), as run_command.
inline ProcessRun run_built(const std::string& program, const std::string& args, const std::filesystem::path& dir) {
  return run_command("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " SIMT_BINARY_DIR "/" + program + " " + args, dir);
}

// Runs the script tools/<tool> of this source tree with `args`, as run_command.
inline ProcessRun run_tool(const std::string& tool, const std::string& args, const std::filesystem::path& dir) {
  return run_command("/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/" + tool + " " + args, dir);
}

inline ProcessRun run_simtlab(const std::string& args, const std::filesystem::path& dir) {
  return run_built("simtlab", args, dir);
}

// An empty folder <tmp>/simtlab_<suite>_<name>_<pid> (emptied if it was there).
inline std::filesystem::path fresh_scratch(const std::string& suite, const std::string& name) {
  std::filesystem::path d =
      std::filesystem::temp_directory_path() / ("simtlab_" + suite + "_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

// run_simtlab() in a folder of its own, removed afterwards.
inline ProcessRun run_simtlab_once(const std::string& args, const std::string& suite) {
  const std::filesystem::path d = fresh_scratch(suite, "io");
  ProcessRun r = run_simtlab(args, d);
  std::filesystem::remove_all(d);
  return r;
}

}  // namespace simt::test
