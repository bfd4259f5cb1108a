// Registers one Boost.Test case per built-in workload (the registry is
// filled at start-up, so cases are added at run time rather than by macro).
#pragma once

#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <boost/test/unit_test.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/sanitized.h"
#include "util/error.h"
#include "workload.h"

namespace simt::test {

// Runs and verifies the workload; returns a checksum of the device memory it left.
inline uint64_t run_and_check(const workloads::Workload& w, workloads::Size size, runtime::DeviceOptions opts) {
  runtime::Device dev(opts);
  workloads::Result r;
  try {
    r = w.run(dev, size);
  } catch (const Error& e) {
    BOOST_FAIL(std::string(w.name) + " (" + workloads::size_name(size) + "): " + e.what());
  }
  BOOST_TEST(r.ok, w.name << " (" << workloads::size_name(size) << "): " << r.message);
  BOOST_TEST(dev.totals().thread_instructions > 0u);
  return dev.memory().checksum();
}

// The workloads a workload x machine matrix suite runs: every workload,
// except in the sanitizer build (sanitized()). There the sanitizers look for
// memory and UB errors in code paths, which five workloads reach between
// them: divergence with shared memory (bst_search), SFU maths
// (blackscholes), grid.sync() spinning (heat), ballot/shuffle across
// barriers (radix_sort) and textures (resize); bfs, the slowest, runs under
// the sanitizers in the other end-to-end suites. The Release run still
// checks all fifteen on every machine.
inline std::vector<const workloads::Workload*> matrix_workloads() {
  std::vector<const workloads::Workload*> out;
  if (!sanitized()) {
    for (const auto& w : workloads::all()) out.push_back(&w);
    return out;
  }
  for (const char* name : {"bst_search", "blackscholes", "heat", "radix_sort", "resize"}) {
    const workloads::Workload* w = workloads::find(name);
    if (!w) throw std::logic_error(std::string("matrix_workloads: no workload ") + name);
    out.push_back(w);
  }
  return out;
}

// Whether a matrix suite runs the workload at index `w` of
// matrix_workloads() on the machine at index `m` of its own list: every pair
// in Release; under the sanitizers a diagonal band of two in five, so every
// machine still runs two of the five workloads and every workload runs on
// about two fifths of the machines (a suite whose checks compare machines
// on one workload keeps its whole row instead).
inline bool matrix_cell(size_t w, size_t m) { return !sanitized() || (w + m) % 5 < 2; }

inline void add_case(const std::string& name, std::function<void()> f) {
  boost::unit_test::framework::master_test_suite().add(
      boost::unit_test::make_test_case(std::move(f), name, __FILE__, __LINE__));
}

}  // namespace simt::test
