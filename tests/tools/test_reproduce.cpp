// tools/reproduce: a seed's sweep file is run, collected and plotted into
// results/<seed>/ by one command; a second call resumes instead of starting
// over; an unknown seed is a usage error that lists the seeds there are.
// A seed's suite sweeps (files with [apps]) run only with --suites (the
// programs' runs are in test_sweep_apps, which skips without nvcc).
#define BOOST_TEST_MODULE reproduce
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/sanitized.h"
#include "common/simtlab_process.h"
#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using simt::test::ProcessRun;

namespace {

SIMT_TEST_SCRATCH("simtlab_reproduce");

ProcessRun reproduce(const std::string& args) {
  return simt::test::run_tool("reproduce",
                              args + " --out " + (scratch() / "results").string() +
                                  " --simtlab " SIMT_BINARY_DIR "/simtlab --no-progress",
                              scratch());
}

}  // namespace

// The sweep files tools/reproduce reads: ours, or under the sanitizers
// (tests/common/sanitized.h) a copy of them whose 001-tbc.toml runs at small
// size (its four saxpy runs take a minute each at medium there). The copy
// sits beside a link to configs/, which its "../configs/" paths name.
std::string sweeps_option(std::string& size) {
  size = "medium";
  if (!simt::test::sanitized()) return "";
  size = "small";
  fs::copy(SIMT_SOURCE_DIR "/sweeps", scratch() / "sweeps", fs::copy_options::recursive);
  fs::create_directory_symlink(SIMT_SOURCE_DIR "/configs", scratch() / "configs");
  const fs::path tbc = scratch() / "sweeps" / "001-tbc.toml";
  std::string text = simt::test::slurp(tbc);
  const std::string from = "size = [\"medium\"]";
  BOOST_TEST_REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), "size = [\"small\"]");
  std::ofstream(tbc) << text;
  return " --sweeps " + (scratch() / "sweeps").string();
}

BOOST_AUTO_TEST_CASE(seed_001_tables_and_figures_from_one_command) {
  // A subset keeps it short: the main sweep's PDOM and TBC-LCP on saxpy, on both pipelines.
  std::string size;
  const std::string subset = " --sweep 001-tbc --workloads saxpy --only overlays.scheme=pdom.toml,tbc-lcp.toml" +
                             sweeps_option(size);
  ProcessRun r = reproduce("001 -j 2" + subset);
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  // Seed 001 has two sweep files: each gets its folder.
  const fs::path dir = scratch() / "results" / "001" / "001-tbc";
  const std::string csv = simt::test::slurp(dir / "results.csv");
  for (const std::string scheme : {"pdom.toml", "tbc-lcp.toml"})
    for (const std::string pipeline : {"-", "tbc-paper.toml"})
      BOOST_TEST(csv.find("saxpy,tbc-baseline.toml," + pipeline + "," + scheme + "," + size + ",timing,ok") !=
                     std::string::npos, scheme << " " << pipeline << "\n" << csv);
  const std::string md = simt::test::slurp(dir / "results.md");
  for (const std::string table : {"## simd_efficiency", "## memory_pipeline_stalls", "## derived.mean_resident_ctas"})
    BOOST_TEST(md.find(table) != std::string::npos, table << md);
  BOOST_TEST(r.out.find("| tbc-paper.toml | pdom.toml | 1.000 |") != std::string::npos, r.out);  // printed too
  for (const std::string fig : {"fig11", "fig12a", "fig12b", "fig13a", "fig13b", "fig15"})
    for (const std::string pipeline : {"-realistic", "-paper"})
      for (const std::string ext : {".png", ".svg"})
        BOOST_TEST(fs::file_size(dir / "plots" / (fig + pipeline + ext)) > 1000u, fig + pipeline + ext);

  // Again: resumed, nothing rerun.
  r = reproduce("1" + subset);
  BOOST_TEST(r.code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("(resuming)") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("4 runs, 4 done before, 0 to run") != std::string::npos, r.out);
  BOOST_TEST(!fs::exists(scratch() / "results" / "001" / "001-tbc-big-sm"));  // --sweep left it out
}

BOOST_AUTO_TEST_CASE(an_unknown_sweep_of_a_seed_names_the_ones_there_are) {
  const ProcessRun r = reproduce("001 --sweep 001-nope");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("no sweep file 001-nope") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("001-tbc-big-sm") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(an_unknown_seed_names_the_seeds_there_are) {
  const ProcessRun r = reproduce("042");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("no sweep file for seed 042") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("001") != std::string::npos, r.err);
}

// A seed 900 in a scratch sweeps folder: one sweep of a built-in kernel, one suite sweep with a program
// under root `tests` (our CUDA test programs) and one under root `absent`.
fs::path demo_sweeps() {
  const fs::path dir = scratch() / "sweeps";
  fs::create_directories(dir);
  std::ofstream(dir / "900-demo.toml") << "name = \"900-demo\"\n[axes]\nworkload = [\"saxpy\"]\nsize = [\"small\"]\n"
                                          "mode = [\"functional\"]\n";
  fs::copy_file(SIMT_SOURCE_DIR "/tests/tools/data/900-demo-suites.toml", dir / "900-demo-suites.toml",
                fs::copy_options::overwrite_existing);
  return dir;
}

BOOST_AUTO_TEST_CASE(suite_sweeps_run_only_with_suites_and_only_the_roots_given) {
  const std::string sweeps = " --sweeps " + demo_sweeps().string();
  // Without --suites: the built-in sweep alone, in results/900/ as a seed with one sweep file.
  ProcessRun r = reproduce("900" + sweeps);
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("900-demo-suites.toml left out: it runs the paper's programs (give --suites)") !=
                 std::string::npos, r.out);
  BOOST_TEST(fs::exists(scratch() / "results" / "900" / "results.csv"));
  BOOST_TEST(!fs::exists(scratch() / "results" / "900" / "900-demo-suites"));

  // A --suites folder that is not there, or a malformed list: usage errors.
  r = reproduce("900 --suites tests=" + (scratch() / "nowhere").string() + sweeps);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--suites tests=") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("no such folder") != std::string::npos, r.err);
  r = reproduce("900 --suites tests" + sweeps);
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--suites takes NAME=PATH") != std::string::npos, r.err);
  // Running the programs: tests/tools/test_sweep_apps.cpp (reproduce_runs_the_roots_given).
}

BOOST_AUTO_TEST_CASE(a_study_runs_by_its_name_into_its_own_folder) {
  // A study across seeds (sweeps/combos.toml is one): sweeps/<name>.toml, by name.
  const fs::path dir = scratch() / "study-sweeps";
  fs::create_directories(dir);
  std::ofstream(dir / "demo-study.toml") << "name = \"demo-study\"\n[axes]\nworkload = [\"saxpy\"]\nsize = [\"small\"]\n"
                                            "mode = [\"functional\"]\n";
  const ProcessRun r = reproduce("demo-study --sweeps " + dir.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  BOOST_TEST(fs::exists(scratch() / "results" / "demo-study" / "results.csv"));
  // `all` is the seeds only.
  const ProcessRun none = reproduce("all --sweeps " + dir.string());
  BOOST_TEST(none.code == 2, none.out << none.err);
}
