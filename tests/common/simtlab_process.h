// For end-to-end tests: run the real `simtlab` binary of this build and
// capture what it prints and how it exits.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

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

// Runs `simtlab <args>`; stdout and stderr pass through the files `dir`/out
// and `dir`/err (overwritten by the next run in the same folder).
inline ProcessRun run_simtlab(const std::string& args, const std::filesystem::path& dir) {
  const std::string cmd = std::string(SIMT_BINARY_DIR "/simtlab ") + args + " >" + (dir / "out").string() +
                          " 2>" + (dir / "err").string();
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "out"), slurp(dir / "err")};
}

}  // namespace simt::test
