// The installed package: `cmake --install` of this build into a scratch
// prefix, then the out-of-tree project tb/installed_example built against it
// twice, with find_package(simtlab) and with pkg-config alone, and run: it
// simulates a kernel on the cycle-level model and checks the results, and
// the example virtual platform (tb/vp_example/) runs from the package too.
#define BOOST_TEST_MODULE install_package
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/simtlab_stats.h"

namespace fs = std::filesystem;

namespace {

SIMT_TEST_SCRATCH("simtlab_install");

// Runs a shell command with its output in `log`; its exit code.
int sh(const std::string& cmd, const fs::path& log) {
  const int status = std::system((cmd + " >" + log.string() + " 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const fs::path& prefix() {
  static const fs::path p = [] {
    const fs::path dir = scratch() / "prefix";
    const int rc = sh("cmake --install " SIMT_BINARY_DIR " --prefix " + dir.string(), scratch() / "install.log");
    BOOST_TEST_REQUIRE(rc == 0, simt::test::slurp(scratch() / "install.log"));
    return dir;
  }();
  return p;
}

const std::string kExample = SIMT_SOURCE_DIR "/tb/installed_example";

}  // namespace

BOOST_AUTO_TEST_CASE(the_prefix_holds_libraries_headers_package_files_and_the_command) {
  const fs::path& p = prefix();
  BOOST_TEST(fs::exists(p / "include/simtlab/gpu/gpu.h"));
  BOOST_TEST(fs::exists(p / "include/simtlab/runtime/device.h"));
  BOOST_TEST(fs::exists(p / "include/simtlab/simt_version.h"));
  BOOST_TEST(fs::exists(p / "lib/libsimt_gpu.a"));
  BOOST_TEST(fs::exists(p / "lib/cmake/simtlab/simtlabConfig.cmake"));
  BOOST_TEST(fs::exists(p / "lib/cmake/simtlab/simtlabConfigVersion.cmake"));
  BOOST_TEST(fs::exists(p / "lib/pkgconfig/simtlab.pc"));
  BOOST_TEST(fs::exists(p / "bin/simtlab"));
  BOOST_TEST(fs::exists(p / "lib/simtlab/libcudart.so.13"));  // the CUDA runtime library, beside the command
}

// The installed `simtlab exec` finds the installed library (lib/simtlab/
// from bin/): a script started through it sees the library preloaded.
BOOST_AUTO_TEST_CASE(installed_exec_preloads_the_installed_library) {
  const fs::path& p = prefix();
  const fs::path script = scratch() / "show_preload.sh";
  {
    std::ofstream out(script);
    out << "#!/bin/sh\necho \"$LD_PRELOAD\"\n";
  }
  fs::permissions(script, fs::perms::owner_all);
  const fs::path log = scratch() / "exec.log";
  BOOST_TEST_REQUIRE(sh("env -u SIMTLAB_CUDART_DIR " + (p / "bin/simtlab").string() + " exec --mode functional -- " +
                            script.string(), log) == 0, simt::test::slurp(log));
  const std::string out = simt::test::slurp(log);
  BOOST_TEST(out.find((fs::canonical(p) / "lib/simtlab/libcudart.so.13").string()) == 0u, out);
}

BOOST_AUTO_TEST_CASE(an_out_of_tree_project_builds_with_find_package_and_runs) {
  const fs::path build = scratch() / "cmake-build", log = scratch() / "cmake.log";
  const int rc = sh("cmake -S " + kExample + " -B " + build.string() + " -DCMAKE_PREFIX_PATH=" + prefix().string() +
                        " && cmake --build " + build.string(),
                    log);
  BOOST_TEST_REQUIRE(rc == 0, simt::test::slurp(log));
  const fs::path run_log = scratch() / "cmake-run.log";
  BOOST_TEST_REQUIRE(sh("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " + (build / "square").string(), run_log) == 0,
                     simt::test::slurp(run_log));
  BOOST_TEST(simt::test::slurp(run_log).find("square: OK") != std::string::npos, simt::test::slurp(run_log));
  // The example platform, the GPU as a device, from the installed package.
  const fs::path vp_log = scratch() / "vp-run.log";
  BOOST_TEST_REQUIRE(sh("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " + (build / "vp_example").string() + " --n 500", vp_log) == 0,
                     simt::test::slurp(vp_log));
  BOOST_TEST(simt::test::slurp(vp_log).find("vp_example: PASSED") != std::string::npos, simt::test::slurp(vp_log));
}

BOOST_AUTO_TEST_CASE(an_out_of_tree_program_builds_with_pkg_config_and_runs) {
  const std::string pc = "PKG_CONFIG_PATH=" + (prefix() / "lib/pkgconfig").string();
  const fs::path exe = scratch() / "square-pc", log = scratch() / "pc.log";
  const int rc = sh("c++ $(" + pc + " pkg-config --cflags simtlab) -DSIMT_VP_KERNELS='\"" SIMT_SOURCE_DIR
                    "/tb/vp_example/kernels.ptx\"' " + kExample + "/square.cpp -o " + exe.string() +
                        " $(" + pc + " pkg-config --libs simtlab)",
                    log);
  BOOST_TEST_REQUIRE(rc == 0, simt::test::slurp(log));
  const fs::path run_log = scratch() / "pc-run.log";
  BOOST_TEST_REQUIRE(sh("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " + exe.string(), run_log) == 0,
                     simt::test::slurp(run_log));
  BOOST_TEST(simt::test::slurp(run_log).find("square: OK") != std::string::npos, simt::test::slurp(run_log));
}
