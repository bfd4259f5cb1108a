// tools/sweep with application workloads ([apps.<name>], workload app:<name>):
// plan checks the app tables and the roots given with --root (exit 2 naming
// the variable, the app or the program); run starts `simtlab exec` in the
// app's folder and passes a run only when the program exits 0 and prints its
// check; collect gives a row per run. The programs are our own CUDA tests
// (tests/cuda, built into <build>/cuda/ when nvcc exists); without them the
// run case prints "SKIP: ...".
#define BOOST_TEST_MODULE sweep_apps
#include <boost/test/unit_test.hpp>

#include <algorithm>
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
using simt::test::ProcessRun;

namespace {

SIMT_TEST_SCRATCH("simtlab_sweep_apps");

const std::string kPrograms = SIMT_BINARY_DIR "/cuda";

// Two of our CUDA test programs as applications under the root variable `tests`.
const std::string kApps =
    "[apps.launches]\n"
    "root = \"tests\"\n"
    "command = \"launches\"\n"
    "check = \"PASS total_after_refill\"\n"
    "class = \"convergent\"\n"
    "[apps.launch_cost]\n"
    "root = \"tests\"\n"
    "command = \"launch_cost 100\"\n"
    "check = \"^PASS launch_count$\"\n"
    "launches = \"2-3\"\n";

fs::path write_sweep(const std::string& name, const std::string& text) {
  const fs::path f = scratch() / name;
  std::ofstream(f) << text;
  return f;
}

// `tools/sweep <args>`, stdout and stderr captured.
ProcessRun sweep(const std::string& args) { return simt::test::run_tool("sweep", args, scratch()); }

ProcessRun plan(const std::string& name, const std::string& text, const std::string& extra) {
  return sweep("plan " + write_sweep(name, text).string() + " --simtlab " SIMT_BINARY_DIR "/simtlab " + extra);
}

// The error for a bad sweep or root: exit 2, "<file>:<line>:" and `what` on stderr.
void expect_error(const std::string& name, const std::string& text, const std::string& extra, int line,
                  const std::string& what) {
  const ProcessRun r = plan(name, text, extra);
  BOOST_TEST(r.code == 2, name << ": " << r.err);
  const std::string where = (scratch() / name).string() + ":" + std::to_string(line) + ":";
  BOOST_TEST(r.err.find(where) != std::string::npos, name << ": wanted " << where << " in: " << r.err);
  BOOST_TEST(r.err.find(what) != std::string::npos, name << ": wanted '" << what << "' in: " << r.err);
}

json read(const fs::path& p) { return json::parse(simt::test::slurp(p)); }

// A folder holding an executable `name` (a shell script: plan only checks that it is there).
fs::path fake_root(const std::string& name) {
  const fs::path root = scratch() / "fake_root";
  fs::create_directories(root / "bin");
  std::ofstream(root / "bin" / name) << "#!/bin/sh\necho PASS\n";
  fs::permissions(root / "bin" / name, fs::perms::owner_all, fs::perm_options::add);
  return root;
}

}  // namespace

BOOST_AUTO_TEST_CASE(apps_files_share_a_suites_programs_between_sweeps) {
  const fs::path root = fake_root("bfs");
  std::ofstream(scratch() / "suite.toml") << "# a suite's programs\n[apps.bfs]\nroot = \"suite\"\ncommand = \"bin/bfs\"\n"
                                             "check = \"PASS\"\nclass = \"divergent\"\n";
  const std::string axes = "[axes]\nworkload = [\"app:bfs\"]\nmode = [\"functional\"]\n";
  const ProcessRun r = plan("uses_file.toml", "apps_files = [\"suite.toml\"]\n" + axes, "--json --root suite=" + root.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const json p = json::parse(r.out);
  BOOST_TEST(p["count"] == 1);
  BOOST_TEST(p["runs"][0]["cwd"] == root.string());
  BOOST_TEST(p["sweep"] == "uses_file");  // the sweep's name, not an application's
  // app_classes sets a sweep's own class for a shared program: collect and plots group by it.
  const ProcessRun classed = plan("classed.toml", "apps_files = [\"suite.toml\"]\n[app_classes]\nbfs = \"convergent\"\n" + axes,
                                  "--json --root suite=" + root.string());
  BOOST_TEST_REQUIRE(classed.code == 0, classed.err);
  BOOST_TEST(json::parse(classed.out)["sweep"] == "classed");
  expect_error("unknown_class_app.toml", "apps_files = [\"suite.toml\"]\n[app_classes]\nnope = \"x\"\n" + axes, "", 3,
               "app_classes names no application 'nope'");
  // Defined twice; a missing file; an apps file with something else than [apps] tables; a bad table
  // in it is reported at its own line.
  expect_error("twice.toml", "apps_files = [\"suite.toml\"]\n[apps.bfs]\nroot = \"r\"\ncommand = \"a\"\ncheck = \"x\"\n" + axes,
               "", 1, "application 'bfs' is defined twice");
  const ProcessRun missing = plan("missing.toml", "apps_files = [\"nowhere.toml\"]\n" + axes, "");
  BOOST_TEST(missing.code == 2);
  BOOST_TEST(missing.err.find("nowhere.toml:1: cannot read the file") != std::string::npos, missing.err);
  std::ofstream(scratch() / "bad_suite.toml") << "[axes]\nworkload = []\n";
  const ProcessRun bad = plan("bad_suite_user.toml", "apps_files = [\"bad_suite.toml\"]\n" + axes, "");
  BOOST_TEST(bad.code == 2);
  BOOST_TEST(bad.err.find("bad_suite.toml:1: an apps file holds only [apps.<name>] tables") != std::string::npos, bad.err);
  std::ofstream(scratch() / "bad_table.toml") << "\n[apps.bfs]\nroot = \"r\"\ncommand = \"a\"\n";
  const ProcessRun table = plan("bad_table_user.toml", "apps_files = [\"bad_table.toml\"]\n" + axes, "");
  BOOST_TEST(table.code == 2);
  BOOST_TEST(table.err.find("bad_table.toml:2: [apps.bfs] needs check") != std::string::npos, table.err);
}

BOOST_AUTO_TEST_CASE(plan_resolves_apps_under_their_root) {
  const fs::path root = fake_root("bfs");
  const ProcessRun r = plan("resolve.toml",
                            "[apps.bfs]\nroot = \"suite\"\ncommand = \"bin/bfs {root}/graph.txt -n 4\"\n"
                            "cwd = \"bin\"\ncheck = \"PASS\"\nlaunches = \"1-\"\n"
                            "[axes]\nworkload = [\"app:bfs\", \"saxpy\"]\nmode = [\"timing\", \"functional\"]\n",
                            "--json --root suite=" + root.string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  const json p = json::parse(r.out);
  BOOST_TEST(p["count"] == 4);
  int apps = 0;
  for (const json& run : p["runs"]) {
    const std::vector<std::string> cmd = run["command"];
    if (run["values"]["workload"] != "app:bfs") {
      BOOST_TEST(cmd[1] == "run");
      continue;
    }
    ++apps;
    BOOST_TEST(run["id"].get<std::string>().rfind("bfs-", 0) == 0);
    BOOST_TEST(run["cwd"] == (root / "bin").string());
    BOOST_TEST(cmd[1] == "exec");
    // The program and its arguments after `--`, {root} replaced; the window only in timing mode.
    const auto dash = std::find(cmd.begin(), cmd.end(), "--");
    BOOST_TEST_REQUIRE((dash != cmd.end()));
    BOOST_TEST((std::vector<std::string>(dash + 1, cmd.end()) ==
                std::vector<std::string>{(root / "bin" / "bfs").string(), (root / "graph.txt").string(), "-n", "4"}));
    const bool window = std::find(cmd.begin(), dash, "--launches") != dash;
    BOOST_TEST(window == (run["values"]["mode"] == "timing"));
  }
  BOOST_TEST(apps == 2);
}

BOOST_AUTO_TEST_CASE(missing_roots_programs_and_bad_tables_exit_2_at_plan) {
  const std::string axes = "[axes]\nworkload = [\"app:launches\", \"saxpy\"]\n";
  // No --root: the variable and the app are named, at the app's root line.
  expect_error("no_root.toml", kApps + axes, "", 2, "application 'launches' needs the root 'tests': give --root tests=PATH");
  // A root without the program.
  const fs::path empty = scratch() / "empty_root";
  fs::create_directories(empty);
  expect_error("no_program.toml", kApps + axes, "--root tests=" + empty.string(), 3,
               "program not found: " + (empty / "launches").string());
  expect_error("bad_root_folder.toml", kApps + axes, "--root tests=" + (scratch() / "nowhere").string(), 1,
               "--root tests=" + (scratch() / "nowhere").string() + ": no such folder");
  expect_error("bad_root_syntax.toml", kApps + axes, "--root tests", 1, "--root takes NAME=PATH");
  // Sweep-file errors need no root.
  expect_error("unknown_app.toml", kApps + "[axes]\nworkload = [\"app:lunches\"]\n", "", 12,
               "unknown application 'app:lunches' (define it in an [apps.lunches] table; defined: launch_cost, launches)");
  expect_error("no_check.toml", "[apps.a]\nroot = \"r\"\ncommand = \"a\"\n" + axes, "", 1, "[apps.a] needs check");
  expect_error("bad_key.toml", "[apps.a]\nroot = \"r\"\ncommand = \"a\"\ncheck = \"x\"\nargs = \"1\"\n" + axes, "", 5,
               "[apps.a] has no key 'args'");
  expect_error("bad_regex.toml", "[apps.a]\nroot = \"r\"\ncommand = \"a\"\ncheck = \"PASS (\"\n" + axes, "", 4,
               "[apps.a] check is not a regular expression");
  expect_error("bad_window.toml", "[apps.a]\nroot = \"r\"\ncommand = \"a\"\ncheck = \"x\"\nlaunches = \"3..5\"\n" + axes,
               "", 5, "[apps.a] launches is numbers and ranges");
  expect_error("absolute.toml", "[apps.a]\nroot = \"r\"\ncommand = \"/bin/a\"\ncheck = \"x\"\n" + axes, "", 3,
               "command is relative to the root 'r'");
  expect_error("not_table.toml", "apps = 3\n" + axes, "", 1, "[apps] holds one table per application");
  expect_error("bad_exit.toml", "[apps.a]\nroot = \"r\"\ncommand = \"a\"\ncheck = \"x\"\nexit = \"1\"\n" + axes, "", 5,
               "[apps.a] exit is the program's exit status when it succeeds, 0-255");
}

BOOST_AUTO_TEST_CASE(apps_run_in_both_modes_and_collect_a_row_each) {
  if (SIMT_CUDA_SANITIZE) {  // as tests/cuda: ASan cannot run inside nvcc's uninstrumented programs
    std::cout << "SKIP: sanitizer build: the CUDA test programs cannot load the instrumented library" << std::endl;
    return;
  }
  if (!fs::exists(kPrograms + "/launches") || !fs::exists(kPrograms + "/launch_cost")) {
    std::cout << "SKIP: no CUDA test programs in " << kPrograms << " (built when nvcc exists)" << std::endl;
    return;
  }
  // launches in functional mode; launch_cost (100 more launches) in timing mode with launches 2-3 timed;
  // and a built-in workload beside them.
  const fs::path f = write_sweep("apps.toml", "name = \"apps\"\n" + kApps +
                                                  "[axes]\nworkload = [\"app:launches\", \"app:launch_cost\", \"saxpy\"]\n"
                                                  "mode = [\"functional\", \"timing\"]\n"
                                                  "[[exclude]]\nworkload = \"app:launches\"\nmode = \"timing\"\n"
                                                  "[[exclude]]\nworkload = \"app:launch_cost\"\nmode = \"functional\"\n"
                                                  "[[plot]]\nname = \"apps-cycles\"\nkind = \"bars\"\ny = \"cycles\"\n"
                                                  "means = \"amean\"\nwhere = { mode = [\"timing\"] }\n");
  const fs::path out = scratch() / "apps";
  const std::string root = " --root tests=" + kPrograms;
  ProcessRun r = sweep("run " + f.string() + " --out " + out.string() + " -j 2 --no-progress --simtlab " SIMT_BINARY_DIR
                       "/simtlab" + root);
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("4 of 4 runs done") != std::string::npos, r.out);
  BOOST_TEST(fs::exists(out / "bin" / "lib" / "simtlab" / "libcudart.so.13"));  // pinned beside the binary
  std::map<std::string, json> by_workload;
  for (const auto& d : fs::directory_iterator(out / "runs")) {
    const json run = read(d.path() / "run.json");
    by_workload[run["values"]["workload"].get<std::string>() + "/" + run["values"]["mode"].get<std::string>()] =
        read(d.path() / "stats.json");
    if (run["values"]["workload"] == "app:launches") {
      BOOST_TEST(run["cwd"] == kPrograms);
      BOOST_TEST(simt::test::slurp(d.path() / "stdout.txt").find("PASS total_after_refill") != std::string::npos);
    }
  }
  BOOST_TEST_REQUIRE(by_workload.size() == 4u);
  // launches: six launches, all functional. launch_cost: 110 launches, exactly 2 and 3 timed.
  const json& fn = by_workload.at("app:launches/functional");
  BOOST_TEST(fn["kernels"].size() == 6u);
  for (const json& k : fn["kernels"]) BOOST_TEST(k["mode"] == "functional");
  const json& timed = by_workload.at("app:launch_cost/timing");
  BOOST_TEST_REQUIRE(timed["kernels"].size() == 110u);
  for (size_t i = 0; i < timed["kernels"].size(); ++i)
    BOOST_TEST(timed["kernels"][i]["mode"] == (i == 1 || i == 2 ? "timing" : "functional"), i);
  BOOST_TEST(timed["cycles"].get<uint64_t>() > 0u);

  r = sweep("collect " + out.string() + root);
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  std::istringstream csv(simt::test::slurp(out / "results.csv"));
  std::string line;
  std::getline(csv, line);
  int rows = 0, app_rows = 0;
  while (std::getline(csv, line)) {
    ++rows;
    app_rows += line.find(",app:") != std::string::npos;
    BOOST_TEST(line.find(",ok,0,") != std::string::npos, line);
  }
  BOOST_TEST(rows == 4);
  BOOST_TEST(app_rows == 2);

  // One kernel of an application: kernel:PATTERN/FIELD sums FIELD over that kernel's launches
  // (launch_cost launches k0 101 times, k1 once, each with one CTA).
  r = sweep("collect " + out.string() + " --stat 'kernel:*k0*/ctas' --stat 'kernel:*k1*/ctas'" +
            " --csv " + (scratch() / "kernels.csv").string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  {
    std::istringstream kcsv(simt::test::slurp(scratch() / "kernels.csv"));
    std::string head, row;
    std::getline(kcsv, head);
    std::vector<std::string> cols;
    for (std::istringstream h(head); std::getline(h, row, ',');) cols.push_back(row);
    const auto k0 = std::find(cols.begin(), cols.end(), "kernel:*k0*/ctas") - cols.begin();
    const auto k1 = std::find(cols.begin(), cols.end(), "kernel:*k1*/ctas") - cols.begin();
    BOOST_TEST_REQUIRE((k0 < static_cast<long>(cols.size()) && k1 < static_cast<long>(cols.size())), head);
    int seen = 0;
    while (std::getline(kcsv, row)) {
      if (row.find("app:launch_cost") == std::string::npos) continue;
      std::vector<std::string> cells;
      for (std::istringstream c(row); std::getline(c, head, ',');) cells.push_back(head);
      BOOST_TEST(std::stod(cells.at(k0)) == 101.0, row);
      BOOST_TEST(std::stod(cells.at(k1)) == 1.0, row);
      ++seen;
    }
    BOOST_TEST(seen == 1);
  }
  r = sweep("collect " + out.string() + " --stat 'kernel:nothing/cycles'");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("no successful run has the statistic 'kernel:nothing/cycles'") != std::string::npos, r.err);

  // A figure over the runs, the application's class (convergent) among the means.
  r = sweep("plot " + out.string() + " --format svg");
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  const std::string svg = simt::test::slurp(out / "plots" / "apps-cycles.svg");
  BOOST_TEST(svg.find("launch_cost") != std::string::npos);

  // A check the program does not print fails the run although it exited 0; resuming with the app
  // changed is refused, a new directory runs it and records why it failed.
  std::string text = simt::test::slurp(f);
  text.replace(text.find("PASS total_after_refill"), 23, "PASS total_after_refil!");
  const fs::path g = write_sweep("apps_bad.toml", text);
  r = sweep("run " + g.string() + " --out " + out.string() + " --resume --no-progress" + root);
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(r.err.find("[apps.launches] changed") != std::string::npos, r.err);
  const fs::path bad = scratch() / "apps_bad";
  r = sweep("run " + g.string() + " --out " + bad.string() + " --only workload=app:launches --no-progress --simtlab "
            SIMT_BINARY_DIR "/simtlab" + root);
  BOOST_TEST(r.code == 1, r.out << r.err);
  BOOST_TEST(r.out.find("output check failed") != std::string::npos, r.out);
  for (const auto& d : fs::directory_iterator(bad / "runs"))
    BOOST_TEST(read(d.path() / "status.json")["exit_code"].get<int>() == -3);
}

BOOST_AUTO_TEST_CASE(an_app_reads_its_stdin_and_succeeds_with_its_exit_status) {
  if (SIMT_CUDA_SANITIZE || !fs::exists(kPrograms + "/launch_cost") || !fs::exists(kPrograms + "/unsupported")) {
    std::cout << "SKIP: no CUDA test programs to run (built when nvcc exists, not in sanitizer builds)" << std::endl;
    return;
  }
  // launch_cost - 7: N from stdin, exit status 7 when its count is right. Expected 7: done; expected
  // 0 (the default): a failed run; expected 7 from a program that exits 0: failed too.
  const std::string apps =
      "[apps.seven]\nroot = \"tests\"\ncommand = \"launch_cost - 7\"\ncheck = \"PASS launch_count\"\n"
      "stdin = \"5\\n\"\nexit = 7\n"
      "[apps.default_exit]\nroot = \"tests\"\ncommand = \"launch_cost - 7\"\ncheck = \"PASS launch_count\"\n"
      "stdin = \"5\\n\"\n"
      "[apps.exits_zero]\nroot = \"tests\"\ncommand = \"launch_cost 5\"\ncheck = \"PASS launch_count\"\nexit = 7\n"
      // A line the program's stderr holds (here the runtime's note on the call it lacks) passes too.
      "[apps.on_stderr]\nroot = \"tests\"\ncommand = \"unsupported\"\ncheck = \"^simtlab: cudaGraphCreate is not supported\"\n";
  const fs::path f = write_sweep("exit.toml", "name = \"exit\"\n" + apps +
                                                  "[axes]\nworkload = [\"app:seven\", \"app:default_exit\", \"app:exits_zero\", \"app:on_stderr\"]\n"
                                                  "mode = [\"functional\"]\n");
  const fs::path out = scratch() / "exit";
  const ProcessRun r = sweep("run " + f.string() + " --out " + out.string() + " --no-progress --simtlab " SIMT_BINARY_DIR
                             "/simtlab --root tests=" + kPrograms);
  BOOST_TEST(r.code == 1, r.out << r.err);
  std::map<std::string, int> codes;
  for (const auto& d : fs::directory_iterator(out / "runs")) {
    const std::string w = read(d.path() / "run.json")["values"]["workload"];
    codes[w] = read(d.path() / "status.json")["exit_code"].get<int>();
    if (w == "app:seven")  // five more launches than the ten: N came from stdin
      BOOST_TEST(read(d.path() / "stats.json")["kernels"].size() == 15u);
  }
  BOOST_TEST(codes["app:seven"] == 0);
  BOOST_TEST(codes["app:default_exit"] == 7);
  BOOST_TEST(codes["app:exits_zero"] == -4);
  BOOST_TEST(codes["app:on_stderr"] == 0);
}

// A run whose report lists a refused launch fails (-5) although the program ended as its [apps]
// table says: rdc's kernels call functions, which the TBC branch unit refuses; the program's checks
// then fail and it exits 1, which this table declares a success.
BOOST_AUTO_TEST_CASE(a_run_with_a_refused_launch_fails) {
  if (SIMT_CUDA_SANITIZE || !fs::exists(kPrograms + "/rdc")) {
    std::cout << "SKIP: no CUDA test programs to run (built when nvcc exists, not in sanitizer builds)" << std::endl;
    return;
  }
  const fs::path f = write_sweep(
      "refused.toml", "name = \"refused\"\n[apps.rdc]\nroot = \"tests\"\ncommand = \"rdc\"\ncheck = \"check\\\\(s\\\\) failed\"\nexit = 1\n"
                      "[axes]\nmachine = [\"" SIMT_SOURCE_DIR "/configs/tbc-baseline.toml\"]\n"
                      "overlays = [[\"" SIMT_SOURCE_DIR "/configs/tbc.toml\"]]\nworkload = [\"app:rdc\"]\nmode = [\"timing\"]\n");
  const fs::path out = scratch() / "refused";
  const ProcessRun r = sweep("run " + f.string() + " --out " + out.string() + " --no-progress --simtlab " SIMT_BINARY_DIR
                             "/simtlab --root tests=" + kPrograms);
  BOOST_TEST(r.code == 1, r.out << r.err);
  for (const auto& d : fs::directory_iterator(out / "runs")) {
    const nlohmann::json st = read(d.path() / "status.json");
    BOOST_TEST(st["exit_code"].get<int>() == -5);
    BOOST_TEST(st["error"].get<std::string>().find("simtlab refused 2 launch(es)") != std::string::npos, st.dump());
  }
}

// tools/reproduce --suites (its other cases: test_reproduce.cpp): a seed 900 in a scratch sweeps
// folder whose suite sweep has two programs under root `tests` and one under root `absent`.
BOOST_AUTO_TEST_CASE(reproduce_runs_the_roots_given) {
  if (SIMT_CUDA_SANITIZE || !fs::exists(kPrograms + "/launches") || !fs::exists(kPrograms + "/launch_cost")) {
    std::cout << "SKIP: no CUDA test programs to run (built when nvcc exists, not in sanitizer builds)" << std::endl;
    return;
  }
  const fs::path dir = scratch() / "sweeps900";
  fs::create_directories(dir);
  fs::copy_file(SIMT_SOURCE_DIR "/tests/tools/data/900-demo-suites.toml", dir / "900-demo-suites.toml",
                fs::copy_options::overwrite_existing);
  const fs::path results = scratch() / "results900";
  auto reproduce = [&](const std::string& args) {
    const std::string cmd = "/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/reproduce 900 " + args + " --sweeps " +
                            dir.string() + " --out " + results.string() + " --simtlab " SIMT_BINARY_DIR
                            "/simtlab --no-progress >" + (scratch() / "out").string() + " 2>" +
                            (scratch() / "err").string();
    const int status = std::system(cmd.c_str());
    return ProcessRun{WIFEXITED(status) ? WEXITSTATUS(status) : -1, simt::test::slurp(scratch() / "out"),
                      simt::test::slurp(scratch() / "err")};
  };
  // --quick: the sweep's quick subset; with the root `tests` only, the program under `absent` is left
  // out, and said so.
  ProcessRun r = reproduce("--quick --suites tests=" + kPrograms);
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("no --suites root for absent: 1 of 3 programs left out") != std::string::npos, r.out);
  const fs::path csv_file = results / "900" / "900-demo-suites" / "results.csv";
  std::string csv = simt::test::slurp(csv_file);
  BOOST_TEST(csv.find("app:launches") != std::string::npos, csv);
  BOOST_TEST(csv.find("app:cost") == std::string::npos, csv);
  BOOST_TEST(csv.find("app:other") == std::string::npos, csv);
  // Without --quick, resumed: the rest of the programs whose root is given.
  r = reproduce("--suites tests=" + kPrograms);
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  csv = simt::test::slurp(csv_file);
  BOOST_TEST(csv.find("app:cost") != std::string::npos, csv);
  BOOST_TEST(csv.find("app:other") == std::string::npos, csv);
}
