#define BOOST_TEST_MODULE cli
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/simtlab_process.h"

// Runs the real `simtlab` binary and checks exit codes, messages and files.
namespace fs = std::filesystem;

namespace {

using Run = simt::test::ProcessRun;
using simt::test::slurp;

fs::path scratch(const std::string& name) { return simt::test::fresh_scratch("cli", name); }

Run simtlab(const std::string& args) { return simt::test::run_simtlab_once(args, "cli"); }

const std::string kData = SIMT_SOURCE_DIR "/tests/cli/data";

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

std::string manifest(const std::string& kernel_json, const std::string& extra_outputs = "") {
  return R"({"ptx": ")" + kData + R"(/kernels.ptx",
    "buffers": [{"name": "in", "type": "i32", "count": 2048, "init": {"kind": "file", "path": "in.bin"}},
                {"name": "out", "type": "i32", "count": 2048, "init": {"kind": "fill", "value": 0}}],
    "launches": [)" + kernel_json + R"(],
    "outputs": [{"buffer": "out", "path": "out.bin"})" + extra_outputs + "]}";
}

int32_t nested_ref(int32_t v) {
  int32_t acc = 0;
  for (int j = 0; j < (v & 15); ++j)
    for (int k = 0; k <= (j & 3); ++k) acc += v * j + k;
  return static_cast<int32_t>(static_cast<float>(acc) * 0.5f);
}

}  // namespace

BOOST_AUTO_TEST_CASE(runs_a_workload) {
  Run r = simtlab("run --workload saxpy --size small");
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(r.out.find("PASSED") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(lists_workloads) {
  Run r = simtlab("list");
  BOOST_TEST(r.code == 0);
  for (const char* w : {"bfs", "matmul", "saxpy"}) BOOST_TEST(r.out.find(w) != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(bad_options_exit_2_with_a_message) {
  Run r = simtlab("run --workload nope");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("unknown workload 'nope'") != std::string::npos, r.err);
  r = simtlab("run --workload saxpy --size huge");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--size") != std::string::npos, r.err);
  r = simtlab("run --workload saxpy --warp-size 3");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("warp-size") != std::string::npos, r.err);
  r = simtlab("run --frobnicate");
  BOOST_TEST(r.code == 2);
  r = simtlab("run");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("--workload") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(malformed_ptx_reports_file_line_col) {
  fs::path d = scratch("badptx");
  write(d / "bad.ptx", ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n  add.u32 %r1, ;\n}\n");
  Run r = simtlab("inspect " + (d / "bad.ptx").string());
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("bad.ptx:6:") != std::string::npos, r.err);
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(inspect_prints_branches_and_mix) {
  Run r = simtlab("inspect " + kData + "/kernels.ptx --kernel nested");
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(r.out.find("nested") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("bra") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(inspect_vgiw_prints_the_compiler_pass) {
  Run r = simtlab("inspect --vgiw " + kData + "/kernels.ptx --kernel nested");
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(r.out.find("kernel nested:") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("replicas") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("live values") != std::string::npos, r.out);
  // What the pass does not map: exit 2 and the instruction's line.
  fs::path d = scratch("vgiwshfl");
  write(d / "w.ptx", ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n  .reg .b32 %r<3>;\n"
                     "  mov.u32 %r1, %tid.x;\n  shfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n  ret;\n}\n");
  r = simtlab("inspect --vgiw " + (d / "w.ptx").string());
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("line 8") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("warp-level") != std::string::npos, r.err);
  fs::remove_all(d);
}

// --if-convert-limit: the compiler pass's limit for the report (0: nvcc's blocks as they are), so
// that a user sees what if-conversion does to a kernel; it needs --vgiw.
BOOST_AUTO_TEST_CASE(inspect_vgiw_takes_the_if_conversion_limit) {
  fs::path d = scratch("vgiwifc");
  write(d / "t.ptx", ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                     "  .reg .b32 %r<3>;\n  .reg .pred %p<2>;\n  .reg .b64 %rd<4>;\n"
                     "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 0;\n"
                     "  setp.lt.u32 %p1, %r1, 16;\n  @%p1 bra SKIP;\n  add.u32 %r2, %r1, 7;\nSKIP:\n"
                     "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r2;\n"
                     "  ret;\n}\n");
  Run on = simtlab("inspect --vgiw " + (d / "t.ptx").string());
  BOOST_TEST(on.code == 0, on.err);
  BOOST_TEST(on.out.find("kernel k: 1 VGIW blocks") != std::string::npos, on.out);
  BOOST_TEST(on.out.find("1 if-converted region") != std::string::npos, on.out);
  Run off = simtlab("inspect --vgiw --if-convert-limit 0 " + (d / "t.ptx").string());
  BOOST_TEST(off.code == 0, off.err);
  BOOST_TEST(off.out.find("kernel k: 3 VGIW blocks") != std::string::npos, off.out);
  BOOST_TEST(off.out.find("if-converted") == std::string::npos, off.out);
  Run alone = simtlab("inspect --if-convert-limit 0 " + (d / "t.ptx").string());
  BOOST_TEST(alone.code == 2);
  BOOST_TEST(alone.err.find("--if-convert-limit requires --vgiw") != std::string::npos, alone.err);
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(manifest_run_writes_verified_outputs) {
  fs::path d = scratch("manifest");
  std::vector<int32_t> in(2048);
  for (int i = 0; i < 2048; ++i) in[i] = (i * 7919) % 2001 - 1000;
  std::ofstream(d / "in.bin", std::ios::binary).write(reinterpret_cast<const char*>(in.data()), 2048 * 4);
  write(d / "m.json", manifest(R"({"kernel": "nested", "grid": [16,1,1], "block": [128,1,1],
      "args": [{"buffer": "in"}, {"buffer": "out"}, {"i32": 2048}, {"f32": 0.5}]})"));
  Run r = simtlab("run --manifest " + (d / "m.json").string() + " --out-dir " + (d / "out").string());
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  std::string out = slurp(d / "out" / "out.bin");
  BOOST_TEST_REQUIRE(out.size() == 2048u * 4);
  const int32_t* got = reinterpret_cast<const int32_t*>(out.data());
  for (int i = 0; i < 2048; ++i) BOOST_TEST_REQUIRE(got[i] == nested_ref(in[i]), "i " << i);
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(manifest_errors_exit_2) {
  fs::path d = scratch("badmanifest");
  write(d / "m.json", R"({"ptx": "k.ptx", "buffers": [{"name": "a", "type": "q32", "count": 4}], "launches": []})");
  Run r = simtlab("run --manifest " + (d / "m.json").string());
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("buffers[0].type") != std::string::npos, r.err);
  // A wrong argument list is caught against the kernel's parameters.
  std::vector<int32_t> in(2048, 1);
  std::ofstream(d / "in.bin", std::ios::binary).write(reinterpret_cast<const char*>(in.data()), 2048 * 4);
  write(d / "m2.json", manifest(R"({"kernel": "nested", "grid": 1, "block": 32, "args": [{"buffer": "in"}]})"));
  r = simtlab("run --manifest " + (d / "m2.json").string() + " --out-dir " + (d / "o").string());
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("launches[0]") != std::string::npos, r.err);
  write(d / "m3.json", manifest(R"({"kernel": "missing", "grid": 1, "block": 32, "args": []})"));
  r = simtlab("run --manifest " + (d / "m3.json").string() + " --out-dir " + (d / "o").string());
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("missing") != std::string::npos, r.err);
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(kernel_fault_exits_3_and_keeps_existing_outputs) {
  fs::path d = scratch("fault");
  std::vector<int32_t> in(2048, 1);
  std::ofstream(d / "in.bin", std::ios::binary).write(reinterpret_cast<const char*>(in.data()), 2048 * 4);
  fs::create_directories(d / "out");
  write(d / "out" / "out.bin", "previous results");
  write(d / "m.json", manifest(R"({"kernel": "oob", "grid": [16,1,1], "block": [128,1,1],
      "args": [{"buffer": "out"}, {"i32": 2047}]}, {"kernel": "oob", "grid": [17,1,1], "block": [128,1,1],
      "args": [{"buffer": "out"}, {"i32": 2048}]})"));
  Run r = simtlab("run --manifest " + (d / "m.json").string() + " --out-dir " + (d / "out").string());
  BOOST_TEST(r.code == 3, r.err);
  BOOST_TEST(r.err.find("launches[1]") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("kernel 'oob' CTA (16,0,0)") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("thread (0,0,0)") != std::string::npos, r.err);
  BOOST_TEST(slurp(d / "out" / "out.bin") == "previous results");  // nothing half-written
  BOOST_TEST(!fs::exists(d / "out" / "out.bin.partial"));
  fs::remove_all(d);
}

// ---- output files (issue 8 items 3, 4, 7, 15, 19) ----------------------------

namespace {

struct Spawned {
  int code = -1;         // exit code, -1 if killed by a signal
  bool timed_out = false;
  std::string out, err;
};

// Runs simtlab with `args` (no shell), optionally sending `sig` after
// `interrupt_ms`; kills it after `timeout_s` (then timed_out is set).
Spawned spawn(const std::vector<std::string>& args, const fs::path& dir, int interrupt_ms = 0, int timeout_s = 120,
              int sig = SIGINT) {
  const std::string out = (dir / "out").string(), err = (dir / "err").string();
  pid_t pid = ::fork();
  if (pid == 0) {
    int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(o, 1);
    ::dup2(e, 2);
    std::vector<char*> argv;
    std::string bin = SIMT_BINARY_DIR "/simtlab";
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  Spawned r;
  const auto start = std::chrono::steady_clock::now();
  bool interrupted = false;
  int status = 0;
  for (;;) {
    if (::waitpid(pid, &status, WNOHANG) == pid) break;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (interrupt_ms > 0 && !interrupted && ms >= interrupt_ms) {
      ::kill(pid, sig);
      interrupted = true;
    }
    if (ms > timeout_s * 1000.0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  return r;
}

bool has(const std::string& text, const std::string& word) { return text.find(word) != std::string::npos; }

// Names in `dir` that look like simtlab's temporaries.
std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> t;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (has(e.path().filename().string(), ".simtlab-")) t.push_back(e.path().string());
  return t;
}

// A manifest whose kernel faults on its second launch (writes past "out").
void write_fault_manifest(const fs::path& d) {
  std::vector<int32_t> in(2048, 1);
  std::ofstream(d / "in.bin", std::ios::binary).write(reinterpret_cast<const char*>(in.data()), 2048 * 4);
  write(d / "m.json", manifest(R"({"kernel": "oob", "grid": [16,1,1], "block": [128,1,1],
      "args": [{"buffer": "out"}, {"i32": 2047}]}, {"kernel": "oob", "grid": [17,1,1], "block": [128,1,1],
      "args": [{"buffer": "out"}, {"i32": 2048}]})"));
}

}  // namespace

BOOST_AUTO_TEST_CASE(bad_output_paths_exit_2_before_simulating) {
  fs::path d = scratch("badpaths");
  write(d / "afile", "x");
  fs::create_directories(d / "adir");
  struct Case { std::string opt, path; };
  const std::vector<Case> cases = {
      {"--vcd", (d / "nodir" / "t.vcd").string()},    {"--vcd", (d / "afile" / "t.vcd").string()},
      {"--vcd", (d / "adir").string()},                {"--stats", (d / "nodir" / "s.json").string()},
      {"--stats", (d / "adir").string()},              {"--csv", (d / "nodir" / "r.csv").string()},
      {"--trace-warps", (d / "nodir" / "w.txt").string()}};
  for (const auto& c : cases) {
    // A good --stats beside the bad path: it must not be written either.
    const std::string other = c.opt == "--stats" ? "--csv" : "--stats";
    const fs::path sentinel = d / (c.opt == "--stats" ? "s.csv" : "s.json");
    Spawned r = spawn({"run", "--workload", "saxpy", "--quiet", other, sentinel.string(), c.opt, c.path}, d);
    BOOST_TEST(r.code == 2, c.opt << " " << c.path << ": " << r.err);
    BOOST_TEST(has(r.err, c.opt + " " + c.path), r.err);
    BOOST_TEST(!has(r.out, "PASSED"), "simulated before checking: " << r.out);  // nothing ran
    BOOST_TEST(!fs::exists(sentinel));
    BOOST_TEST(!fs::exists(d / "adir.vcd"));  // --vcd DIR is not DIR.vcd
    BOOST_TEST(temporaries(d).empty());
  }
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(out_dir_is_created_and_vcd_keeps_its_exact_name) {
  fs::path d = scratch("outdir");
  std::vector<int32_t> in(2048, 3);
  std::ofstream(d / "in.bin", std::ios::binary).write(reinterpret_cast<const char*>(in.data()), 2048 * 4);
  write(d / "m.json", manifest(R"({"kernel": "nested", "grid": [2,1,1], "block": [128,1,1],
      "args": [{"buffer": "in"}, {"buffer": "out"}, {"i32": 256}, {"f32": 0.5}]})"));
  const fs::path out = d / "new" / "deeper";
  Spawned r = spawn({"run", "--manifest", (d / "m.json").string(), "--out-dir", out.string(), "--vcd",
                     (out / "t.wave").string(), "--stats", (out / "s.json").string(), "--quiet"}, d);
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  BOOST_TEST(has(slurp(out / "t.wave"), "$enddefinitions"));
  BOOST_TEST(!fs::exists(out / "t.wave.vcd"));
  BOOST_TEST(fs::exists(out / "out.bin"));
  // SystemC's informational messages are not shown.
  BOOST_TEST(!has(r.err, "I703"), r.err);
  BOOST_TEST(!has(r.out + r.err, "Info:"), r.out + r.err);
  BOOST_TEST(temporaries(d).empty());
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(write_errors_on_every_output_exit_4) {
  BOOST_TEST_REQUIRE(fs::is_character_file("/dev/full"));
  fs::path d = scratch("devfull");
  for (const char* opt : {"--stats", "--csv", "--vcd", "--trace-warps"}) {
    Spawned r = spawn({"run", "--workload", "saxpy", "--quiet", opt, "/dev/full"}, d);
    BOOST_TEST(r.code == 4, opt << ": " << r.err);
    BOOST_TEST(has(r.err, std::string(opt) + " /dev/full"), r.err);
    BOOST_TEST(has(r.err, "No space left"), r.err);
    BOOST_TEST(fs::is_character_file("/dev/full"));
  }
  // A manifest output to a full device.
  std::vector<int32_t> in(2048, 3);
  std::ofstream(d / "in.bin", std::ios::binary).write(reinterpret_cast<const char*>(in.data()), 2048 * 4);
  write(d / "m.json", manifest(R"({"kernel": "nested", "grid": [2,1,1], "block": [128,1,1],
      "args": [{"buffer": "in"}, {"buffer": "out"}, {"i32": 256}, {"f32": 0.5}]})",
                               R"(, {"buffer": "in", "path": "/dev/full"})"));
  Spawned r = spawn({"run", "--manifest", (d / "m.json").string(), "--out-dir", (d / "o").string(), "--quiet",
                     "--allow-outside-out-dir"}, d);
  BOOST_TEST(r.code == 4, r.err);
  BOOST_TEST(has(r.err, "outputs[1] /dev/full"), r.err);
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(devices_and_symlinks_stay_what_they_are) {
  fs::path d = scratch("links");
  write(d / "real.json", "old");
  fs::create_symlink(d / "real.json", d / "link.json");
  fs::create_symlink("/dev/null", d / "null.json");
  Spawned r = spawn({"run", "--workload", "saxpy", "--quiet", "--stats", (d / "link.json").string()}, d);
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  BOOST_TEST(fs::is_symlink(d / "link.json"));
  BOOST_TEST(nlohmann::json::parse(slurp(d / "real.json"))["run"] == "workload saxpy (small)");
  r = spawn({"run", "--workload", "saxpy", "--quiet", "--stats", (d / "null.json").string(), "--csv",
             (d / "null.json").string()}, d);
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  BOOST_TEST(fs::is_symlink(d / "null.json"));
  BOOST_TEST(fs::is_character_file("/dev/null"));
  BOOST_TEST(temporaries(d).empty());
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(csv_reads_only_a_bounded_header_and_streams_to_pipes) {
  fs::path d = scratch("csv");
  // A device that never ends: the old code read its "first line" forever.
  fs::create_symlink("/dev/zero", d / "zero.csv");
  Spawned r = spawn({"run", "--workload", "saxpy", "--quiet", "--csv", (d / "zero.csv").string()}, d, 0, 60);
  BOOST_TEST(!r.timed_out);
  BOOST_TEST(r.code == 0, r.err);
  // A huge regular file without line breaks: refused (its header differs), quickly.
  {
    std::ofstream big(d / "big.csv", std::ios::binary);
    std::string block(1 << 20, 'x');
    for (int i = 0; i < 64; ++i) big << block;
  }
  r = spawn({"run", "--workload", "saxpy", "--quiet", "--csv", (d / "big.csv").string()}, d, 0, 60);
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(has(r.err, "--csv " + (d / "big.csv").string()), r.err);
  BOOST_TEST(has(r.err, "header differs"), r.err);
  BOOST_TEST(!has(r.out, "PASSED"));  // checked before running
  // /dev/stdout into a pipe: header and row, no hang.
  const std::string cmd = "timeout 60 " SIMT_BINARY_DIR "/simtlab run --workload saxpy --quiet --csv /dev/stdout | cat > " +
                          (d / "piped").string();
  BOOST_TEST(std::system(cmd.c_str()) == 0);
  const std::string piped = slurp(d / "piped");
  BOOST_TEST(has(piped, "run,mode,config_files"), piped);
  BOOST_TEST(has(piped, "workload saxpy (small),timing"), piped);
  // A regular CSV gets one header, then one row per run.
  for (int i = 0; i < 2; ++i)
    BOOST_TEST(spawn({"run", "--workload", "saxpy", "--quiet", "--csv", (d / "r.csv").string()}, d).code == 0);
  const std::string rows = slurp(d / "r.csv");
  BOOST_TEST(std::count(rows.begin(), rows.end(), '\n') == 3, rows);
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(option_values_out_of_range_exit_2_naming_the_option) {
  Run r = simtlab("run --workload saxpy --quiet --vcd /dev/null --vcd-window 99999999999999999999999:");
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(has(r.err, "--vcd-window"), r.err);
  BOOST_TEST(!has(r.err, "internal"), r.err);
  r = simtlab("run --workload saxpy --quiet --vcd /dev/null --vcd-window 5:99999999999999999999999");
  BOOST_TEST(r.code == 2, r.err);
  r = simtlab("run --workload saxpy --quiet --trace-warps /dev/null --trace-filter cycles=1:99999999999999999999999");
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(has(r.err, "--trace-filter"), r.err);
  r = simtlab("run --workload saxpy --quiet --trace-warps /dev/null --trace-filter warps=99999999999999999999999");
  BOOST_TEST(r.code == 2, r.err);
  r = simtlab("run --workload saxpy --quiet --seed 99999999999999999999999");
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(has(r.err, "--seed"), r.err);
  r = simtlab("run --workload saxpy --quiet --seed -1");
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(has(r.err, "--seed"), r.err);
  r = simtlab("run --workload saxpy --quiet --mode functional --max-warp-instructions 99999999999999999999999");
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(has(r.err, "--max-warp-instructions"), r.err);
  r = simtlab("run --workload saxpy --quiet --sm.max_warps 99999999999999999999999");
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(has(r.err, "sm.max_warps"), r.err);
}

// Every signal that would end the run (issue 35 item 4: SIGHUP left a 97 MB
// hidden VCD temporary) removes the temporaries and exits 128 + its number.
BOOST_AUTO_TEST_CASE(stop_signals_leave_no_partial_file_and_exit_128_plus_the_signal) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1, SIGALRM}) {
    BOOST_TEST_CONTEXT("signal " << sig) {
    fs::path d = scratch("sigint");
    write(d / "s.json", "previous stats");
    Spawned r = spawn({"run", "--workload", "bfs", "--size", "large", "--stats", (d / "s.json").string(), "--vcd",
                       (d / "t.vcd").string(), "--trace-warps", (d / "w.txt").string()},
                      d, 1500, 120, sig);
    BOOST_TEST(!r.timed_out);
    BOOST_TEST(r.code == 128 + sig, r.err);
    BOOST_TEST(has(r.err, "interrupted by SIG"), r.err);
    BOOST_TEST(has(r.err, "no output written under its final name"), r.err);
    BOOST_TEST(slurp(d / "s.json") == "previous stats");
    BOOST_TEST(!fs::exists(d / "t.vcd"));
    BOOST_TEST(!fs::exists(d / "w.txt"));
    BOOST_TEST(temporaries(d).empty());
    fs::remove_all(d);
    }
  }
}

// Issue 35 item 1: a manifest's outputs stay inside --out-dir ("..", an
// absolute path, a symlink out of it are refused) unless the user allows it.
BOOST_AUTO_TEST_CASE(manifest_outputs_stay_inside_out_dir_unless_allowed) {
  fs::path d = scratch("escape");
  std::vector<int32_t> in(2048, 3);
  std::ofstream(d / "in.bin", std::ios::binary).write(reinterpret_cast<const char*>(in.data()), 2048 * 4);
  const std::string launch = R"({"kernel": "nested", "grid": [2,1,1], "block": [128,1,1],
      "args": [{"buffer": "in"}, {"buffer": "out"}, {"i32": 256}, {"f32": 0.5}]})";
  const fs::path out = d / "out";
  fs::create_directories(out);
  fs::create_directories(d / "elsewhere");
  write(d / "victim", "precious");
  fs::create_symlink(d / "elsewhere", out / "linkdir");
  fs::create_symlink("../victim", out / "link.bin");
  fs::create_symlink(d / "created.bin", out / "dangling.bin");
  struct Case { std::string path, why; };
  const std::vector<Case> cases = {{"../up.bin", "\"..\""},
                                   {"sub/../../up.bin", "\"..\""},
                                   {(d / "abs.bin").string(), "absolute"},
                                   {"linkdir/o.bin", "symlink"},
                                   {"link.bin", "symlink"},
                                   {"dangling.bin", "symlink"}};
  for (const auto& c : cases) {
    write(d / "m.json", manifest(launch, R"(, {"buffer": "in", "path": ")" + c.path + R"("})"));
    Spawned r = spawn({"run", "--manifest", (d / "m.json").string(), "--out-dir", out.string(), "--quiet"}, d);
    BOOST_TEST(r.code == 2, c.path << ": " << r.err);
    BOOST_TEST(has(r.err, "outputs[1].path"), r.err);
    BOOST_TEST(has(r.err, c.why), r.err);
    BOOST_TEST(has(r.err, "--allow-outside-out-dir"), r.err);
    BOOST_TEST(!has(r.out, "launch(es) done"), r.out);
    BOOST_TEST(!fs::exists(out / "out.bin"));
  }
  BOOST_TEST(!fs::exists(d / "up.bin"));
  BOOST_TEST(!fs::exists(d / "abs.bin"));
  BOOST_TEST(!fs::exists(d / "elsewhere" / "o.bin"));
  BOOST_TEST(!fs::exists(d / "created.bin"));
  BOOST_TEST(slurp(d / "victim") == "precious");
  // A sub-folder is fine (created), and so is a symlink that stays inside.
  fs::create_symlink("sub", out / "insidelink");
  write(d / "m.json", manifest(launch, R"(, {"buffer": "in", "path": "./insidelink/in.bin"})"));
  fs::create_directories(out / "sub");
  Spawned r = spawn({"run", "--manifest", (d / "m.json").string(), "--out-dir", out.string(), "--quiet"}, d);
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(fs::file_size(out / "sub" / "in.bin") == 2048u * 4);
  write(d / "m.json", manifest(launch, R"(, {"buffer": "in", "path": "new/deeper/in.bin"})"));
  r = spawn({"run", "--manifest", (d / "m.json").string(), "--out-dir", out.string(), "--quiet"}, d);
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(fs::file_size(out / "new" / "deeper" / "in.bin") == 2048u * 4);
  // The user may allow it.
  write(d / "m.json", manifest(launch, R"(, {"buffer": "in", "path": "../up.bin"})"));
  r = spawn({"run", "--manifest", (d / "m.json").string(), "--out-dir", out.string(), "--quiet",
             "--allow-outside-out-dir"}, d);
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(fs::file_size(d / "up.bin") == 2048u * 4);
  // Only with a manifest.
  r = spawn({"run", "--workload", "saxpy", "--quiet", "--allow-outside-out-dir"}, d);
  BOOST_TEST(r.code == 2, r.err);
  BOOST_TEST(has(r.err, "--allow-outside-out-dir"), r.err);
  BOOST_TEST(temporaries(d).empty());
  fs::remove_all(d);
}

// Issue 35 item 2: two outputs of one run on the same file (after
// normalisation and symlinks) are refused before anything runs.
BOOST_AUTO_TEST_CASE(two_outputs_on_one_file_are_refused) {
  fs::path d = scratch("clash");
  write(d / "x", "previous");
  fs::create_symlink("x", d / "alias");
  struct Case { std::string a, pa, b, pb; };
  const std::string x = (d / "x").string();
  const std::vector<Case> cases = {{"--stats", x, "--csv", (d / "." / "x").string()},
                                   {"--stats", x, "--vcd", x},
                                   {"--vcd", x, "--trace-warps", (d / "alias").string()},
                                   {"--stats", (d / "alias").string(), "--trace-warps", x}};
  for (const auto& c : cases) {
    Spawned r = spawn({"run", "--workload", "saxpy", "--quiet", c.a, c.pa, c.b, c.pb}, d);
    BOOST_TEST(r.code == 2, c.a << " " << c.b << ": " << r.err);
    BOOST_TEST(has(r.err, c.a + " " + c.pa), r.err);
    BOOST_TEST(has(r.err, c.b + " " + c.pb), r.err);
    BOOST_TEST(!has(r.out, "PASSED"), r.out);
    BOOST_TEST(slurp(d / "x") == "previous");
  }
  // Devices and streams are written in place, appending: sharing one is fine.
  Spawned r = spawn({"run", "--workload", "saxpy", "--quiet", "--stats", "/dev/null", "--trace-warps", "/dev/null"}, d);
  BOOST_TEST(r.code == 0, r.err);
  BOOST_TEST(temporaries(d).empty());
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(kernel_fault_keeps_traces_and_writes_no_stats) {
  fs::path d = scratch("faultstats");
  write_fault_manifest(d);
  write(d / "s.json", "previous stats");
  Spawned r = spawn({"run", "--manifest", (d / "m.json").string(), "--out-dir", (d / "o").string(), "--quiet",
                     "--stats", (d / "s.json").string(), "--csv", (d / "r.csv").string(), "--vcd",
                     (d / "t.vcd").string(), "--trace-warps", (d / "w.txt").string()}, d);
  BOOST_TEST(r.code == 3, r.err);
  BOOST_TEST(slurp(d / "s.json") == "previous stats");  // a faulted run's stats are not written
  BOOST_TEST(!fs::exists(d / "r.csv"));
  BOOST_TEST(!fs::exists(d / "o" / "out.bin"));
  // The waveform and warp trace show what led to the fault, complete.
  BOOST_TEST(has(slurp(d / "t.vcd"), "$enddefinitions"));
  BOOST_TEST(has(slurp(d / "w.txt"), "# simtlab warp trace"));
  BOOST_TEST(temporaries(d).empty());
  fs::remove_all(d);
}

BOOST_AUTO_TEST_CASE(summary_help_version_and_stats_explain_themselves) {
  fs::path d = scratch("explain");
  Spawned r = spawn({"run", "--workload", "saxpy", "--quiet", "--stats", (d / "s.json").string()}, d);
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  BOOST_TEST(has(r.out, "machine: built-in vws-baseline"), r.out);
  BOOST_TEST((has(r.out, "IPC") && has(r.out, "thread instructions per cycle")), r.out);
  nlohmann::json s = nlohmann::json::parse(slurp(d / "s.json"));
  BOOST_TEST(s["simulator"].get<std::string>().rfind("simtlab ", 0) == 0u);
  BOOST_TEST(s["machine"] == "built-in vws-baseline");
  for (const char* k : {"counters", "histograms", "series"})
    for (auto it = s[k].begin(); it != s[k].end(); ++it)
      BOOST_TEST(s["descriptions"].contains(it.key()), k << " " << it.key() << " has no description");
  for (auto it = s.begin(); it != s.end(); ++it)
    BOOST_TEST(s["descriptions"].contains(it.key()), it.key() << " has no description");
  const nlohmann::json& dv = s["derived"];
  BOOST_TEST(dv["hit_rate"].contains("sm0.l1d"), dv.dump());
  BOOST_TEST(dv["hit_rate"]["sm0.l1d"].get<double>() >= 0.0);
  BOOST_TEST(dv["hit_rate"]["sm0.l1d"].get<double>() <= 1.0);
  BOOST_TEST(dv["dram_bandwidth_utilisation"].get<double>() > 0.0);
  BOOST_TEST(dv["dram_bandwidth_utilisation"].get<double>() <= 1.0);
  BOOST_TEST(dv["achieved_occupancy"].get<double>() > 0.0);
  BOOST_TEST(dv["achieved_occupancy"].get<double>() <= 1.0);
  // Without samples (stats.interval = 0) there is no occupancy to report.
  r = spawn({"run", "--workload", "saxpy", "--quiet", "--set", "stats.interval=0", "--stats",
             (d / "s2.json").string()}, d);
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  s = nlohmann::json::parse(slurp(d / "s2.json"));
  BOOST_TEST(s["derived"]["achieved_occupancy"].is_null());

  r = spawn({"--version"}, d);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(r.out.rfind("simtlab ", 0) == 0u, r.out);
  r = spawn({"run", "--help"}, d);
  BOOST_TEST(r.code == 0);
  BOOST_TEST(has(r.out, "Examples:"), r.out);
  BOOST_TEST(r.out.find("Examples:") < r.out.find("--workload"), r.out);
  for (const char* g : {"Machine parameters: sm.*", "Machine parameters: l1d.*", "Machine parameters: l2.*",
                        "Machine parameters: dram.*"})
    BOOST_TEST(has(r.out, g), g);
  fs::remove_all(d);
}
