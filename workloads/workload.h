// A built-in workload: a CUDA kernel we wrote (workloads/<name>/<name>.cu),
// its committed PTX (embedded into the binary at build time), a host side
// that prepares inputs and launches it, and a CPU reference that checks
// the device's results.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace simt::workloads {

// The three classes the seeds study.
enum class WorkloadClass : uint8_t { Divergent, Convergent, Insensitive };
const char* class_name(WorkloadClass c);  // "divergent", "convergent", "warp-size-insensitive"

enum class Size : uint8_t { Small, Medium, Large };
const char* size_name(Size s);
bool parse_size(const std::string& text, Size* out);

struct Result {
  bool ok = false;
  std::string message;  // what mismatched (first few elements), or a one-line summary
};

struct Workload {
  const char* name;
  WorkloadClass cls;
  const char* description;  // one line
  // Loads the embedded PTX, creates inputs (deterministic), launches, verifies.
  Result (*run)(runtime::Device& dev, Size size);
  // Waits by spinning (grid.sync()): how many instructions it issues
  // depends on timing, not only on its inputs.
  bool spins = false;
};

// Each workload's source file registers itself at start-up:
//   static const bool registered = register_workload({"bfs", ...});
// (the workloads library is an object library, so nothing is dropped by the linker).
bool register_workload(const Workload& w);

// All built-in workloads, in a stable order (by class, then name).
const std::vector<Workload>& all();
const Workload* find(const std::string& name);

// The committed PTX of workload `name`, embedded at build time ("" if none).
const char* embedded_ptx(const std::string& name);

}  // namespace simt::workloads
