// The benchmark's side-by-side cases (tools/bench-cases, run by
// tools/bench --comparison) stay runnable: each manifest loads, runs in
// functional mode and touches every thread it launches.
#define BOOST_TEST_MODULE bench_cases
#include <boost/test/unit_test.hpp>

#include <filesystem>

#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using namespace simt;

namespace {

SIMT_TEST_SCRATCH("simtlab_bench_cases");

void check_case(const std::string& name, uint64_t threads) {
  const test::StatsRun r = test::run_with_stats(
      "--quiet --mode functional --manifest " SIMT_SOURCE_DIR "/tools/bench-cases/" + name + ".json --out-dir " +
          scratch().string(),
      scratch(), name);
  BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.err);
  // Every launched thread runs at least its index computation and bounds check.
  BOOST_TEST(r.stats["thread_instructions"].get<uint64_t>() >= 4 * threads);
  BOOST_TEST(r.stats["ctas"].get<uint64_t>() == threads / 256);
}

}  // namespace

BOOST_AUTO_TEST_CASE(vector_add_of_1m_floats_runs) { check_case("vecadd-1m", 1u << 20); }

BOOST_AUTO_TEST_CASE(data_dependent_loop_over_256k_threads_runs) { check_case("data-loop-256k", 1u << 18); }
