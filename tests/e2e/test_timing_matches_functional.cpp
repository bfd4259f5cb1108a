// Every workload leaves exactly the memory of the functional-only run when
// simulated in timing mode under each machine configuration, and the same
// inputs give identical statistics on every run. Each timing run is its own
// simtlab process (SystemC elaborates once per process).
#include "workloads/workload_cases.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"

using namespace simt;
namespace fs = std::filesystem;

namespace {

const char* kConfigs[] = {"vws-baseline", "tbc-baseline", "fermi-gtx480"};

fs::path scratch() { return test::scratch_dir("simtlab_e2e"); }

// Runs simtlab and returns its --stats document.
nlohmann::json run(const std::string& args, const std::string& tag) {
  const test::StatsRun r = test::run_with_stats(args, scratch(), tag);
  BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.out << r.proc.err);
  return r.stats;
}

}  // namespace

static bool init_unit_test() {
  for (const workloads::Workload* wp : test::matrix_workloads()) {
    const workloads::Workload& w = *wp;
    const std::string name = w.name;
    test::add_case(name + "_timing_equals_functional", [name] {
      nlohmann::json f = run("--workload " + name + " --mode functional", name + "_functional");
      for (const char* c : kConfigs) {
        nlohmann::json t = run("--workload " + name + " --config " SIMT_SOURCE_DIR "/configs/" + c + ".toml",
                               name + "_" + c);
        BOOST_TEST(t["memory_checksum"] == f["memory_checksum"], name << " under " << c);
        // Instruction counts may differ where CTAs race benignly (bfs: a node
        // another CTA already reached is skipped); the memory may not.
        BOOST_TEST(t["thread_instructions"].get<uint64_t>() > 0u);
        BOOST_TEST(t["cycles"].get<uint64_t>() > 0u);
      }
    });
  }
  test::add_case("same_inputs_give_identical_stats", [] {
    nlohmann::json a = run("--workload bfs --config " SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml", "det_a");
    nlohmann::json b = run("--workload bfs --config " SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml", "det_b");
    for (auto* j : {&a, &b}) {
      j->erase("wall_seconds");
      j->erase("speed");
      for (nlohmann::json& k : (*j)["kernels"]) k.erase("wall_seconds");  // host time of each launch
    }
    BOOST_TEST((a == b));
  });
  return true;
}

int main(int argc, char* argv[]) {
  int rc = boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
  fs::remove_all(scratch());
  return rc;
}
