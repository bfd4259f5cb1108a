// The medium and large sizes of every workload (CTest label "long", which
// `make test` skips; run with `make test-long`).
#include "workload_cases.h"

using namespace simt;

static bool init_unit_test() {
  for (const auto& w : workloads::all()) {
    test::add_case(std::string(w.name) + "_medium", [&w] { test::run_and_check(w, workloads::Size::Medium, {}); });
    test::add_case(std::string(w.name) + "_large", [&w] { test::run_and_check(w, workloads::Size::Large, {}); });
  }
  return true;
}

int main(int argc, char* argv[]) { return boost::unit_test::unit_test_main(&init_unit_test, argc, argv); }
