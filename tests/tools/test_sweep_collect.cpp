// tools/sweep collect on a hand-made sweep directory: every listed run is a
// CSV row (failed and missing ones too), speed-ups are taken against the run
// with the reference values, and the Markdown table carries the harmonic and
// geometric means per workload class, then a table per extra statistic.
#define BOOST_TEST_MODULE sweep_collect
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"
#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

SIMT_TEST_SCRATCH("simtlab_sweep_collect");

using simt::test::write_json;

// A run: its values; `cycles` < 0 means it failed, 0 that it never ran.
void add_run(const fs::path& dir, const std::string& id, const std::string& workload, const std::string& policy,
             long cycles) {
  const fs::path d = dir / "runs" / id;
  write_json(d / "run.json", {{"id", id}, {"values", {{"workload", workload}, {"mode", "timing"}, {"size", "small"},
                                               {"set.sm.policy", policy}}}});
  if (cycles > 0) {
    write_json(d / "stats.json", {{"cycles", cycles}, {"warp_instructions", 1000}, {"thread_instructions", 32000},
                           {"counters", {{"sm0.l1d.hits", 7}, {"sm1.l1d.hits", 5}, {"sm1.l1d.misses", 100}}}});
    write_json(d / "status.json", {{"exit_code", 0}, {"seconds", 0.1}, {"error", ""}});
  } else if (cycles < 0) {
    write_json(d / "status.json", {{"exit_code", 3}, {"seconds", 0.1}, {"error", "simtlab: error: kernel fault at PC 7"}});
  }
}

std::vector<std::map<std::string, std::string>> read_csv(const fs::path& p) {
  std::istringstream in(simt::test::slurp(p));
  std::string line;
  std::vector<std::string> head;
  std::vector<std::map<std::string, std::string>> rows;
  auto split = [](const std::string& l) {
    std::vector<std::string> out;
    std::string cell;
    std::istringstream s(l);
    while (std::getline(s, cell, ',')) out.push_back(cell);
    if (!l.empty() && l.back() == ',') out.push_back("");
    return out;
  };
  std::getline(in, line);
  head = split(line);
  while (std::getline(in, line)) {
    const auto cells = split(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < head.size() && i < cells.size(); ++i) row[head[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

BOOST_AUTO_TEST_CASE(rows_speedups_and_class_means) {
  const fs::path dir = scratch() / "hand";
  // Reference gto; lrr is 2x faster on a, 0.5x on b: hmean 0.8, gmean 1.
  add_run(dir, "a-gto", "a", "gto", 1000);
  add_run(dir, "a-lrr", "a", "lrr", 500);
  add_run(dir, "b-gto", "b", "gto", 800);
  add_run(dir, "b-lrr", "b", "lrr", 1600);
  add_run(dir, "a-age", "a", "age", -1);  // failed
  add_run(dir, "b-age", "b", "age", 0);   // never ran
  write_json(dir / "sweep.json", {{"sweep", "hand"}, {"title", "Hand-made"},
                           {"runs", {"a-gto", "a-lrr", "b-gto", "b-lrr", "a-age", "b-age"}},
                           {"reference", {{"set.sm.policy", "gto"}}},
                           {"collect", {{"stats", {"thread_instructions"}}}}});
  const std::string cmd = "/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/sweep collect " + dir.string() +
                          " --stat counters/sm0.l1d.hits --stat 'counters/sm*.l1d.hits' >" + (scratch() / "out").string() + " 2>&1";
  BOOST_TEST_REQUIRE(std::system(cmd.c_str()) == 0, simt::test::slurp(scratch() / "out"));
  BOOST_TEST(simt::test::slurp(scratch() / "out").find("6 runs, 4 ok, 1 failed, 1 missing") != std::string::npos);

  const auto rows = read_csv(dir / "results.csv");
  BOOST_TEST_REQUIRE(rows.size() == 6u);
  std::map<std::string, std::map<std::string, std::string>> by_id;
  for (const auto& r : rows) by_id[r.at("id")] = r;
  BOOST_TEST(by_id["a-lrr"]["speedup_vs_reference"] == "2");
  BOOST_TEST(by_id["b-lrr"]["speedup_vs_reference"] == "0.5");
  BOOST_TEST(by_id["a-gto"]["speedup_vs_reference"] == "1");
  BOOST_TEST(by_id["a-gto"]["counters/sm0.l1d.hits"] == "7");
  BOOST_TEST(by_id["a-gto"]["counters/sm*.l1d.hits"] == "12");  // a pattern sums what it matches
  BOOST_TEST(by_id["a-gto"]["workload"] == "a");
  BOOST_TEST(by_id["a-age"]["status"] == "failed");
  BOOST_TEST(by_id["a-age"]["exit_code"] == "3");
  BOOST_TEST(by_id["a-age"]["error"].find("kernel fault") != std::string::npos);
  BOOST_TEST(by_id["b-age"]["status"] == "missing");
  BOOST_TEST(by_id["b-age"]["cycles"] == "");

  const std::string md = simt::test::slurp(dir / "results.md");
  // Workloads without a class (no pinned binary here) are grouped as "other".
  BOOST_TEST(md.find("| set.sm.policy | a | b | other hmean | other gmean |") != std::string::npos, md);
  BOOST_TEST(md.find("| lrr | 2.000 | 0.500 | 0.800 | 1.000 |") != std::string::npos, md);
  BOOST_TEST(md.find("| gto | 1.000 | 1.000 | 1.000 | 1.000 |") != std::string::npos, md);
  BOOST_TEST(md.find("| age | failed | missing | - | - |") != std::string::npos, md);
  BOOST_TEST(md.find("2 of 6 runs have no result") != std::string::npos, md);
  // A table per extra statistic ([collect] stats, then --stat), with per-class arithmetic means.
  const auto at = [&](const std::string& s) { return md.find(s); };
  BOOST_TEST((at("## thread_instructions") != std::string::npos && at("## thread_instructions") < at("## counters/sm0.l1d.hits")), md);
  BOOST_TEST(md.find("| set.sm.policy | a | b | other mean |") != std::string::npos, md);
  BOOST_TEST(md.find("| lrr | 7 | 7 | 7.000 |") != std::string::npos, md);
  BOOST_TEST(md.find("| age | failed | missing | - |") != std::string::npos, md);
}

BOOST_AUTO_TEST_CASE(a_directory_that_is_no_sweep_is_an_error) {
  fs::create_directories(scratch() / "empty");
  const std::string cmd = "/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/sweep collect " + (scratch() / "empty").string() +
                          " >" + (scratch() / "out").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 1));
  BOOST_TEST(simt::test::slurp(scratch() / "out").find("not a sweep directory") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_unknown_statistic_is_refused_with_the_closest_keys) {
  const fs::path dir = scratch() / "typo";
  add_run(dir, "a-gto", "a", "gto", 1000);
  add_run(dir, "a-lrr", "a", "lrr", 500);
  write_json(dir / "sweep.json", {{"sweep", "typo"}, {"runs", {"a-gto", "a-lrr"}}, {"reference", {{"set.sm.policy", "gto"}}}});
  const std::string out = (scratch() / "out").string();
  const std::string cmd = "/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/sweep collect " + dir.string() +
                          " --stat counters/sm0.l1d.hit >" + out + " 2>&1";
  const int status = std::system(cmd.c_str());
  const std::string text = simt::test::slurp(out);
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 2), text);
  BOOST_TEST(text.find("'counters/sm0.l1d.hit'") != std::string::npos, text);  // the key asked for
  BOOST_TEST(text.find("did you mean counters/sm0.l1d.hits") != std::string::npos, text);  // the closest first
  BOOST_TEST(!fs::exists(dir / "results.csv"));  // nothing written with an empty column
  BOOST_TEST(!fs::exists(dir / "results.md"));
  // A key the runs have is still fine: the same directory collects.
  const std::string good = "/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/sweep collect " + dir.string() +
                           " --stat counters/sm0.l1d.hits >" + out + " 2>&1";
  BOOST_TEST(std::system(good.c_str()) == 0, simt::test::slurp(out));
}
