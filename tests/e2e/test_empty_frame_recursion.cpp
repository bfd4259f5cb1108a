// A recursive function without parameters, return values or locals (issue
// 35 item B): its frame is empty, and a kernel of only such functions has an
// empty per-thread local area. Each recursive call still saves and restores
// the callee's registers. Saving the empty frame used to memcpy from the
// empty area's null pointer (undefined behaviour the sanitizer build
// reports); this run takes that path in both modes.
#define BOOST_TEST_MODULE empty_frame_recursion
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <memory>
#include <vector>

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "runtime/device.h"

using namespace simt;

namespace {

// down(): takes one from `left`; while what it took was positive it calls
// itself, then adds what it took to `back`. That value lives in %r1 across
// the recursive call, so `back` ends at 1 + 2 + ... + N only if each call
// gets its own %r1 back. The threads share `left`, so together they make N
// nested calls that count, whatever the order.
const char* kPtx = R"(.version 8.0
.target sm_75
.address_size 64
.global .align 4 .s32 left;
.global .align 4 .s32 back;
.func down()
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  atom.global.add.s32 %r1, [left], -1;
  setp.le.s32 %p1, %r1, 0;
  @%p1 bra DONE;
  call.uni down, ();
  atom.global.add.s32 %r2, [back], %r1;
DONE:
  ret;
}
.visible .entry k()
{
  call.uni down, ();
  ret;
}
)";

uint32_t run(runtime::Device& dev, uint32_t n, uint32_t threads) {
  runtime::Module& m = dev.load_ptx(kPtx, "empty_frame.ptx");
  BOOST_TEST_REQUIRE(dev.program(m, "k").local_bytes == 0u);  // the path under test
  const runtime::Device::Symbol left = dev.symbol(m, "left"), back = dev.symbol(m, "back");
  dev.copy_to_device(left.addr, &n, 4);
  dev.launch(m, "k", {{1, 1, 1}}, {{threads, 1, 1}}, runtime::KernelArgs{});
  return dev.download<uint32_t>(back.addr, 1)[0];
}

}  // namespace

BOOST_AUTO_TEST_CASE(functional_mode) {
  runtime::Device dev;
  BOOST_TEST(run(dev, 40, 1) == 40u * 41 / 2);
  BOOST_TEST(run(dev, 100, 32) == 100u * 101 / 2);
}

BOOST_AUTO_TEST_CASE(timing_mode) {
  runtime::DeviceOptions o;
  o.mode = runtime::Mode::Timing;
  auto m = std::make_shared<gpu::MachineConfig>();
  config::ParamRegistry reg;
  m->bind(reg);
  m->finalize();
  o.machine = m;
  runtime::Device dev(o);
  BOOST_TEST(run(dev, 100, 64) == 100u * 101 / 2);
}
