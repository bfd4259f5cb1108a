// The example platform in the shape of an instruction-set simulator's
// (tb/iss_platform/): a quantum-keeper CPU whose b_transports leave the
// streaming width at 0, a bus that does not forward DMI, a PLIC-style
// interrupt controller. Its firmware loads the PTX from RAM, runs a vector
// add, waits for the interrupt and checks every element through the bus.
#define BOOST_TEST_MODULE iss_platform
#include <boost/test/unit_test.hpp>

#include <regex>
#include <string>

#include "common/simtlab_stats.h"

namespace {

SIMT_TEST_SCRATCH("simtlab_iss_platform");

simt::test::ProcessRun run(const std::string& args) { return simt::test::run_built("iss_platform", args, scratch()); }

// "N <name>" from the platform's memory-port line.
uint64_t port_count(const std::string& out, const std::string& name) {
  std::smatch m;
  const std::regex re("([0-9]+) " + name);
  BOOST_REQUIRE_MESSAGE(std::regex_search(out, m, re), "no '" + name + "' in: " + out);
  return std::stoull(m[1].str());
}

constexpr const char* kN = " --n 5000";

}  // namespace

// Through a bus without DMI every kernel access is a debug transport: the
// run passes, and one warning at its end says so with the count.
BOOST_AUTO_TEST_CASE(cycle_mode_through_a_bus_without_dmi_passes_and_warns_once) {
  const auto r = run(kN);
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("vecadd: status 2") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("PASSED") != std::string::npos, r.out);
  const uint64_t debug = port_count(r.out, "debug reads") + port_count(r.out, "debug writes");
  BOOST_TEST(debug >= 3u * 5000);  // two loads and a store per element
  BOOST_TEST(port_count(r.out, "DMI grants") == 0u);
  const std::regex warning("warning: gpu: ([0-9]+) of the GPU's ([0-9]+) accesses to platform memory went by debug");
  std::smatch m;
  BOOST_TEST_REQUIRE(std::regex_search(r.err, m, warning), r.err);
  BOOST_TEST(std::stoull(m[1].str()) == debug);
  BOOST_TEST(r.err.find("get_direct_mem_ptr") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("warning", m.position(0) + 1) == std::string::npos, "one warning: " + r.err);
}

// The remedy: the GPU's memory socket on a port of the RAM that grants DMI.
BOOST_AUTO_TEST_CASE(a_dmi_port_takes_the_kernel_off_the_debug_path) {
  for (const std::string mode : {"", " --lt"}) {
    const auto r = run(kN + std::string(" --dmi-port") + mode);
    BOOST_TEST(r.code == 0, mode + ": " + r.out + r.err);
    BOOST_TEST(r.out.find("PASSED") != std::string::npos, r.out);
    BOOST_TEST(port_count(r.out, "DMI grants") >= 1u);
    BOOST_TEST(port_count(r.out, "DMI accesses") >= 3u * 5000);
    BOOST_TEST(port_count(r.out, "debug reads") == 0u);
    BOOST_TEST(r.err.find("warning") == std::string::npos, r.err);
  }
}

BOOST_AUTO_TEST_CASE(loosely_timed_through_the_bus_passes_with_the_same_warning) {
  const auto r = run(kN + std::string(" --lt"));
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("PASSED") != std::string::npos, r.out);
  // CYCLES is the annotated count (not 0).
  std::smatch m;
  BOOST_TEST_REQUIRE(std::regex_search(r.out, m, std::regex("status 2, ([0-9]+) GPU cycles")), r.out);
  BOOST_TEST(std::stoull(m[1].str()) > 0u);
  BOOST_TEST(r.err.find("went by debug transport") != std::string::npos, r.err);
}

// A RAM that never sets the response status: with lt_memory_timing the
// kernel's first b_transport is a fault whose text says what the target did
// and names the option; with the option the run passes, with one warning.
BOOST_AUTO_TEST_CASE(a_memory_that_never_sets_the_status) {
  const auto refused = run(kN + std::string(" --memory-timing --silent-memory"));
  BOOST_TEST(refused.code == 1, refused.out + refused.err);
  BOOST_TEST(refused.out.find("GPU fault 2") != std::string::npos, refused.out);
  BOOST_TEST(refused.out.find("TLM_INCOMPLETE_RESPONSE") != std::string::npos, refused.out);
  BOOST_TEST(refused.out.find("tolerate_incomplete_response") != std::string::npos, refused.out);
  const auto tolerated = run(kN + std::string(" --memory-timing --silent-memory --tolerate-incomplete"));
  BOOST_TEST(tolerated.code == 0, tolerated.out + tolerated.err);
  BOOST_TEST(tolerated.out.find("PASSED") != std::string::npos, tolerated.out);
  BOOST_TEST(port_count(tolerated.out, "b_transports") >= 3u * 5000);
  const size_t w = tolerated.err.find("without setting the response status");
  BOOST_TEST(w != std::string::npos, tolerated.err);
  BOOST_TEST(tolerated.err.find("without setting the response status", w + 1) == std::string::npos,
             "one warning: " + tolerated.err);
  // A RAM that sets the status needs no option.
  const auto timed = run(kN + std::string(" --memory-timing"));
  BOOST_TEST(timed.code == 0, timed.out + timed.err);
  BOOST_TEST(timed.err.find("warning") == std::string::npos, timed.err);
}

BOOST_AUTO_TEST_CASE(a_bad_command_line_is_exit_2) {
  const auto r = run("--n 0");
  BOOST_TEST(r.code == 2);
  BOOST_TEST(r.err.find("usage") != std::string::npos, r.err);
}
