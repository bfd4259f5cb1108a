#define BOOST_TEST_MODULE cuda_programs
#include <boost/test/unit_test.hpp>

// Runs the CUDA programs of tests/cuda/ (built by nvcc with -cudart shared,
// cmake/cuda_programs.cmake) on simtlab through `simtlab exec` and checks
// what a user sees: the program's own verdict ("PASS <check>" lines, no
// "FAIL", exit 0), what it prints from the device, simtlab's messages on
// stderr, and the statistics of a whole application. Each test case is
// its own CTest test (cuda.<case>); without nvcc each prints "SKIP: ...".
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"

namespace fs = std::filesystem;

namespace {

using Run = simt::test::ProcessRun;
using simt::test::slurp;

const std::string kPrograms = SIMT_CUDA_PROGRAM_DIR;
const std::string kConfigs = SIMT_SOURCE_DIR "/configs/";

// Every program cmake/cuda_programs.cmake builds.
const char* const kBuilt[] = {"device",  "memory",   "memory_uncompressed", "memory_speed", "managed",
                              "streams", "texture",  "launch",              "errors",       "fault",
                              "misaligned", "trap",  "assert",              "rdc",          "launches",
                              "launches_static", "launch_cost", "runaway", "unsupported", "two_units",
                              "sass_only"};

fs::path scratch() {
  static fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("simtlab_cuda_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return d;
}

// False (after printing why, which CTest reads as a skip) when the
// programs could not be built.
bool have_nvcc() {
  // A sanitizer build's library needs ASan's runtime first in the process,
  // and nvcc's programs are not instrumented: the library's code is checked
  // under the sanitizers by tests/cudart/ instead, which load it into an
  // instrumented test program.
  if (SIMT_CUDA_SANITIZE) {
    std::cout << "SKIP: sanitizer build: ASan cannot run inside nvcc's uninstrumented programs" << std::endl;
    return false;
  }
  if (SIMT_NVCC_FOUND) return true;
  std::cout << "SKIP: nvcc not found at " SIMT_NVCC ": CUDA program tests need it" << std::endl;
  return false;
}

// `simtlab exec <options> -- <program>`.
Run exec(const std::string& options, const std::string& program) {
  return simt::test::run_simtlab("exec " + options + " -- " + kPrograms + "/" + program, scratch());
}

// A command without the launcher, stdout and stderr captured the same way.
Run shell(const std::string& cmd) {
  const fs::path d = scratch();
  const int status = std::system((cmd + " >" + (d / "out").string() + " 2>" + (d / "err").string()).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(d / "out"), slurp(d / "err")};
}

std::string shown(const Run& r) {
  return "exit " + std::to_string(r.code) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// The program ran to the end and every one of its checks held.
void passed(const Run& r) {
  BOOST_TEST_INFO(shown(r));
  BOOST_TEST(r.code == 0);
  BOOST_TEST(count_of(r.out, "PASS ") > 0);
  BOOST_TEST(count_of(r.out, "FAIL ") == 0);
}

// The number after "INFO ... key=" on stdout, or NaN.
double info(const std::string& out, const std::string& key) {
  std::smatch m;
  if (std::regex_search(out, m, std::regex("\\b" + key + "=([-+0-9.eE]+)"))) return std::stod(m[1]);
  return std::nan("");
}

bool has_line(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l == line) return true;
  return false;
}

// simtlab's fault message: one "simtlab:" line naming the kernel, the CTA
// and the thread, printed once.
void fault_reported(const Run& r, const std::string& kernel, const std::string& cta, const std::string& thread) {
  BOOST_TEST_INFO(shown(r));
  std::istringstream in(r.err);
  int lines = 0;
  for (std::string l; std::getline(in, l);)
    if (l.rfind("simtlab: ", 0) == 0 && l.find("'" + kernel + "'") != std::string::npos &&
        l.find("CTA " + cta) != std::string::npos && l.find("thread " + thread) != std::string::npos)
      ++lines;
  BOOST_TEST(lines == 1);
}

// Splits one CSV line at the commas outside double quotes.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> f(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) f.emplace_back();
    else f.back() += c;
  }
  return f;
}

}  // namespace

BOOST_AUTO_TEST_CASE(programs_built) {
  if (!have_nvcc()) return;
  for (const char* p : kBuilt) {
    BOOST_TEST_INFO(kPrograms + "/" + p);
    BOOST_TEST(::access((kPrograms + "/" + p).c_str(), X_OK) == 0);
  }
}

// ---- device management: the machine file decides what the program sees ----

BOOST_AUTO_TEST_CASE(device_default_machine) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "device");
  passed(r);
  BOOST_TEST(info(r.out, "sms") == 1);  // the built-in machine is vws-baseline.toml
  BOOST_TEST(info(r.out, "warp") == 32);
}

BOOST_AUTO_TEST_CASE(device_fermi_timing) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode timing --config " + kConfigs + "fermi-gtx480.toml", "device");
  passed(r);
  BOOST_TEST(info(r.out, "sms") == 15);
  BOOST_TEST(info(r.out, "warp") == 32);
}

BOOST_AUTO_TEST_CASE(device_set_overrides) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional --config " + kConfigs + "fermi-gtx480.toml --set gpu.num_sms=7", "device");
  passed(r);
  BOOST_TEST(info(r.out, "sms") == 7);
}

// The library without the launcher: found through LD_LIBRARY_PATH, options
// from SIMTLAB_* variables.
BOOST_AUTO_TEST_CASE(device_without_launcher) {
  if (!have_nvcc()) return;
  const Run r = shell("env LD_LIBRARY_PATH=" SIMT_CUDART_DIR " SIMTLAB_MODE=functional SIMTLAB_CONFIG=" + kConfigs +
                      "fermi-gtx480.toml " + kPrograms + "/device");
  passed(r);
  BOOST_TEST(info(r.out, "sms") == 15);
}

// ---- memory, in both modes and for each way nvcc stores the PTX ----------

void memory_run(const std::string& options, const std::string& program) {
  const Run r = exec(options, program);
  passed(r);
  // The device printf lines (say_hello<<<1, 4>>>(7) in memory.cu).
  for (int t = 0; t < 4; ++t) {
    char line[160];
    std::snprintf(line, sizeof line, "DEVICE_PRINTF tid=%d k=7 half=%.2f word=ok hex=%x big=%lld ch=%c", t, t * 0.5,
                  0xbeef + t, 1000000000000LL + t, 'A' + t);
    BOOST_TEST_INFO(line);
    BOOST_TEST(has_line(r.out, line));
  }
  BOOST_TEST(count_of(r.out, "DEVICE_PRINTF") == 4);
}

BOOST_AUTO_TEST_CASE(memory_functional) {
  if (have_nvcc()) memory_run("--mode functional", "memory");
}

BOOST_AUTO_TEST_CASE(memory_timing) {
  if (have_nvcc()) memory_run("--mode timing --config " + kConfigs + "fermi-gtx480.toml", "memory");
}

BOOST_AUTO_TEST_CASE(memory_uncompressed_fatbin) {
  if (have_nvcc()) memory_run("--mode functional", "memory_uncompressed");
}

BOOST_AUTO_TEST_CASE(memory_speed_compressed_fatbin) {
  if (have_nvcc()) memory_run("--mode functional", "memory_speed");
}

BOOST_AUTO_TEST_CASE(managed_functional) {
  if (have_nvcc()) passed(exec("--mode functional", "managed"));
}

BOOST_AUTO_TEST_CASE(managed_timing) {
  if (!have_nvcc()) return;
  // Twice: a __managed__ variable is on the device at its host address, which address-space
  // randomisation would move (and the cache sets, and the cycles, with it); exec turns it off.
  const Run a = exec("--mode timing", "managed");
  const Run b = exec("--mode timing", "managed");
  passed(a);
  passed(b);
  BOOST_TEST(info(a.out, "managed_at") > 0);
  BOOST_TEST(info(a.out, "managed_at") == info(b.out, "managed_at"));
}

// ---- streams and events: events carry modelled time in timing mode -------

BOOST_AUTO_TEST_CASE(streams_functional) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "streams");
  passed(r);
  BOOST_TEST(info(r.out, "elapsed_ms") == 0.0);
}

BOOST_AUTO_TEST_CASE(streams_timing) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode timing --config " + kConfigs + "fermi-gtx480.toml", "streams");
  passed(r);
  BOOST_TEST(info(r.out, "elapsed_ms") > 0.0);
}

BOOST_AUTO_TEST_CASE(texture_functional) {
  if (have_nvcc()) passed(exec("--mode functional", "texture"));
}

BOOST_AUTO_TEST_CASE(texture_timing) {
  if (have_nvcc()) passed(exec("--mode timing", "texture"));
}

BOOST_AUTO_TEST_CASE(launch_functional) {
  if (have_nvcc()) passed(exec("--mode functional", "launch"));
}

// The cooperative grid spans several SMs of a bigger machine here.
BOOST_AUTO_TEST_CASE(launch_timing) {
  if (have_nvcc()) passed(exec("--mode timing --config " + kConfigs + "fermi-gtx480.toml", "launch"));
}

BOOST_AUTO_TEST_CASE(errors_functional) {
  if (have_nvcc()) passed(exec("--mode functional", "errors"));
}

// ---- kernel faults: the program sees a GPU's sticky errors (its own checks
// say so), simtlab says where the fault was, the statistics so far stay ---

void fault_run(const std::string& mode) {
  const fs::path stats = scratch() / ("fault_" + mode + ".json");
  fs::remove(stats);
  const Run r = exec("--mode " + mode + " --stats " + stats.string(), "fault");
  passed(r);
  fault_reported(r, "store_far", "(1,0,0)", "(3,0,0)");
  std::smatch m;
  BOOST_TEST_REQUIRE(std::regex_search(r.out, m, std::regex("fault_address=(0x[0-9a-f]+)")));
  BOOST_TEST(r.err.find("address " + m[1].str()) != std::string::npos);
  BOOST_TEST_REQUIRE(fs::exists(stats));
  std::ifstream f(stats);
  const nlohmann::json j = nlohmann::json::parse(f);
  BOOST_TEST_REQUIRE(j["kernels"].size() >= 1u);
  BOOST_TEST(j["kernels"][0]["kernel"] == "fill_ids");
}

BOOST_AUTO_TEST_CASE(fault_functional) {
  if (have_nvcc()) fault_run("functional");
}

BOOST_AUTO_TEST_CASE(fault_timing) {
  if (have_nvcc()) fault_run("timing");
}

// A defect of simtlab in a launch (SIMTLAB_TEST_FAIL_LAUNCH=2 stands in for
// one): the program sees a sticky cudaErrorUnknown (its own checks, with
// `fault unknown`, say so), simtlab says so once, and the exit status is 6
// although the program returned 0; the statistics so far are written.
BOOST_AUTO_TEST_CASE(internal_error_is_sticky_and_exits_6) {
  if (!have_nvcc()) return;
  const fs::path stats = scratch() / "internal.json";
  fs::remove(stats);
  ::setenv("SIMTLAB_TEST_FAIL_LAUNCH", "2", 1);
  const Run r = exec("--mode timing --stats " + stats.string(), "fault unknown");
  ::unsetenv("SIMTLAB_TEST_FAIL_LAUNCH");
  BOOST_TEST_INFO(shown(r));
  BOOST_TEST(r.code == 6);
  BOOST_TEST(count_of(r.out, "PASS ") > 0);
  BOOST_TEST(count_of(r.out, "FAIL ") == 0);
  BOOST_TEST(count_of(r.err, "internal error: launch 2 fails on purpose") == 1);
  BOOST_TEST(count_of(r.err, "exit status 6") == 1);
  BOOST_TEST_REQUIRE(fs::exists(stats));
  std::ifstream f(stats);
  const nlohmann::json j = nlohmann::json::parse(f);
  BOOST_TEST_REQUIRE(j["kernels"].size() == 1u);
  BOOST_TEST(j["kernels"][0]["kernel"] == "fill_ids");
}

// A kernel the machine does not model (rdc's kernels call functions, which
// the TBC branch unit refuses): the launch fails (not sticky: rdc's second
// kernel is refused too, and says so), and the report lists both launches.
BOOST_AUTO_TEST_CASE(refused_launches_are_in_the_report) {
  if (!have_nvcc()) return;
  const fs::path stats = scratch() / "refused.json";
  fs::remove(stats);
  const Run r = exec("--mode timing --config " + kConfigs + "tbc-baseline.toml --config " + kConfigs +
                         "tbc.toml --stats " + stats.string(), "rdc");
  BOOST_TEST_INFO(shown(r));
  BOOST_TEST(r.code == 1);  // the program's own checks fail
  BOOST_TEST(count_of(r.err, "uses calls") == 2);
  BOOST_TEST_REQUIRE(fs::exists(stats));
  std::ifstream f(stats);
  const nlohmann::json j = nlohmann::json::parse(f);
  BOOST_TEST_REQUIRE(j["refused_launches"].size() == 2u);
  BOOST_TEST(j["refused_launches"][0]["launch"] == 1);
  BOOST_TEST(j["refused_launches"][0]["kernel"] == "_Z8kernel_aPKiPii");
  BOOST_TEST(j["refused_launches"][0]["reason"].get<std::string>().find("does not model") != std::string::npos);
  BOOST_TEST(j["kernels"].size() == 0u);
}

BOOST_AUTO_TEST_CASE(misaligned_fault) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "misaligned");
  passed(r);
  fault_reported(r, "load_misaligned", "(0,0,0)", "(0,0,0)");
}

BOOST_AUTO_TEST_CASE(trap_fault) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "trap");
  passed(r);
  fault_reported(r, "trap_in_one_thread", "(0,0,0)", "(5,0,0)");
}

BOOST_AUTO_TEST_CASE(assert_fault) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "assert");
  passed(r);
  fault_reported(r, "all_positive", "(1,0,0)", "(5,0,0)");  // element 37 = block 1, thread 5
}

// ---- linked device code: two files, each with its own $str constants -----

BOOST_AUTO_TEST_CASE(rdc_two_files) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "rdc");
  passed(r);
  BOOST_TEST_INFO(r.out);
  BOOST_TEST(has_line(r.out, "RDC_A kernel_a n=96 first=-31"));
  BOOST_TEST(has_line(r.out, "RDC_B scale_b saw zero"));
  BOOST_TEST(has_line(r.out, "RDC_B kernel_b offset=1000 hits=96"));
}

// A kernel that never ends: the usual runaway limit stops it, the program
// gets cudaErrorLaunchTimeout, and the one message names the limit.
BOOST_AUTO_TEST_CASE(runaway_stopped) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional --max-warp-instructions 100000", "runaway");
  passed(r);
  BOOST_TEST(count_of(r.err, "simtlab: ") == 1, shown(r));
  BOOST_TEST(r.err.find("--max-warp-instructions") != std::string::npos, shown(r));
}

// A call simtlab lacks: cudaErrorNotSupported and one line naming it.
BOOST_AUTO_TEST_CASE(unsupported_call_named) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "unsupported");
  passed(r);
  BOOST_TEST(has_line(r.err, "simtlab: cudaGraphCreate is not supported (cudaErrorNotSupported)"), shown(r));
}

// Two translation units, two fatbins, a variable of the same name in each.
BOOST_AUTO_TEST_CASE(two_translation_units) {
  if (!have_nvcc()) return;
  passed(exec("--mode functional", "two_units"));
}

// --save-ptx: one file per fatbin (two translation units: two), one per unit of -rdc code, each
// the PTX the program embedded, which `simtlab inspect --load` takes; no temporary left behind.
BOOST_AUTO_TEST_CASE(save_ptx_writes_each_fatbin) {
  if (!have_nvcc()) return;
  const fs::path dir = scratch() / "saved_ptx";
  passed(exec("--mode functional --save-ptx " + dir.string(), "two_units"));
  passed(exec("--mode functional --save-ptx " + dir.string(), "rdc"));
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  BOOST_TEST(names == (std::vector<std::string>{"rdc.1.1.ptx", "rdc.1.2.ptx", "two_units.1.ptx", "two_units.2.ptx"}),
             boost::test_tools::per_element());
  BOOST_TEST(slurp(dir / "rdc.1.1.ptx").find(".entry _Z8kernel_aPKiPii") != std::string::npos);
  BOOST_TEST(slurp(dir / "rdc.1.2.ptx").find(".entry _Z8kernel_bPii") != std::string::npos);
  for (const char* unit : {"two_units.1.ptx", "two_units.2.ptx"}) {
    const Run r = simt::test::run_simtlab("inspect --load " + (dir / unit).string(), scratch());
    BOOST_TEST(r.code == 0, shown(r));
    BOOST_TEST(r.out.rfind("ok ", 0) == 0, shown(r));
  }
}

// --save-ptx refuses a path that is not a folder before the program starts, and says why a
// fatbin without PTX has nothing to save (the program still runs; its launches fail as before).
BOOST_AUTO_TEST_CASE(save_ptx_errors) {
  if (!have_nvcc()) return;
  const fs::path file = scratch() / "not_a_folder";
  std::ofstream(file) << "x";
  const Run r = exec("--mode functional --save-ptx " + file.string(), "two_units");
  BOOST_TEST(r.code == 2, shown(r));
  BOOST_TEST(r.out.empty(), shown(r));
  BOOST_TEST(r.err.find("--save-ptx: " + file.string() + " exists and is not a folder") != std::string::npos, shown(r));
  const fs::path dir = scratch() / "sass_ptx";
  const Run s = exec("--mode functional --save-ptx " + dir.string(), "sass_only");
  BOOST_TEST(s.err.find("simtlab: --save-ptx: fatbin #1 has no PTX to save: ") != std::string::npos, shown(s));
  BOOST_TEST(fs::is_empty(dir));
}

// A fatbin with SASS only: the launch fails and the message names the fix.
BOOST_AUTO_TEST_CASE(sass_only_fatbin) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "sass_only");
  BOOST_TEST(r.code != 0, shown(r));
  BOOST_TEST(r.err.find("code=compute_75") != std::string::npos, shown(r));
  BOOST_TEST(r.out.find("cudaErrorNoKernelImageForDevice") != std::string::npos, shown(r));
}

// Ten kernels, then 200 more launches of one (tools/bench --cuda times it).
BOOST_AUTO_TEST_CASE(launch_cost_counts) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "launch_cost 200");
  passed(r);
  BOOST_TEST(has_line(r.out, "PASS launch_count"));
}

// ---- a whole application's statistics, launches 2-3 timed ----------------

BOOST_AUTO_TEST_CASE(launches_range) {
  if (!have_nvcc()) return;
  const fs::path stats = scratch() / "launches.json", csv = scratch() / "launches.csv";
  fs::remove(stats);
  fs::remove(csv);
  const Run r = exec("--mode timing --launches 2-3 --stats " + stats.string() + " --csv " + csv.string(),
                     "launches");
  passed(r);
  BOOST_TEST_REQUIRE(fs::exists(stats));
  std::ifstream f(stats);
  const nlohmann::json j = nlohmann::json::parse(f);
  const nlohmann::json& k = j["kernels"];
  BOOST_TEST_REQUIRE(k.size() == 6u);
  const char* names[] = {"fill", "scale", "scale", "total", "fill", "total"};
  const unsigned grids[] = {4, 2, 8, 4, 2, 4}, blocks[] = {64, 128, 32, 64, 128, 64};
  for (size_t i = 0; i < 6; ++i) {
    BOOST_TEST_INFO("launch " << i + 1 << ": " << k[i].dump());
    BOOST_TEST(k[i]["kernel"] == names[i]);
    BOOST_TEST(k[i]["grid"][0] == grids[i]);
    BOOST_TEST(k[i]["block"][0] == blocks[i]);
    const bool timed = i == 1 || i == 2;
    BOOST_TEST(k[i]["mode"] == (timed ? "timing" : "functional"));
    if (timed) BOOST_TEST(k[i]["cycles"].get<uint64_t>() > 0u);
  }
  // The CSV: a header and one row per launch, in order.
  std::istringstream in(slurp(csv));
  std::vector<std::vector<std::string>> rows;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) rows.push_back(csv_fields(l));
  BOOST_TEST_REQUIRE(rows.size() == 7u);
  size_t kernel_col = 0, mode_col = 0;
  for (size_t c = 0; c < rows[0].size(); ++c) {
    if (rows[0][c] == "kernel") kernel_col = c;
    if (rows[0][c] == "launch_mode") mode_col = c;
  }
  BOOST_TEST_REQUIRE(kernel_col != mode_col);
  for (size_t i = 0; i < 6; ++i) {
    BOOST_TEST_REQUIRE(rows[i + 1].size() == rows[0].size());
    BOOST_TEST(rows[i + 1][kernel_col] == names[i]);
    BOOST_TEST(rows[i + 1][mode_col] == ((i == 1 || i == 2) ? "timing" : "functional"));
  }
}

// ---- programs simtlab cannot run: one line that names -cudart shared ------

BOOST_AUTO_TEST_CASE(static_runtime_refused) {
  if (!have_nvcc()) return;
  const Run r = exec("--mode functional", "launches_static");
  BOOST_TEST_INFO(shown(r));
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("-cudart shared") != std::string::npos);
  BOOST_TEST(count_of(r.out, "PASS ") == 0);  // it did not run on nothing
}

// Needs no nvcc: a program without the CUDA runtime at all.
BOOST_AUTO_TEST_CASE(not_a_cuda_program) {
  const Run r = simt::test::run_simtlab("exec --mode functional -- /bin/true", scratch());
  BOOST_TEST_INFO(shown(r));
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("-cudart shared") != std::string::npos);
}
