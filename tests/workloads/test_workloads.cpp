// Every built-in workload verifies against its CPU reference at the small
// size, also with 8-wide warps and with a random grouping of threads into
// warps: the memory a race-free kernel leaves must not depend on grouping
// (warp-synchronous instructions still see their whole 32-thread warp).
#include "workload_cases.h"

using namespace simt;

static bool init_unit_test() {
  using workloads::Size;
  for (const auto& w : workloads::all()) {
    test::add_case(std::string(w.name) + "_small", [&w] { test::run_and_check(w, Size::Small, {}); });
    test::add_case(std::string(w.name) + "_warp8", [&w] {
      runtime::DeviceOptions o;
      o.warp_size = 8;
      test::run_and_check(w, Size::Small, o);
    });
    test::add_case(std::string(w.name) + "_random_grouping", [&w] {
      runtime::DeviceOptions o;
      o.grouping = runtime::Grouping::Random;
      o.grouping_seed = 12345;
      test::run_and_check(w, Size::Small, o);
    });
  }
  return workloads::all().size() >= 12;
}

int main(int argc, char* argv[]) { return boost::unit_test::unit_test_main(&init_unit_test, argc, argv); }
