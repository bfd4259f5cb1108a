#define BOOST_TEST_MODULE runaway_and_memory
// Issue 8, items 5, 6 and 12, through the simtlab binary:
//  - device memory far larger than the host's runs in both modes when the
//    kernel touches a few bytes (pages are allocated on first touch; the
//    --max-device-memory cap proves the run stayed small), and touching more
//    than the cap is exit 5, not the out-of-memory killer;
//  - a spinning kernel is stopped by --max-warp-instructions (both modes)
//    and --max-cycles (timing), exit 3 naming the kernel and the warps' PCs;
//  - a warp-size change alone works (the warp slots follow), and a bad
//    --warp-size is exit 2 naming the option.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include "common/simtlab_stats.h"

namespace fs = std::filesystem;
using simt::test::ProcessRun;

namespace {

const std::string kData = SIMT_SOURCE_DIR "/tests/e2e/data/";

fs::path dir() { return simt::test::scratch_dir("simt_runaway"); }

ProcessRun run(const std::string& args) { return simt::test::run_simtlab("run --quiet " + args, dir()); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Holds its own copy of the folder: dir()'s static is created first, so it outlives this.
struct Cleanup {
  fs::path path = dir();
  ~Cleanup() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
} cleanup;

}  // namespace

BOOST_AUTO_TEST_CASE(huge_device_memory_touched_in_a_few_places_runs_in_both_modes) {
  for (const char* mode : {"functional", "timing"}) {
    const fs::path out = dir() / (std::string("huge_") + mode);
    // 32 MiB of pages may be touched: the run touches 4 pages of 64 GiB + 2 GiB.
    const ProcessRun r = run(std::string("--mode ") + mode + " --max-device-memory 33554432 --manifest " + kData +
                             "huge_global.json --out-dir " + out.string());
    BOOST_TEST_REQUIRE(r.code == 0, mode << ": " << r.err);
    const std::string bytes = simt::test::slurp(out / "out.bin");
    BOOST_TEST_REQUIRE(bytes.size() == 8u);
    uint32_t v[2];
    std::memcpy(v, bytes.data(), 8);
    BOOST_TEST(v[0] == 7u, mode);
    BOOST_TEST(v[1] == 42u, mode);
  }
}

BOOST_AUTO_TEST_CASE(touching_more_device_memory_than_the_cap_is_a_resource_error) {
  for (const char* mode : {"functional", "timing"}) {
    const ProcessRun r = run(std::string("--mode ") + mode + " --max-device-memory 131072 --manifest " + kData +
                             "huge_global.json --out-dir " + (dir() / "capped").string());
    BOOST_TEST(r.code == 5, mode << ": " << r.err);
    BOOST_TEST(has(r.err, "--max-device-memory"), r.err);
  }
}

BOOST_AUTO_TEST_CASE(a_spinning_kernel_is_stopped_by_the_instruction_limit_in_both_modes) {
  for (const char* mode : {"functional", "timing"}) {
    const ProcessRun r =
        run(std::string("--mode ") + mode + " --max-warp-instructions 20000 --manifest " + kData + "spin.json");
    BOOST_TEST(r.code == 3, mode << ": " << r.err);
    BOOST_TEST(has(r.err, "kernel 'spin'"), r.err);
    BOOST_TEST(has(r.err, "--max-warp-instructions"), r.err);
    BOOST_TEST(has(r.err, "PC "), r.err);
    BOOST_TEST(has(r.err, "spin.ptx"), r.err);  // the source file of the spinning PC
  }
}

BOOST_AUTO_TEST_CASE(a_spinning_kernel_is_stopped_by_the_cycle_limit_in_timing_mode) {
  const ProcessRun r = run("--mode timing --max-warp-instructions 0 --max-cycles 200000 --manifest " + kData +
                           "spin.json");
  BOOST_TEST(r.code == 3, r.err);
  BOOST_TEST(has(r.err, "'spin'"), r.err);
  BOOST_TEST(has(r.err, "--max-cycles"), r.err);
  BOOST_TEST(has(r.err, "PC "), r.err);
}

BOOST_AUTO_TEST_CASE(the_default_limits_do_not_stop_a_normal_kernel) {
  const ProcessRun r = run("--mode timing --workload bfs --size small");
  BOOST_TEST(r.code == 0, r.err);
}

BOOST_AUTO_TEST_CASE(a_warp_size_change_alone_runs_in_both_modes) {
  for (const char* ws : {"4", "8", "16", "64"}) {
    const ProcessRun f = run(std::string("--mode functional --workload bfs --size small --warp-size ") + ws);
    BOOST_TEST(f.code == 0, "functional warp size " << ws << ": " << f.err);
    const ProcessRun t = run(std::string("--mode timing --workload bfs --size small --warp-size ") + ws);
    BOOST_TEST(t.code == 0, "timing warp size " << ws << ": " << t.err);
  }
}

BOOST_AUTO_TEST_CASE(a_warp_size_outside_4_to_64_is_refused_naming_the_option) {
  for (const char* ws : {"0", "3", "65"}) {
    const ProcessRun r = run(std::string("--mode functional --workload bfs --warp-size ") + ws);
    BOOST_TEST(r.code == 2, ws << ": " << r.err);
    BOOST_TEST(has(r.err, "--warp-size"), r.err);
  }
}
