// A second example platform (docs/virtual-platform.md), in the shape of a
// platform built around an instruction-set simulator: a CPU that runs ahead
// of SystemC's time under a quantum keeper and issues plain b_transports with
// the streaming width left at 0, a bus that routes b_transport and debug
// transport but does not forward DMI, an interrupt controller in the style of
// a RISC-V PLIC (claim / complete), a RAM, and the GPU device.
//
// The CPU's firmware does what bare-metal driver code does: it finds the PTX
// image the loader put in RAM and has the GPU load it, fills two vectors,
// launches c = a + b, sleeps until the external interrupt, claims it, checks
// STATUS, and reads every result back through the bus.
//
//   build/iss_platform [--lt] [--n N] [--ptx FILE] [--dmi-port]
//                      [--memory-timing] [--silent-memory] [--tolerate-incomplete]
//     --lt               the loosely-timed device
//     --dmi-port         the GPU's memory socket bound to a port of the RAM
//                        (DMI) instead of the bus (debug transport)
//     --memory-timing    loosely timed with lt_memory_timing: every kernel
//                        access a b_transport through the bus
//     --silent-memory    the RAM returns from b_transport without setting
//                        the response status (as some platform memories do)
//     --tolerate-incomplete  GpuDevice::Options::tolerate_incomplete_response
//
// Exit 0 when every element is right, 1 when not (or the GPU reported a
// fault), 2 on a bad command line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "runtime/gpu_device.h"
#include "util/error.h"

namespace {

using namespace sc_core;
using G = simt::runtime::GpuDevice;

// The platform's memory map (32-bit, as an RV32 platform has it).
constexpr uint64_t kPlicBase = 0x0C00'0000, kPlicSize = 0x1000;
constexpr uint64_t kGpuBase = 0x1000'0000, kGpuSize = G::kMapEnd;
constexpr uint64_t kRamBase = 0x8000'0000, kRamSize = 16 << 20;
// Where the firmware keeps things in RAM.
constexpr uint64_t kPtxImage = kRamBase + 0x1000;           // put there by the loader
constexpr uint64_t kParams = kRamBase + 0x10'0000;          // the kernel's .param block
constexpr uint64_t kVectors = kRamBase + 0x20'0000;         // a, b, c, one after another
constexpr uint32_t kMaxN = (kRamBase + kRamSize - kVectors) / 12;

// A RAM: b_transport (10 ns), debug transport, and DMI over all of it, on
// the bus's port and, when the platform gives the GPU one, a second port. A
// "silent" RAM never sets the response status of a b_transport.
struct Ram : sc_module {
  using Port = tlm_utils::simple_target_socket<Ram>;
  Port bus_port{"bus_port"};
  std::unique_ptr<Port> gpu_port;
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kRamSize);
  bool silent = false;
  Ram(sc_module_name n, bool second_port) : sc_module(n) {
    if (second_port) gpu_port = std::make_unique<Port>("gpu_port");
    for (Port* s : {&bus_port, gpu_port.get()}) {
      if (!s) continue;
      s->register_b_transport(this, &Ram::b_transport);
      s->register_transport_dbg(this, &Ram::transport_dbg);
      s->register_get_direct_mem_ptr(this, &Ram::get_dmi);
    }
  }
  // Addresses here are offsets into the RAM (the bus subtracts its base).
  bool inside(const tlm::tlm_generic_payload& gp) const {
    return gp.get_address() < kRamSize && gp.get_data_length() <= kRamSize - gp.get_address();
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& t) {
    t += sc_time(10, SC_NS);
    if (!inside(gp)) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    transport_dbg(gp);
    if (!silent) gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    if (!inside(gp)) return 0;
    uint8_t* p = bytes.data() + gp.get_address();
    if (gp.is_write()) std::memcpy(p, gp.get_data_ptr(), gp.get_data_length());
    else if (gp.is_read()) std::memcpy(gp.get_data_ptr(), p, gp.get_data_length());
    return gp.get_data_length();
  }
  bool get_dmi(tlm::tlm_generic_payload&, tlm::tlm_dmi& d) {
    d.set_dmi_ptr(bytes.data());
    d.set_start_address(0);
    d.set_end_address(kRamSize - 1);
    d.allow_read_write();
    return true;
  }
};

// The GPU's port when the platform hands it the RAM directly: the RAM's
// offsets at the platform's addresses (what the bus does, DMI included).
struct Window : sc_module {
  tlm_utils::simple_target_socket<Window> in{"in"};
  tlm_utils::simple_initiator_socket<Window> out{"out"};
  explicit Window(sc_module_name n) : sc_module(n) {
    in.register_b_transport(this, &Window::b_transport);
    in.register_transport_dbg(this, &Window::transport_dbg);
    in.register_get_direct_mem_ptr(this, &Window::get_dmi);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time& t) {
    gp.set_address(gp.get_address() - kRamBase);
    out->b_transport(gp, t);
    gp.set_address(gp.get_address() + kRamBase);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    gp.set_address(gp.get_address() - kRamBase);
    const unsigned n = out->transport_dbg(gp);
    gp.set_address(gp.get_address() + kRamBase);
    return n;
  }
  bool get_dmi(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& d) {
    gp.set_address(gp.get_address() - kRamBase);
    const bool ok = out->get_direct_mem_ptr(gp, d);
    d.set_start_address(d.get_start_address() + kRamBase);
    d.set_end_address(d.get_end_address() + kRamBase);
    return ok;
  }
};

// The interconnect: any number of initiators (the CPU, the GPU), targets by
// address. Like many simple buses it routes b_transport and debug transport
// and does not forward DMI.
struct Bus : sc_module {
  tlm_utils::multi_passthrough_target_socket<Bus> in{"in"};
  tlm_utils::multi_passthrough_initiator_socket<Bus> out{"out"};
  struct Route {
    uint64_t base, size;
  };
  std::vector<Route> routes;  // out[i] serves routes[i]
  explicit Bus(sc_module_name n) : sc_module(n) {
    in.register_b_transport(this, &Bus::b_transport);
    in.register_transport_dbg(this, &Bus::transport_dbg);
    in.register_get_direct_mem_ptr(this, &Bus::get_dmi);
  }
  template <class S>
  void attach(S& target, uint64_t base, uint64_t size) {
    out.bind(target);
    routes.push_back({base, size});
  }
  int decode(tlm::tlm_generic_payload& gp) {
    const uint64_t a = gp.get_address();
    for (size_t i = 0; i < routes.size(); ++i)
      if (a >= routes[i].base && a - routes[i].base < routes[i].size) {
        gp.set_address(a - routes[i].base);
        return static_cast<int>(i);
      }
    return -1;
  }
  void b_transport(int, tlm::tlm_generic_payload& gp, sc_time& t) {
    const uint64_t a = gp.get_address();
    const int i = decode(gp);
    if (i < 0) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    out[i]->b_transport(gp, t);
    gp.set_address(a);
  }
  unsigned transport_dbg(int, tlm::tlm_generic_payload& gp) {
    const uint64_t a = gp.get_address();
    const int i = decode(gp);
    const unsigned n = i < 0 ? 0 : out[i]->transport_dbg(gp);
    gp.set_address(a);
    return n;
  }
  bool get_dmi(int, tlm::tlm_generic_payload&, tlm::tlm_dmi& d) {
    d.set_start_address(0);  // refused everywhere
    d.set_end_address(~sc_dt::uint64{0});
    return false;
  }
};

// An interrupt controller in the style of a RISC-V PLIC, one source (the
// GPU, id 1): 0x0 PENDING (RO), 0x4 ENABLE, 0x8 CLAIM (read: claim the
// pending source, 0 if none; write: complete it). A level-triggered source
// is pending while its line is high and it is not being served.
struct Plic : sc_module {
  tlm_utils::simple_target_socket<Plic> regs{"regs"};
  sc_in<bool> source{"source"};
  sc_out<bool> external_irq{"external_irq"};
  bool enabled = false, in_service = false;
  SC_HAS_PROCESS(Plic);
  explicit Plic(sc_module_name n) : sc_module(n) {
    regs.register_b_transport(this, &Plic::b_transport);
    SC_METHOD(update);
    sensitive << source << changed;
  }
  sc_event changed;
  bool pending() const { return source.read() && !in_service; }
  void update() { external_irq.write(pending() && enabled); }
  void b_transport(tlm::tlm_generic_payload& gp, sc_time&) {
    if (gp.get_data_length() != 4 || gp.get_address() > 8 || gp.get_address() % 4)
      return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    uint32_t v = 0;
    std::memcpy(&v, gp.get_data_ptr(), 4);
    const uint64_t a = gp.get_address();
    if (gp.is_read()) {
      v = a == 0 ? uint32_t{pending()} : a == 4 ? uint32_t{enabled} : 0;
      if (a == 8 && pending()) {
        v = 1;
        in_service = true;
      }
      std::memcpy(gp.get_data_ptr(), &v, 4);
    } else if (a == 4) {
      enabled = v & 1;
    } else if (a == 8 && v == 1) {
      in_service = false;
    }
    changed.notify(SC_ZERO_TIME);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

// The CPU: its firmware on an SC_THREAD, running ahead of SystemC's time
// under a quantum keeper, as an instruction-set simulator does; every
// access a b_transport with the streaming width left at 0.
struct Cpu : sc_module {
  tlm_utils::simple_initiator_socket<Cpu> bus{"bus"};
  sc_in<bool> external_irq{"external_irq"};
  tlm_utils::tlm_quantumkeeper qk;
  uint32_t n, ptx_bytes;
  bool passed = false;
  SC_HAS_PROCESS(Cpu);
  Cpu(sc_module_name name, uint32_t n_, uint32_t ptx_bytes_) : sc_module(name), n(n_), ptx_bytes(ptx_bytes_) {
    SC_THREAD(firmware);
  }

  void access(uint64_t a, bool write, uint32_t& v) {
    tlm::tlm_generic_payload gp;
    gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp.set_address(a);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    gp.set_data_length(4);  // the streaming width stays 0, as the ISS leaves it
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_time t = qk.get_local_time();
    bus->b_transport(gp, t);
    qk.set(t + sc_time(1, SC_NS));  // and the instruction's own cycle
    if (qk.need_sync()) qk.sync();
    // Like many ISS platforms, only an error status is a bus error: a
    // status left at TLM_INCOMPLETE_RESPONSE passes.
    if (gp.get_response_status() < tlm::TLM_INCOMPLETE_RESPONSE) {
      std::fprintf(stderr, "iss_platform: bus error at 0x%llx: %s\n", static_cast<unsigned long long>(a),
                   gp.get_response_string().c_str());
      std::exit(1);
    }
  }
  void sw(uint64_t a, uint32_t v) { access(a, true, v); }
  uint32_t lw(uint64_t a) {
    uint32_t v = 0;
    access(a, false, v);
    return v;
  }
  uint64_t lw64(uint64_t a) { return lw(a) | uint64_t{lw(a + 4)} << 32; }
  void gpu(uint32_t reg, uint32_t v) { sw(kGpuBase + reg, v); }
  uint32_t gpu(uint32_t reg) { return lw(kGpuBase + reg); }

  // wfi, then claim the GPU's interrupt, acknowledge it at the GPU, complete it.
  uint32_t wait_for_gpu() {
    qk.sync();
    while (!external_irq.read()) wait(external_irq.posedge_event());
    qk.reset();
    const uint32_t id = lw(kPlicBase + 8);
    const uint32_t status = gpu(G::kStatus);
    gpu(G::kIrqStatus, 1);
    sw(kPlicBase + 8, id);
    gpu(G::kControl, 2);  // back to idle
    if (status != G::kDone) {
      std::string text;
      for (uint32_t off = G::kFaultText; off < G::kMapEnd; ++off) {
        const char c = static_cast<char>(lw(kGpuBase + (off & ~3u)) >> (8 * (off & 3)));
        if (!c) break;
        text += c;
      }
      std::printf("iss_platform: GPU fault %u: %s\n", gpu(G::kFaultCode), text.c_str());
    }
    return status;
  }

  void firmware() {
    qk.reset();
    sw(kPlicBase + 4, 1);  // enable the GPU's interrupt
    gpu(G::kIrqEnable, 1);
    // The PTX image the loader placed in RAM becomes module 0.
    gpu(G::kModuleAddr, static_cast<uint32_t>(kPtxImage));
    gpu(G::kModuleAddr + 4, 0);
    gpu(G::kModuleSize, ptx_bytes);
    gpu(G::kControl, 4);
    if (wait_for_gpu() != G::kDone) return finish(false);
    const uint64_t a = kVectors, b = a + 4ull * n, c = b + 4ull * n;
    for (uint32_t i = 0; i < n; ++i) {
      sw(a + 4 * i, i);
      sw(b + 4 * i, 2 * i + 7);
    }
    const uint64_t params[3] = {a, b, c};
    for (int k = 0; k < 3; ++k) {
      sw(kParams + 8 * k, static_cast<uint32_t>(params[k]));
      sw(kParams + 8 * k + 4, static_cast<uint32_t>(params[k] >> 32));
    }
    sw(kParams + 24, n);
    gpu(G::kModule, 0);
    gpu(G::kKernel, 0);
    gpu(G::kGridX, (n + 255) / 256);
    gpu(G::kBlockX, 256);
    gpu(G::kParamAddr, static_cast<uint32_t>(kParams));
    gpu(G::kParamAddr + 4, 0);
    gpu(G::kParamSize, 28);
    const sc_time rung = sc_time_stamp() + qk.get_local_time();
    gpu(G::kControl, 1);
    const uint32_t status = wait_for_gpu();
    const uint64_t cycles = lw64(kGpuBase + G::kCycles), warps = lw64(kGpuBase + G::kWarpInstrs);
    std::printf("iss_platform: vecadd: status %u, %llu GPU cycles, %llu warp instructions, interrupt after %s\n",
                status, static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(warps),
                (sc_time_stamp() - rung).to_string().c_str());
    if (status != G::kDone) return finish(false);
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < n; ++i) wrong += lw(c + 4 * i) != 3 * i + 7;
    if (wrong) std::printf("iss_platform: %u of %u elements wrong\n", wrong, n);
    finish(wrong == 0);
  }
  void finish(bool ok) {
    passed = ok;
    std::printf("iss_platform: %s\n", ok ? "PASSED" : "FAILED");
    sc_stop();
  }
};

bool read_file(const std::string& path, std::string& text) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  text = s.str();
  return true;
}

int usage() {
  std::fprintf(stderr,
               "usage: iss_platform [--lt] [--n N] [--ptx FILE] [--dmi-port] [--memory-timing] [--silent-memory] "
               "[--tolerate-incomplete]\n");
  return 2;
}

}  // namespace

int sc_main(int argc, char** argv) {
  simt::runtime::GpuDevice::Options o;
  o.mode = G::Mode::Cycle;
  uint32_t n = 65536;
  std::string ptx_path = SIMT_ISS_KERNELS;
  bool dmi_port = false, silent = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--lt") {
      o.mode = G::Mode::LooselyTimed;
    } else if (a == "--dmi-port") {
      dmi_port = true;
    } else if (a == "--memory-timing") {
      o.mode = G::Mode::LooselyTimed;
      o.lt_memory_timing = true;
    } else if (a == "--silent-memory") {
      silent = true;
    } else if (a == "--tolerate-incomplete") {
      o.tolerate_incomplete_response = true;
    } else if (a == "--ptx" && i + 1 < argc) {
      ptx_path = argv[++i];
    } else if (a == "--n" && i + 1 < argc && std::atol(argv[i + 1]) > 0 && std::atol(argv[i + 1]) <= long{kMaxN}) {
      n = static_cast<uint32_t>(std::atol(argv[++i]));
    } else {
      return usage();
    }
  }
  std::string ptx;
  if (!read_file(ptx_path, ptx) || ptx.size() >= kParams - kPtxImage) {
    std::fprintf(stderr, "iss_platform: %s: cannot read it, or it is over %llu bytes\n", ptx_path.c_str(),
                 static_cast<unsigned long long>(kParams - kPtxImage));
    return 2;
  }
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);  // sc_stop() ends the run
  tlm::tlm_global_quantum::instance().set(sc_time(1, SC_US));
  try {
    o.windows = {{kRamBase, kRamSize}};
    Ram ram("ram", dmi_port);
    ram.silent = silent;
    std::memcpy(ram.bytes.data() + (kPtxImage - kRamBase), ptx.data(), ptx.size());  // the loader's work
    Bus bus("bus");
    Plic plic("plic");
    Cpu cpu("cpu", n, static_cast<uint32_t>(ptx.size()));
    G gpu("gpu", o);
    sc_signal<bool> gpu_irq("gpu_irq"), external_irq("external_irq");
    cpu.bus.bind(bus.in);
    bus.attach(ram.bus_port, kRamBase, kRamSize);
    bus.attach(gpu.regs, kGpuBase, kGpuSize);
    bus.attach(plic.regs, kPlicBase, kPlicSize);
    std::unique_ptr<Window> window;
    if (dmi_port) {  // the remedy: the GPU's own way to the RAM, with DMI
      window = std::make_unique<Window>("window");
      gpu.memory().bind(window->in);
      window->out.bind(*ram.gpu_port);
    } else {  // through the bus: debug transport only
      gpu.memory().bind(bus.in);
    }
    gpu.irq(gpu_irq);
    plic.source(gpu_irq);
    plic.external_irq(external_irq);
    cpu.external_irq(external_irq);
    sc_start();
    const G::MemoryPortCounters c = gpu.memory_port_counters();
    std::printf("iss_platform: GPU memory port: %llu DMI grants, %llu DMI accesses, %llu debug reads, %llu debug "
                "writes, %llu b_transports\n",
                static_cast<unsigned long long>(c.dmi_grants), static_cast<unsigned long long>(c.dmi_accesses),
                static_cast<unsigned long long>(c.debug_reads), static_cast<unsigned long long>(c.debug_writes),
                static_cast<unsigned long long>(c.b_transports));
    return cpu.passed ? 0 : 1;
  } catch (const simt::Error& e) {
    std::fprintf(stderr, "iss_platform: %s\n", e.what());
    return static_cast<int>(e.code());
  }
}
