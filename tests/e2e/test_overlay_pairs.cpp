// Issue 35 item 2: a branch-unit overlay that forms warps (TBC, TBC-LCP,
// DWF; PDOM-LCP for contrast) combined with a scheduler overlay built on the
// two-level scheduler (Origami, Warped-Gates' GATES) finishes, on the
// default machine, and leaves exactly the functional run's memory. Before
// the fix, a TBC/DWF slot whose threads waited at a reconvergence point
// stayed in the two-level active set without ever being offered, and the
// ready warps in the pending set were never picked: the deadlock watchdog
// stopped bfs and raytrace. The scheduler overlay comes last, so that its
// policy is the one in force. The whole matrix of overlays is issue 38's.
// Under the sanitizers (tests/common/sanitized.h) each pair runs on one of
// the two workloads, alternately.
#include "workloads/workload_cases.h"

#include <iterator>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"

using namespace simt;
namespace fs = std::filesystem;

namespace {

const char* kBranch[] = {"pdom-lcp", "tbc", "tbc-lcp", "dwf"};
const char* kScheduler[] = {"origami", "warped-gates"};
const char* kWorkloads[] = {"bfs", "raytrace"};

fs::path scratch() { return test::scratch_dir("simtlab_overlay_pairs"); }

std::string config(const char* overlay) { return std::string(" --config " SIMT_SOURCE_DIR "/configs/") + overlay + ".toml"; }

}  // namespace

static bool init_unit_test() {
  for (size_t wi = 0; wi < std::size(kWorkloads); ++wi) {
    const std::string name = kWorkloads[wi];
    test::add_case(name + "_under_branch_and_scheduler_pairs_equals_functional", [name, wi] {
      const nlohmann::json f = test::require_stats("--workload " + name + " --mode functional", scratch(),
                                                   name + "_functional");
      size_t pair = 0;
      for (const char* b : kBranch)
        for (const char* s : kScheduler) {
          const bool here = pair++ % std::size(kWorkloads) == wi;
          if (test::sanitized() && !here) continue;
          const std::string tag = name + "_" + b + "_" + s;
          const nlohmann::json t = test::require_stats("--workload " + name + config(b) + config(s), scratch(), tag);
          BOOST_TEST(t["memory_checksum"] == f["memory_checksum"], name << " under " << b << " + " << s);
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
