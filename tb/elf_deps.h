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
  // A defined symbol of CUDA's runtime (e.g. __cudaRegisterFatBinary,
  // cudaMalloc) in .symtab or .dynsym, "" if none: the static runtime.
  std::string cuda_runtime_symbol;
  // A section of nvcc's device code (.nv_fatbin, .nvFatBinSegment), "" if
  // none: still seen when the program was stripped of .symtab.
  std::string cuda_fatbin_section;
};

// Reads `path`'s ELF headers; a file that is not ELF gives elf = false.
// Throws BadInput when the file cannot be read or is a malformed ELF.
ElfDeps read_elf_deps(const std::string& path);

}  // namespace simt::tb
