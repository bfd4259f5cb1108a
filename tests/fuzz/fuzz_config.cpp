// libFuzzer target: machine configuration as the command line builds it
// (model/config/param_registry.*, model/gpu/machine_config.*): a TOML file,
// then `--set key=value` lines, then MachineConfig::finalize(). The input is
// TOML text, optionally followed by a line "%%" and one key=value per line.
// Seeds: configs/*.toml and tests/fuzz/seeds/config/*.
#include <cstdint>
#include <string>

#include "config/param_registry.h"
#include "fuzz/fuzz_harness.h"
#include "gpu/machine_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simt;
  return fuzz::guarded("fuzz_config", [&] {
    const std::string text = fuzz::text_of(data, size);
    const size_t split = text.find("\n%%\n");
    gpu::MachineConfig mc;
    config::ParamRegistry reg;
    mc.bind(reg);
    reg.load_toml_text(text.substr(0, split), "fuzz.toml");
    if (split != std::string::npos) {
      size_t pos = split + 4;
      while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(pos, end - pos);
        const size_t eq = line.find('=');
        if (eq == std::string::npos || eq == 0) throw input_error("--set " + line + ": expected key=value");
        reg.set(line.substr(0, eq), line.substr(eq + 1), "--set " + line);
        pos = end + 1;
      }
    }
    mc.finalize();
    (void)reg.to_json().dump();
  });
}
