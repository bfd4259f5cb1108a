// The example virtual platform (tb/vp_example/): a CPU model runs two kernels
// back to back on the GPU device through its registers and interrupt, beside
// a free-running clock, in both modes, and checks the results itself.
#define BOOST_TEST_MODULE vp_example
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>

#include "common/simtlab_stats.h"

namespace {

SIMT_TEST_SCRATCH("simtlab_vp_example");

simt::test::ProcessRun run(const std::string& args) {
  const std::string out = (scratch() / "out").string(), err = (scratch() / "err").string();
  const int status = std::system(("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " SIMT_BINARY_DIR "/vp_example " + args +
                                  " >" + out + " 2>" + err)
                                     .c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, simt::test::slurp(out), simt::test::slurp(err)};
}

}  // namespace

BOOST_AUTO_TEST_CASE(cycle_mode_passes) {
  const auto r = run("--n 3000");
  BOOST_TEST(r.code == 0, r.out + r.err);
  BOOST_TEST(r.out.find("square: status 2") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("add_one: status 2") != std::string::npos, r.out);
  BOOST_TEST(r.out.find("PASSED") != std::string::npos, r.out);
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
