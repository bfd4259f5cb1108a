// Golden statistics: every built-in workload at small size under every machine
// of tests/golden/combos.txt gives, bit for bit, the statistics recorded in
// tests/golden/data/<machine>/<workload>.json. The guard of speed-only changes:
// they must move nothing. `tools/update-golden` rewrites the records on purpose
// (a modelling change then says in its commit which values moved and why).
//
// Usage (CTest runs one machine per test):
//   test_golden --run_test=<machine>             check one machine
//   test_golden --run_test=<machine> -- --update rewrite its records
//   test_golden --run_test=coverage              every configs/*.toml is used
#include "workloads/workload_cases.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/simtlab_stats.h"
#include "golden/golden_record.h"

using namespace simt;
namespace fs = std::filesystem;
namespace utf = boost::unit_test;

namespace {

const fs::path kSource = SIMT_SOURCE_DIR;
const fs::path kData = kSource / "tests" / "golden" / "data";

bool g_update = false;

fs::path scratch() { return test::scratch_dir("simtlab_golden"); }

struct Machine {
  std::string name;
  std::string args;
  int line;
};

// combos.txt: "NAME  arguments", '#' comments, blank lines ignored.
std::vector<Machine> read_machines() {
  std::ifstream f(kSource / "tests" / "golden" / "combos.txt");
  std::vector<Machine> out;
  std::string line;
  for (int n = 1; std::getline(f, line); ++n) {
    std::istringstream s(line);
    Machine m{"", "", n};
    if (!(s >> m.name) || m.name[0] == '#') continue;
    std::getline(s >> std::ws, m.args);
    out.push_back(m);
  }
  return out;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// Runs one workload on one machine and checks (or, with --update, writes) its record.
void check(const Machine& m, const std::string& workload) {
  const std::string tag = m.name + "_" + workload;
  const test::StatsRun r =
      test::run_with_stats("--quiet --workload " + workload + " --size small " + m.args, scratch(), tag);
  nlohmann::json actual = golden::record(r.proc.code, first_line(r.proc.err), r.stats);
  const fs::path file = kData / m.name / (workload + ".json");
  if (g_update) {
    fs::create_directories(file.parent_path());
    std::ofstream out(file);
    out << actual.dump(1) << "\n";
    BOOST_TEST_REQUIRE(out.good(), "cannot write " << file);
    return;
  }
  std::ifstream in(file);
  BOOST_TEST_REQUIRE(in.good(), file << " is missing: run tools/update-golden (" << r.cmd << ")");
  const nlohmann::json expected = nlohmann::json::parse(in);
  if (expected == actual) return;
  BOOST_ERROR("golden statistics moved: simtlab " << r.cmd << "\n"
                                                   << golden::describe_changes(expected, actual)
                                                   << "If the change is intended, run tools/update-golden and say "
                                                      "in the commit which values moved and why.");
}

// Every machine file and overlay in configs/ is part of some golden machine.
void check_coverage(const std::vector<Machine>& machines) {
  std::set<std::string> used;
  for (const Machine& m : machines) {
    std::istringstream s(m.args);
    for (std::string w; s >> w;)
      if (w.rfind("configs/", 0) == 0) used.insert(fs::path(w).filename().string());
  }
  for (const auto& e : fs::directory_iterator(kSource / "configs"))
    if (e.path().extension() == ".toml")
      BOOST_TEST(used.count(e.path().filename().string()) == 1u,
                 e.path().filename().string() << " is in no golden machine: add a line to tests/golden/combos.txt");
}

bool init_unit_test() {
  auto& master = utf::framework::master_test_suite();
  for (int i = 1; i < master.argc; ++i)
    if (std::string(master.argv[i]) == "--update") g_update = true;
  const std::vector<Machine> machines = read_machines();
  for (const Machine& m : machines) {
    auto* suite = BOOST_TEST_SUITE(m.name);
    for (const auto& w : workloads::all()) {
      const std::string name = w.name;
      suite->add(utf::make_test_case([m, name] { check(m, name); }, name, __FILE__, __LINE__));
    }
    master.add(suite);
  }
  test::add_case("coverage", [machines] { check_coverage(machines); });
  return true;
}

}  // namespace

int main(int argc, char* argv[]) {
  // Config paths in combos.txt and in the recorded stats are relative to the source folder.
  if (::chdir(SIMT_SOURCE_DIR) != 0) return 2;
  int rc = boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
  fs::remove_all(scratch());
  return rc;
}
