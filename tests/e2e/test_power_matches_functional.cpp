// Issue 13 item 7: lane power gating, thread compaction, warp splitting,
// warp folding and the Origami scheduler change timing and energy, never
// results. Every workload, under every power overlay on
// configs/fermi-gtx480.toml, leaves exactly the memory of the functional
// run. One test case per workload; each run is its own simtlab process.
#include "workloads/workload_cases.h"

#include <filesystem>
#include <iterator>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"

using namespace simt;
namespace fs = std::filesystem;

namespace {

const char* kOverlays[] = {"pg-conventional", "pg-ideal",    "warped-gates", "tic-compaction", "tic-splitting",
                           "tic-mix",         "tic-adaptive", "folding",      "origami"};

fs::path scratch() { return test::scratch_dir("simtlab_power_e2e"); }

nlohmann::json run(const std::string& args, const std::string& tag) {
  return test::require_stats(args, scratch(), tag);
}

}  // namespace

static bool init_unit_test() {
  const std::vector<const workloads::Workload*> matrix = test::matrix_workloads();
  for (size_t wi = 0; wi < matrix.size(); ++wi) {
    const std::string name = matrix[wi]->name;
    test::add_case(name + "_under_power_overlays_equals_functional", [name, wi] {
      const nlohmann::json f = run("--workload " + name + " --mode functional", name + "_functional");
      for (size_t oi = 0; oi < std::size(kOverlays); ++oi) {
        if (!test::matrix_cell(wi, oi)) continue;
        const char* o = kOverlays[oi];
        const nlohmann::json t = run("--workload " + name + " --config " SIMT_SOURCE_DIR
                                     "/configs/fermi-gtx480.toml --config " SIMT_SOURCE_DIR "/configs/" +
                                         std::string(o) + ".toml",
                                     name + "_" + o);
        BOOST_TEST(t["memory_checksum"] == f["memory_checksum"], name << " under " << o);
        BOOST_TEST(t.contains("power"), name << " under " << o);
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
