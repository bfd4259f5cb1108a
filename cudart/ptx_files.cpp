#include "cudart/ptx_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cudart/module_registry.h"

namespace simt::cudart {

namespace {

std::string write_whole(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      const std::string why = std::strerror(errno);
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      return "--save-ptx: cannot write " + path.string() + ": " + why;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return "--save-ptx: cannot write " + path.string() + ": " + ec.message();
  }
  return "";
}

}  // namespace

std::string save_fatbin_ptx(const FatbinRecord& f, size_t number, const std::string& dir, const std::string& program) {
  const std::string stem = program + "." + std::to_string(number);
  for (size_t u = 0; u < f.ptx.size(); ++u) {
    const std::string name = stem + (f.ptx.size() > 1 ? "." + std::to_string(u + 1) : "") + ".ptx";
    const std::string err = write_whole(std::filesystem::path(dir) / name, f.ptx[u]);
    if (!err.empty()) return err;
  }
  return "";
}

}  // namespace simt::cudart
