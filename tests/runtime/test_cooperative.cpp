#define BOOST_TEST_MODULE cooperative
#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>

#include "config/param_registry.h"
#include "gpu/machine_config.h"
#include "runtime/device.h"
#include "runtime/manifest.h"
#include "util/error.h"

using namespace simt;

namespace {

// grid.sync() as cooperative_groups compiles it, reduced: the workspace
// pointer from %envreg1:%envreg2 (trap when there is none), thread 0 of
// each CTA counts itself in and spins until every CTA has. Before the sync
// each CTA writes data[ctaid] = ctaid + 1; after it, CTA c's thread 0 sums
// all of data into out[c], so a CTA that ran ahead reads zeros.
const char* kPtx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 data, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  mov.u32 %r1, %envreg1;
  mov.u32 %r2, %envreg2;
  mov.b64 %rd1, {%r2, %r1};
  setp.ne.s64 %p1, %rd1, 0;
  @%p1 bra HAVE;
  trap;
HAVE:
  ld.param.u64 %rd2, [data];
  ld.param.u64 %rd3, [out];
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %nctaid.x;
  setp.ne.u32 %p2, %r3, 0;
  @%p2 bra WAIT;
  mul.wide.u32 %rd4, %r4, 4;
  add.s64 %rd5, %rd2, %rd4;
  add.u32 %r6, %r4, 1;
  st.global.u32 [%rd5], %r6;
  add.s64 %rd6, %rd1, 4;
  atom.add.release.gpu.u32 %r7, [%rd6], 1;
SPIN:
  ld.acquire.gpu.u32 %r8, [%rd6];
  setp.lt.u32 %p3, %r8, %r5;
  @%p3 bra SPIN;
WAIT:
  bar.sync 0;
  @%p2 bra DONE;
  mov.u32 %r9, 0;
  mov.u32 %r10, 0;
SUM:
  mul.wide.u32 %rd7, %r9, 4;
  add.s64 %rd8, %rd2, %rd7;
  ld.global.u32 %r11, [%rd8];
  add.u32 %r10, %r10, %r11;
  add.u32 %r9, %r9, 1;
  setp.lt.u32 %p3, %r9, %r5;
  @%p3 bra SUM;
  add.s64 %rd9, %rd3, %rd4;
  st.global.u32 [%rd9], %r10;
DONE:
  ret;
}
)";

std::shared_ptr<gpu::MachineConfig> machine() {
  auto m = std::make_shared<gpu::MachineConfig>();
  config::ParamRegistry reg;
  m->bind(reg);
  m->finalize();
  return m;
}

std::vector<uint32_t> run(runtime::Device& dev, uint32_t ctas, bool cooperative) {
  runtime::Module& m = dev.load_ptx(kPtx, "coop.ptx");
  const uint64_t data = dev.malloc(4 * ctas), out = dev.malloc(4 * ctas);
  dev.memset(data, 0, 4 * ctas);
  runtime::KernelArgs a;
  a.push<uint64_t>(data).push<uint64_t>(out);
  dev.launch(m, "k", {{ctas, 1, 1}}, {{64, 1, 1}}, a, 0, cooperative);
  return dev.download<uint32_t>(out, ctas);
}

}  // namespace

BOOST_AUTO_TEST_CASE(functional_mode_runs_the_ctas_side_by_side) {
  runtime::Device dev;  // no machine: any grid is resident
  const uint32_t n = 40;
  const auto out = run(dev, n, true);
  for (uint32_t c = 0; c < n; ++c) BOOST_TEST(out[c] == n * (n + 1) / 2, "CTA " << c);
  // A second cooperative launch starts from a clean workspace.
  BOOST_TEST(run(dev, n, true)[n - 1] == n * (n + 1) / 2);
}

BOOST_AUTO_TEST_CASE(an_ordinary_launch_has_no_workspace_and_traps) {
  runtime::Device dev;
  try {
    run(dev, 2, false);
    BOOST_FAIL("expected the kernel's trap");
  } catch (const Error& e) {
    BOOST_TEST((e.code() == ExitCode::KernelFault));
    BOOST_TEST(std::string(e.what()).find("trap") != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_CASE(the_grid_must_fit_the_machine) {
  runtime::DeviceOptions o;
  o.machine = machine();  // the built-in machine: one SM
  runtime::Device dev(o);
  runtime::Module& m = dev.load_ptx(kPtx, "coop.ptx");
  const uint64_t fit = dev.max_resident_ctas(m, "k", {{64, 1, 1}});
  BOOST_TEST(fit >= 1u);
  BOOST_TEST(fit < 1000u);
  BOOST_TEST(run(dev, static_cast<uint32_t>(fit), true)[0] == fit * (fit + 1) / 2);
  try {
    run(dev, static_cast<uint32_t>(fit + 1), true);
    BOOST_FAIL("expected a refusal");
  } catch (const Error& e) {
    BOOST_TEST((e.code() == ExitCode::BadInput));
    BOOST_TEST(std::string(e.what()).find("the machine holds " + std::to_string(fit) + " at once") !=
                   std::string::npos,
               e.what());
  }
}

BOOST_AUTO_TEST_CASE(timing_mode_spins_until_every_cta_arrives) {
  runtime::DeviceOptions o;
  o.mode = runtime::Mode::Timing;
  o.machine = machine();
  runtime::Device dev(o);
  runtime::Module& m = dev.load_ptx(kPtx, "coop.ptx");
  const uint32_t n = static_cast<uint32_t>(dev.max_resident_ctas(m, "k", {{64, 1, 1}}));
  const auto out = run(dev, n, true);
  for (uint32_t c = 0; c < n; ++c) BOOST_TEST(out[c] == n * (n + 1) / 2, "CTA " << c);
}

BOOST_AUTO_TEST_CASE(manifest_flag) {
  const std::string base = R"({"ptx": "k.ptx", "buffers": [{"name": "b", "type": "u32", "count": 4}],
    "launches": [{"kernel": "k", "grid": 2, "block": 64, "args": [{"buffer": "b"}, {"buffer": "b"}], )";
  BOOST_TEST(runtime::Manifest::parse(base + R"("cooperative": true}]})", "/tmp/m.json").launches[0].cooperative);
  BOOST_TEST(!runtime::Manifest::parse(base + R"("cooperative": false}]})", "/tmp/m.json").launches[0].cooperative);
  try {
    runtime::Manifest::parse(base + R"("cooperative": 1}]})", "/tmp/m.json");
    BOOST_FAIL("expected an error");
  } catch (const Error& e) {
    BOOST_TEST(std::string(e.what()).find("launches[0].cooperative: expected true or false") != std::string::npos,
               e.what());
  }
}
