#include "exec_command.h"

#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>

#include "elf_deps.h"
#include "library_options.h"
#include "run_outputs.h"
#include "util/error.h"

// Where an installed simtlab finds its library, relative to its own folder
// (CMake passes ../<CMAKE_INSTALL_LIBDIR>/simtlab).
#ifndef SIMT_CUDART_INSTALL_REL
#define SIMT_CUDART_INSTALL_REL "../lib/simtlab"
#endif

namespace simt::tb {

namespace fs = std::filesystem;

namespace {

bool is_regular_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// ld.so splits LD_PRELOAD at spaces and colons, LD_LIBRARY_PATH at colons
// and semicolons: a folder holding one cannot be passed.
void refuse_unpassable(const std::string& dir) {
  if (dir.find_first_of(" :;\t\n") != std::string::npos)
    throw input_error("the folder of " + std::string(kCudartName) + ", " + dir +
                      ", holds a space, ':' or ';', which LD_PRELOAD cannot carry; copy the library to another "
                      "folder and set SIMTLAB_CUDART_DIR to it");
}

void prepend(const char* variable, const std::string& value) {
  const char* old = std::getenv(variable);
  const std::string text = old && *old ? value + ":" + old : value;
  if (::setenv(variable, text.c_str(), 1) != 0) throw Error(ExitCode::HostResources, std::string("setenv ") + variable);
}

}  // namespace

std::string cudart_dir() {
  if (const char* env = std::getenv("SIMTLAB_CUDART_DIR"); env && *env) {
    const std::string dir = fs::absolute(env).lexically_normal().string();
    if (!is_regular_file(dir + "/" + kCudartName))
      throw input_error("SIMTLAB_CUDART_DIR=" + std::string(env) + ": there is no " + kCudartName + " in " + dir);
    return dir;
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw input_error(std::string("cannot find simtlab's own folder (/proc/self/exe: ") + ec.message() +
                            "); set SIMTLAB_CUDART_DIR to the folder of " + kCudartName);
  const std::string build = (exe.parent_path() / "lib/simtlab").lexically_normal().string();
  const std::string installed = (exe.parent_path() / SIMT_CUDART_INSTALL_REL).lexically_normal().string();
  for (const std::string& dir : {build, installed})
    if (is_regular_file(dir + "/" + kCudartName)) return dir;
  throw input_error(std::string("simtlab's CUDA runtime ") + kCudartName + " is not in " + build + " nor in " +
                    installed + " (build it with simtlab, or set SIMTLAB_CUDART_DIR to its folder)");
}

std::string find_program(const std::string& program) {
  if (program.empty()) throw input_error("exec: the program name is empty");
  if (program.find('/') != std::string::npos) {
    struct stat st {};
    if (::stat(program.c_str(), &st) != 0) throw input_error(program + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw input_error(program + ": is a folder, not a program");
    if (::access(program.c_str(), X_OK) != 0) throw input_error(program + ": not executable (" + std::strerror(errno) + ")");
    return program;
  }
  // As execvp: PATH's folders in order, an empty one meaning the current
  // folder; without PATH, the system's default.
  std::string path;
  if (const char* env = std::getenv("PATH")) {
    path = env;
  } else {
    const size_t n = ::confstr(_CS_PATH, nullptr, 0);
    path.assign(n ? n - 1 : 0, '\0');
    if (n) ::confstr(_CS_PATH, &path[0], n);
  }
  std::string not_executable;
  size_t start = 0;
  while (start <= path.size()) {
    size_t colon = path.find(':', start);
    if (colon == std::string::npos) colon = path.size();
    const std::string dir = colon == start ? "." : path.substr(start, colon - start);
    const std::string candidate = dir + "/" + program;
    if (is_regular_file(candidate)) {
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
      if (not_executable.empty()) not_executable = candidate;
    }
    start = colon + 1;
  }
  if (!not_executable.empty()) throw input_error(program + ": " + not_executable + " is not executable");
  throw input_error(program + ": not found in PATH");
}

namespace {

bool is_cudart(const std::string& lib) { return lib.rfind("libcudart.so", 0) == 0; }

// Libraries every program needs that never bring the CUDA runtime: not
// worth reading.
bool system_library(const std::string& lib) {
  for (const char* prefix : {"libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "ld-linux", "libpthread.so",
                             "libdl.so", "librt.so"})
    if (lib.rfind(prefix, 0) == 0) return true;
  return false;
}

// The first library that needs a libcudart among `path`'s libraries and
// theirs, as the loader would find them (at most a few hundred).
struct CudartUse {
  std::string cudart;  // "libcudart.so.13", "" when none needs one
  std::string through;  // the library that needs it, "" when the program itself does
};

CudartUse find_cudart(const std::string& path, const ElfDeps& program) {
  for (const std::string& lib : program.needed)
    if (is_cudart(lib)) return {lib, ""};
  std::vector<std::pair<std::string, ElfDeps>> queue = {{path, program}};
  std::set<std::string> seen = {path};
  CudartUse other;
  for (size_t i = 0; i < queue.size() && queue.size() < 512; ++i) {
    const auto [from_path, from] = queue[i];
    for (const std::string& lib : from.needed) {
      if (system_library(lib)) continue;
      if (is_cudart(lib)) {
        if (lib == kCudartName) return {lib, fs::path(from_path).filename().string()};
        if (other.cudart.empty()) other = {lib, fs::path(from_path).filename().string()};
        continue;
      }
      const std::string found = find_needed_library(lib, from, from_path);
      if (found.empty() || !seen.insert(found).second) continue;
      try {
        const ElfDeps deps = read_elf_deps(found, false);
        if (deps.elf64) queue.emplace_back(found, deps);
      } catch (const Error&) {
        // A library that cannot be read: the loader will say so when the program starts.
      }
    }
  }
  return other;
}

}  // namespace

std::string cuda_runtime_problem(const std::string& name, const std::string& path) {
  const ElfDeps elf = read_elf_deps(path);
  if (!elf.elf) return "";
  if (!elf.elf64)
    return name + " is a 32-bit or big-endian ELF program; simtlab's " + kCudartName +
           " runs 64-bit little-endian programs built with CUDA 13's `nvcc -cudart shared`";
  const CudartUse use = find_cudart(path, elf);
  if (use.cudart == kCudartName) return "";
  if (!use.cudart.empty()) {
    const std::string& lib = use.cudart;
    const std::string version = lib.size() > 13 && lib[12] == '.' ? lib.substr(13, lib.find('.', 13) - 13) : "";
    const std::string via = use.through.empty() ? "" : " through " + use.through;
    return name + (version.empty() ? " needs " + lib + via + ", a CUDA runtime without a version"
                                   : " was built against CUDA " + version + "'s runtime (it needs " + lib + via + ")") +
           "; simtlab provides " + kCudartName + ": rebuild it with CUDA 13's nvcc and `-cudart shared`";
  }
  if (!elf.cuda_runtime_symbol.empty() || !elf.cuda_fatbin_section.empty())
    return name + " links the CUDA runtime statically (nvcc's default); rebuild it with `nvcc -cudart shared`";
  return name + " uses no CUDA runtime (neither it nor its libraries need " + kCudartName +
         "); simtlab exec runs programs built with `nvcc -cudart shared`";
}

void exec_command(const CLI::App& cmd, const RunOptions& o, Machine& m, const std::vector<std::string>& tokens,
                  const std::vector<std::string>& program) {
  if (program.empty()) throw input_error("exec: no program after --: simtlab exec [options] -- PROGRAM [ARGS...]");
  check_library_options(cmd, o, m);
  {
    // The output paths as `run` checks them; the library makes the files.
    // Leaving this scope removes the temporaries the check created.
    const RunOutputs check(output_paths(o), "");
  }
  const std::string path = find_program(program[0]);
  const std::string problem = cuda_runtime_problem(program[0], path);
  if (!problem.empty()) throw input_error(problem);
  const std::string dir = cudart_dir();
  refuse_unpassable(dir);

  std::string argv_json;
  try {
    argv_json = nlohmann::json(tokens).dump();
  } catch (const nlohmann::json::exception&) {
    throw input_error("exec: an option is not valid UTF-8 text, which SIMTLAB_ARGV (JSON) cannot carry");
  }
  if (::setenv("SIMTLAB_ARGV", argv_json.c_str(), 1) != 0)
    throw Error(ExitCode::HostResources, "setenv SIMTLAB_ARGV");
  prepend("LD_PRELOAD", dir + "/" + kCudartName);
  prepend("LD_LIBRARY_PATH", dir);
  std::vector<char*> argv;
  for (const std::string& word : program) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  // Address-space randomisation off, as `setarch -R`: managed memory and __managed__ variables sit
  // at their host addresses on the device too, so with ASLR their cache sets, and the cycles of a
  // timing run, would change from one run of the same program to the next. Where the kernel
  // refuses (a container's seccomp policy), the program runs randomised and the run says so.
  const int persona = ::personality(0xffffffff);
  if (persona == -1 || ::personality(static_cast<unsigned long>(persona) | ADDR_NO_RANDOMIZE) == -1)
    std::fprintf(stderr, "simtlab: warning: cannot turn address-space randomisation off (%s): timing runs of a "
                 "program with managed memory may differ in cycles from run to run\n", std::strerror(errno));
  std::fflush(nullptr);
  ::execvp(path.c_str(), argv.data());  // returns only on failure
  throw input_error("cannot run " + program[0] + ": " + std::strerror(errno));
}

}  // namespace simt::tb
