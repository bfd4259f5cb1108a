// The SM's decode stage: instructions from fetch spend `latency` cycles here,
// then go on to the issue stage's I-buffers, up to `width` per cycle, in
// arrival order. The PTX is decoded once when the program is loaded, so this
// block models the stage's timing and bandwidth, not the decoding itself.
//
// Its queue holds width * (latency + 1) instructions, enough to keep the
// stage streaming; a full queue (or more than `width` arrivals in a cycle)
// refuses fetch, and a refusing issue stage holds the queue's head.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "sm/packets.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "util/packet_socket.h"
#include "util/ring_queue.h"

namespace simt::config { class ParamRegistry; }
namespace simt::trace { class Waveform; class MaybeSignal; }

namespace simt::sm {

struct DecodeParams {
  uint32_t latency = 1;  // cycles from arrival to the I-buffer (>= 1)
  uint32_t width = 1;    // instructions accepted and passed on per cycle

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

class DecodeUnit : public sc_core::sc_module, private util::Clocked {
 public:
  util::PacketTarget<DecodeUnit, FetchedInstr> in;     // from fetch
  util::PacketInitiator<DecodeUnit, FetchedInstr> out; // to issue's I-buffers

  // `waveform` (may be null) offers <stats_name>.warp / .pc (the last
  // instruction passed to the I-buffers this cycle: -1 and 'x' when none)
  // and .queue (instructions held).
  DecodeUnit(sc_core::sc_module_name name, const DecodeParams& p, stats::Registry& reg,
             const std::string& stats_name, trace::Waveform* waveform = nullptr);

  size_t occupancy() const { return q_.size(); }
  size_t capacity() const { return cap_; }

  // Times the block's method ran (an idle block must not run every cycle).
  uint64_t activations() const { return activations_; }

 private:
  struct Slot {
    FetchedInstr fi;
    uint64_t ready_at = 0;  // first cycle it may leave
  };

  void on_fetched(FetchedInstr& fi, sc_core::sc_time& t);
  void on_cycle(uint64_t now) override;  // run by util::Clock
  // Waveform: this cycle's values; true when they must be rewritten next
  // cycle (a one-cycle value to clear, or the queue is changing).
  bool write_signals(const FetchedInstr* passed);

  DecodeParams p_;
  size_t cap_;
  // Entries that left the queue this cycle still count toward `cap_` until
  // the next one, so whether fetch is refused never depends on whether the
  // decode method ran before or after it in the cycle.
  uint64_t popped_cycle_ = ~uint64_t{0};
  size_t popped_ = 0;
  util::RingQueue<Slot> q_;
  uint64_t in_cycle_ = UINT64_MAX;  // cycle of the arrivals counted in in_count_
  uint32_t in_count_ = 0;
  uint64_t activations_ = 0;

  trace::Waveform* wf_ = nullptr;  // null unless one of the signals below is recorded
  sc_core::sc_signal<int32_t>* sig_warp_ = nullptr;
  trace::MaybeSignal* sig_pc_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_queue_ = nullptr;

  stats::Counter& decoded_;
  stats::Counter& stall_cycles_;
  stats::Counter& refused_;
};

}  // namespace simt::sm
