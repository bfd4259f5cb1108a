// The example virtual platform (tb/vp_example/): a CPU model runs two kernels
// back to back on the GPU device through its registers and interrupt, beside
// a free-running clock, in both modes, and checks the results itself.
#define BOOST_TEST_MODULE vp_example
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "common/simtlab_stats.h"

namespace {

SIMT_TEST_SCRATCH("simtlab_vp_example");

simt::test::ProcessRun run(const std::string& args) { return simt::test::run_built("vp_example", args, scratch()); }

}  // namespace

BOOST_AUTO_TEST_CASE(cycle_mode_passes) {
  const auto r = run("--n 3000");
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("square: status 2") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("add_one: status 2") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("PASSED") != std::string::npos, r.out);
}

// The interrupt comes as many cycles after the doorbell as `simtlab run`
// reports for the same launches (same machine, same addresses, cold caches).
BOOST_AUTO_TEST_CASE(the_interrupt_comes_after_the_cycles_simtlab_run_reports) {
  const auto r = run("--n 3000");
  BOOST_TEST_REQUIRE(r.code == 0, r.out + r.err);
  std::vector<uint64_t> device;
  const std::regex line("status 2, ([0-9]+) GPU cycles, interrupt after ([0-9]+) ns");
  for (std::sregex_iterator it(r.out.begin(), r.out.end(), line), end; it != end; ++it) {
    BOOST_TEST((*it)[1].str() == (*it)[2].str());  // one cycle is 1 ns
    device.push_back(std::stoull((*it)[1].str()));
  }
  BOOST_TEST_REQUIRE(device.size() == 2u, r.out);
  std::ofstream(scratch() / "vp.json") << R"({"ptx": ")" SIMT_SOURCE_DIR R"(/tb/vp_example/kernels.ptx",
 "buffers": [{"name": "a", "type": "u32", "count": 3000, "init": {"kind": "iota"}}],
 "launches": [{"kernel": "square", "grid": [12,1,1], "block": [256,1,1], "args": [{"buffer": "a"}, {"u32": 3000}]},
              {"kernel": "add_one", "grid": [12,1,1], "block": [256,1,1], "args": [{"buffer": "a"}, {"u32": 3000}]}]})";
  const nlohmann::json st = simt::test::require_stats(
      "--quiet --manifest " + (scratch() / "vp.json").string() + " --out-dir " + scratch().string(), scratch(),
      "vp");
  BOOST_TEST(st["kernels"][0]["cycles"].get<uint64_t>() == device[0]);
  BOOST_TEST(st["kernels"][1]["cycles"].get<uint64_t>() == device[1]);
}

BOOST_AUTO_TEST_CASE(loosely_timed_mode_passes) {
  const auto r = run("--lt --n 3000");
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("loosely-timed mode") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("PASSED") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(a_bad_command_line_is_exit_2) {
  const auto r = run("--n 0");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("usage") != std::string::npos, r.err);
}
