// What a program file says about the CUDA runtime it uses, read from its
// ELF headers (64-bit, little-endian) without loading it: the libraries
// its dynamic section NEEDs and whether it carries CUDA's static runtime.
// `simtlab exec` checks this before it runs the program, so a program that
// would never call simtlab's libcudart.so.13 is named instead of run on the
// host's GPU (or on nothing).
//
// Every offset and size is checked against the file: a truncated or
// malformed file is simt::Error(BadInput) naming the file and what is
// wrong, never a crash or a read out of bounds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simt::tb {

struct ElfDeps {
  bool elf = false;     // starts with the ELF magic (else nothing below is set)
  bool elf64 = false;   // ELFCLASS64, little-endian (else the lists stay empty)
  std::vector<std::string> needed;  // DT_NEEDED, in order
  std::string rpath, runpath;       // DT_RPATH, DT_RUNPATH as written ($ORIGIN unexpanded)
  // A defined symbol of CUDA's runtime (e.g. __cudaRegisterFatBinary,
  // cudaMalloc) in .symtab or .dynsym, "" if none: the static runtime.
  std::string cuda_runtime_symbol;
  // A section of nvcc's device code (.nv_fatbin, .nvFatBinSegment), "" if
  // none: still seen when the program was stripped of .symtab.
  std::string cuda_fatbin_section;
};

// Reads `path`'s ELF headers; a file that is not ELF gives elf = false.
// `symbols` = false skips the symbol tables (the two cuda_* fields stay
// empty). Throws BadInput when the file cannot be read or is a malformed ELF.
ElfDeps read_elf_deps(const std::string& path, bool symbols = true);

// Where the dynamic loader would find the library `name` that the object
// at `from_path` (read as `from`) NEEDs: DT_RPATH (when there is no
// DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH ($ORIGIN expanded), the folders
// of /etc/ld.so.conf, then the system's default folders. "" when in none.
// An approximation of ld.so (no ld.so.cache, no $LIB or $PLATFORM), good
// enough to follow a program's own libraries to the CUDA runtime.
std::string find_needed_library(const std::string& name, const ElfDeps& from, const std::string& from_path);

}  // namespace simt::tb
