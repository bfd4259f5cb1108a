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
// Both raise an event when something becomes visible, so an idle block can
// sleep: a block that still sees has_request()/has_response() must stay
// awake (the event fires once per arrival cycle, not per item).
// Payloads come from a pool (tlm_mm_interface): no allocation per request
// once warm.
//
// Timing: whatever arrives in cycle N (a request, a response, END_REQ) takes
// effect at cycle N+1 at the earliest (later if the transaction carries an
// annotated delay), so the order in which SystemC runs the blocks' methods
// within a cycle never changes results. One request per cycle per port: a
// requester whose request was accepted in cycle N may send again at N+1.
// The payload carries a dummy data buffer of the request's length: data
// moves functionally (the executor touches memory itself), these ports only
// carry timing.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "util/clock.h"
#include "util/cycle.h"

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
  // The same, with the whole request (addr, bytes, write, flags, id, source;
  // payload is null: it has gone back to the pool).
  bool pop_response(MemRequest& r);
  // Inline: owners poll many ports every cycle.
  bool has_response() const { return first_response_ <= util::now_cycle(); }
  size_t outstanding() const;  // sent, response not yet arrived
  // Notified in each cycle a response becomes visible; or, once
  // wake_on_response(block) is called, that block is woken through
  // util::Clock instead (the event then stays silent).
  const sc_core::sc_event& response_event() const;
  void wake_on_response(util::Clocked& block);

  // Payload pool: payloads ever created / currently free (for leak checks).
  size_t pool_allocated() const;
  size_t pool_free() const;

 private:
  // Socket callbacks (the simple sockets want members of the owner): they
  // forward to Impl.
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  class Impl;
  std::unique_ptr<Impl> impl_;
  uint64_t first_response_ = UINT64_MAX;  // visibility cycle of the oldest response held (none: max)
};

class MemResponder : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<MemResponder> socket;

  // `capacity`: requests held before END_REQ is withheld (backpressure).
  // Loosely-timed initiators may call b_transport from an SC_THREAD: the
  // call waits for queue space, then until the owner has responded. Debug
  // transport and DMI are refused (no data lives behind these ports).
  MemResponder(sc_core::sc_module_name name, uint32_t capacity);
  ~MemResponder() override;

  // The oldest request visible at the current cycle; false when none.
  bool pop_request(MemRequest& r);
  // The same without taking it: a block that cannot serve the request yet
  // leaves it here, so the backpressure reaches the sender.
  bool peek_request(MemRequest& r) const;
  // Takes the request peek_request() showed (cheaper than pop_request(r)).
  void pop_request();
  bool has_request() const { return first_request_ <= util::now_cycle(); }  // inline: polled every cycle
  // Sends the response for a request taken with pop_request().
  void respond(const MemRequest& r);
  // Notified in each cycle a request becomes visible; or the block given to
  // wake_on_request is woken through util::Clock instead.
  const sc_core::sc_event& request_event() const;
  void wake_on_request(util::Clocked& block);
  // Bit `bit` of *word is kept set while this port has a request queued
  // (visible or not): a block with many input ports looks only at those.
  void flag_queued(uint64_t* word, uint64_t bit);
  // Requests accepted and not yet popped (visible or not), and whether a
  // further BEGIN_REQ is being held back (backpressure).
  size_t queued() const;
  bool holding() const;

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t);
  class Impl;
  std::unique_ptr<Impl> impl_;
  uint64_t first_request_ = UINT64_MAX;  // visibility cycle of the oldest request queued (none: max)
};

}  // namespace simt::mem
