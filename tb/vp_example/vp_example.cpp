// An example virtual platform with simtlab's GPU as a device
// (docs/virtual-platform.md): a CPU model, a bus, a RAM, a free-running
// clock and the GPU. The CPU writes an array into RAM, runs two kernels back
// to back on it through the GPU's registers (square, then add one), waits for
// the GPU's interrupt after each, and checks the results.
//
//   build/vp_example [--lt] [--n N] [--ptx FILE]
//     --lt: the loosely-timed mode; --ptx: the kernels (default: kernels.ptx
//     beside this file, SIMT_VP_KERNELS at build time)
//
// Exit 0 when both kernels left the right values, 1 otherwise, 2 on a bad
// command line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "runtime/gpu_device.h"
#include "util/error.h"

namespace {

using namespace sc_core;

// Memory map of the platform.
constexpr uint64_t kGpuBase = 0x4000'0000, kGpuSize = 0x1000;
constexpr uint64_t kRamBase = 0x1'0000'0000, kRamSize = 16 << 20;  // the GPU's module variables start at 4 GiB too
// The array where `simtlab run` would allocate it (4 GiB), so that both runs
// see the same addresses and take the same cycles; the parameter block at the top.
constexpr uint64_t kArray = kRamBase, kParams = kRamBase + kRamSize - 0x100;

// A dual-ported RAM (the CPU's bus, the GPU): b_transport (10 ns per
// access), debug transport and DMI over all of it.
struct Ram : sc_module {
  tlm_utils::simple_target_socket<Ram> cpu_port{"cpu_port"}, gpu_port{"gpu_port"};
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kRamSize);
  explicit Ram(sc_module_name n) : sc_module(n) {
    for (auto* s : {&cpu_port, &gpu_port}) {
      s->register_b_transport(this, &Ram::b_transport);
      s->register_transport_dbg(this, &Ram::transport_dbg);
      s->register_get_direct_mem_ptr(this, &Ram::get_dmi);
    }
  }
  bool inside(const tlm::tlm_generic_payload& gp) const {
    return gp.get_address() >= kRamBase && gp.get_address() + gp.get_data_length() <= kRamBase + kRamSize;
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& t) {
    if (!inside(gp)) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    transport_dbg(gp);
    t += sc_time(10, SC_NS);
    gp.set_dmi_allowed(true);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    if (!inside(gp)) return 0;
    uint8_t* p = bytes.data() + (gp.get_address() - kRamBase);
    if (gp.is_write()) std::memcpy(p, gp.get_data_ptr(), gp.get_data_length());
    else std::memcpy(gp.get_data_ptr(), p, gp.get_data_length());
    return gp.get_data_length();
  }
  bool get_dmi(tlm::tlm_generic_payload&, tlm::tlm_dmi& d) {
    d.set_dmi_ptr(bytes.data());
    d.set_start_address(kRamBase);
    d.set_end_address(kRamBase + kRamSize - 1);
    d.allow_read_write();
    return true;
  }
};

// The CPU's bus: RAM and the GPU's registers by address.
struct Bus : sc_module {
  tlm_utils::simple_target_socket<Bus> in{"in"};
  tlm_utils::simple_initiator_socket<Bus> to_ram{"to_ram"}, to_gpu{"to_gpu"};
  explicit Bus(sc_module_name n) : sc_module(n) { in.register_b_transport(this, &Bus::b_transport); }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& t) {
    const uint64_t a = gp.get_address();
    if (a >= kGpuBase && a < kGpuBase + kGpuSize) {
      gp.set_address(a - kGpuBase);
      to_gpu->b_transport(gp, t);
      gp.set_address(a);
    } else {
      to_ram->b_transport(gp, t);
    }
  }
};

// The CPU: a program on an SC_THREAD that talks to RAM and the GPU over the bus.
struct Cpu : sc_module {
  tlm_utils::simple_initiator_socket<Cpu> bus{"bus"};
  sc_in<bool> irq{"irq"};
  uint32_t n;
  bool passed = false;
  SC_HAS_PROCESS(Cpu);
  Cpu(sc_module_name name, uint32_t n_) : sc_module(name), n(n_) { SC_THREAD(program); }

  void access(uint64_t a, bool write, void* data, unsigned len) {
    tlm::tlm_generic_payload gp;
    gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp.set_address(a);
    gp.set_data_ptr(static_cast<unsigned char*>(data));
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time t = SC_ZERO_TIME;
    bus->b_transport(gp, t);
    wait(t);  // a simple CPU: every access takes its time at once
    if (gp.is_response_error()) {
      std::fprintf(stderr, "cpu: bus error at 0x%llx: %s\n", static_cast<unsigned long long>(a),
                   gp.get_response_string().c_str());
      std::exit(1);
    }
  }
  void store32(uint64_t a, uint32_t v) { access(a, true, &v, 4); }
  uint32_t load32(uint64_t a) {
    uint32_t v;
    access(a, false, &v, 4);
    return v;
  }
  void gpu(uint32_t reg, uint32_t v) { store32(kGpuBase + reg, v); }
  uint32_t gpu(uint32_t reg) { return load32(kGpuBase + reg); }

  // Runs kernel `k` of module 0 over the array and waits for the interrupt.
  bool run_kernel(uint32_t k, const char* what) {
    using G = simt::runtime::GpuDevice;
    store32(kParams, static_cast<uint32_t>(kArray));  // .param .u64 data
    store32(kParams + 4, static_cast<uint32_t>(kArray >> 32));
    store32(kParams + 8, n);                           // .param .u32 n
    gpu(G::kModule, 0);
    gpu(G::kKernel, k);
    gpu(G::kGridX, (n + 255) / 256);
    gpu(G::kBlockX, 256);
    gpu(G::kParamAddr, static_cast<uint32_t>(kParams));
    gpu(G::kParamAddr + 4, static_cast<uint32_t>(kParams >> 32));
    gpu(G::kParamSize, 12);
    gpu(G::kIrqEnable, 1);
    const sc_time start = sc_time_stamp();
    gpu(G::kControl, 1);  // the doorbell
    wait(irq.posedge_event());
    const uint32_t status = gpu(G::kStatus);
    const uint64_t cycles = gpu(G::kCycles) | uint64_t{gpu(G::kCycles + 4)} << 32;
    gpu(G::kIrqStatus, 1);
    gpu(G::kControl, 2);
    std::printf("vp_example: %s: status %u, %llu GPU cycles, interrupt after %s\n", what, status,
                static_cast<unsigned long long>(cycles), (sc_time_stamp() - start).to_string().c_str());
    return status == G::kDone;
  }

  void program() {
    for (uint32_t i = 0; i < n; ++i) store32(kArray + 4 * i, i);
    bool ok = run_kernel(0, "square") && run_kernel(1, "add_one");
    for (uint32_t i = 0; ok && i < n; ++i)
      if (load32(kArray + 4 * i) != i * i + 1) {
        std::printf("vp_example: element %u is %u, not %u\n", i, load32(kArray + 4 * i), i * i + 1);
        ok = false;
      }
    passed = ok;
    std::printf("vp_example: %s\n", ok ? "PASSED" : "FAILED");
    sc_stop();  // the clock below would run for ever
  }
};

// Something else in the platform with a clock of its own: a heartbeat.
struct Heartbeat : sc_module {
  sc_clock clk{"clk", sc_time(10, SC_NS)};
  uint64_t beats = 0;
  SC_HAS_PROCESS(Heartbeat);
  explicit Heartbeat(sc_module_name n) : sc_module(n) {
    SC_METHOD(beat);
    sensitive << clk.posedge_event();
    dont_initialize();
  }
  void beat() { ++beats; }
};

}  // namespace

int sc_main(int argc, char** argv) {
  bool lt = false;
  uint32_t n = 4096;
  std::string ptx = SIMT_VP_KERNELS;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--lt") {
      lt = true;
    } else if (a == "--ptx" && i + 1 < argc) {
      ptx = argv[++i];
    } else if (a == "--n" && i + 1 < argc && std::atoi(argv[i + 1]) > 0 &&
               uint64_t(std::atoi(argv[i + 1])) * 4 <= kParams - kArray) {
      n = static_cast<uint32_t>(std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: vp_example [--lt] [--n N] [--ptx FILE]\n");
      return 2;
    }
  }
  // The CPU ends the run with sc_stop(): no need to say so.
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
  try {
    simt::runtime::GpuDevice::Options o;
    o.mode = lt ? simt::runtime::GpuDevice::Mode::LooselyTimed : simt::runtime::GpuDevice::Mode::Cycle;
    o.ptx_files = {ptx};
    o.windows = {{kRamBase, kRamSize}};
    Ram ram("ram");
    Bus bus("bus");
    Cpu cpu("cpu", n);
    Heartbeat heart("heartbeat");
    simt::runtime::GpuDevice gpu("gpu", o);
    sc_signal<bool> irq("irq");
    cpu.bus.bind(bus.in);
    bus.to_ram.bind(ram.cpu_port);
    bus.to_gpu.bind(gpu.regs);
    gpu.memory().bind(ram.gpu_port);
    gpu.irq(irq);
    cpu.irq(irq);
    sc_start();
    std::printf("vp_example: %s mode, %llu heartbeats of the platform's clock meanwhile\n", lt ? "loosely-timed" : "cycle",
                static_cast<unsigned long long>(heart.beats));
    return cpu.passed ? 0 : 1;
  } catch (const simt::Error& e) {
    std::fprintf(stderr, "vp_example: %s\n", e.what());
    return static_cast<int>(e.code());
  }
}
