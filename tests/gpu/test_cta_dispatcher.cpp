#define BOOST_TEST_MODULE cta_dispatcher
#include <boost/test/unit_test.hpp>

#include "gpu/cta_dispatcher.h"
#include "util/error.h"

using namespace simt::gpu;

namespace {
SmLimits fermi_like() {
  SmLimits l;
  l.max_threads = 1536;
  l.max_ctas = 8;
  l.registers = 32768;
  l.shared_bytes = 49152;
  l.reg_alloc_unit = 64;
  l.warp_size = 32;
  return l;
}
}  // namespace

BOOST_AUTO_TEST_CASE(occupancy_is_the_tightest_limit) {
  SmLimits l = fermi_like();
  CtaDispatcher d(1, l);
  d.start_kernel(100, {256, 20, 0});          // threads: 1536/256 = 6
  BOOST_TEST(d.max_resident_per_sm() == 6u);
  d.start_kernel(100, {64, 20, 0});           // CTA limit: 8
  BOOST_TEST(d.max_resident_per_sm() == 8u);
  d.start_kernel(100, {256, 63, 0});          // registers: 256*63 -> 8 warps * 2048 = 16384 -> 2
  BOOST_TEST(CtaDispatcher::registers_per_cta({256, 63, 0}, l) == 16384u);
  BOOST_TEST(d.max_resident_per_sm() == 2u);
  d.start_kernel(100, {128, 10, 20000});      // shared: 49152/20000 = 2
  BOOST_TEST(d.max_resident_per_sm() == 2u);
}

BOOST_AUTO_TEST_CASE(register_allocation_rounds_per_warp) {
  SmLimits l = fermi_like();
  // 33 threads = 2 warps; 21 regs * 32 = 672 -> 704 per warp (unit 64)
  BOOST_TEST(CtaDispatcher::registers_per_cta({33, 21, 0}, l) == 1408u);
}

BOOST_AUTO_TEST_CASE(dispatch_respects_limits_and_frees_on_completion) {
  SmLimits l = fermi_like();
  CtaDispatcher d(2, l);
  d.start_kernel(20, {512, 16, 0});  // 3 per SM by threads
  std::vector<uint64_t> got;
  for (uint32_t sm = 0; sm < 2; ++sm)
    while (auto c = d.try_dispatch(sm)) got.push_back(*c);
  BOOST_TEST(got == (std::vector<uint64_t>{0, 1, 2, 3, 4, 5}));
  BOOST_TEST(d.resident(0) == 3u);
  BOOST_TEST(!d.try_dispatch(0).has_value());
  d.cta_done(0);
  BOOST_TEST(d.try_dispatch(0).value() == 6u);
  BOOST_TEST(!d.all_dispatched());
  BOOST_TEST(!d.finished());
}

BOOST_AUTO_TEST_CASE(finishes_when_every_cta_ran) {
  CtaDispatcher d(1, fermi_like());
  d.start_kernel(3, {32, 8, 0});
  for (int i = 0; i < 3; ++i) BOOST_TEST(d.try_dispatch(0).has_value());
  BOOST_TEST(d.all_dispatched());
  BOOST_TEST(!d.try_dispatch(0).has_value());
  for (int i = 0; i < 3; ++i) d.cta_done(0);
  BOOST_TEST(d.finished());
}

BOOST_AUTO_TEST_CASE(a_cta_that_can_never_fit_is_an_input_error) {
  CtaDispatcher d(1, fermi_like());
  try {
    d.start_kernel(1, {1024, 40, 0});  // 40960 registers > 32768
    BOOST_FAIL("no error");
  } catch (const simt::Error& e) {
    BOOST_TEST(static_cast<int>(e.code()) == 2);
    BOOST_TEST(std::string(e.what()).find("registers") != std::string::npos);
  }
  BOOST_CHECK_THROW(d.start_kernel(1, {2048, 1, 0}), simt::Error);
  BOOST_CHECK_THROW(d.start_kernel(1, {32, 1, 60000}), simt::Error);
}
