// The SM's fetch stage. The issue stage grants a warp a fetch credit (one
// instruction at pc, generation gen) whenever the warp's I-buffer has room;
// each cycle the fetch scheduler picks up to `width` warps holding a credit
// and reads their instructions from the L1I. A returned instruction goes to
// decode as a FetchedInstr carrying the credit's warp, pc and gen.
//
// - At most one credit per warp waits to be fetched: a credit of a newer
//   generation replaces it (the warp was redirected), one of the same
//   generation is refused (issue retries), an older one is dropped.
// - A warp's instructions reach decode in the order they were fetched, even
//   when the L1I answers out of order (hit under miss): the I-buffer is a FIFO.
// - Stale generations are not filtered here: issue drops them, since only it
//   knows the warp's current generation.
// - A credit accepted in cycle N is fetched in cycle N+1 at the earliest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "mem/mem_port.h"
#include "sm/packets.h"
#include "stats/stats.h"
#include "util/bit_set.h"
#include "util/clock.h"
#include "util/packet_socket.h"
#include "util/ring_queue.h"

namespace simt::config { class ParamRegistry; }
namespace simt::trace { class Waveform; class MaybeSignal; }

namespace simt::sm {

struct FetchParams {
  std::string scheduler = "lrr";  // fetch scheduler; only loose round-robin is modelled
  uint32_t width = 1;             // I-cache reads started (and instructions passed on) per cycle: only 1

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

class FetchUnit : public sc_core::sc_module, private util::Clocked {
 public:
  util::PacketTarget<FetchUnit, FetchCredit> credits;  // from issue
  mem::MemRequester icache;                            // bind icache.socket to the L1I
  util::PacketInitiator<FetchUnit, FetchedInstr> out;  // to decode

  // `warps`: warp slots of the SM (credits name warps 0..warps-1).
  // Counters go under `stats_name` (e.g. "sm0.fetch"). `waveform` (may be
  // null) offers <stats_name>.warp / .pc (the read started this cycle: -1 and
  // 'x' when none), .credits (warps holding a credit) and .in_flight (reads
  // the L1I has not answered); whether a read hits is the L1I's own signal.
  FetchUnit(sc_core::sc_module_name name, const FetchParams& p, uint32_t warps, stats::Registry& reg,
            const std::string& stats_name, trace::Waveform* waveform = nullptr);

  // Credits waiting to be fetched plus fetches in flight or waiting for decode.
  size_t pending_work() const;
  void merge_staged(uint64_t now);

  // Times the block's method ran (an idle block must not run every cycle).
  uint64_t activations() const { return activations_; }

 private:
  struct Credit {
    bool valid = false;
    uint32_t pc = 0, gen = 0, bytes = 0;
    uint64_t addr = 0;
    uint64_t visible_at = 0;  // cycle from which the scheduler may pick it
    uint64_t freed_at = ~uint64_t{0};  // cycle the slot was emptied: free again from the next one
  };
  struct InFlight {
    uint64_t id = 0;
    uint32_t pc = 0, gen = 0;
    uint64_t sent = 0;
    bool done = false;
  };

  void on_credit(FetchCredit& c, sc_core::sc_time& t);
  void on_cycle(uint64_t now) override;  // run by util::Clock
  void collect_responses(uint64_t now);
  bool deliver();
  uint32_t start_fetches(uint64_t now, bool& stalled);
  // Waveform: writes this cycle's values; returns the cycle to wake at so
  // that a one-cycle value is cleared or the window's first cycle recorded
  // (UINT64_MAX: no need).
  uint64_t write_signals(uint64_t now, uint32_t sent);

  FetchParams p_;
  uint32_t warps_;
  std::vector<Credit> credit_;                 // per warp
  // Credits as they arrive: only on_credit fills and only tick() empties
  // these, so acceptance never depends on which of the two ran first.
  std::vector<Credit> staged_;
  // The warps whose credit_ / staged_ entry is valid, so a cycle visits
  // only those instead of every warp.
  util::BitSet credit_set_, staged_set_;
  std::vector<util::RingQueue<InFlight>> inflight_;  // per warp, in fetch order
  util::RingQueue<FetchedInstr> ready_;              // returned, in order, waiting for decode
  uint32_t last_warp_;                               // LRR: the warp fetched last
  uint64_t seq_ = 0;
  uint64_t activations_ = 0;

  trace::Waveform* wf_ = nullptr;  // null unless one of the signals below is recorded
  sc_core::sc_signal<int32_t>* sig_warp_ = nullptr;
  trace::MaybeSignal* sig_pc_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_credits_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_in_flight_ = nullptr;

  stats::Counter& fetches_;
  stats::Counter& stall_cycles_;
  stats::Counter& icache_waits_;
  stats::Counter& redirected_credits_;
};

}  // namespace simt::sm
