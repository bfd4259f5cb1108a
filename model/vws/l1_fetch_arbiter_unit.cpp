#include "vws/l1_fetch_arbiter_unit.h"

#include <algorithm>
#include <stdexcept>

namespace simt::vws {

L1FetchArbiterUnit::L1FetchArbiterUnit(sc_core::sc_module_name name, uint32_t slices, uint32_t gang_pipes,
                                       uint32_t ports, stats::Registry& st, const std::string& n)
    : sc_core::sc_module(name),
      slices_(slices),
      gang_pipes_(gang_pipes),
      arb_(ports, slices),
      gang_fetches_(st.counter(n + ".gang_fetches", "L1I reads granted to the gang front end")),
      slice_fetches_(st.counter(n + ".slice_fetches", "L1I reads granted to the slices' front ends")),
      waits_(st.counter(n + ".waits", "cycles a front end's read waited for an L1I port, summed over front ends")) {
  for (uint32_t k = 0; k < slices + gang_pipes; ++k) {
    const std::string in = k < slices ? "slice" + std::to_string(k) : "gang" + std::to_string(k - slices);
    in_.push_back(std::make_unique<mem::MemResponder>(in.c_str(), 2));
    in_.back()->wake_on_request(*this);
  }
  const uint32_t n_out = ports == 0 ? slices + gang_pipes : ports;
  for (uint32_t k = 0; k < n_out; ++k) {
    out_.push_back(std::make_unique<mem::MemRequester>(("l1i" + std::to_string(k)).c_str()));
    out_.back()->wake_on_response(*this);
  }
  attach_to_clock(false);
}

bool L1FetchArbiterUnit::pass(uint32_t input, uint64_t) {
  // A free L1 port (one whose previous request the L1I took).
  for (uint32_t i = 0; i < out_.size(); ++i) {
    mem::MemRequester& o = *out_[(next_out_ + i) % out_.size()];
    if (!o.can_send()) continue;
    mem::MemRequest r;
    if (!in_[input]->pop_request(r)) return false;
    uint32_t id;
    if (free_.empty()) {
      id = static_cast<uint32_t>(pending_.size());
      pending_.emplace_back();
    } else {
      id = free_.back();
      free_.pop_back();
    }
    pending_[id] = Pending{true, input, r};
    mem::MemRequest fwd = r;
    fwd.id = id;
    fwd.payload = nullptr;
    if (!o.send(fwd)) throw std::logic_error(std::string(name()) + ": an L1 port refused a request it could take");
    next_out_ = (next_out_ + i + 1) % static_cast<uint32_t>(out_.size());
    return true;
  }
  return false;
}

void L1FetchArbiterUnit::on_cycle(uint64_t now) {
  ++activations_;
  // Answers go back to whoever asked.
  for (auto& o : out_) {
    mem::MemRequest r;
    while (o->pop_response(r)) {
      if (r.id >= pending_.size() || !pending_[r.id].used)
        throw std::logic_error(std::string(name()) + ": the L1I answered an unknown read");
      Pending& p = pending_[r.id];
      in_[p.input]->respond(p.req);
      p.used = false;
      free_.push_back(static_cast<uint32_t>(r.id));
    }
  }
  // This cycle's grants.
  uint8_t asking = 0;
  for (uint32_t k = 0; k < slices_; ++k)
    if (in_[k]->has_request()) asking |= static_cast<uint8_t>(1u << k);
  uint32_t gang_asks = 0;
  for (uint32_t k = 0; k < gang_pipes_; ++k) gang_asks += in_[slices_ + k]->has_request();
  bool waiting = false;
  if (asking || gang_asks) {
    const L1FetchArbiter::Grant g = arb_.arbitrate(gang_asks, asking);
    // The granted gang fetches, over the gang pipes that ask, in round robin.
    uint32_t granted = g.gangs;
    for (uint32_t i = 0; i < gang_pipes_ && granted > 0; ++i) {
      const uint32_t k = (gang_rr_ + i) % gang_pipes_;
      if (!in_[slices_ + k]->has_request()) continue;
      --granted;
      if (pass(slices_ + k, now)) ++gang_fetches_;
    }
    gang_rr_ = (gang_rr_ + 1) % std::max(1u, gang_pipes_);
    for (uint32_t k = 0; k < slices_; ++k)
      if (((g.slices >> k) & 1) && pass(k, now)) ++slice_fetches_;
    for (auto& in : in_)
      if (in->has_request()) {
        ++waits_;
        waiting = true;
      }
  }
  if (waiting) wake_next();
  // else asleep until a request or a response arrives
}

}  // namespace simt::vws
