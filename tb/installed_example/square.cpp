// The smallest program on an installed simtlab: a kernel that squares an
// array, run on the cycle-level model of the default machine through the
// runtime (load PTX, copy in, launch, copy out), checked on the host.
// Exit 0 and "square: OK" when every element is right. The kernel comes from
// tb/vp_example/kernels.ptx (SIMT_VP_KERNELS, set by the build).
#include <cstdio>
#include <memory>
#include <vector>

#include <systemc>

#include "gpu/machine_config.h"
#include "runtime/device.h"
#include "util/error.h"

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
    runtime::Module& m = dev.load_ptx_file(SIMT_VP_KERNELS);  // tb/vp_example/kernels.ptx
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
