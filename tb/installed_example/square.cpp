// The smallest program on an installed simtlab: a kernel that squares an
// array, run on the cycle-level model of the default machine through the
// runtime (load PTX, copy in, launch, copy out), checked on the host.
// Exit 0 and "square: OK" when every element is right.
#include <cstdio>
#include <memory>
#include <vector>

#include <systemc>

#include "gpu/machine_config.h"
#include "runtime/device.h"
#include "util/error.h"

namespace {

const char* kPtx = R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry square(.param .u64 data, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [data];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r6, [%rd3];
  mul.lo.u32 %r7, %r6, %r6;
  st.global.u32 [%rd3], %r7;
DONE:
  ret;
}
)";

}  // namespace

int sc_main(int, char**) {
  using namespace simt;
  try {
    auto machine = std::make_shared<gpu::MachineConfig>();
    machine->finalize();  // the defaults: a Fermi-like SM
    runtime::DeviceOptions o;
    o.mode = runtime::Mode::Timing;
    o.machine = machine;
    runtime::Device dev(o);
    const uint32_t n = 1000;
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = i;
    const uint64_t a = dev.upload(v);
    runtime::Module& m = dev.load_ptx(kPtx, "square.ptx");
    runtime::KernelArgs args;
    args.push<uint64_t>(a).push<uint32_t>(n);
    const runtime::LaunchStats st = dev.launch(m, "square", {{(n + 127) / 128, 1, 1}}, {{128, 1, 1}}, args);
    const std::vector<uint32_t> out = dev.download<uint32_t>(a, n);
    for (uint32_t i = 0; i < n; ++i)
      if (out[i] != i * i) {
        std::printf("square: element %u is %u, not %u\n", i, out[i], i * i);
        return 1;
      }
    std::printf("square: OK, %llu cycles\n", static_cast<unsigned long long>(st.cycles));
    return 0;
  } catch (const Error& e) {
    std::printf("square: %s\n", e.what());
    return 2;
  }
}
