// Ports for memory traffic between blocks, over the TLM-2.0 base protocol
// (tlm_generic_payload, approximately-timed nb_transport with BEGIN_REQ /
// END_REQ / BEGIN_RESP / END_RESP), so any SystemC interconnect or memory
// that speaks the base protocol can sit between our blocks.
//
// A block owns MemRequester ports toward the next level and MemResponder
// ports toward the previous one and calls them from its clocked method:
//   requester.send(...)      false = backpressure (END_REQ of the previous
//                            request not received yet): retry next cycle
//   requester.pop_response() completed requests, by id
//   responder.pop_request()  requests that have arrived (visible from the
//                            cycle after they were accepted)
//   responder.respond(req)   the response goes back (queued if the
//                            initiator has not finished the previous one)
// Both raise an event when something arrives, so an idle block can sleep.
// Payloads come from a pool (tlm_mm_interface): no allocation per request
// once warm.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

namespace simt::mem {

// What our blocks attach to every payload (a TLM extension): who asked and
// what for. Foreign interconnects pass it through untouched.
struct MemRequestInfo : tlm::tlm_extension<MemRequestInfo> {
  uint64_t id = 0;         // the requester's tag, echoed in the response
  uint32_t source = 0;     // requesting port (e.g. SM index), for routing responses
  bool instruction = false;
  bool atomic = false;
  tlm::tlm_extension_base* clone() const override;
  void copy_from(const tlm::tlm_extension_base& e) override;
};

struct MemRequest {
  uint64_t addr = 0;
  uint32_t bytes = 0;
  bool write = false;
  bool atomic = false;
  bool instruction = false;
  uint64_t id = 0;
  uint32_t source = 0;
  tlm::tlm_generic_payload* payload = nullptr;  // responder side: the payload to answer
};

class MemRequester : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<MemRequester> socket;

  explicit MemRequester(sc_core::sc_module_name name);
  ~MemRequester() override;

  // Starts a request now. False (nothing sent) while the target has not
  // accepted the previous request (base-protocol request exclusion).
  bool send(const MemRequest& r);
  bool can_send() const;
  // A completed request's id (in completion order); false when none.
  bool pop_response(uint64_t& id);
  bool has_response() const;
  size_t outstanding() const;
  const sc_core::sc_event& response_event() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

class MemResponder : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemResponder> socket;

  // `capacity`: requests held before END_REQ is withheld (backpressure).
  MemResponder(sc_core::sc_module_name name, uint32_t capacity);
  ~MemResponder() override;

  // The oldest request visible at the current cycle; false when none.
  bool pop_request(MemRequest& r);
  bool has_request() const;
  // Sends the response for a request taken with pop_request().
  void respond(const MemRequest& r);
  const sc_core::sc_event& request_event() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace simt::mem
