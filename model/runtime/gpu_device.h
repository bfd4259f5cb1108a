// The GPU as a TLM-2.0 peripheral of someone else's SystemC platform
// (docs/virtual-platform.md): a CPU model or testbench programs it through
// memory-mapped registers, kernels read and write the platform's memory,
// and an interrupt line rises when a launch ends.
//
//   regs    target socket (base protocol: b_transport, debug transport) for
//           the register map below, 32-bit registers, little-endian
//   memory  the GPU's initiator socket to the platform's memory (DMI, else
//           debug transport; loosely timed with lt_memory_timing: b_transport,
//           its delays counted; docs/virtual-platform.md)
//   irq     high while IRQ_STATUS and IRQ_ENABLE are both set
//
// The device never calls sc_start(): it runs inside the platform's
// simulation, beside its free-running clocks and CPU models. Two modes:
//  - cycle: a launch runs on the cycle-level model (runtime::Device in timing
//    mode); the interrupt rises in the cycle the standalone runner would
//    report as the launch's end (the GPU has gone idle), so its time equals
//    the launch's cycles. One cycle-mode device per simulation (it uses the
//    model's one util::Clock).
//  - loosely timed: a launch runs functionally (runtime::Device in functional
//    mode, CTA by CTA, in the device's thread), and its time is annotated:
//    lt_cycles_per_warp_instruction per warp instruction. The thread waits
//    whenever a quantum of annotated time has built up (the TLM global
//    quantum when set, else lt_quantum), so a long kernel does not hold the
//    platform, and the interrupt rises at the annotated end. Memory results
//    equal cycle mode's; the time is an estimate.
//
// Register map (offsets in bytes; RO = read-only, W1C = write 1 to clear):
//   0x000 ID           RO  0x53494D54 ("SIMT")
//   0x004 VERSION      RO  major << 16 | minor << 8 | patch
//   0x008 STATUS       RO  0 idle, 1 running, 2 done, 3 fault
//   0x00C CONTROL      WO  bit 0: launch (doorbell); bit 1: back to idle;
//                          bit 2: load the PTX module at MODULE_ADDR (a command like a launch)
//   0x010 IRQ_ENABLE   RW  bit 0
//   0x014 IRQ_STATUS   W1C bit 0: a command ended (done or fault)
//   0x018 MODULE       RW  module index (the order given at elaboration)
//   0x01C KERNEL       RW  kernel index within the module (its .entry order)
//   0x020..0x028       RW  GRID_X, GRID_Y, GRID_Z
//   0x02C..0x034       RW  BLOCK_X, BLOCK_Y, BLOCK_Z
//   0x038 DYN_SHARED   RW  dynamic shared memory bytes per CTA
//   0x03C PARAM_SIZE   RW  bytes of the kernel-parameter buffer
//   0x040 PARAM_ADDR   RW  64 bits (low word first): the buffer, in platform memory,
//                          laid out as the kernel's .param list
//   0x048 CYCLES       RO  64 bits: the last launch's cycles (loosely timed: annotated)
//   0x050 WARP_INSTRS  RO  64 bits: its warp instructions
//   0x058 THREAD_INSTRS RO 64 bits: its thread instructions
//   0x060 FAULT_CODE   RO  0 none, 1 bad launch, 2 kernel fault, 3 device halted,
//                          4 bad module (PTX that does not parse or link)
//   0x064 MODULES      RO  modules loaded
//   0x068 KERNELS      RO  kernels of the selected module
//   0x070 MODULE_ADDR  RW  64 bits: PTX text in platform memory (CONTROL bit 2 loads it
//                          as module MODULES)
//   0x078 MODULE_SIZE  RW  its bytes
//   0x080..0x088 FAULT_CTA_X/Y/Z  RO  a kernel fault's place, when one thread's
//   0x08C..0x094 FAULT_TID_X/Y/Z  RO  instruction caused it (FAULT_FLAGS bit 0)
//   0x098 FAULT_PC     RO  its instruction's index in the kernel
//   0x09C FAULT_FLAGS  RO  bit 0: the place above is valid; bit 1: so is FAULT_ADDR
//   0x0A0 FAULT_ADDR   RO  64 bits: the address it touched
//   0x100..0x1FF FAULT_TEXT RO  the fault's message (kernel, CTA, thread, PC,
//                          address where it has them), NUL-terminated
// A register access outside the map, not 4 bytes wide and aligned, or to a
// read-only register, gets TLM_ADDRESS_ERROR_RESPONSE (streaming and byte
// enables: TLM_BURST_ERROR_RESPONSE / TLM_BYTE_ENABLE_ERROR_RESPONSE; a
// streaming width of 0, as many CPU models leave it, is no streaming). A bad
// launch (unknown module or kernel, bad dimensions, a parameter buffer that
// does not match the kernel) ends in STATUS fault with FAULT_CODE 1 and
// leaves the device usable. A kernel fault (a bad access, a trap, a barrier
// deadlock) ends in fault with FAULT_CODE 2; in cycle mode it also halts the
// GPU for the rest of the simulation (its SMs hold the faulted kernel's
// state): later launches fail with FAULT_CODE 3. A doorbell while running is
// ignored.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "gpu/memory_port.h"
#include "runtime/device.h"
#include "runtime/timed_memory_port.h"
#include "stats/stats.h"

namespace simt::runtime {

class GpuDevice : public sc_core::sc_module {
 public:
  enum Reg : uint32_t {
    kId = 0x000, kVersion = 0x004, kStatus = 0x008, kControl = 0x00C, kIrqEnable = 0x010, kIrqStatus = 0x014,
    kModule = 0x018, kKernel = 0x01C, kGridX = 0x020, kGridY = 0x024, kGridZ = 0x028, kBlockX = 0x02C,
    kBlockY = 0x030, kBlockZ = 0x034, kDynShared = 0x038, kParamSize = 0x03C, kParamAddr = 0x040,
    kCycles = 0x048, kWarpInstrs = 0x050, kThreadInstrs = 0x058, kFaultCode = 0x060, kModules = 0x064,
    kKernels = 0x068, kModuleAddr = 0x070, kModuleSize = 0x078, kFaultCta = 0x080, kFaultTid = 0x08C,
    kFaultPc = 0x098, kFaultFlags = 0x09C, kFaultAddr = 0x0A0, kFaultText = 0x100, kMapEnd = 0x200,
  };
  enum Status : uint32_t { kIdle = 0, kRunning = 1, kDone = 2, kFault = 3 };
  enum FaultCode : uint32_t { kNoFault = 0, kBadLaunch = 1, kKernelFault = 2, kHalted = 3, kBadModule = 4 };
  static constexpr uint32_t kIdValue = 0x53494D54;  // "SIMT"

  enum class Mode { Cycle, LooselyTimed };
  struct Options {
    Mode mode = Mode::Cycle;
    std::shared_ptr<const gpu::MachineConfig> machine;  // finalized; null: the defaults
    // Loosely timed: core cycles per warp instruction (0: 1 / (2 x gpu.num_sms),
    // every SM issuing two warp instructions a cycle), and the quantum when
    // the TLM global quantum is zero.
    double lt_cycles_per_warp_instruction = 0;
    sc_core::sc_time lt_quantum = sc_core::sc_time(1, sc_core::SC_US);
    // Loosely timed: the kernel's memory accesses are b_transports to the
    // platform memory, and the delays it annotates add to the launch's time
    // (a memory with timing; slow: no DMI). Off: DMI, else debug transport.
    bool lt_memory_timing = false;
    // With lt_memory_timing: a b_transport the memory returns from without
    // setting the response status (still TLM_INCOMPLETE_RESPONSE) is a kernel
    // fault by default, as the base protocol has it; true takes it as OK,
    // with one warning (for platform memories that never set the status).
    bool tolerate_incomplete_response = false;
    // What a register access adds to the initiator's annotated delay. A
    // doorbell takes effect at the end of the write's annotated time.
    sc_core::sc_time register_latency = sc_core::SC_ZERO_TIME;
    // PTX modules, in MODULE index order: file paths, or (name, text) pairs.
    std::vector<std::string> ptx_files;
    std::vector<std::pair<std::string, std::string>> ptx_texts;
    // Platform memory kernels may use (their buffers and parameter blocks):
    // [base, base + size) windows. A module's .global/.const variables are
    // placed from func::kGlobalHeapBase (4 GiB) on: a platform whose modules
    // have any maps memory there too.
    std::vector<std::pair<uint64_t, uint64_t>> windows;
  };

  tlm_utils::simple_target_socket<GpuDevice> regs;
  sc_core::sc_out<bool> irq;

  // Loads the modules (throws simt::Error for malformed PTX) and builds the
  // machine, whose memory socket `memory()` must be bound before simulation.
  SC_HAS_PROCESS(GpuDevice);
  GpuDevice(sc_core::sc_module_name name, Options o);
  ~GpuDevice() override;

  tlm::tlm_initiator_socket<>& memory();
  Device& device() { return *dev_; }                     // statistics, launch records
  // One record per launch; loosely timed, `cycles` is the annotated count
  // (what CYCLES showed at its end).
  const std::vector<LaunchStats>& launches() const { return dev_->launches(); }

  // How the GPU reached the platform memory so far. DMI pointers and debug
  // transport serve cycle mode and loosely-timed mode without
  // lt_memory_timing; b_transports serve lt_memory_timing. An access is one
  // thread's load or store (or a host copy's piece) within one 64 KiB page.
  struct MemoryPortCounters {
    uint64_t dmi_grants = 0, dmi_refusals = 0, dmi_invalidations = 0;
    uint64_t dmi_accesses = 0;                 // served through a DMI pointer
    uint64_t debug_reads = 0, debug_writes = 0;  // served by transport_dbg (the slow path)
    uint64_t b_transports = 0, incomplete_responses = 0;
  };
  MemoryPortCounters memory_port_counters() const;
  // The device's statistics: cycle mode, every block of the machine (the
  // memory port's as memory_port.*); loosely timed, the memory port's.
  const stats::Registry& stats() const;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t);
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
  // Reads or writes the register at `offset`; false for a bad access.
  bool access(uint32_t offset, bool write, uint32_t& value, const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);
  void run();  // SC_THREAD: one launch per doorbell
  void launch_one();
  void load_module();  // CONTROL bit 2
  void launch_lt(Module& m, const std::string& kernel, Dim3 grid, Dim3 block, const KernelArgs& args);
  void lt_advance(uint64_t warp_instructions);  // after each CTA: annotate, wait a quantum
  void set_counters(const LaunchStats& st);
  void end_launch(Status s, FaultCode code, const std::string& text, const FaultSite* site = nullptr);
  void start_of_simulation() override;
  void end_of_simulation() override;
  // Once, at the end of the run: a warning when most accesses to platform
  // memory took the debug path (no DMI through the platform's interconnect).
  void warn_if_debug_path();
  void update_irq();  // the line follows IRQ_STATUS & IRQ_ENABLE (a delta later)
  void drive_irq();

  Options opt_;
  stats::Registry lt_stats_;                // loosely timed: the memory port's counters
  std::unique_ptr<gpu::MemoryPort> port_;   // loosely timed: the memory socket
  std::unique_ptr<TimedMemoryPort> timed_;  // ... or this one, with lt_memory_timing
  double lt_cost_ = 0;                      // cycles per warp instruction
  uint64_t lt_seen_ = 0;                    // warp instructions annotated so far in this launch
  double lt_owed_ = 0;                      // annotated cycles not waited yet
  uint64_t lt_waited_ = 0;                  // cycles waited in this launch
  std::unique_ptr<Device> dev_;
  std::vector<Module*> modules_;
  uint32_t r_[kMapEnd / 4] = {};  // register values (RO ones kept current)
  std::string fault_text_;
  bool halted_ = false;
  bool warned_debug_path_ = false;
  bool faulted_ = false;  // a block's fault during the running launch
  uint32_t command_ = 0;  // CONTROL bits 0 / 2 written, the command not started yet
  sc_core::sc_event doorbell_, fault_, irq_changed_;
};

}  // namespace simt::runtime
