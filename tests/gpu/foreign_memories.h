// Platform memories that are not ours, for testbenches of the GPU's memory
// socket: each holds [base, base + size) in one host buffer, like a memory
// model of a virtual platform would.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace simt::test {

struct ForeignMemoryBase : sc_core::sc_module {
  tlm_utils::simple_target_socket<ForeignMemoryBase> socket;
  uint64_t base, size;
  uint64_t dbg_calls = 0, dmi_requests = 0, dmi_grants = 0, b_calls = 0;
  sc_core::sc_time b_delay = sc_core::SC_ZERO_TIME;  // what b_transport annotates per access

  ForeignMemoryBase(sc_core::sc_module_name n, uint64_t base_, uint64_t size_)
      : sc_module(n), socket("socket"), base(base_), size(size_) {
    socket.register_b_transport(this, &ForeignMemoryBase::b_transport);
    socket.register_transport_dbg(this, &ForeignMemoryBase::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &ForeignMemoryBase::get_dmi);
  }
  virtual std::vector<uint8_t>& live() = 0;
  virtual bool grant(uint64_t addr, tlm::tlm_dmi& dmi) = 0;
  bool inside(uint64_t a, uint64_t n) const { return a >= base && a + n <= base + size; }

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
    ++b_calls;
    t += b_delay;
    if (!inside(gp.get_address(), gp.get_data_length())) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    transport_dbg(gp);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) {
    ++dbg_calls;
    const uint64_t a = gp.get_address(), n = gp.get_data_length();
    if (!inside(a, n)) return 0;  // nothing here
    uint8_t* p = live().data() + (a - base);
    if (gp.is_write()) std::memcpy(p, gp.get_data_ptr(), n);
    else if (gp.is_read()) std::memcpy(gp.get_data_ptr(), p, n);
    return static_cast<unsigned>(n);
  }
  bool get_dmi(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    ++dmi_requests;
    if (!inside(gp.get_address(), 1)) return false;
    const bool ok = grant(gp.get_address(), dmi);
    dmi_grants += ok;
    return ok;
  }
  // The bytes at device address `a`, read from the memory's own buffer.
  template <class T>
  T peek(uint64_t a) {
    T v;
    std::memcpy(&v, live().data() + (a - base), sizeof v);
    return v;
  }
};

// Refuses DMI everywhere (says so for its whole range): every functional
// access must come by debug transport.
struct DebugOnlyMemory : ForeignMemoryBase {
  std::vector<uint8_t> bytes;
  DebugOnlyMemory(sc_core::sc_module_name n, uint64_t base_, uint64_t size_, uint8_t fill)
      : ForeignMemoryBase(n, base_, size_), bytes(size_, fill) {}
  std::vector<uint8_t>& live() override { return bytes; }
  bool grant(uint64_t, tlm::tlm_dmi& dmi) override {
    dmi.set_start_address(base);
    dmi.set_end_address(base + size - 1);
    return false;
  }
};

// Grants read/write DMI in blocks of `granule` bytes (0 = its whole range).
// remap() moves the contents to a second buffer, poisons the first and
// revokes every grant, as a platform that relocates its memory would.
struct DmiMemory : ForeignMemoryBase {
  std::vector<uint8_t> first, second;
  bool remapped = false;
  uint64_t granule;
  DmiMemory(sc_core::sc_module_name n, uint64_t base_, uint64_t size_, uint8_t fill, uint64_t granule_ = 0)
      : ForeignMemoryBase(n, base_, size_), first(size_, fill), granule(granule_) {}
  std::vector<uint8_t>& live() override { return remapped ? second : first; }
  bool grant(uint64_t addr, tlm::tlm_dmi& dmi) override {
    uint64_t lo = base, hi = base + size - 1;
    if (granule) {
      lo = base + (addr - base) / granule * granule;
      hi = std::min(hi, lo + granule - 1);
    }
    dmi.set_dmi_ptr(live().data() + (lo - base));
    dmi.set_start_address(lo);
    dmi.set_end_address(hi);
    dmi.allow_read_write();
    return true;
  }
  void remap() {
    second = first;
    std::fill(first.begin(), first.end(), uint8_t{0x5a});
    remapped = true;
    socket->invalidate_direct_mem_ptr(base, base + size - 1);
  }
};

}  // namespace simt::test
