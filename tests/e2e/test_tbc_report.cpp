#define BOOST_TEST_MODULE tbc_report
#include <boost/test/unit_test.hpp>

// The run report's fields for seed 001's comparisons (traffic, memory
// pipeline stalls, stack depth, branch-unit counters, one record per kernel
// launch), checked on real simtlab runs, and every technique overlay of
// configs/ loading on the TBC baseline machine. Each run is its own simtlab
// process (SystemC elaborates once per process).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"

namespace fs = std::filesystem;

namespace {

fs::path scratch() {
  static fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("simtlab_tbc_report_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return d;
}

const std::string kBaseline = "--config " SIMT_SOURCE_DIR "/configs/tbc-baseline.toml";
std::string overlay(const std::string& name) { return " --config " SIMT_SOURCE_DIR "/configs/" + name + ".toml"; }

struct Result {
  simt::test::ProcessRun proc;
  nlohmann::json stats;  // null when the run failed
};

Result run(const std::string& args, const std::string& tag) {
  const fs::path stats = scratch() / (tag + ".json");
  const std::string full = "run --quiet " + args + " --stats " + stats.string();
  Result r{simt::test::run_simtlab(full, scratch()), nullptr};
  BOOST_TEST(r.proc.code == 0, full << "\n" << r.proc.out << r.proc.err);
  if (r.proc.code == 0) {
    std::ifstream f(stats);
    r.stats = nlohmann::json::parse(f);
  }
  return r;
}

// The launch count bfs prints in its verification line: "(11 launches, ...".
size_t launches_printed(const std::string& out) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(R"(\((\d+) launches)"))) return 0;
  return std::stoul(m[1].str());
}

uint64_t sum_counters(const nlohmann::json& counters, const std::regex& name) {
  uint64_t s = 0;
  for (auto it = counters.begin(); it != counters.end(); ++it)
    if (std::regex_match(it.key(), name)) s += it.value().get<uint64_t>();
  return s;
}

// The per-kernel records add up to the run's totals (`timing`: cycles too).
void check_kernel_records(const nlohmann::json& s, bool timing) {
  const auto& ks = s["kernels"];
  uint64_t warp = 0, thread = 0, ctas = 0, cycles = 0, depth = 0;
  for (const auto& k : ks) {
    BOOST_TEST(k["kernel"].get<std::string>() == "bfs_level");
    BOOST_TEST(k["max_stack_depth"].get<uint64_t>() >= 1u);
    BOOST_TEST(k.contains("cycles") == timing);
    warp += k["warp_instructions"].get<uint64_t>();
    thread += k["thread_instructions"].get<uint64_t>();
    ctas += k["ctas"].get<uint64_t>();
    if (timing) cycles += k["cycles"].get<uint64_t>();
    depth = std::max(depth, k["max_stack_depth"].get<uint64_t>());
  }
  BOOST_TEST(warp == s["warp_instructions"].get<uint64_t>());
  BOOST_TEST(thread == s["thread_instructions"].get<uint64_t>());
  BOOST_TEST(ctas == s["ctas"].get<uint64_t>());
  if (timing) BOOST_TEST(cycles == s["cycles"].get<uint64_t>());
  // The run's deepest stack is that of its deepest kernel.
  BOOST_TEST(depth == s["max_stack_depth"].get<uint64_t>());
}

}  // namespace

// bfs launches one kernel per BFS level and diverges: a pdom timing run has
// traffic at every level, a stack deeper than 1 and one record per launch.
BOOST_AUTO_TEST_CASE(pdom_timing_report_fields) {
  const Result r = run("--workload bfs --size small " + kBaseline + overlay("pdom"), "bfs_pdom");
  BOOST_TEST_REQUIRE(!r.stats.is_null());
  const nlohmann::json& s = r.stats;

  const auto& t = s["traffic"];
  BOOST_TEST(t["l1d_bytes"].get<uint64_t>() > 0u);
  BOOST_TEST(t["l2_bytes"].get<uint64_t>() > 0u);
  BOOST_TEST(t["dram_bytes"].get<uint64_t>() > 0u);
  // Every byte the coalescers ask for reaches an L1D, and nothing else does.
  const uint64_t coalesced = sum_counters(s["counters"], std::regex(R"(sm\d+\.ldst\.coalescer\.bytes)"));
  BOOST_TEST(t["l1d_bytes"].get<uint64_t>() == coalesced);
  BOOST_TEST(t["l2_bytes"].get<uint64_t>() == sum_counters(s["counters"], std::regex(R"(l2\.\d+\.bytes)")));

  BOOST_TEST(s["memory_pipeline_stalls"].get<uint64_t>() ==
             sum_counters(s["counters"], std::regex(R"(sm\d+\.ldst\.mem_pipeline_stall_cycles)")));
  BOOST_TEST(s["max_stack_depth"].get<uint64_t>() >= 2u);  // bfs diverges

  // The branch unit's counters, summed over the SMs under their own names.
  BOOST_TEST_REQUIRE(s["branch"].is_object());
  BOOST_TEST(!s["branch"].empty());
  for (auto it = s["branch"].begin(); it != s["branch"].end(); ++it) {
    if (it.key().find("max_") != std::string::npos) continue;
    const uint64_t per_sm = sum_counters(s["counters"], std::regex(R"(sm\d+\.branch\.)" + it.key()));
    BOOST_TEST(it.value().get<uint64_t>() == per_sm, it.key());
  }

  const size_t launches = launches_printed(r.proc.out);
  BOOST_TEST_REQUIRE(launches > 1u, r.proc.out);
  BOOST_TEST(s["kernels"].size() == launches);
  check_kernel_records(s, true);
}

// Functional mode reports the same per-launch records (no cycles) from the
// functional runner's own stacks; traffic needs the timing model.
BOOST_AUTO_TEST_CASE(functional_report_fields) {
  const Result r = run("--workload bfs --size small --mode functional", "bfs_functional");
  BOOST_TEST_REQUIRE(!r.stats.is_null());
  const nlohmann::json& s = r.stats;
  BOOST_TEST(!s.contains("traffic"));
  BOOST_TEST(s["max_stack_depth"].get<uint64_t>() >= 2u);
  BOOST_TEST(s["kernels"].size() == launches_printed(r.proc.out));
  check_kernel_records(s, false);
}

// Every overlay of seed 001's setups loads on the baseline machine, runs a
// kernel and ends up with the knobs docs/tbc.md promises.
BOOST_AUTO_TEST_CASE(every_overlay_runs) {
  struct Setup {
    std::string file, reconvergence, policy;
    bool lcp;
  };
  const std::vector<Setup> setups = {
      {"pdom", "pdom", "lrr", false},    {"pdom-lcp", "pdom", "lrr", true}, {"tbc", "tbc", "age", false},
      {"tbc-lcp", "tbc", "age", true},   {"tbc-rrb", "tbc", "rrb", true},   {"tbc-srr", "tbc", "srr", true},
      {"dwf", "dwf", "majority", false}, {"dwf-wb", "dwf", "majority", false},
  };
  for (const Setup& x : setups) {
    BOOST_TEST_CONTEXT("overlay " << x.file) {
      const Result r = run("--workload saxpy --size small " + kBaseline + overlay(x.file), "saxpy_" + x.file);
      if (r.stats.is_null()) continue;
      const auto& c = r.stats["config"];
      BOOST_TEST(c["sm.reconvergence"].get<std::string>() == x.reconvergence);
      BOOST_TEST(c["sm.policy"].get<std::string>() == x.policy);
      BOOST_TEST(c["sm.likely_convergence"].get<bool>() == x.lcp);
      if (x.reconvergence == "tbc") BOOST_TEST(c["tbc.compaction"].get<bool>());
      if (x.reconvergence == "dwf") BOOST_TEST(c["dwf.warp_barrier"].get<bool>() == (x.file == "dwf-wb"));
      BOOST_TEST(c["gpu.num_sms"].get<uint64_t>() == 30u);  // the baseline is still underneath
      BOOST_TEST(r.stats["kernels"].size() == 1u);
      BOOST_TEST(r.stats["max_stack_depth"].get<uint64_t>() >= 1u);
    }
  }
}

// Each launch records what limits its occupancy, and the mean resident CTAs
// stay within it: bst_search's CTA takes 6 KB of shared memory, so 2 fit in
// the baseline's 16 KB; with 48 KB its registers (24 per thread) allow 5.
BOOST_AUTO_TEST_CASE(occupancy_limits_and_mean_resident_ctas) {
  const Result small = run(kBaseline + overlay("pdom") + " --workload bst_search", "occ16k");
  const Result big = run(kBaseline + overlay("pdom") + " --workload bst_search --set sm.shared_bytes=49152", "occ48k");
  BOOST_TEST_REQUIRE(!small.stats.is_null());
  BOOST_TEST_REQUIRE(!big.stats.is_null());
  const nlohmann::json& o16 = small.stats["kernels"][0]["occupancy"];
  const nlohmann::json& o48 = big.stats["kernels"][0]["occupancy"];
  BOOST_TEST(o16["limited_by"] == "shared_bytes");
  BOOST_TEST(o16["ctas_per_sm"] == 2);
  BOOST_TEST(o16["shared_bytes_per_cta"] == 6144);
  BOOST_TEST(o48["limited_by"] == "registers");
  BOOST_TEST(o48["ctas_per_sm"] == 5);
  const double m16 = small.stats["derived"]["mean_resident_ctas"].get<double>();
  const double m48 = big.stats["derived"]["mean_resident_ctas"].get<double>();
  BOOST_TEST(m16 > 0.5);
  BOOST_TEST(m16 <= 2.0);
  BOOST_TEST(m48 <= 5.0);
  BOOST_TEST(small.stats["derived"]["mean_resident_warps"].get<double>() <= 8.0);  // 2 CTAs x 4 warps
}
