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
    // Memory must be bit-identical, not just within the reference's tolerance.
    test::add_case(std::string(w.name) + "_groupings_leave_identical_memory", [&w] {
      const uint64_t base = test::run_and_check(w, Size::Small, {});
      runtime::DeviceOptions o;
      o.warp_size = 8;
      BOOST_TEST(test::run_and_check(w, Size::Small, o) == base, "warp size 8");
      for (uint64_t seed : {1u, 12345u}) {
        runtime::DeviceOptions r;
        r.grouping = runtime::Grouping::Random;
        r.grouping_seed = seed;
        BOOST_TEST(test::run_and_check(w, Size::Small, r) == base, "random grouping, seed " << seed);
      }
    });
  }
  return workloads::all().size() >= 12;
}

int main(int argc, char* argv[]) { return boost::unit_test::unit_test_main(&init_unit_test, argc, argv); }
