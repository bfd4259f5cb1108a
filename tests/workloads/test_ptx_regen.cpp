// The committed PTX of every workload must be exactly what nvcc generates
// from its .cu today (tools/regen_ptx.sh --check). Needs nvcc: without it
// the case is skipped (the run log says so) rather than failed, since
// building and running simtlab never needs CUDA.
#define BOOST_TEST_MODULE ptx_regen
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

std::string nvcc_path() {
  const char* env = std::getenv("NVCC");
  return env && *env ? env : "/usr/local/cuda/bin/nvcc";
}

boost::test_tools::assertion_result nvcc_available(boost::unit_test::test_unit_id) {
  const std::string path = nvcc_path();
  boost::test_tools::assertion_result ok(access(path.c_str(), X_OK) == 0);
  if (!ok) ok.message() << "SKIPPED: nvcc not found at " << path << " (set NVCC=... to run this check)";
  return ok;
}

// Runs a shell command, returning its exit status and combined output.
int run_command(const std::string& command, std::string* output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  char buffer[4096];
  size_t got;
  while ((got = fread(buffer, 1, sizeof buffer, pipe)) > 0) output->append(buffer, got);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(committed_ptx_matches_nvcc, *boost::unit_test::precondition(nvcc_available)) {
  const std::string script = std::string(SIMT_SOURCE_DIR) + "/tools/regen_ptx.sh";
  const std::string command = "NVCC='" + nvcc_path() + "' bash '" + script + "' --check";
  std::string output;
  const int status = run_command(command, &output);
  BOOST_TEST_MESSAGE("regen_ptx --check exited " << status << (output.empty() ? "" : ":\n" + output));
  BOOST_TEST(status == 0, "tools/regen_ptx.sh --check exited " << status << ": " << output);
}

// The check itself must be able to fail: a workload whose .cu does not
// compile makes the script exit non-zero.
BOOST_AUTO_TEST_CASE(check_reports_a_broken_kernel, *boost::unit_test::precondition(nvcc_available)) {
  char dir_template[] = "/tmp/simt_regen_XXXXXX";
  const char* dir = mkdtemp(dir_template);
  BOOST_REQUIRE(dir != nullptr);
  const std::string root = dir;
  std::string output;
  const std::string setup = "mkdir -p '" + root + "/tools' '" + root + "/workloads/broken' && cp '" +
                            std::string(SIMT_SOURCE_DIR) + "/tools/regen_ptx.sh' '" + root +
                            "/tools/' && printf 'extern \"C\" __global__ void k() { undeclared(); }\\n' > '" +
                            root + "/workloads/broken/broken.cu' && : > '" + root + "/workloads/broken/broken.ptx'";
  BOOST_REQUIRE_EQUAL(run_command(setup, &output), 0);
  const int status = run_command("NVCC='" + nvcc_path() + "' bash '" + root + "/tools/regen_ptx.sh' --check", &output);
  run_command("rm -rf '" + root + "'", &output);
  BOOST_TEST(status != 0, "regen_ptx --check accepted a kernel that does not compile");
}
