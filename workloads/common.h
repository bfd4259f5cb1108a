// Helpers shared by the workloads' host sides: a portable deterministic RNG
// (std distributions differ between standard libraries), loading the
// embedded PTX, and result checks that name the first mismatches.
#pragma once

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "util/rng.h"
#include "workload.h"

namespace simt::workloads {

using util::Rng;  // deterministic inputs (model/util/rng.h)

// Loads the committed PTX of workload `name` into the device.
runtime::Module& load_workload_ptx(runtime::Device& dev, const std::string& name);

// Exact comparison; reports the first few differing indices.
template <class T>
Result compare_exact(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  std::ostringstream msg;
  size_t bad = 0;
  if (got.size() != want.size()) {
    msg << what << ": size " << got.size() << " != expected " << want.size();
    return {false, msg.str()};
  }
  for (size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == want[i])) {
      if (bad < 5) msg << (bad ? "; " : "") << what << "[" << i << "] = " << +got[i] << ", expected " << +want[i];
      ++bad;
    }
  }
  if (bad) {
    msg << " (" << bad << " of " << got.size() << " differ)";
    return {false, msg.str()};
  }
  msg << what << ": " << got.size() << " values match";
  return {true, msg.str()};
}

// Floating-point comparison with a relative + absolute tolerance, for
// results whose CPU reference uses library functions (expf, sinf, ...)
// that may round differently from the kernel's own sequences.
template <class T>
Result compare_close(const std::vector<T>& got, const std::vector<T>& want, const std::string& what,
                     double rel_tol, double abs_tol) {
  std::ostringstream msg;
  size_t bad = 0;
  if (got.size() != want.size()) {
    msg << what << ": size " << got.size() << " != expected " << want.size();
    return {false, msg.str()};
  }
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double g = got[i], w = want[i];
    double err = std::fabs(g - w);
    bool ok = err <= abs_tol + rel_tol * std::fabs(w) || (std::isnan(g) && std::isnan(w));
    if (!ok) {
      if (bad < 5) msg << (bad ? "; " : "") << what << "[" << i << "] = " << g << ", expected " << w;
      ++bad;
    }
    if (err > worst) worst = err;
  }
  if (bad) {
    msg << " (" << bad << " of " << got.size() << " differ)";
    return {false, msg.str()};
  }
  msg << what << ": " << got.size() << " values within tolerance (max abs error " << worst << ")";
  return {true, msg.str()};
}

}  // namespace simt::workloads
