// Issue 14 item 6: the VGIW core changes timing, never results. Every
// workload the VGIW compiler maps leaves exactly the functional run's
// memory on configs/fermi-gtx480.toml + configs/vgiw.toml; a workload it
// does not map (warp-level instructions) is refused with exit code 2 and a
// message naming the instruction, before anything runs.
#include "workloads/workload_cases.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"

using namespace simt;
namespace fs = std::filesystem;

namespace {

fs::path scratch() { return test::scratch_dir("simtlab_vgiw_e2e"); }

const std::string kVgiw =
    " --config " SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml --config " SIMT_SOURCE_DIR "/configs/vgiw.toml";

}  // namespace

static bool init_unit_test() {
  for (const workloads::Workload* wp : test::matrix_workloads()) {
    const workloads::Workload& w = *wp;
    const std::string name = w.name;
    test::add_case(name + "_on_vgiw_equals_functional", [name] {
      const test::StatsRun v = test::run_with_stats("--workload " + name + kVgiw, scratch(), name + "_vgiw");
      if (v.proc.code == 2) {  // refused: it must say why
        BOOST_TEST((v.proc.err.find("warp-level instruction") != std::string::npos ||
                    v.proc.err.find("cannot run grid-wide synchronisation") != std::string::npos),
                   v.proc.err);
        return;
      }
      BOOST_TEST_REQUIRE(v.proc.code == 0, v.cmd << "\n" << v.proc.err);
      const nlohmann::json f =
          test::require_stats("--workload " + name + " --mode functional", scratch(), name + "_functional");
      BOOST_TEST(v.stats["memory_checksum"] == f["memory_checksum"], name);
      BOOST_TEST(test::counter_sum(v.stats, ".grid.threads") > 0u, name);
    });
  }
  return true;
}

int main(int argc, char* argv[]) {
  int rc = boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
  fs::remove_all(scratch());
  return rc;
}
