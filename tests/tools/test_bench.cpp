// tools/bench (docs/benchmark.md): the default table reports each
// workload's start-up (speed.startup_seconds of the functional run);
// --against compares two builds on workloads or, with --comparison, on the
// side-by-side cases, checking that the counts agree; bad combinations of
// options exit 2. Here the build is compared with itself. Under the
// sanitizers (tests/common/sanitized.h) the side-by-side cases (1M-thread
// runs, eight of them) are left out: the script's logic is the same.
#define BOOST_TEST_MODULE bench
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "common/sanitized.h"
#include "common/simtlab_process.h"
#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using nlohmann::json;
using simt::test::ProcessRun;

namespace {

SIMT_TEST_SCRATCH("simtlab_bench");

ProcessRun bench(const std::string& args) {
  return simt::test::run_tool("bench", "--no-pin --build " SIMT_BINARY_DIR " " + args, scratch());
}

json read_json(const fs::path& p) { return json::parse(std::ifstream(p)); }

}  // namespace

BOOST_AUTO_TEST_CASE(the_table_reports_start_up) {
  const fs::path out = scratch() / "table.json";
  const ProcessRun r = bench("--json " + out.string() + " saxpy");
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("start_s") != std::string::npos);
  const json j = read_json(out);
  const double start = j["workloads"][0]["startup_seconds"].get<double>();
  BOOST_TEST(start > 0.0);
  BOOST_TEST(start < 10.0);
}

BOOST_AUTO_TEST_CASE(against_compares_workloads_and_the_side_by_side_cases) {
  const fs::path w = scratch() / "workloads.json", c = scratch() / "cases.json";
  ProcessRun r = bench("--against " SIMT_BINARY_DIR " --mode functional --json " + w.string() + " saxpy");
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  json j = read_json(w);
  BOOST_TEST(j["cases"] == "workloads");
  BOOST_TEST_REQUIRE(j["rows"].size() == 1u);
  BOOST_TEST(j["rows"][0]["workload"] == "saxpy");
  BOOST_TEST(j["rows"][0]["speedup"].get<double>() > 0.0);

  if (simt::test::sanitized()) return;
  r = bench("--against " SIMT_BINARY_DIR " --comparison --mode functional --old-config " SIMT_SOURCE_DIR
            "/configs/fermi-gtx480.toml --json " + c.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  j = read_json(c);
  BOOST_TEST(j["cases"] == "comparison");
  BOOST_TEST_REQUIRE(j["rows"].size() == 4u);
  BOOST_TEST(j["rows"][0]["workload"] == "vecadd-1m/1");
  BOOST_TEST(j["rows"][3]["workload"] == "data-loop-256k/15");
  for (const json& row : j["rows"]) BOOST_TEST(row["mode"] == "functional");
}

BOOST_AUTO_TEST_CASE(bad_option_combinations_exit_2) {
  for (const char* args : {"--against " SIMT_BINARY_DIR " --vws", "--old-config " SIMT_SOURCE_DIR
                           "/configs/fermi-gtx480.toml saxpy", "--against " SIMT_BINARY_DIR
                           " --old-config /nonexistent/machine.toml saxpy", "--against /nonexistent/build saxpy"}) {
    const ProcessRun r = bench(args);
    BOOST_TEST(r.code == 2, args << "\n" << r.out << r.err);
    BOOST_TEST(!r.err.empty(), args);
  }
}
