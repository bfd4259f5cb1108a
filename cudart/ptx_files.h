// `simtlab exec --save-ptx DIR`: the PTX of each fatbin a program registers,
// written out as it registers it, so that a user can look at an
// application's kernels with `simtlab inspect` (their blocks, branches, the
// VGIW compiler's view) as GPGPU-Sim's -save_embedded_ptx lets one do.
#pragma once

#include <string>

namespace simt::cudart {

struct FatbinRecord;

// Writes `f`'s PTX into `dir` as PROGRAM.N.ptx (N: the fatbin's number in
// registration order, from 1), or PROGRAM.N.U.ptx for each unit of -rdc
// code, each through util::OutputFile (whole or not at all). Returns "" or
// what went wrong, naming the option and the file.
std::string save_fatbin_ptx(const FatbinRecord& f, size_t number, const std::string& dir, const std::string& program);

}  // namespace simt::cudart
