// libFuzzer target: the JSON manifest loader (model/runtime/manifest.*).
// Only parsing and validation: running a manifest needs its PTX and buffers.
// Seeds: the manifests under tests/ (tests/**/*.json).
#include <cstdint>

#include "fuzz/fuzz_harness.h"
#include "runtime/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simt;
  return fuzz::guarded("fuzz_manifest", [&] {
    runtime::Manifest m = runtime::Manifest::parse(fuzz::text_of(data, size), "/fuzz/manifest.json");
    for (const auto& b : m.buffers) (void)runtime::elem_name(b.type);
  });
}
