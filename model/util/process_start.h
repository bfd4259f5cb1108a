// When this process started, as far as our code can see: the time of the
// first static constructor of the program (after the dynamic loader, before
// most static initialisation). Start-up costs (PTX parse, link, analyses,
// input generation) are measured from it to a program's first launch.
#pragma once

#include <chrono>

namespace simt::util {

std::chrono::steady_clock::time_point process_start();

}  // namespace simt::util
