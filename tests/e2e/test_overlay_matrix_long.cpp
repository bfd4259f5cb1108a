// Issue 38 item 1: every pair of technique overlays in configs/ (machine
// files left out), on the default machine, on two workloads at small size:
// a pair the model accepts runs to the end and leaves exactly the
// functional run's memory (no deadlock watchdog, no fault); a pair it
// refuses exits 2 before running, with one line that names both overlay
// files. Each overlay alone must be accepted, unless the program cannot run
// on the core it selects (VGIW refuses shfl and grid.sync: exit 2 naming the
// kernel); then every pair with it is refused the same way. Label "long": about 1,400
// simtlab runs, two at a time. SIMT_MATRIX_WORKLOADS=a,b,... (or "all")
// runs the matrix on other workloads (every workload: run the binary
// directly, it outlasts ctest's timeout).
#define BOOST_TEST_MODULE overlay_matrix
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"
#include "common/simtlab_stats.h"
#include "workload.h"

using namespace simt;
namespace fs = std::filesystem;

namespace {

SIMT_TEST_SCRATCH("simtlab_overlay_matrix");

std::vector<std::string> workload_names() {
  const char* env = std::getenv("SIMT_MATRIX_WORKLOADS");
  if (!env || !*env) return {"bfs", "raytrace"};
  std::vector<std::string> out;
  if (std::string(env) == "all") {
    for (const auto& w : workloads::all()) out.push_back(w.name);
    return out;
  }
  std::stringstream in(env);
  for (std::string w; std::getline(in, w, ',');)
    if (!w.empty()) out.push_back(w);
  return out;
}
// Whole machines, not overlays (configs/README.md).
const char* kMachines[] = {"vws-baseline", "tbc-baseline", "fermi-gtx480"};

// An overlay as the matrix combines it: overlays made to stack on another
// come with it (configs/README.md: the DWF pools extend dwf.toml).
using Unit = std::vector<std::string>;
Unit unit_of(const std::string& n) {
  if (n == "dwf-pool") return {"dwf", "dwf-pool"};
  if (n == "dwf-sm-pool") return {"dwf", "dwf-pool", "dwf-sm-pool"};
  return {n};
}

std::vector<Unit> overlays() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(SIMT_SOURCE_DIR "/configs")) {
    if (e.path().extension() != ".toml") continue;
    const std::string n = e.path().stem().string();
    if (std::find(std::begin(kMachines), std::end(kMachines), n) == std::end(kMachines)) names.push_back(n);
  }
  std::sort(names.begin(), names.end());
  std::vector<Unit> out;
  for (const auto& n : names) out.push_back(unit_of(n));
  return out;
}

struct Job {
  std::string workload;
  std::vector<Unit> units;
  test::ProcessRun result;
  std::string checksum;  // memory_checksum of an accepted run
};

std::string describe(const Job& j) {
  std::string s = j.workload + " under";
  for (const auto& u : j.units)
    for (size_t k = 0; k < u.size(); ++k) s += (k ? "+" : " ") + u[k];
  return s;
}

// Runs every job, two simtlab processes at a time (each in its own folder).
void run_all(std::vector<Job>& jobs) {
  std::atomic<size_t> next{0};
  auto worker = [&](int id) {
    const fs::path dir = scratch() / ("w" + std::to_string(id));
    fs::create_directories(dir);
    for (size_t i; (i = next++) < jobs.size();) {
      Job& j = jobs[i];
      std::string args = "run --workload " + j.workload + " --size small --stats " + (dir / "s.json").string();
      for (const auto& u : j.units)
        for (const auto& c : u) args += " --config " SIMT_SOURCE_DIR "/configs/" + c + ".toml";
      fs::remove(dir / "s.json");
      j.result = test::run_simtlab(args, dir);
      if (j.result.code == 0) {
        std::ifstream f(dir / "s.json");
        j.checksum = nlohmann::json::parse(f)["memory_checksum"].dump();
      }
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_pair_of_overlays_runs_or_is_refused_naming_both) {
  const std::vector<Unit> o = overlays();
  BOOST_REQUIRE_GE(o.size(), 30u);
  const std::vector<std::string> names = workload_names();
  std::vector<Job> jobs;
  for (const std::string& w : names) {
    jobs.push_back({w, {}, {}, {}});  // the reference: functional
    for (size_t a = 0; a < o.size(); ++a) {
      jobs.push_back({w, {o[a]}, {}, {}});
      for (size_t b = a + 1; b < o.size(); ++b) jobs.push_back({w, {o[a], o[b]}, {}, {}});
    }
  }
  // The functional references first, then everything else.
  std::map<std::string, std::string> refs;  // workload -> functional memory_checksum
  for (const std::string& w : names) {
    Job r{w, {}, {}, {}};
    const fs::path dir = scratch() / "ref";
    fs::create_directories(dir);
    r.result = test::run_simtlab("run --workload " + r.workload + " --size small --mode functional --stats " +
                                     (dir / "s.json").string(),
                                 dir);
    BOOST_REQUIRE_MESSAGE(r.result.code == 0, "functional " << w << ": " << r.result.err);
    std::ifstream f(dir / "s.json");
    refs[w] = nlohmann::json::parse(f)["memory_checksum"].dump();
  }
  jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [](const Job& j) { return j.units.empty(); }), jobs.end());
  run_all(jobs);

  // A refusal of the program rather than of the configuration names its
  // kernel. Which overlays refuse which workload alone:
  auto program_refused = [](const Job& j) {
    return j.result.code == 2 && j.result.err.find("kernel '") != std::string::npos;
  };
  std::map<std::string, std::vector<Unit>> refuses_program;  // workload -> overlays
  for (const Job& j : jobs)
    if (j.units.size() == 1 && program_refused(j)) refuses_program[j.workload].push_back(j.units[0]);
  size_t accepted = 0, refused = 0, programs_refused = 0;
  for (const Job& j : jobs) {
    const std::string& ref = refs[j.workload];
    if (j.result.code == 0) {
      ++accepted;
      BOOST_TEST(j.checksum == ref, describe(j) << ": memory differs from the functional run");
      continue;
    }
    const auto& alone = refuses_program[j.workload];
    if (program_refused(j) && std::any_of(j.units.begin(), j.units.end(), [&](const Unit& u) {
          return std::find(alone.begin(), alone.end(), u) != alone.end();
        })) {
      ++programs_refused;
      continue;
    }
    ++refused;
    BOOST_TEST(j.units.size() == 2u, describe(j) << ": a single overlay refused (exit " << j.result.code << "): "
                                                 << j.result.err);
    BOOST_TEST(j.result.code == 2, describe(j) << ": exit " << j.result.code << ": " << j.result.err);
    const std::string& err = j.result.err;
    const size_t lines = static_cast<size_t>(std::count(err.begin(), err.end(), '\n'));
    BOOST_TEST(lines == 1u, describe(j) << ": the refusal is not one line: " << err);
    // Each of the two overlays (any file of a stacked one) is named.
    for (const auto& u : j.units)
      BOOST_TEST(std::any_of(u.begin(), u.end(),
                             [&](const std::string& c) { return err.find("/" + c + ".toml") != std::string::npos; }),
                 describe(j) << ": the refusal does not name " << u.back() << ".toml: " << err);
  }
  BOOST_TEST_MESSAGE(accepted << " runs accepted, " << refused << " refused, " << programs_refused
                               << " refused the program on its core");
  BOOST_TEST(accepted > refused);
}
