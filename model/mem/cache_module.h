// The sc_module around mem::Cache: one per cache of the machine (L1I, L1D,
// L2 partition, ...). `up` takes requests from the core side (or the
// previous level), `down` talks to the next level. Its step runs from
// util::Clock every cycle while there is work; otherwise it sleeps until a
// port's arrival or its next timed event wakes it.
//
// Per cycle, in this order:
//  1. responses from `down`: a line fill answers every request that waited
//     for the line (and may push a dirty victim's write-back down); a
//     forwarded write or atomic answers its requester;
//  2. hits whose hit_latency has elapsed are answered;
//  3. the oldest ready entry of the down queue (line requests, write-backs,
//     forwarded writes and atomics, FIFO) is offered to `down`, retried
//     every cycle while `down` refuses;
//  4. up to `ports` requests are taken from `up` and looked up. A request
//     that finds no MSHR (or merge slot) stays in `up` and the cache stalls
//     (in order: later requests wait behind it); so does every request while
//     the down queue is full.
//
// Timing choices:
//  - a miss goes down after the tag lookup (hit_latency cycles), so a read
//    miss costs hit_latency + the round trip below; merged misses and the
//    allocating one are answered in the cycle the fill arrives;
//  - a write-validate write miss installs its line at once (no fill) and is
//    answered as a hit; a dirty victim it replaces goes down as a write-back;
//  - writes that are not kept here (write-through, write-evict) are
//    forwarded and the writer is answered when the write completes below
//    (not posted: the LDST unit's write-back then means "globally done");
//  - atomics: with `atomics = forward` (L1s) they bypass the cache and go
//    down untouched, answered when they return; with `atomics = perform`
//    (the L2) they are a read-modify-write access: a hit after hit_latency,
//    a miss (or merge) answered at the fill, the line left dirty under
//    write-back; a no-write-allocate cache forwards them as writes;
//  - requests go down with the `source` of the request that caused them
//    (write-backs: the cache's own `source` parameter).
// Data moves functionally elsewhere: this module only decides when.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "config/param_registry.h"
#include "mem/cache.h"
#include "mem/input_arbiter.h"
#include "mem/mem_port.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "util/ring_queue.h"

namespace simt::trace { class Waveform; }

namespace simt::mem {

// The wrapper's own knobs, bound next to CacheParams under the same prefix.
struct CachePortParams {
  uint32_t ports = 1;           // requests looked up per cycle
  uint32_t in_queue = 4;        // requests `up` holds before withholding END_REQ
  uint32_t down_queue = 8;      // requests waiting to go down before the cache stalls
  std::string atomics = "forward";  // forward (L1: bypass) | perform (L2: read-modify-write here)
  uint32_t source = 0;          // `source` of its write-backs: set by the netlist, not an option
  // Input ports (`up`, then up_port(k)), each taking one request a cycle
  // from its own sender; `ports` lookups a cycle are shared among them in
  // round robin, or as CacheModule::arbiter grants. Set by the netlist
  // (seed 000's multi-ported L1I), not an option.
  uint32_t up_ports = 1;

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;  // throws simt::input_error
};

class CacheModule : public sc_core::sc_module, private util::Clocked {
 public:
  MemResponder up;    // from the core side / previous level
  MemRequester down;  // to the next level: must be bound
  // Optional, with up_ports > 1: decides which input ports are served each
  // cycle (one request each), in the cycle the requests are visible.
  sc_core::sc_port<InputArbiterIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND> arbiter;

  // Counters: the Cache's under `stats_name` plus stalls, down_stalls,
  // atomics_forwarded, down_requests and bytes (payload bytes of every
  // request accepted from `up`: the traffic the level above asks for). `waveform` (may be null) offers the
  // VCD signals <stats_name>.mshrs (MSHR entries in use), .queue (requests
  // waiting at `up`), .down_queue (requests waiting to go down), and .hits /
  // .misses (lookups this cycle that hit / missed, merged misses included).
  CacheModule(sc_core::sc_module_name name, const CacheParams& p, stats::Registry& stats,
              const std::string& stats_name);
  CacheModule(sc_core::sc_module_name name, const CacheParams& p, const CachePortParams& pp,
              stats::Registry& stats, const std::string& stats_name, trace::Waveform* waveform = nullptr);

  const Cache& cache() const { return cache_; }  // inspection (tests, VCD); no other block may hold it
  // As an L2 partition: set index from the partition-local address (Cache::index_within_partition).
  void index_within_partition(uint32_t interleave, uint32_t parts) { cache_.index_within_partition(interleave, parts); }
  // Input port k (0 = `up`), k < CachePortParams::up_ports.
  MemResponder& up_port(uint32_t k) { return *ups_.at(k); }

 private:

  // What a request sent down is for; encoded in the top bits of its id.
  enum class DownKind : uint64_t { Fill = 0, Forward = 1, Writeback = 2 };
  struct DownEntry {
    uint64_t ready;  // first cycle it may be offered
    MemRequest req;
  };
  struct HitEntry {
    uint64_t ready;
    uint32_t slot;
  };

  void on_cycle(uint64_t now) override;  // run by util::Clock
  void end_of_elaboration() override;
  void take_responses(uint64_t now);
  bool accept(const MemRequest& r, uint32_t port, uint64_t now);  // false: stall, leave it in `up`
  uint32_t new_slot(const MemRequest& r, uint32_t port);
  bool any_request() const;
  void lookup_ports(uint64_t now);
  void lookup_granted(uint64_t now);
  void answer(uint32_t slot);
  void push_down(uint64_t ready, uint64_t addr, uint32_t bytes, bool write, bool atomic, bool instruction,
                 uint32_t source, DownKind kind, uint64_t tag);
  // Waveform: this cycle's values (inside the window); true when one must be
  // cleared next cycle.
  bool write_signals(uint64_t now);

  CachePortParams pp_;
  bool perform_atomics_;
  Cache cache_;
  // Requests taken from `up` and not answered yet, by slot (= the Cache's req_id).
  std::vector<MemRequest> slots_;
  std::vector<uint8_t> slot_port_;  // the input port each slot's request came from (several ports only)
  std::vector<std::unique_ptr<MemResponder>> more_up_;
  std::vector<MemResponder*> ups_;  // every input port: `up`, then more_up_
  uint32_t up_rr_ = 0;              // the input port looked at first next cycle
  // With several input ports: bit k = ups_[k] has a request queued (set and
  // cleared by the port, MemResponder::flag_queued), so a cycle looks at
  // those ports only instead of polling every one.
  uint64_t queued_ports_ = 0;
  InputArbiterIf* arb_ = nullptr;   // `arbiter`, when bound
  std::vector<uint32_t> free_slots_;
  util::RingQueue<HitEntry> hits_;
  util::RingQueue<DownEntry> down_q_;

  trace::Waveform* wf_ = nullptr;  // null unless one of the signals below is recorded
  sc_core::sc_signal<uint32_t>* sig_mshrs_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_queue_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_down_queue_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_hits_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_misses_ = nullptr;
  // The Cache's hit and miss counters and their values at the last write:
  // the difference is this cycle's lookups.
  const stats::Counter* hits_total_ = nullptr;
  const stats::Counter* misses_total_ = nullptr;
  uint64_t hits_seen_ = 0, misses_seen_ = 0;
  uint64_t counted_at_ = UINT64_MAX;  // the cycle hits_now_ / misses_now_ belong to
  uint32_t hits_now_ = 0, misses_now_ = 0;

  stats::Counter& stalls_;
  stats::Counter& down_stalls_;
  stats::Counter& atomics_forwarded_;
  stats::Counter& down_requests_;
  stats::Counter& bytes_;
};

}  // namespace simt::mem
