// For end-to-end tests that read simtlab's --stats document: a scratch
// folder per test process, and one run returning its exit and its stats.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"

namespace simt::test {

// Writes `j` as the file `p`, creating its folders (hand-made stats and sweep files).
inline void write_json(const std::filesystem::path& p, const nlohmann::json& j) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << j.dump();
}

// The sum of every counter whose name ends in `suffix` (e.g. ".barrier_waits"
// over all SMs) in a --stats document.
inline uint64_t counter_sum(const nlohmann::json& stats, const std::string& suffix) {
  uint64_t n = 0;
  for (const auto& [k, v] : stats["counters"].items())
    if (k.size() > suffix.size() && k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0)
      n += v.get<uint64_t>();
  return n;
}

// <tmp>/<prefix>_<pid>, created on first use; the caller removes it at exit.
inline std::filesystem::path scratch_dir(const std::string& prefix) {
  static const std::filesystem::path d = [&] {
    std::filesystem::path p = std::filesystem::temp_directory_path() / (prefix + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(p);
    return p;
  }();
  return d;
}

// In a test file, inside an anonymous namespace: defines scratch(), the
// folder <tmp>/<prefix>_<pid>, and a Boost.Test global fixture that removes
// it when the test module ends.
#define SIMT_TEST_SCRATCH(prefix)                                                        \
  std::filesystem::path scratch() { return simt::test::scratch_dir(prefix); }          \
  struct ScratchCleanup {                                                               \
    ~ScratchCleanup() { std::filesystem::remove_all(scratch()); }                       \
  };                                                                                    \
  BOOST_TEST_GLOBAL_FIXTURE(ScratchCleanup)

struct StatsRun {
  std::string cmd;       // the simtlab arguments, for messages
  ProcessRun proc;
  nlohmann::json stats;  // null unless the run exited 0
};

// `simtlab run <args> --stats <dir>/<tag>.json`.
inline StatsRun run_with_stats(const std::string& args, const std::filesystem::path& dir, const std::string& tag) {
  const std::filesystem::path file = dir / (tag + ".json");
  StatsRun r;
  r.cmd = "run " + args + " --stats " + file.string();
  r.proc = run_simtlab(r.cmd, dir);
  if (r.proc.code == 0) {
    std::ifstream f(file);
    r.stats = nlohmann::json::parse(f);
  }
  return r;
}

// The same, for a run that must succeed: a failed run fails the test case
// here, with the command and its output.
inline nlohmann::json require_stats(const std::string& args, const std::filesystem::path& dir, const std::string& tag) {
  const StatsRun r = run_with_stats(args, dir, tag);
  BOOST_TEST_REQUIRE(r.proc.code == 0, r.cmd << "\n" << r.proc.out << r.proc.err);
  return r.stats;
}

// A file of 32-bit words (a manifest's output buffer); empty if missing.
inline std::vector<uint32_t> read_words(const std::filesystem::path& p) {
  const std::string bytes = slurp(p);
  std::vector<uint32_t> v(bytes.size() / 4);
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * 4);  // a missing file: no memcpy to null
  return v;
}

// Indices i where v[i] != expected(i) (all of them if v has the wrong size).
inline std::vector<uint32_t> mismatches(const std::vector<uint32_t>& v, uint32_t words,
                                        const std::function<uint32_t(uint32_t)>& expected) {
  std::vector<uint32_t> bad;
  for (uint32_t i = 0; i < words; ++i)
    if (i >= v.size() || v[i] != expected(i)) bad.push_back(i);
  return bad;
}

}  // namespace simt::test
