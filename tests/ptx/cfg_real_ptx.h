// Helpers for CFG tests on the committed workload PTX (nvcc output): lists
// the files and links every entry of a file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ptx/ir.h"
#include "ptx/link.h"
#include "ptx/parser.h"

namespace simt::test {

inline std::vector<std::string> workload_ptx_files() {
  std::vector<std::string> files;
  for (const auto& dir : std::filesystem::directory_iterator(std::string(SIMT_SOURCE_DIR) + "/workloads")) {
    if (!dir.is_directory()) continue;
    for (const auto& f : std::filesystem::directory_iterator(dir.path()))
      if (f.path().extension() == ".ptx") files.push_back(f.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline std::vector<ptx::Program> link_all_entries(const std::string& path) {
  ptx::Module m = ptx::parse_file(path);
  ptx::SymbolAddresses addrs(m.globals.size());
  for (size_t i = 0; i < addrs.size(); ++i) addrs[i] = 0x1000 * (i + 1);
  std::vector<ptx::Program> progs;
  for (const auto& e : ptx::entry_names(m)) progs.push_back(ptx::link(m, e, addrs));
  return progs;
}

}  // namespace simt::test
