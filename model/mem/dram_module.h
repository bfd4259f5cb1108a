// The DRAM as a SystemC block: one MemResponder per channel (bound to the L2
// partition of that channel) in front of the plain mem::Dram.
//
// Each cycle it runs, per channel: at most one request (or one piece of a
// split request) enters the Dram's queue, then Dram::tick() retires what
// has completed and the responses go back. Between events it sleeps until
// Dram::next_event() or a new request, whichever comes first, so idle or
// waiting DRAM costs no evaluations.
//
// Requests: Dram takes requests inside one channel chunk and one row. A
// request inside one chunk that crosses a row boundary (row_bytes smaller
// than the interleave) is split at the row boundaries and answered when its
// last piece completes; one crossing a chunk belongs to two channels and is
// refused with an error (the L2 line must not exceed the interleave), as is
// a request that arrives on another channel's port.
// Timing: a request sent at cycle t is visible (and enters the Dram) at
// t + 1, so its response goes out at t + 1 + Dram's own latency.
// Statistics are Dram's own, under <stats_name>; queue_full_rejects counts
// requests that found their channel's queue full (each once).
//
// Waveform signals per channel c (when `waveform` records them):
// <stats_name>.ch<c>.queue (requests in the controller's queue),
// .row_hits / .row_misses (column accesses this cycle that found their row
// open / had to open it) and .busy (the data bus carries data this cycle).
// While any is recorded the block runs every cycle the DRAM has work.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "mem/dram.h"
#include "mem/mem_port.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "util/slot_pool.h"

namespace simt::trace { class Waveform; }

namespace simt::mem {

class DramModule : public sc_core::sc_module, private util::Clocked {
 public:
  // Requests a channel port holds before it applies backpressure (the Dram
  // queue behind it is the real buffer).
  static constexpr uint32_t kPortCapacity = 2;

  DramModule(sc_core::sc_module_name name, const DramParams& p, stats::Registry& stats,
             const std::string& stats_name, trace::Waveform* waveform = nullptr);
  ~DramModule() override;

  // Bind L2 partition c's MemRequester socket to channel_port(c).socket.
  MemResponder& channel_port(uint32_t c) { return *ports_[c]; }
  const Dram& dram() const { return dram_; }

  // Times the method has run (tests check that an idle block sleeps).
  uint64_t activations() const { return activations_; }

 private:
  struct Slot {
    MemRequest req;
    uint32_t channel = 0;
    uint32_t pending = 0;  // pieces not completed yet
  };
  // The request of a channel being handed to the Dram, piece by piece.
  struct Feed {
    bool active = false;
    bool refused = false;  // found the queue full once (counted once)
    uint32_t slot = 0;
    uint64_t addr = 0;     // next piece
    uint32_t left = 0;     // bytes not handed over yet
  };

  void on_cycle(uint64_t now) override;  // run by util::Clock
  void take(uint32_t c, uint64_t now);
  void write_signals(uint64_t now);  // every run when traced; writes inside the window

  Dram dram_;
  uint32_t span_;  // largest piece Dram accepts: min(interleave, row_bytes)
  std::vector<std::unique_ptr<MemResponder>> ports_;
  util::SlotPool<Slot> slots_;
  std::vector<Feed> feed_;
  std::vector<uint64_t> done_;
  uint64_t activations_ = 0;

  // Waveform, per channel; wf_ is null unless some signal is recorded.
  struct ChannelSignals {
    sc_core::sc_signal<uint32_t>* queue = nullptr;
    sc_core::sc_signal<uint32_t>* row_hits = nullptr;
    sc_core::sc_signal<uint32_t>* row_misses = nullptr;
    sc_core::sc_signal<bool>* busy = nullptr;
    uint64_t hits_seen = 0, misses_seen = 0;  // the Dram's per-channel totals at the last look
    uint64_t counted_at = UINT64_MAX;         // the cycle hits_now / misses_now belong to
    uint32_t hits_now = 0, misses_now = 0;
  };
  trace::Waveform* wf_ = nullptr;
  std::vector<ChannelSignals> sig_;
};

}  // namespace simt::mem
