#include "runtime/timed_memory_port.h"

#include <cstdio>
#include <string>

#include "util/error.h"

namespace simt::runtime {

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
  ++transactions_;
  bool ok;
  if (in_launch_) {
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, t);
    delay_ += t;
    ok = gp.is_response_ok();
  } else {
    ok = socket->transport_dbg(gp) == size;
  }
  if (!ok) {
    char a[24];
    std::snprintf(a, sizeof a, "0x%llx", static_cast<unsigned long long>(addr));
    throw kernel_fault(std::string(name()) + ": the platform memory answered a " + std::to_string(size) + "-byte " +
                       (cmd == tlm::TLM_READ_COMMAND ? "read" : "write") + " at " + a + " with " +
                       (in_launch_ ? gp.get_response_string() : std::string("an incomplete debug transport")));
  }
}

}  // namespace simt::runtime
