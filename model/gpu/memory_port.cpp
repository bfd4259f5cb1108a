#include "gpu/memory_port.h"

#include <algorithm>

#include "util/error.h"
#include "util/hex.h"

namespace simt::gpu {

namespace {
constexpr uint64_t kPage = func::GlobalMemory::kPageSize;
}  // namespace

using util::hex;

MemoryPort::MemoryPort(sc_core::sc_module_name name, stats::Registry& stats, const std::string& stats_name)
    : sc_core::sc_module(name),
      socket("socket"),
      dmi_grants_(stats.counter(stats_name + ".dmi_grants", "DMI grants received for functional accesses")),
      dmi_refusals_(stats.counter(stats_name + ".dmi_refusals", "pages the memory refused DMI for")),
      dmi_invalidations_(stats.counter(stats_name + ".dmi_invalidations", "invalidate_direct_mem_ptr calls")),
      debug_reads_(stats.counter(stats_name + ".debug_reads", "functional reads by debug transport")),
      debug_writes_(stats.counter(stats_name + ".debug_writes", "functional writes by debug transport")) {
  socket.register_invalidate_direct_mem_ptr(this, &MemoryPort::invalidate_direct_mem_ptr);
}

void MemoryPort::serve(func::GlobalMemory& mem) {
  if (mem_ && mem_ != &mem) throw Error(ExitCode::Internal, std::string(name()) + ": already serves a memory");
  mem_ = &mem;
  if (sc_core::sc_start_of_simulation_invoked()) attach();
}

void MemoryPort::start_of_simulation() {
  if (mem_) attach();
}

void MemoryPort::attach() {
  if (attached_) return;
  attached_ = true;
  mem_->use_storage(this);
}

uint8_t* MemoryPort::direct_page(uint64_t page_no) {
  const uint64_t lo = page_no * kPage, hi = lo + kPage - 1;
  // A grant already held may cover this page too (one grant for a whole memory is common).
  auto it = grants_.upper_bound(lo);
  if (it != grants_.begin()) {
    const tlm::tlm_dmi& d = std::prev(it)->second;
    if (d.get_end_address() >= hi) return d.get_dmi_ptr() + (lo - d.get_start_address());
  }
  tlm::tlm_dmi dmi;
  gp_.set_command(tlm::TLM_WRITE_COMMAND);  // we need a pointer we may write through
  gp_.set_address(lo);
  gp_.set_data_ptr(nullptr);
  gp_.set_data_length(0);
  gp_.set_byte_enable_ptr(nullptr);
  gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const bool granted = socket->get_direct_mem_ptr(gp_, dmi);
  if (!granted || !dmi.is_read_write_allowed() || dmi.get_start_address() > lo || dmi.get_end_address() < hi ||
      !dmi.get_dmi_ptr()) {
    ++dmi_refusals_;
    return nullptr;
  }
  ++dmi_grants_;
  grants_[dmi.get_start_address()] = dmi;
  return dmi.get_dmi_ptr() + (lo - dmi.get_start_address());
}

void MemoryPort::debug(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint64_t size) {
  gp_.set_command(cmd);
  gp_.set_address(addr);
  gp_.set_data_ptr(data);
  gp_.set_data_length(static_cast<unsigned>(size));
  gp_.set_streaming_width(static_cast<unsigned>(size));
  gp_.set_byte_enable_ptr(nullptr);
  gp_.set_byte_enable_length(0);
  gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const unsigned done = socket->transport_dbg(gp_);
  if (done != size)
    throw Error(ExitCode::BadInput,
                std::string(name()) + ": the memory bound to the GPU neither grants DMI nor completes debug " +
                    (cmd == tlm::TLM_READ_COMMAND ? "reads" : "writes") + " at " + hex(addr) + " (" +
                    std::to_string(done) + " of " + std::to_string(size) +
                    " bytes); functional accesses need one of the two");
}

void MemoryPort::read(uint64_t addr, void* dst, uint64_t size) {
  ++debug_reads_;
  debug(tlm::TLM_READ_COMMAND, addr, static_cast<uint8_t*>(dst), size);
}

void MemoryPort::write(uint64_t addr, const void* src, uint64_t size) {
  ++debug_writes_;
  // The payload's data pointer is not const; a target's debug write only reads it.
  debug(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(static_cast<const uint8_t*>(src)), size);
}

void MemoryPort::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  ++dmi_invalidations_;
  for (auto it = grants_.begin(); it != grants_.end();) {
    const tlm::tlm_dmi& d = it->second;
    it = (d.get_start_address() <= end && d.get_end_address() >= start) ? grants_.erase(it) : std::next(it);
  }
  if (mem_ && attached_) mem_->invalidate(start, end);
}

}  // namespace simt::gpu
