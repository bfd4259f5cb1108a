// tools/sweep's slurm runner on a real single-node Slurm cluster
// (tests/tools/slurm_cluster.sh: munged, slurmctld and slurmd from Debian's
// packages, in a scratch directory, stopped afterwards). A sweep goes in as
// a held job array; one pending task is cancelled (resubmitted by --resume)
// and one is killed while it runs (found lost and resubmitted by the waiting
// runner); a run simtlab rejects is recorded as failed and not retried; the
// collected CSV equals the same sweep run locally, wall time aside.
//
// Where no cluster can be started (not root, no packages) the test prints
// "SKIP: <why>", which CTest reports as skipped (SKIP_REGULAR_EXPRESSION).
#define BOOST_TEST_MODULE sweep_slurm
#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"
#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using nlohmann::json;
using simt::test::ProcessRun;

namespace {

SIMT_TEST_SCRATCH("simtlab_slurm");

const std::string kCluster = SIMT_SOURCE_DIR "/tests/tools/slurm_cluster.sh";
const std::string kSweep = "/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/sweep ";

// Runs a shell command; returns its exit code, stdout and stderr.
ProcessRun sh(const std::string& cmd) { return simt::test::run_command(cmd, scratch()); }

// The cluster for the whole file: started before the tests, stopped after them (before the scratch
// directory it lives in is removed: global fixtures are torn down in reverse order).
struct Cluster {
  static inline std::string skip;   // "SKIP: why" when no cluster can run here
  static inline std::string error;  // why starting it failed, when it should have worked
  fs::path dir = scratch() / "cluster";
  bool up = false;
  Cluster() {
    const ProcessRun r = sh(kCluster + " start " + dir.string());
    const std::string key = "export SLURM_CONF=";
    const auto at = r.out.find(key);
    if (r.code == 77) {
      skip = r.out.substr(0, r.out.find('\n'));
    } else if (r.code != 0 || at == std::string::npos) {
      error = "slurm_cluster.sh start exited " + std::to_string(r.code) + ": " + r.out + r.err;
    } else {
      const std::string conf = r.out.substr(at + key.size(), r.out.find('\n', at) - at - key.size());
      ::setenv("SLURM_CONF", conf.c_str(), 1);
      up = true;
    }
  }
  ~Cluster() {
    if (up) sh(kCluster + " stop " + dir.string());
  }
};
BOOST_TEST_GLOBAL_FIXTURE(Cluster);

json read(const fs::path& p) { return json::parse(simt::test::slurp(p)); }

// The CSV without its wall_seconds column (the one value that differs between two runs of a sweep).
std::vector<std::string> csv_without_wall_time(const fs::path& p) {
  std::istringstream in(simt::test::slurp(p));
  std::string line;
  std::vector<std::string> rows;
  int drop = -1;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream s(line);
    while (std::getline(s, cell, ',')) cells.push_back(cell);
    if (drop < 0)
      for (size_t i = 0; i < cells.size(); ++i)
        if (cells[i] == "wall_seconds") drop = static_cast<int>(i);
    if (drop >= 0 && drop < static_cast<int>(cells.size())) cells.erase(cells.begin() + drop);
    std::string joined;
    for (const auto& c : cells) joined += c + ",";
    rows.push_back(joined);
  }
  return rows;
}

// Four quick functional runs (one with an L1D line size simtlab rejects: 96 is no power of two) and one timing run of a few seconds.
const char* kSweepFile =
    "name = \"slurmtest\"\n"
    "[axes]\n"
    "workload = [\"saxpy\", \"reduction\", \"bfs\"]\n"
    "mode = [\"functional\", \"timing\"]\n"
    "size = [\"small\", \"medium\"]\n"
    "[axes.set]\n"
    "\"l1d.line\" = [128, 96]\n"
    "[[exclude]]\nmode = \"timing\"\nsize = \"small\"\n"
    "[[exclude]]\nmode = \"timing\"\nworkload = [\"reduction\", \"bfs\"]\n"
    "[[exclude]]\nmode = \"functional\"\nsize = \"medium\"\n"
    "[[exclude]]\n\"set.l1d.line\" = 96\nworkload = [\"reduction\", \"bfs\"]\n"
    "[[exclude]]\n\"set.l1d.line\" = 96\nmode = \"timing\"\n"
    "[reference]\n\"set.l1d.line\" = 128\n";

std::string task_state(const std::string& job, int index) {
  const ProcessRun r = sh("squeue -h -r -j " + job + " -o '%K %T'");
  std::istringstream in(r.out);
  std::string k, state;
  while (in >> k >> state)
    if (k == std::to_string(index)) return state;
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(slurm_sweep_resubmits_lost_runs_and_collects_what_a_local_run_does) {
  if (!Cluster::skip.empty()) {
    std::cout << Cluster::skip << std::endl;  // "SKIP: why": CTest reports the test as skipped
    return;
  }
  BOOST_TEST_REQUIRE(Cluster::error.empty(), Cluster::error);
  const fs::path file = scratch() / "slurmtest.toml";
  std::ofstream(file) << kSweepFile;
  const std::string common = file.string() + " --simtlab " SIMT_BINARY_DIR "/simtlab --no-progress";

  // The same sweep locally, for the comparison at the end; the bogus run fails.
  ProcessRun r = sh(kSweep + "run " + common + " --out " + (scratch() / "local").string() + " -j 2");
  BOOST_TEST_REQUIRE(r.code == 1, r.out << r.err);
  BOOST_TEST_REQUIRE(sh(kSweep + "collect " + (scratch() / "local").string()).code == 0);

  // Submitted held, so a task can be cancelled before any starts.
  const fs::path out = scratch() / "slurm";
  r = sh(kSweep + "run " + common + " --out " + out.string() +
         " --runner slurm --poll 1 --array-limit 2 --time 10 --mem 300M --sbatch-arg=--hold --no-wait");
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("5 runs submitted to Slurm") != std::string::npos, r.out);
  const json jobs = read(out / "slurm" / "jobs.json");
  BOOST_TEST_REQUIRE(jobs.size() == 1u);
  const std::string job = jobs[0]["job"];
  const json ids = read(out / "slurm" / "batch-0.json");
  BOOST_TEST_REQUIRE(ids.size() == 5u);
  int cancelled = -1, timing = -1, bogus = -1;
  for (int i = 0; i < 5; ++i) {
    const json v = read(out / "runs" / ids[i].get<std::string>() / "run.json")["values"];
    if (v["mode"] == "timing") timing = i;
    else if (v["set.l1d.line"] == 96) bogus = i;
    else if (v["workload"] == "reduction") cancelled = i;
  }
  BOOST_TEST_REQUIRE((cancelled >= 0 && timing >= 0 && bogus >= 0));
  BOOST_TEST(task_state(job, cancelled) == "PENDING");
  BOOST_TEST_REQUIRE(sh("scancel " + job + "_" + std::to_string(cancelled)).code == 0);
  r = sh(kSweep + "status " + out.string());
  BOOST_TEST(r.out.find("4 of them queued or running in Slurm") != std::string::npos, r.out);

  // A second runner on the same directory while Slurm holds the runs must not start them locally.
  r = sh(kSweep + "run " + common + " --out " + out.string() + " --resume");
  BOOST_TEST(r.code == 2, r.out << r.err);
  BOOST_TEST(r.err.find("still queued in Slurm") != std::string::npos, r.err);

  // The waiting runner: resubmits the cancelled run at once, waits for the held ones.
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string cmd = "exec " + kSweep + "run " + common + " --out " + out.string() +
                            " --resume --runner slurm --poll 1 >" + (scratch() / "wait.out").string() + " 2>" +
                            (scratch() / "wait.err").string();
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Release the held runs only once the runner has seen them queued (on a loaded machine its start
  // can take longer than a quick run does).
  for (int i = 0; i < 1200; ++i) {
    if (simt::test::slurp(scratch() / "wait.out").find("still queued from an earlier submission") != std::string::npos)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  BOOST_TEST(sh("scontrol release " + job).code == 0);
  // Kill the timing run once it runs, after its wrapper has taken over SIGTERM (it has opened the
  // run's stderr.txt): the waiting runner must find it lost and submit it again.
  const fs::path timing_stderr = out / "runs" / ids[timing].get<std::string>() / "stderr.txt";
  bool killed = false;
  for (int i = 0; i < 1200 && !killed; ++i) {
    if (task_state(job, timing) == "RUNNING" && fs::exists(timing_stderr)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      killed = sh("scancel " + job + "_" + std::to_string(timing)).code == 0;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  BOOST_TEST(killed);
  int status = 0;
  for (int i = 0; i < 1800 && waitpid(pid, &status, WNOHANG) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (waitpid(pid, &status, WNOHANG) == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    BOOST_FAIL("the slurm runner did not finish in 180 s: " << simt::test::slurp(scratch() / "wait.out"));
  }
  const std::string wait_out = simt::test::slurp(scratch() / "wait.out");
  const std::string wait_err = simt::test::slurp(scratch() / "wait.err");
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 1), wait_out << wait_err);  // the bogus run failed
  BOOST_TEST(wait_out.find("4 runs are still queued from an earlier submission") != std::string::npos, wait_out);
  BOOST_TEST(wait_err.find(ids[timing].get<std::string>() + " lost") != std::string::npos, wait_err);
  BOOST_TEST(wait_out.find("4 of 5 runs done, 1 failed") != std::string::npos, wait_out);

  // The killed attempt is in the run's log; the rejected run ran once and kept simtlab's error.
  const std::string attempts = simt::test::slurp(out / "runs" / ids[timing].get<std::string>() / "attempts.log");
  BOOST_TEST(attempts.find("stopped by SIGTERM") != std::string::npos, attempts);
  const fs::path bogus_dir = out / "runs" / ids[bogus].get<std::string>();
  BOOST_TEST(read(bogus_dir / "status.json")["exit_code"].get<int>() == 2);
  BOOST_TEST(read(bogus_dir / "status.json")["error"].get<std::string>().find("l1d.line") != std::string::npos);
  const std::string bogus_log = simt::test::slurp(bogus_dir / "attempts.log");
  BOOST_TEST(bogus_log.find("started") == bogus_log.rfind("started"), bogus_log);

  // Collected, the Slurm sweep equals the local one.
  BOOST_TEST_REQUIRE(sh(kSweep + "collect " + out.string()).code == 0);
  const auto local_rows = csv_without_wall_time(scratch() / "local" / "results.csv");
  const auto slurm_rows = csv_without_wall_time(out / "results.csv");
  BOOST_TEST(local_rows.size() == 6u);  // header + 5 runs
  BOOST_TEST(local_rows == slurm_rows, simt::test::slurp(scratch() / "local" / "results.csv")
                                           << "\nslurm:\n" << simt::test::slurp(out / "results.csv"));
}

// An application workload (our CUDA test program `launches`, docs/sweeps.md "Applications") through
// Slurm: the task runs `simtlab exec` in the app's folder, and a program whose output misses its
// check fails there as it does locally.
BOOST_AUTO_TEST_CASE(slurm_runs_applications_in_their_folder_with_their_check) {
  if (!Cluster::skip.empty()) {
    std::cout << Cluster::skip << std::endl;
    return;
  }
  BOOST_TEST_REQUIRE(Cluster::error.empty(), Cluster::error);
  const std::string programs = SIMT_BINARY_DIR "/cuda";
  if (SIMT_CUDA_SANITIZE || !fs::exists(programs + "/launches")) {
    // Not "SKIP: ": that would mark the whole file skipped and hide the case above.
    std::cout << "not run: the application case needs the CUDA test programs (built when nvcc exists, not in "
                 "sanitizer builds)" << std::endl;
    return;
  }
  const fs::path file = scratch() / "apps.toml";
  std::ofstream(file) << "name = \"slurmapps\"\n"
                         "[apps.launches]\nroot = \"tests\"\ncommand = \"launches\"\ncheck = \"PASS total_after_refill\"\n"
                         "[apps.unmatched]\nroot = \"tests\"\ncommand = \"launches\"\ncheck = \"^NEVER PRINTED$\"\n"
                         "[axes]\nworkload = [\"app:launches\", \"app:unmatched\"]\nmode = [\"functional\"]\n";
  const fs::path out = scratch() / "slurm_apps";
  const ProcessRun r = sh(kSweep + "run " + file.string() + " --simtlab " SIMT_BINARY_DIR "/simtlab --no-progress --root tests=" +
                          programs + " --out " + out.string() + " --runner slurm --poll 1 --time 10 --mem 300M");
  BOOST_TEST(r.code == 1, r.out << r.err);  // the unmatched check fails
  BOOST_TEST(r.out.find("1 of 2 runs done, 1 failed") != std::string::npos, r.out << r.err);
  int checked = 0;
  for (const auto& d : fs::directory_iterator(out / "runs")) {
    const json run = read(d.path() / "run.json");
    BOOST_TEST(run["cwd"] == programs);
    const int code = read(d.path() / "status.json")["exit_code"].get<int>();
    if (run["values"]["workload"] == "app:launches") {
      BOOST_TEST(code == 0);
      BOOST_TEST(simt::test::slurp(d.path() / "stdout.txt").find("PASS total_after_refill") != std::string::npos);
      BOOST_TEST(read(d.path() / "stats.json")["kernels"].size() == 6u);
    } else {
      BOOST_TEST(code == -3);  // apps.CHECK_FAILED
    }
    ++checked;
  }
  BOOST_TEST(checked == 2);
}
