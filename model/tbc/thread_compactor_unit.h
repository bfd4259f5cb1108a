// The thread compactor of seed 001 (Figure 8 block 2) as an SM block: the
// branch unit's block-wide masks come in as CompactRequests, compacted warps
// go out as GeneratedWarps, one per cycle (§3.3), from the oldest request.
// The logic is tbc::ThreadCompactor; this wrapper adds the queue, timing and
// backpressure.
//
// Timing: a request accepted in cycle N is compacted from cycle N+1; warp
// k+1 of a request, or the first warp of the next one, follows in the cycle
// after warp k was accepted. A warp the receiver refuses is offered again,
// unchanged, in the next cycle. The queue holds `queue` requests, the one
// being compacted included (a request that left in this cycle still counts
// until the next one, so acceptance never depends on process order); a full
// queue refuses. The block sleeps while it has nothing to do.
//
// Stats under stats_name: requests, warps_generated, busy_cycles (cycles a
// warp was offered, refused ones included). VCD (optional): out_valid,
// out_cta, out_pc, out_mask (bit l = lane l, i.e. thread t sets bit
// t % warp_size) show each warp in the cycle it was handed over, and go
// back to 0 in the next cycle without one.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include <systemc>

#include "sm/packets.h"
#include "stats/stats.h"
#include "tbc/thread_compactor.h"
#include "util/clock.h"
#include "util/packet_socket.h"

namespace simt::config { class ParamRegistry; }
namespace simt::trace { class Waveform; class MaybeSignal; }

namespace simt::tbc {

struct ThreadCompactorParams {
  uint32_t queue = 8;  // requests held, the one being compacted included

  // Options: <prefix>.compactor_queue (prefix "tbc").
  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

class ThreadCompactorUnit : public sc_core::sc_module, private util::Clocked {
 public:
  util::PacketTarget<ThreadCompactorUnit, sm::CompactRequest> in;      // from the branch unit (issue)
  util::PacketInitiator<ThreadCompactorUnit, sm::GeneratedWarp> out;   // to the warp buffer (issue)

  ThreadCompactorUnit(sc_core::sc_module_name name, const ThreadCompactorParams& p, stats::Registry& reg,
                      const std::string& stats_name, trace::Waveform* waveform = nullptr);

  size_t occupancy() const { return q_.size(); }
  bool idle() const { return q_.empty(); }
  // Times the block's method ran (an idle block must not run every cycle).
  uint64_t activations() const { return activations_; }

 private:
  struct Queued {
    sm::CompactRequest req;
    uint64_t ready_at = 0;  // first cycle it may be compacted
  };

  void on_request(sm::CompactRequest& r, sc_core::sc_time& t);
  void on_cycle(uint64_t now) override;  // run by util::Clock
  // Fills warp_ from the oldest ready request; false when there is none.
  bool next_warp(uint64_t now);
  void show(uint64_t now, bool valid);

  ThreadCompactorParams p_;
  std::deque<Queued> q_;
  ThreadCompactor gen_;
  bool generating_ = false;  // gen_ holds q_.front()
  bool have_warp_ = false;   // warp_ is generated, not yet accepted
  sm::GeneratedWarp warp_;
  uint32_t index_ = 0;
  uint64_t popped_cycle_ = UINT64_MAX;  // a request left the queue in this cycle
  uint64_t activations_ = 0;

  trace::Waveform* wf_ = nullptr;
  sc_core::sc_signal<bool>* sig_valid_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_cta_ = nullptr;
  trace::MaybeSignal* sig_pc_ = nullptr;
  sc_core::sc_signal<uint64_t>* sig_mask_ = nullptr;
  bool shown_ = false;  // the signals show a warp: clear them next cycle

  stats::Counter& requests_;
  stats::Counter& warps_;
  stats::Counter& busy_;
};

}  // namespace simt::tbc
