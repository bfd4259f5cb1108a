#include "runtime/timed_memory_port.h"

#include <cstdio>
#include <string>

#include "util/error.h"
#include "util/hex.h"

namespace simt::runtime {

using util::hex;

TimedMemoryPort::TimedMemoryPort(sc_core::sc_module_name name, stats::Registry& stats,
                                 const std::string& stats_name, bool tolerate_incomplete)
    : sc_core::sc_module(name),
      socket("socket"),
      tolerate_incomplete_(tolerate_incomplete),
      b_transports_(stats.counter(stats_name + ".b_transports", "kernel accesses by b_transport (with timing)")),
      incomplete_(stats.counter(stats_name + ".incomplete_responses",
                                "b_transports the memory left at TLM_INCOMPLETE_RESPONSE, taken as OK")) {}

void TimedMemoryPort::read(uint64_t addr, void* dst, uint64_t size) {
  transport(tlm::TLM_READ_COMMAND, addr, dst, size);
}

void TimedMemoryPort::write(uint64_t addr, const void* src, uint64_t size) {
  transport(tlm::TLM_WRITE_COMMAND, addr, const_cast<void*>(src), size);
}

void TimedMemoryPort::transport(tlm::tlm_command cmd, uint64_t addr, void* data, uint64_t size) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(static_cast<unsigned int>(size));
  gp.set_streaming_width(static_cast<unsigned int>(size));
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  // What the messages call the access (built only for one).
  auto access = [&] {
    return std::to_string(size) + "-byte " + (cmd == tlm::TLM_READ_COMMAND ? "read" : "write") + " at " + hex(addr);
  };
  if (!in_launch_) {
    if (socket->transport_dbg(gp) != size)
      throw kernel_fault(std::string(name()) + ": the platform memory answered a " + access() +
                         " with an incomplete debug transport");
    return;
  }
  ++b_transports_;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  socket->b_transport(gp, t);
  delay_ += t;
  if (gp.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
    // The target returned without setting the status, which the base
    // protocol requires of it; some platform memories never do.
    if (!tolerate_incomplete_)
      throw kernel_fault(std::string(name()) + ": b_transport of a " + access() +
                         " returned with the status still TLM_INCOMPLETE_RESPONSE (the memory never set it); "
                         "GpuDevice::Options::tolerate_incomplete_response takes that as OK");
    if (incomplete_.value++ == 0)
      std::fprintf(stderr,
                   "simtlab: warning: %s: the platform memory returned from b_transport of a %s without setting "
                   "the response status; taken as OK (tolerate_incomplete_response), here and from now on\n",
                   name(), access().c_str());
    return;
  }
  if (!gp.is_response_ok())
    throw kernel_fault(std::string(name()) + ": the platform memory answered a " + access() + " with " +
                       gp.get_response_string());
}

}  // namespace simt::runtime
