// Options for a Device in timing mode on the default machine (every
// parameter at its default), for end-to-end tests that need no machine file.
#pragma once

#include <memory>

#include "gpu/machine_config.h"
#include "runtime/device.h"

namespace simt::test {

inline runtime::DeviceOptions default_timing_options() {
  auto machine = std::make_shared<gpu::MachineConfig>();
  machine->finalize();
  runtime::DeviceOptions o;
  o.mode = runtime::Mode::Timing;
  o.machine = machine;
  return o;
}

}  // namespace simt::test
