// The PTX module of the example platform (tb/vp_example/kernels.ptx), for
// testbenches of the host and platform side: two kernels over an array of
// `n` u32 at `data`, one thread per element.
//   square(data, n): data[i] = data[i] * data[i]
//   add_one(data, n): data[i] = data[i] + 1
#pragma once

#include <string>

#include "common/simtlab_process.h"

namespace simt::test {

inline std::string square_ptx() { return slurp(SIMT_SOURCE_DIR "/tb/vp_example/kernels.ptx"); }

}  // namespace simt::test
