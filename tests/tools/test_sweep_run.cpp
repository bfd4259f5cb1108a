// tools/sweep run, local runner: one directory per run with its stats and
// status; a failed run is recorded with its error; --resume reruns only what
// is missing or failed and refuses a changed binary; Ctrl-C stops the runs in
// flight and keeps the finished ones.
#define BOOST_TEST_MODULE sweep_run
#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"
#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using nlohmann::json;
using simt::test::ProcessRun;

namespace {

SIMT_TEST_SCRATCH("simtlab_sweep_run");

fs::path write_sweep(const std::string& name, const std::string& text) {
  const fs::path f = scratch() / name;
  std::ofstream(f) << text;
  return f;
}

ProcessRun sweep_run(const fs::path& file, const fs::path& out, const std::string& extra = "") {
  return simt::test::run_tool("sweep",
                              "run " + file.string() + " --out " + out.string() +
                                  " --no-progress --simtlab " SIMT_BINARY_DIR "/simtlab " + extra,
                              scratch());
}

json read(const fs::path& p) { return json::parse(simt::test::slurp(p)); }

// Run id -> exit code, from every runs/<id>/status.json.
std::map<std::string, int> statuses(const fs::path& out) {
  std::map<std::string, int> s;
  if (!fs::exists(out / "runs")) return s;
  for (const auto& d : fs::directory_iterator(out / "runs"))
    if (fs::exists(d.path() / "status.json"))
      s[d.path().filename().string()] = read(d.path() / "status.json")["exit_code"].get<int>();
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(runs_record_stats_failures_and_resume_only_what_is_missing) {
  // A 96-byte L1D line is in l1d.line's range (so plan takes it) but no power of two: those two runs
  // fail in simtlab's machine check.
  const fs::path f = write_sweep("mixed.toml", "name = \"mixed\"\n[axes]\nworkload = [\"saxpy\", \"reduction\"]\n"
                                               "mode = [\"functional\"]\n[axes.set]\n\"l1d.line\" = [128, 96]\n");
  const fs::path out = scratch() / "mixed";
  ProcessRun r = sweep_run(f, out, "-j 2");
  BOOST_TEST(r.code == 1, r.out << r.err);
  auto st = statuses(out);
  BOOST_TEST(st.size() == 4u);
  int ok = 0;
  for (const auto& [id, code] : st) {
    const json run = read(out / "runs" / id / "run.json");
    const bool bogus = run["values"]["set.l1d.line"] == 96;
    BOOST_TEST(code == (bogus ? 2 : 0), id);
    if (bogus) {
      const std::string err = read(out / "runs" / id / "status.json")["error"];
      BOOST_TEST(err.find("l1d.line") != std::string::npos, err);
    } else {
      ++ok;
      BOOST_TEST(read(out / "runs" / id / "stats.json")["thread_instructions"].get<uint64_t>() > 0u);
    }
  }
  BOOST_TEST(ok == 2);
  BOOST_TEST(r.out.find("2 failed") != std::string::npos, r.out);
  // The binary is pinned in the sweep directory with its hash.
  BOOST_TEST(fs::exists(out / "bin" / "simtlab"));
  BOOST_TEST(read(out / "sweep.json")["simtlab_sha256"].get<std::string>().size() == 64u);

  // Without --resume an existing sweep directory is refused.
  r = sweep_run(f, out);
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(r.err.find("--resume") != std::string::npos, r.err);

  // --resume reruns the two failed runs and one whose directory was removed, not the finished one.
  std::string removed, kept;
  for (const auto& [id, code] : st)
    if (code == 0) (removed.empty() ? removed : kept) = id;
  fs::remove_all(out / "runs" / removed);
  const auto kept_time = fs::last_write_time(out / "runs" / kept / "status.json");
  r = sweep_run(f, out, "--resume -j 2");
  BOOST_TEST(r.code == 1, r.err);
  BOOST_TEST(r.out.find("4 runs, 1 done before, 3 to run") != std::string::npos, r.out);
  BOOST_TEST(statuses(out).at(removed) == 0);
  BOOST_TEST((fs::last_write_time(out / "runs" / kept / "status.json") == kept_time));

  // A changed pinned binary cannot be resumed into.
  std::ofstream(out / "bin" / "simtlab", std::ios::app) << "x";
  r = sweep_run(f, out, "--resume");
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(r.err.find("changed") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(interrupt_keeps_finished_runs_and_leaves_no_status_for_stopped_ones) {
  // One quick run, then long timing runs: SIGINT lands while one is in flight.
  const fs::path f = write_sweep("stop.toml", "name = \"stop\"\n[axes]\nworkload = [\"saxpy\"]\n"
                                              "mode = [\"functional\", \"timing\"]\nsize = [\"medium\"]\n");
  const fs::path out = scratch() / "stop";
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string cmd = "exec /usr/bin/python3 " SIMT_SOURCE_DIR "/tools/sweep run " + f.string() + " --out " +
                            out.string() + " -j 1 --no-progress --simtlab " SIMT_BINARY_DIR "/simtlab >/dev/null 2>&1";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the functional run finished and the timing run started.
  for (int i = 0; i < 400 && statuses(out).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 130));
  const auto st = statuses(out);
  BOOST_TEST(st.size() == 1u);  // the finished functional run; the stopped timing run has no status
  for (const auto& [id, code] : st) BOOST_TEST(read(out / "runs" / id / "run.json")["values"]["mode"] == "functional");
  int dirs = 0;
  for (const auto& d : fs::directory_iterator(out / "runs")) {
    ++dirs;
    BOOST_TEST(!fs::exists(d.path() / "status.json.tmp"));
  }
  BOOST_TEST(dirs == 2);
}

BOOST_AUTO_TEST_CASE(only_narrows_the_runs_and_a_changed_input_file_refuses_runs) {
  // The machine file is a copy the test may change; the sweep pins its hash.
  fs::copy_file(SIMT_SOURCE_DIR "/configs/fermi-gtx480.toml", scratch() / "machine.toml",
                fs::copy_options::overwrite_existing);
  const fs::path f = write_sweep("pins.toml", "name = \"pins\"\n[axes]\nmachine = [\"machine.toml\"]\n"
                                              "workload = [\"saxpy\", \"reduction\"]\nmode = [\"functional\"]\n");
  const fs::path out = scratch() / "pins";
  ProcessRun r = sweep_run(f, out, "--only workload=saxpy");
  BOOST_TEST_REQUIRE(r.code == 0, r.out << r.err);
  BOOST_TEST(r.out.find("1 runs, 0 done before, 1 to run") != std::string::npos, r.out);
  BOOST_TEST(read(out / "sweep.json")["inputs"].size() == 1u);
  r = sweep_run(f, out, "--only workload=nosuch --resume");
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(r.err.find("--only leaves no run") != std::string::npos, r.err);

  // A run that starts after its machine file changed is refused and recorded (here through the Slurm
  // task's entry point, which runs whenever the cluster gets to it).
  std::ofstream(scratch() / "machine.toml", std::ios::app) << "\n# edited\n";
  std::string id;
  for (const auto& d : fs::directory_iterator(out / "runs")) id = d.path().filename().string();
  fs::create_directories(out / "slurm");
  std::ofstream(out / "slurm" / "batch-0.json") << json::array({id}).dump();
  const std::string cmd = "/usr/bin/python3 " SIMT_SOURCE_DIR "/tools/sweep exec " + out.string() +
                          " --batch 0 --index 0 >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 1));
  const json st = read(out / "runs" / id / "status.json");
  BOOST_TEST(st["exit_code"].get<int>() == -2);
  BOOST_TEST(st["error"].get<std::string>().find("machine.toml changed") != std::string::npos, st.dump());
  BOOST_TEST(!fs::exists(out / "runs" / id / "stats.json"));
  // Resuming refuses too, before running anything.
  r = sweep_run(f, out, "--resume");
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(r.err.find("machine.toml changed") != std::string::npos, r.err);
}
