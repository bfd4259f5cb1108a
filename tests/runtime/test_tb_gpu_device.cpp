// The GPU as a peripheral of a platform the test builds: a platform memory
// (DMI), a free-running clock that never lets the simulation run out of
// events, and the device, whose registers the test drives through its
// target socket between sc_start() slices, as a CPU model would.
#define BOOST_TEST_MODULE tb_gpu_device
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/square_ptx.h"
#include "gpu/foreign_memories.h"
#include "runtime/gpu_device.h"
#include "util/cycle.h"

using namespace simt;
using runtime::GpuDevice;

namespace {

constexpr uint64_t kRam = 0x1'0000'0000, kRamSize = 1 << 20;
constexpr uint64_t kRam2 = 0x2'0000'0000, kRam3 = 0x3'0000'0000;  // the loosely-timed devices' memories
constexpr uint64_t kData = kRam + 0x1000;
constexpr uint32_t kN = 300;

// A platform process on its own clock: counts its edges for the whole run.
struct Ticker : sc_core::sc_module {
  sc_core::sc_clock clk{"clk", sc_core::sc_time(7, sc_core::SC_NS)};
  uint64_t ticks = 0;
  SC_CTOR(Ticker) {
    SC_METHOD(tick);
    sensitive << clk.posedge_event();
    dont_initialize();
  }
  void tick() { ++ticks; }
};

struct IrqWatch : sc_core::sc_module {
  sc_core::sc_in<bool> irq{"irq"};
  std::vector<sc_core::sc_time> rises;
  SC_CTOR(IrqWatch) {
    SC_METHOD(on_irq);
    sensitive << irq.pos();
    dont_initialize();
  }
  void on_irq() { rises.push_back(sc_core::sc_time_stamp()); }
};

// The CPU's side of the bus: the test issues its register accesses.
struct Cpu : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Cpu> socket{"socket"};
  explicit Cpu(sc_core::sc_module_name n) : sc_module(n) {}
};

// The three devices of the platform.
enum class Kind {
  Cycle,     // cycle mode; its memory grants DMI
  Lt,        // loosely timed; its memory refuses DMI: every access by debug transport
  LtTimed,   // loosely timed with lt_memory_timing; its memory annotates 20 ns per b_transport
             // (and refuses DMI)
};

GpuDevice::Options options(Kind k, uint64_t ram) {
  GpuDevice::Options o;
  o.mode = k == Kind::Cycle ? GpuDevice::Mode::Cycle : GpuDevice::Mode::LooselyTimed;
  o.ptx_texts = {{"kernels.ptx", test::square_ptx()}};
  o.windows = {{ram, kRamSize}};
  o.lt_cycles_per_warp_instruction = 50;  // loosely timed: long enough for several quanta
  o.lt_quantum = sc_core::sc_time(1, sc_core::SC_US);
  o.lt_memory_timing = k == Kind::LtTimed;
  return o;
}

std::unique_ptr<test::ForeignMemoryBase> memory_for(Kind k, const std::string& n, uint64_t base) {
  if (k == Kind::Cycle) return std::make_unique<test::DmiMemory>(n.c_str(), base, kRamSize, 0xee);
  if (k == Kind::Lt) return std::make_unique<test::DebugOnlyMemory>(n.c_str(), base, kRamSize, 0xee);
  auto m = std::make_unique<test::DebugOnlyMemory>(n.c_str(), base, kRamSize, 0xee);
  m->b_delay = sc_core::sc_time(20, sc_core::SC_NS);  // a memory with timing
  return m;
}

struct Platform {
  uint64_t base;
  std::unique_ptr<test::ForeignMemoryBase> ram_owner;
  test::ForeignMemoryBase& ram;
  GpuDevice gpu;
  IrqWatch watch;
  sc_core::sc_signal<bool> irq;
  Cpu cpu_module;
  tlm_utils::simple_initiator_socket<Cpu>& cpu = cpu_module.socket;
  Platform(const std::string& n, Kind mode, uint64_t b)
      : base(b),
        ram_owner(memory_for(mode, n + "_ram", b)),
        ram(*ram_owner),
        gpu((n + "_gpu").c_str(), options(mode, b)),
        watch((n + "_watch").c_str()),
        irq((n + "_irq").c_str()),
        cpu_module((n + "_cpu").c_str()) {
    gpu.memory().bind(ram.socket);
    gpu.irq(irq);
    watch.irq(irq);
    cpu.bind(gpu.regs);
  }
  uint64_t data() const { return base + 0x1000; }
  uint64_t params() const { return base + 0x100; }
  tlm::tlm_response_status access(uint64_t addr, bool write, uint32_t& v, unsigned len = 4,
                                  sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    tlm::tlm_generic_payload gp;
    uint8_t buf[8] = {};
    if (write) std::memcpy(buf, &v, 4);
    gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(buf);
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time t = delay;  // an initiator running ahead of SystemC's time by `delay`
    cpu->b_transport(gp, t);
    if (!write) std::memcpy(&v, buf, 4);
    return gp.get_response_status();
  }
  uint32_t rd(uint32_t reg) {
    uint32_t v = 0;
    BOOST_REQUIRE(access(reg, false, v) == tlm::TLM_OK_RESPONSE);
    return v;
  }
  void wr(uint32_t reg, uint32_t v) { BOOST_REQUIRE(access(reg, true, v) == tlm::TLM_OK_RESPONSE); }
  template <class T>
  void poke(uint64_t a, T v) {
    std::memcpy(ram.live().data() + (a - base), &v, sizeof v);
  }
  std::string fault_text() {
    std::string s;
    for (uint32_t off = GpuDevice::kFaultText; off < GpuDevice::kMapEnd; off += 4) {
      const uint32_t w = rd(off);
      for (int i = 0; i < 4; ++i) {
        const char c = static_cast<char>((w >> (8 * i)) & 0xff);
        if (!c) return s;
        s += c;
      }
    }
    return s;
  }
  // Programs a launch of `kernel` of `module` over `n` words at `data` and rings the doorbell.
  void launch(uint32_t kernel, uint64_t data, uint32_t n, uint32_t module = 0,
              sc_core::sc_time doorbell_delay = sc_core::SC_ZERO_TIME) {
    poke<uint64_t>(params(), data);
    poke<uint32_t>(params() + 8, n);
    wr(GpuDevice::kModule, module);
    wr(GpuDevice::kKernel, kernel);
    wr(GpuDevice::kGridX, (n + 127) / 128);
    wr(GpuDevice::kBlockX, 128);
    wr(GpuDevice::kParamAddr, static_cast<uint32_t>(params()));
    wr(GpuDevice::kParamAddr + 4, static_cast<uint32_t>(params() >> 32));
    wr(GpuDevice::kParamSize, 12);
    wr(GpuDevice::kIrqEnable, 1);
    uint32_t go = 1;
    BOOST_REQUIRE(access(GpuDevice::kControl, true, go, 4, doorbell_delay) == tlm::TLM_OK_RESPONSE);
  }
  // Runs the platform until the interrupt rises (at most `limit`).
  bool run_until_irq(sc_core::sc_time limit = sc_core::sc_time(5, sc_core::SC_MS)) {
    const size_t before = watch.rises.size();
    const sc_core::sc_time end = sc_core::sc_time_stamp() + limit;
    while (watch.rises.size() == before && sc_core::sc_time_stamp() < end)
      sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
    return watch.rises.size() > before;
  }
};

// The platform: a free-running clock, a cycle-mode device and two loosely-timed ones.
struct World {
  Ticker ticker{"ticker"};
  Platform cycle{"cycle", Kind::Cycle, kRam};
  Platform lt{"lt", Kind::Lt, kRam2};
  Platform timed{"timed", Kind::LtTimed, kRam3};
};

World& world() {
  static World w;
  return w;
}
Platform& platform() { return world().cycle; }

uint64_t reg64(Platform& p, uint32_t reg) { return p.rd(reg) | uint64_t{p.rd(reg + 4)} << 32; }

}  // namespace

BOOST_AUTO_TEST_CASE(registers_identify_the_device_and_refuse_bad_accesses) {
  Platform& p = platform();
  BOOST_TEST(p.rd(GpuDevice::kId) == GpuDevice::kIdValue);
  BOOST_TEST(p.rd(GpuDevice::kVersion) == 0x000100u);  // 0.1.0
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kIdle);
  BOOST_TEST(p.rd(GpuDevice::kModules) == 1u);
  BOOST_TEST(p.rd(GpuDevice::kKernels) == 2u);
  p.wr(GpuDevice::kGridY, 3);
  BOOST_TEST(p.rd(GpuDevice::kGridY) == 3u);
  p.wr(GpuDevice::kGridY, 1);
  uint32_t v = 5;
  BOOST_TEST(p.access(GpuDevice::kStatus, true, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // read-only
  BOOST_TEST(p.access(GpuDevice::kCycles, true, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  BOOST_TEST(p.access(0x2, false, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);        // misaligned
  BOOST_TEST(p.access(0x1000, false, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);     // outside the map
  BOOST_TEST(p.access(GpuDevice::kId, false, v, 2) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // not a word
  // Debug transport reads the registers and changes nothing.
  tlm::tlm_generic_payload gp;
  uint8_t buf[8] = {};
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(GpuDevice::kId);
  gp.set_data_ptr(buf);
  gp.set_data_length(8);
  BOOST_TEST(p.cpu->transport_dbg(gp) == 8u);
  uint32_t id;
  std::memcpy(&id, buf, 4);
  BOOST_TEST(id == GpuDevice::kIdValue);
}

BOOST_AUTO_TEST_CASE(a_launch_runs_beside_a_free_running_clock_and_interrupts_at_its_last_cycle) {
  Platform& p = platform();
  for (uint32_t i = 0; i < kN; ++i) p.poke<uint32_t>(kData + 4 * i, i);
  const uint64_t ticks0 = world().ticker.ticks;
  const sc_core::sc_time rung = sc_core::sc_time_stamp();
  p.launch(0, kData, kN);
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kDone);
  BOOST_TEST(p.rd(GpuDevice::kFaultCode) == GpuDevice::kNoFault);
  bool ok = true;
  for (uint32_t i = 0; i < kN; ++i) ok = ok && p.ram.peek<uint32_t>(kData + 4 * i) == i * i;
  BOOST_TEST(ok, "the platform memory holds the squares");
  BOOST_TEST(p.ram.peek<uint32_t>(kData + 4 * kN) == 0xeeeeeeeeu);  // nothing past the array
  // The interrupt rose when the launch's last cycle ended: its cycles after the doorbell.
  const uint64_t cycles = reg64(p, GpuDevice::kCycles);
  BOOST_TEST(cycles > 100u);
  BOOST_TEST((p.watch.rises.back() - rung).value() / util::cycle_time().value() == cycles);
  BOOST_TEST(reg64(p, GpuDevice::kThreadInstrs) > reg64(p, GpuDevice::kWarpInstrs));
  BOOST_TEST(world().ticker.ticks > ticks0 + cycles / 7);  // the platform's clock ran all along
  BOOST_TEST(p.gpu.launches().size() == 1u);
  BOOST_TEST(p.gpu.launches().back().cycles == cycles);
  // Clearing IRQ_STATUS lowers the line.
  BOOST_TEST(p.irq.read());
  p.wr(GpuDevice::kIrqStatus, 1);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_NS));
  BOOST_TEST(!p.irq.read());
}

BOOST_AUTO_TEST_CASE(a_second_kernel_back_to_back) {
  Platform& p = platform();
  p.wr(GpuDevice::kControl, 2);  // done -> idle
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kIdle);
  p.launch(1, kData, kN);
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kIdle);  // the doorbell takes effect in the simulation
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kDone);
  bool ok = true;
  for (uint32_t i = 0; i < kN; ++i) ok = ok && p.ram.peek<uint32_t>(kData + 4 * i) == i * i + 1;
  BOOST_TEST(ok, "squares plus one");
  p.wr(GpuDevice::kIrqStatus, 1);
}

BOOST_AUTO_TEST_CASE(a_bad_launch_is_a_fault_in_status_and_the_device_stays_usable) {
  Platform& p = platform();
  p.launch(7, kData, kN);  // no kernel 7
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kFault);
  BOOST_TEST(p.rd(GpuDevice::kFaultCode) == GpuDevice::kBadLaunch);
  BOOST_TEST(p.fault_text().find("KERNEL = 7") != std::string::npos, p.fault_text());
  BOOST_TEST(p.rd(GpuDevice::kFaultFlags) == 0u);  // no thread's fault
  p.wr(GpuDevice::kIrqStatus, 1);
  p.launch(0, kData, kN);
  p.wr(GpuDevice::kParamSize, 4);  // less than the kernel's 12 bytes
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kFaultCode) == GpuDevice::kBadLaunch);
  BOOST_TEST(p.fault_text().find("PARAM_SIZE") != std::string::npos, p.fault_text());
  p.wr(GpuDevice::kIrqStatus, 1);
  p.launch(0, kData, kN);
  p.wr(GpuDevice::kBlockX, 2048);  // over CUDA's limit
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kFaultCode) == GpuDevice::kBadLaunch);
  p.wr(GpuDevice::kIrqStatus, 1);
  // Still usable.
  p.launch(1, kData, 10);
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kDone);
  BOOST_TEST(p.ram.peek<uint32_t>(kData) == 2u);  // 0 * 0 + 1 + 1
  p.wr(GpuDevice::kIrqStatus, 1);
}

BOOST_AUTO_TEST_CASE(a_module_loaded_from_platform_memory) {
  Platform& p = platform();
  // The CPU puts PTX text in memory: the square module with its kernels renamed.
  std::string text = test::square_ptx();
  for (size_t at; (at = text.find("square")) != std::string::npos;) text.replace(at, 6, "sq_two");
  const uint64_t where = p.base + 0x80000;
  for (size_t i = 0; i < text.size(); ++i) p.poke<char>(where + i, text[i]);
  p.wr(GpuDevice::kModuleAddr, static_cast<uint32_t>(where));
  p.wr(GpuDevice::kModuleAddr + 4, static_cast<uint32_t>(where >> 32));
  p.wr(GpuDevice::kModuleSize, static_cast<uint32_t>(text.size()));
  p.wr(GpuDevice::kControl, 4);
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kDone);
  BOOST_TEST(p.rd(GpuDevice::kModules) == 2u);
  p.wr(GpuDevice::kIrqStatus, 1);
  p.wr(GpuDevice::kModule, 1);
  BOOST_TEST(p.rd(GpuDevice::kKernels) == 2u);
  for (uint32_t i = 0; i < 8; ++i) p.poke<uint32_t>(kData + 4 * i, i + 2);
  p.launch(0, kData, 8, 1);
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kDone);
  BOOST_TEST(p.ram.peek<uint32_t>(kData + 4 * 5) == 49u);
  p.wr(GpuDevice::kIrqStatus, 1);
  // Text that is not PTX: a fault naming the place, and the device goes on.
  const std::string bad = ".version 8.0\n.target sm_75\n.visible .entry k() { frobnicate; }\n";
  for (size_t i = 0; i < bad.size(); ++i) p.poke<char>(where + i, bad[i]);
  p.wr(GpuDevice::kModuleSize, static_cast<uint32_t>(bad.size()));
  p.wr(GpuDevice::kControl, 4);
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kFaultCode) == GpuDevice::kBadModule);
  BOOST_TEST(p.fault_text().find("platform memory at 0x") != std::string::npos, p.fault_text());
  BOOST_TEST(p.rd(GpuDevice::kModules) == 2u);
  uint32_t v = 0;
  BOOST_TEST(p.access(0xC0, false, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // reserved
  p.wr(GpuDevice::kIrqStatus, 1);
  p.wr(GpuDevice::kModule, 0);
}

BOOST_AUTO_TEST_CASE(loosely_timed_leaves_the_memory_cycle_mode_leaves_and_yields_every_quantum) {
  World& w = world();
  Platform& c = w.cycle;
  Platform& lt = w.lt;
  for (uint32_t i = 0; i < kN; ++i) {
    c.poke<uint32_t>(c.data() + 4 * i, 3 * i + 1);
    lt.poke<uint32_t>(lt.data() + 4 * i, 3 * i + 1);
  }
  c.launch(0, c.data(), kN);
  BOOST_TEST_REQUIRE(c.run_until_irq());
  c.wr(GpuDevice::kIrqStatus, 1);
  const sc_core::sc_time rung = sc_core::sc_time_stamp();
  lt.launch(0, lt.data(), kN);
  // The kernel's annotated time is spread over quanta: meanwhile the
  // platform runs and the CPU sees the launch running.
  const uint64_t ticks = w.ticker.ticks;
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_US));
  BOOST_TEST(lt.rd(GpuDevice::kStatus) == GpuDevice::kRunning);
  BOOST_TEST(w.ticker.ticks > ticks);
  BOOST_TEST_REQUIRE(lt.run_until_irq());
  BOOST_TEST(lt.rd(GpuDevice::kStatus) == GpuDevice::kDone);
  bool same = true;
  for (uint32_t i = 0; i < kN; ++i)
    same = same && lt.ram.peek<uint32_t>(lt.data() + 4 * i) == c.ram.peek<uint32_t>(c.data() + 4 * i);
  BOOST_TEST(same, "both modes leave the same memory");
  BOOST_TEST(lt.ram.peek<uint32_t>(lt.data() + 4 * 7) == 22u * 22u);
  // Annotated: 50 cycles per warp instruction, the interrupt at the end of them.
  const uint64_t warps = reg64(lt, GpuDevice::kWarpInstrs);
  BOOST_TEST(warps == reg64(c, GpuDevice::kWarpInstrs));
  BOOST_TEST(reg64(lt, GpuDevice::kCycles) == 50 * warps);
  BOOST_TEST((lt.watch.rises.back() - rung).value() / util::cycle_time().value() == 50 * warps);
  BOOST_TEST(lt.ram.dmi_grants == 0u);  // all of it by debug transport
  BOOST_TEST(lt.ram.dbg_calls > uint64_t{2} * kN);
  lt.wr(GpuDevice::kIrqStatus, 1);
}

BOOST_AUTO_TEST_CASE(a_memory_with_timing_adds_its_delays_to_a_loosely_timed_launch) {
  Platform& t = world().timed;
  test::ForeignMemoryBase& mem = t.ram;
  for (uint32_t i = 0; i < kN; ++i) t.poke<uint32_t>(t.data() + 4 * i, i);
  const uint64_t before = mem.b_calls;
  const sc_core::sc_time rung = sc_core::sc_time_stamp();
  t.launch(0, t.data(), kN);
  BOOST_TEST_REQUIRE(t.run_until_irq());
  BOOST_TEST(t.rd(GpuDevice::kStatus) == GpuDevice::kDone);
  BOOST_TEST(t.ram.peek<uint32_t>(t.data() + 4 * 9) == 81u);
  // A load and a store per element, each a b_transport of 20 ns (20 cycles).
  const uint64_t accesses = mem.b_calls - before;
  BOOST_TEST(accesses >= 2u * kN);
  const uint64_t cycles = reg64(t, GpuDevice::kCycles);
  BOOST_TEST(cycles == 50 * reg64(t, GpuDevice::kWarpInstrs) + 20 * accesses);
  BOOST_TEST((t.watch.rises.back() - rung).value() / util::cycle_time().value() == cycles);
  t.wr(GpuDevice::kIrqStatus, 1);
}

BOOST_AUTO_TEST_CASE(a_doorbell_with_annotated_delay_rings_at_its_end) {
  Platform& lt = world().lt;
  const sc_core::sc_time rung = sc_core::sc_time_stamp();
  lt.launch(1, lt.data(), 64, 0, sc_core::sc_time(500, sc_core::SC_NS));
  BOOST_TEST_REQUIRE(lt.run_until_irq());
  const uint64_t cycles = reg64(lt, GpuDevice::kCycles);
  BOOST_TEST((lt.watch.rises.back() - rung).value() / util::cycle_time().value() == 500 + cycles);
  lt.wr(GpuDevice::kIrqStatus, 1);
}

BOOST_AUTO_TEST_CASE(a_loosely_timed_kernel_fault_leaves_the_device_usable) {
  Platform& lt = world().lt;
  lt.launch(0, kRam2 + kRamSize + 0x10000, 64);  // outside its memory
  BOOST_TEST_REQUIRE(lt.run_until_irq());
  BOOST_TEST(lt.rd(GpuDevice::kFaultCode) == GpuDevice::kKernelFault);
  BOOST_TEST(lt.fault_text().find("address") != std::string::npos, lt.fault_text());
  lt.wr(GpuDevice::kIrqStatus, 1);
  lt.launch(1, lt.data(), 4);
  BOOST_TEST_REQUIRE(lt.run_until_irq());
  BOOST_TEST(lt.rd(GpuDevice::kStatus) == GpuDevice::kDone);
  lt.wr(GpuDevice::kIrqStatus, 1);
}

// Many CPU models leave the payload's streaming width at 0: no streaming.
BOOST_AUTO_TEST_CASE(a_cpu_may_leave_the_streaming_width_at_zero) {
  Platform& p = platform();
  auto transport = [&](tlm::tlm_command cmd, uint32_t reg, uint32_t& v, unsigned width) {
    tlm::tlm_generic_payload gp;  // streaming width 0 unless set
    gp.set_command(cmd);
    gp.set_address(reg);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    gp.set_data_length(4);
    if (width) gp.set_streaming_width(width);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    p.cpu->b_transport(gp, t);
    return gp.get_response_status();
  };
  uint32_t v = 0;
  BOOST_TEST(transport(tlm::TLM_READ_COMMAND, GpuDevice::kId, v, 0) == tlm::TLM_OK_RESPONSE);
  BOOST_TEST(v == GpuDevice::kIdValue);
  v = 6;
  BOOST_TEST(transport(tlm::TLM_WRITE_COMMAND, GpuDevice::kGridZ, v, 0) == tlm::TLM_OK_RESPONSE);
  BOOST_TEST(p.rd(GpuDevice::kGridZ) == 6u);
  BOOST_TEST(transport(tlm::TLM_READ_COMMAND, GpuDevice::kGridZ, v, 8) == tlm::TLM_OK_RESPONSE);  // over the length
  BOOST_TEST(transport(tlm::TLM_READ_COMMAND, GpuDevice::kGridZ, v, 2) == tlm::TLM_BURST_ERROR_RESPONSE);
  p.wr(GpuDevice::kGridZ, 1);
}

// What a platform reads back agrees with itself: the launch records with the
// registers, the memory port's counters with the stats.
BOOST_AUTO_TEST_CASE(records_counters_and_registers_agree) {
  Platform& lt = world().lt;
  lt.launch(1, lt.data(), 200);
  BOOST_TEST_REQUIRE(lt.run_until_irq());
  const uint64_t cycles = reg64(lt, GpuDevice::kCycles);
  BOOST_TEST(cycles > 0u);
  BOOST_TEST(lt.gpu.launches().back().cycles == cycles);  // the annotated count, not 0
  uint64_t sum = 0;
  for (const runtime::LaunchStats& s : lt.gpu.launches()) sum += s.cycles;
  BOOST_TEST(lt.gpu.device().totals().cycles == sum);
  lt.wr(GpuDevice::kIrqStatus, 1);
  // A refused launch shows none of the last launch's counts.
  lt.launch(9, lt.data(), 200);
  BOOST_TEST_REQUIRE(lt.run_until_irq());
  BOOST_TEST(lt.rd(GpuDevice::kFaultCode) == GpuDevice::kBadLaunch);
  BOOST_TEST(reg64(lt, GpuDevice::kCycles) == 0u);
  BOOST_TEST(reg64(lt, GpuDevice::kWarpInstrs) == 0u);
  BOOST_TEST(reg64(lt, GpuDevice::kThreadInstrs) == 0u);
  lt.wr(GpuDevice::kIrqStatus, 1);
  // Loosely timed over a memory that refuses DMI: all on the debug path.
  const GpuDevice::MemoryPortCounters l = lt.gpu.memory_port_counters();
  BOOST_TEST(l.dmi_grants == 0u);
  BOOST_TEST(l.dmi_refusals > 0u);
  BOOST_TEST(l.debug_reads > 0u);
  BOOST_TEST(l.debug_writes > 0u);
  BOOST_TEST(l.dmi_accesses == 0u);
  BOOST_TEST(lt.gpu.stats().value("memory_port.debug_reads") == l.debug_reads);
  // Cycle mode over a memory that grants DMI: none on it.
  Platform& c = platform();
  const GpuDevice::MemoryPortCounters d = c.gpu.memory_port_counters();
  BOOST_TEST(d.dmi_grants >= 1u);
  BOOST_TEST(d.dmi_accesses > 0u);
  BOOST_TEST(d.debug_reads + d.debug_writes == 0u);
  BOOST_TEST(c.gpu.stats().value("memory_port.dmi_grants") == d.dmi_grants);
  // With lt_memory_timing: b_transports, one per access the memory saw.
  Platform& t = world().timed;
  BOOST_TEST(t.gpu.memory_port_counters().b_transports == t.ram.b_calls);
  BOOST_TEST(t.gpu.memory_port_counters().incomplete_responses == 0u);
}

BOOST_AUTO_TEST_CASE(a_kernel_fault_halts_the_gpu_but_not_the_platform) {
  Platform& p = platform();
  p.launch(0, kRam + kRamSize + 0x10000, 64);  // the array lies outside platform memory
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kStatus) == GpuDevice::kFault);
  BOOST_TEST(p.rd(GpuDevice::kFaultCode) == GpuDevice::kKernelFault);
  const std::string text = p.fault_text();
  BOOST_TEST(text.find("square") != std::string::npos, text);
  BOOST_TEST(text.find("address") != std::string::npos, text);
  // The same place as numbers: some thread of CTA 0, its load, the address it tried.
  BOOST_TEST(p.rd(GpuDevice::kFaultFlags) == 3u);
  BOOST_TEST(p.rd(GpuDevice::kFaultCta) == 0u);
  BOOST_TEST(p.rd(GpuDevice::kFaultTid) < 64u);
  BOOST_TEST(p.rd(GpuDevice::kFaultPc) == 10u);  // ld.global.u32, the eleventh instruction
  const uint64_t addr = reg64(p, GpuDevice::kFaultAddr);
  BOOST_TEST(addr == kRam + kRamSize + 0x10000 + 4 * p.rd(GpuDevice::kFaultTid));
  BOOST_TEST(text.find(std::to_string(p.rd(GpuDevice::kFaultPc))) != std::string::npos, text);
  const uint64_t ticks = world().ticker.ticks;
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  BOOST_TEST(world().ticker.ticks > ticks);  // the platform goes on
  p.wr(GpuDevice::kIrqStatus, 1);
  p.launch(1, kData, kN);
  BOOST_TEST_REQUIRE(p.run_until_irq());
  BOOST_TEST(p.rd(GpuDevice::kFaultCode) == GpuDevice::kHalted);
}
