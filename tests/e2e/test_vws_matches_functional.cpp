// Seed 000's machines are correct by construction: every workload, under
// every named VWS machine (configs/ws*.toml, i-vws*.toml, e-vws*.toml on
// vws-baseline.toml), leaves exactly the memory of the functional-only run,
// whatever the slices, gangs, splits and reformations did to the order of
// its instructions. One simtlab process per run.
#include "workloads/workload_cases.h"

#include <filesystem>
#include <iterator>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"

using namespace simt;
namespace fs = std::filesystem;

namespace {

const char* kMachines[] = {"ws4",           "ws8",           "ws16",
                           "i-vws",         "e-vws",         "e-vws-impatientmem",
                           "i-vws-groupmem", "i-vws-impatientmem", "i-vws-gto",
                           "i-vws-lrr",     "i-vws-lgto",    "i-vws-lpc",
                           "e-vws-sync50"};

fs::path scratch() { return test::scratch_dir("simtlab_vws_e2e"); }

nlohmann::json run(const std::string& args, const std::string& tag) {
  const test::StatsRun r = test::run_with_stats(args, scratch(), tag);
  BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.out << r.proc.err);
  return r.stats;
}

}  // namespace

static bool init_unit_test() {
  const std::vector<const workloads::Workload*> matrix = test::matrix_workloads();
  for (size_t wi = 0; wi < matrix.size(); ++wi) {
    const std::string name = matrix[wi]->name;
    test::add_case(name + "_vws_machines_equal_functional", [name, wi] {
      const nlohmann::json f = run("--workload " + name + " --mode functional", name + "_functional");
      for (size_t mi = 0; mi < std::size(kMachines); ++mi) {
        if (!test::matrix_cell(wi, mi)) continue;
        const char* m = kMachines[mi];
        const nlohmann::json t = run("--workload " + name + " --config " SIMT_SOURCE_DIR
                                     "/configs/vws-baseline.toml --config " SIMT_SOURCE_DIR "/configs/" +
                                         std::string(m) + ".toml",
                                     name + "_" + m);
        BOOST_TEST(t["memory_checksum"] == f["memory_checksum"], name << " under " << m);
        BOOST_TEST(t["cycles"].get<uint64_t>() > 0u);
      }
    });
  }
  return true;
}

int main(int argc, char* argv[]) {
  int rc = boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
  fs::remove_all(scratch());
  return rc;
}
