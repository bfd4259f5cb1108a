#include "cudart/ptx_files.h"

#include <filesystem>

#include "cudart/module_registry.h"
#include "util/error.h"
#include "util/output_file.h"

namespace simt::cudart {

std::string save_fatbin_ptx(const FatbinRecord& f, size_t number, const std::string& dir, const std::string& program) {
  const std::string stem = program + "." + std::to_string(number);
  for (size_t u = 0; u < f.ptx.size(); ++u) {
    const std::string name = stem + (f.ptx.size() > 1 ? "." + std::to_string(u + 1) : "") + ".ptx";
    try {
      util::OutputFile("--save-ptx", (std::filesystem::path(dir) / name).string()).write(f.ptx[u]);
    } catch (const Error& e) {
      return e.what();
    }
  }
  return "";
}

}  // namespace simt::cudart
