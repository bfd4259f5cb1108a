// Seed 001 end to end, on every workload at small size under the paper's
// baseline machine (configs/tbc-baseline.toml) and each reconvergence
// overlay: memory is exactly that of the functional-only run, TBC never
// issues more warp instructions than PDOM, and on divergent workloads TBC's
// SIMD efficiency beats PDOM's (the direction of seed 001 Fig. 12/13).
// Each run is its own simtlab process (SystemC elaborates once per process).
// Under the sanitizers (tests/common/sanitized.h) every workload runs pdom and
// tbc-lcp (the pair its SIMD-efficiency check compares) and a diagonal band
// of the other setups (test::matrix_cell), so every setup still runs.
#include "workloads/workload_cases.h"

#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"

using namespace simt;
namespace fs = std::filesystem;

namespace {

// Overlay name -> extra arguments after the baseline machine file.
const std::vector<std::pair<std::string, std::string>> kSetups = {
    {"pdom", "--config " SIMT_SOURCE_DIR "/configs/pdom.toml"},
    {"pdom-lcp", "--config " SIMT_SOURCE_DIR "/configs/pdom-lcp.toml"},
    {"tbc", "--config " SIMT_SOURCE_DIR "/configs/tbc.toml"},
    {"tbc-lcp", "--config " SIMT_SOURCE_DIR "/configs/tbc-lcp.toml"},
    {"tbc-rrb", "--config " SIMT_SOURCE_DIR "/configs/tbc-rrb.toml"},
    {"tbc-srr", "--config " SIMT_SOURCE_DIR "/configs/tbc-srr.toml"},
    {"tbc-static", "--config " SIMT_SOURCE_DIR "/configs/tbc-lcp.toml --set tbc.compaction=false"},
    {"dwf", "--config " SIMT_SOURCE_DIR "/configs/dwf.toml"},
    {"dwf-wb", "--config " SIMT_SOURCE_DIR "/configs/dwf-wb.toml"},
};

fs::path scratch() { return test::scratch_dir("simtlab_tbc"); }

// Runs simtlab; returns its --stats document, or null after a failed check.
nlohmann::json run(const std::string& args, const std::string& tag) {
  const test::StatsRun r = test::run_with_stats(args, scratch(), tag);
  BOOST_TEST(r.proc.code == 0, r.cmd << "\n" << r.proc.out << r.proc.err);
  return r.stats;
}

double simd_efficiency(const nlohmann::json& j) { return j["simd_efficiency"].get<double>(); }
uint64_t warp_instructions(const nlohmann::json& j) { return j["warp_instructions"].get<uint64_t>(); }

}  // namespace

static bool init_unit_test() {
  const std::vector<const workloads::Workload*> ws = test::matrix_workloads();
  for (size_t wi = 0; wi < ws.size(); ++wi) {
    const workloads::Workload& w = *ws[wi];
    const std::string name = w.name;
    const bool divergent = w.cls == workloads::WorkloadClass::Divergent;
    const bool spins = w.spins;  // its instruction count depends on timing: no fixed work to compare
    test::add_case(name + "_under_every_reconvergence_setup", [name, divergent, spins, wi] {
      const nlohmann::json f = run("--workload " + name + " --mode functional", name + "_functional");
      std::map<std::string, nlohmann::json> t;
      for (size_t si = 0; si < kSetups.size(); ++si) {
        const auto& [setup, args] = kSetups[si];
        if (setup != "pdom" && setup != "tbc-lcp" && !test::matrix_cell(wi, si)) continue;
        nlohmann::json j = run("--workload " + name + " --config " SIMT_SOURCE_DIR "/configs/tbc-baseline.toml " +
                                   args, name + "_" + setup);
        if (j.is_null()) continue;
        BOOST_TEST(j["memory_checksum"] == f["memory_checksum"], name << " under " << setup);
        t[setup] = j;
      }
      if (!t.count("pdom") || spins) return;
      for (const char* tbc : {"tbc", "tbc-lcp", "tbc-rrb", "tbc-srr"}) {
        if (!t.count(tbc)) continue;
        BOOST_TEST(warp_instructions(t[tbc]) <= warp_instructions(t["pdom"]),
                   name << ": " << tbc << " issued " << warp_instructions(t[tbc]) << " warp instructions, pdom "
                        << warp_instructions(t["pdom"]));
      }
      if (divergent && t.count("tbc-lcp"))
        BOOST_TEST(simd_efficiency(t["tbc-lcp"]) > simd_efficiency(t["pdom"]),
                   name << ": SIMD efficiency tbc-lcp " << simd_efficiency(t["tbc-lcp"]) << " vs pdom "
                        << simd_efficiency(t["pdom"]));
    });
  }
  return true;
}

int main(int argc, char* argv[]) {
  int rc = boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
  fs::remove_all(scratch());
  return rc;
}
