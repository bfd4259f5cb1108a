// Typed (non-memory) traffic between blocks: a TLM-2.0 socket whose payload
// is a plain struct with named fields, e.g. an issue packet or a fetch
// credit, instead of an address-encoded generic payload. The initiator
// offers a packet with b_transport; the target's handler sets the packet's
// `accepted` field (or leaves it false when its input queue is full: the
// initiator retries in a later cycle). tlm_utils::simple_target_socket only
// accepts tlm_generic_payload, hence this small target socket.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace simt::util {

template <class P>
struct PacketTypes {
  typedef P tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

template <class Owner, class P>
using PacketInitiator = tlm_utils::simple_initiator_socket<Owner, 32, PacketTypes<P>>;

// A socket a netlist may leave unbound (a block that only some machine
// variants connect, e.g. the issue stage's link to TBC's thread compactor).
template <class Owner, class P>
using OptionalPacketInitiator = tlm_utils::simple_initiator_socket_optional<Owner, 32, PacketTypes<P>>;

template <class Owner, class P, sc_core::sc_port_policy POL = sc_core::SC_ONE_OR_MORE_BOUND>
class PacketTarget : public tlm::tlm_target_socket<32, PacketTypes<P>, 1, POL>,
                     private tlm::tlm_fw_transport_if<PacketTypes<P>> {
 public:
  using Handler = void (Owner::*)(P&, sc_core::sc_time&);

  PacketTarget(const char* name, Owner* owner, Handler handler)
      : tlm::tlm_target_socket<32, PacketTypes<P>, 1, POL>(name), owner_(owner), handler_(handler) {
    this->bind(static_cast<tlm::tlm_fw_transport_if<PacketTypes<P>>&>(*this));
  }

 private:
  void b_transport(P& p, sc_core::sc_time& t) override { (owner_->*handler_)(p, t); }
  tlm::tlm_sync_enum nb_transport_fw(P& p, tlm::tlm_phase&, sc_core::sc_time& t) override {
    (owner_->*handler_)(p, t);
    return tlm::TLM_COMPLETED;
  }
  bool get_direct_mem_ptr(P&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(P&) override { return 0; }

  Owner* owner_;
  Handler handler_;
};

template <class Owner, class P>
using OptionalPacketTarget = PacketTarget<Owner, P, sc_core::SC_ZERO_OR_MORE_BOUND>;

}  // namespace simt::util
