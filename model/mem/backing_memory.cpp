#include "mem/backing_memory.h"

#include <algorithm>
#include <cstring>

#include "util/tlm_payload.h"

namespace simt::mem {

BackingMemory::BackingMemory(sc_core::sc_module_name name, stats::Registry& stats, const std::string& stats_name,
                             sc_core::sc_time latency)
    : sc_core::sc_module(name),
      socket("socket"),
      latency_(latency),
      reads_(stats.counter(stats_name + ".reads", "b_transport reads served")),
      writes_(stats.counter(stats_name + ".writes", "b_transport writes served")),
      dmi_grants_(stats.counter(stats_name + ".dmi_grants", "DMI pointers handed out (one per 64 KiB page)")),
      debug_bytes_(stats.counter(stats_name + ".debug_bytes", "bytes moved by debug transport")) {
  socket.register_b_transport(this, &BackingMemory::b_transport);
  socket.register_get_direct_mem_ptr(this, &BackingMemory::get_direct_mem_ptr);
  socket.register_transport_dbg(this, &BackingMemory::transport_dbg);
}

uint8_t* BackingMemory::page(uint64_t page_no) {
  auto& p = pages_[page_no];
  if (!p) {
    p.reset(new uint8_t[kPageSize]);
    std::memset(p.get(), 0, kPageSize);
  }
  return p.get();
}

void BackingMemory::copy(uint64_t addr, uint8_t* data, uint64_t len, bool write, const uint8_t* be,
                         uint32_t be_len) {
  uint64_t pos = 0;
  while (pos < len) {
    const uint64_t off = addr & (kPageSize - 1);
    const uint64_t n = std::min(len - pos, kPageSize - off);
    uint8_t* p = page(addr >> kPageBits) + off;
    if (!be) {
      write ? std::memcpy(p, data + pos, n) : std::memcpy(data + pos, p, n);
    } else {  // byte enables repeat every be_len bytes of the data
      for (uint64_t i = 0; i < n; ++i) {
        if (be[(pos + i) % be_len] != TLM_BYTE_ENABLED) continue;
        write ? void(p[i] = data[pos + i]) : void(data[pos + i] = p[i]);
      }
    }
    pos += n;
    addr += n;
  }
}

void BackingMemory::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const tlm::tlm_command cmd = gp.get_command();
  if (cmd == tlm::TLM_IGNORE_COMMAND) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (util::asks_streaming(gp)) {  // streaming is not a memory's business (width 0: none)
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (gp.get_byte_enable_ptr() && gp.get_byte_enable_length() == 0) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  const bool write = cmd == tlm::TLM_WRITE_COMMAND;
  copy(gp.get_address(), gp.get_data_ptr(), gp.get_data_length(), write, gp.get_byte_enable_ptr(),
       gp.get_byte_enable_length());
  ++(write ? writes_ : reads_);
  delay += latency_;
  gp.set_dmi_allowed(true);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool BackingMemory::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  const uint64_t base = gp.get_address() & ~(kPageSize - 1);
  dmi.set_dmi_ptr(page(base >> kPageBits));
  dmi.set_start_address(base);
  dmi.set_end_address(base + kPageSize - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(latency_);
  dmi.set_write_latency(latency_);
  ++dmi_grants_;
  return true;
}

unsigned BackingMemory::transport_dbg(tlm::tlm_generic_payload& gp) {
  const tlm::tlm_command cmd = gp.get_command();
  if (cmd == tlm::TLM_IGNORE_COMMAND) return 0;
  const unsigned len = gp.get_data_length();
  copy(gp.get_address(), gp.get_data_ptr(), len, cmd == tlm::TLM_WRITE_COMMAND, nullptr, 0);
  debug_bytes_ += len;
  return len;
}

}  // namespace simt::mem
