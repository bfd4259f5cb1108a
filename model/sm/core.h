// An SM netlist as the GPU top sees it (gpu/gpu.cpp): its CTA launch and
// done sockets to the CTA dispatcher, its instruction, data and (if it has
// a texture cache) texture ports toward the crossbar, and what the top asks
// of it when a kernel ends. The SIMT SM (sm/sm.h) is one; other core types
// (seed 000's VWS SM) implement the same interface, and gpu/core_factory
// picks one per machine.
#pragma once

#include <cstdint>
#include <memory>

#include <systemc>
#include <tlm>

#include "mem/mem_port.h"
#include "sm/kernel_context.h"
#include "sm/packets.h"
#include "util/packet_socket.h"

namespace simt::sm {

class Core : public sc_core::sc_module {
 public:
  using LaunchTarget = tlm::tlm_target_socket<32, util::PacketTypes<CtaLaunch>>;
  using DoneInitiator = tlm::tlm_initiator_socket<32, util::PacketTypes<CtaDone>>;

  explicit Core(sc_core::sc_module_name name) : sc_core::sc_module(name) {}

  virtual LaunchTarget& launch_socket() = 0;      // CTA launches from the dispatcher
  virtual DoneInitiator& done_socket() = 0;       // finished CTAs to the dispatcher
  virtual mem::MemRequester& instruction_port() = 0;  // the L1I's side toward the crossbar
  virtual mem::MemRequester& data_port() = 0;         // the L1D's side toward the crossbar
  // The texture cache's side toward the crossbar; null for a core without
  // one (it must say so before it is built: gpu/core_factory.h,
  // has_texture_cache, sizes the crossbar).
  virtual mem::MemRequester* texture_port() { return nullptr; }

  // Throws simt::input_error when this core cannot run the kernel (a PTX
  // feature or combination it does not model). The GPU asks before a launch
  // starts, so a refused kernel never reaches the simulation (an error
  // thrown inside it stops SystemC for good).
  virtual void check_kernel(const std::shared_ptr<const KernelContext>& k) const {}
  // After sc_start: rethrows a kernel fault or deadlock raised inside the
  // simulation (SystemC would have turned it into an sc_report).
  virtual void rethrow_fault() const = 0;
  // Emits the time-series samples due up to `now` (the core may have gone idle early).
  virtual void sample_until(uint64_t now) = 0;
  // Deepest reconvergence stack since the last call (the run report's per-kernel value).
  virtual uint32_t take_max_stack_depth() = 0;
};

}  // namespace simt::sm
