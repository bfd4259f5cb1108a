#define BOOST_TEST_MODULE cli
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "common/simtlab_process.h"

// Runs the real `simtlab` binary and checks exit codes, messages and files.
namespace fs = std::filesystem;

namespace {

using Run = simt::test::ProcessRun;
using simt::test::slurp;

fs::path scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("simtlab_cli_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

Run simtlab(const std::string& args) {
  fs::path d = scratch("io");
  Run r = simt::test::run_simtlab(args, d);
  fs::remove_all(d);
  return r;
}

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
