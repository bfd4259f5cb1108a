// libFuzzer target: PTX text through everything the loader runs before a
// launch: parser, linker (every entry), control-flow analyses, liveness,
// register rows and pressure, the inspect report and the functional executor's
// instruction checks. Seeds: workloads/*/*.ptx and tests/**/*.ptx.
#include <cstdint>
#include <string>

#include "func/executor.h"
#include "fuzz/fuzz_harness.h"
#include "ptx/cfg.h"
#include "ptx/inspect.h"
#include "ptx/link.h"
#include "ptx/parser.h"
#include "ptx/register_pressure.h"
#include "ptx/register_slots.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simt;
  return fuzz::guarded("fuzz_ptx", [&] {
    ptx::Module m = ptx::parse(fuzz::text_of(data, size), "fuzz.ptx");
    // As `simtlab inspect` does: any distinct address per global will do.
    ptx::SymbolAddresses addrs(m.globals.size());
    for (size_t i = 0; i < addrs.size(); ++i) addrs[i] = 0x1000 * (i + 1);
    for (const std::string& entry : ptx::entry_names(m)) {
      try {
        ptx::Program p = ptx::link(m, entry, addrs);
        ptx::Cfg cfg(p);
        ptx::share_register_slots(p, cfg);
        (void)ptx::max_live_registers(p, cfg);
        (void)ptx::inspect_report(p, cfg);
        func::Executor exec(p);
      } catch (const Error&) {
        // One entry refused; the others are still worth checking.
      }
    }
  });
}
