// The MT-CGRF execution core (seed 002 §3.5): the grid configured with one
// block's dataflow graph (replicated), streaming threads through it.
//
// One process for the whole grid (util::Clocked), not one per unit: the
// units' behaviour is a token engine in plain C++. The engine counts grid
// cycles, vgiw.grid_clock of them per core cycle (Table 1: the grid runs at
// 1.4 GHz, the core clock the rest of the machine counts at 0.7): each core
// cycle runs its grid cycles in turn. Memory ports send and answer at the
// core clock; a response reaches the grid at its core cycle's first grid cycle.
//  - Initiator CVUs hold two thread batches each (double buffering) and
//    inject one thread a cycle while the replica has a free virtual channel
//    (vgiw.channels: token-buffer entries per unit).
//  - A node fires when its last input token has arrived (its producer's
//    completion plus the routed edge's latency). A unit fires one token set
//    a cycle; a set arriving at a unit that fired this cycle waits a cycle.
//  - FP-ALUs and SCUs complete after the operation's latency (the SIMT SM's
//    sp.* / sfu.* / ops.* table, in core cycles: the same time in grid
//    cycles; every unit is pipelined, the SCUs by virtual pipelining). Joins
//    take a grid cycle; so does a hop.
//  - LDST units send one request per line a thread touches to the L1 (port
//    per unit, no coalescing) and complete when the last response arrives;
//    the L1's vgiw.l1_banks word-interleaved banks take one request each a
//    cycle (round robin over the ports; a port whose bank is taken waits);
//    a reservation buffer of vgiw.ldst_reservations lines lets later threads
//    overtake a blocked one. Shared-memory accesses complete after
//    shmem.latency.
//  - LVUs read or write the thread's <live value, thread> entry in the LVC;
//    writes are posted (the node completes the next cycle, the reservation
//    buffer holds the write until the LVC answers).
//  - Terminator CVUs return each thread to the BBS in batches per next
//    block (<base, bitmap>), sent when a thread of another 64-thread word
//    arrives or when the replica drains.
// What the threads compute is decided when a batch reaches its initiator
// (batch_runner.h); the engine only times it.
//
// Stats under sm<i>.grid: threads, batches, unit firings
// by type (<type>_firings: busy unit-cycles, in grid cycles), unit_conflicts
// (grid cycles token sets waited for a busy unit), reservation_stalls,
// channel_cycles (threads in flight x core cycles), configurations,
// configuration_cycles (core cycles), l1d_requests, lvc_reads, lvc_writes,
// shared_accesses, token_hops (grid cycles tokens spent on the
// interconnect); and sm<i>.int/fp/sfu_thread_instructions as the SIMT SM
// counts them (the energy model's operations).
//
// Power gating (power.gating, bound by gpu/core_factory.cpp): the `power`
// socket goes to one lane power controller whose lanes are the FP-ALUs
// (layout order; INT or FP pipeline by the node's instruction class). Before
// an FP-ALU node fires, the grid asks it with the firing's core cycle (the
// controller counts core cycles, as on the SIMT SM); a refusal wakes the
// unit, and the token set fires at the grid cycle its unit is ON (the unit
// takes nothing else meanwhile): sm<i>.grid.wakeup_stall_cycles.
//
// VCD (with a waveform): sm<i>.grid.<type>_busy, the firings of each unit
// type in this core cycle (up to vgiw.grid_clock per unit), and
// sm<i>.grid.threads, the threads in flight.
#pragma once

#include <array>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "mem/mem_port.h"
#include "sm/sm.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "util/fault_latch.h"
#include "util/packet_socket.h"
#include "util/ring_queue.h"
#include "vgiw/batch_runner.h"
#include "vgiw/event_wheel.h"
#include "vgiw/vgiw_packets.h"
#include "vgiw/vgiw_params.h"

namespace simt::trace { class Waveform; }

namespace simt::vgiw {

class MtCgrf : public sc_core::sc_module, private util::Clocked {
 public:
  // Base of the live value matrix in the address space below the LVC.
  static constexpr uint64_t kLvcRegion = uint64_t{3} << 55;
  static constexpr uint64_t kLocalRegion = uint64_t{1} << 56;  // as the SIMT SM's LDST unit

  util::PacketTarget<MtCgrf, GridConfigure> configure;  // from the BBS
  util::PacketTarget<MtCgrf, ThreadBatch> batches;      // from the BBS
  util::PacketInitiator<MtCgrf, BatchReturn> returns;   // to the BBS
  sc_core::sc_vector<mem::MemRequester> l1d;  // one per LDST unit
  sc_core::sc_vector<mem::MemRequester> lvc;  // one per LVU
  util::OptionalPacketInitiator<MtCgrf, sm::LaneUseRequest> power;  // to the FP-ALUs' controller (unbound: no gating)

  // Counters under `sm_stats` + ".grid"; the thread and batch instruction
  // counts under `sm_stats` itself (sm0.thread_instructions,
  // sm0.warp_instructions: instructions run per batch, VGIW's nearest thing
  // to a warp instruction).
  MtCgrf(sc_core::sc_module_name name, const VgiwParams& v, const sm::SmParams& sm, stats::Registry& stats,
         const std::string& sm_stats, uint32_t core_id, trace::Waveform* waveform = nullptr);
  ~MtCgrf() override;

  // Threads in flight or waiting at an initiator.
  bool busy() const;
  void rethrow_fault() const { fault_.rethrow(); }

 private:
  struct BatchData;
  struct Channel;
  struct Replica;
  struct Event {
    uint32_t channel, node;
    uint8_t kind;  // kArrive: inputs all there; kFire: its unit is reserved for this cycle; kDone: it completes
  };
  struct Pending {  // a memory request waiting for its port
    mem::MemRequest req;
    uint32_t bank = 0;  // L1 requests: the bank of the word it starts at
  };
  struct Outstanding {
    uint32_t channel, node, unit;
  };

  void on_configure(GridConfigure& g, sc_core::sc_time& t);
  void on_batch(ThreadBatch& b, sc_core::sc_time& t);
  void on_cycle(uint64_t now) override;
  void end_of_elaboration() override;
  // Power gating: the grid cycle >= g at which FP-ALU `unit` can fire a node
  // of `latency` grid cycles (g when its pipeline is ON: the use is recorded;
  // later when it had to be woken).
  uint64_t power_ready(uint32_t unit, bool fp, uint64_t g, uint32_t latency);
  void cycle(uint64_t now);
  void take_responses(uint64_t now);
  void inject(uint64_t now);
  void fire(const Event& e, uint64_t now);  // `now`: the event's cycle
  void complete(uint32_t channel, uint32_t node, uint64_t at);
  enum : uint8_t { kArrive, kFire, kDone };
  void push(uint64_t cycle, uint32_t channel, uint32_t node, uint8_t kind);
  void finish_thread(uint32_t channel);
  void count_firing(Unit u) {  // a unit of type `u` fired: the statistic and this cycle's waveform count
    ++*firings_[static_cast<size_t>(u)];
    ++fired_now_[static_cast<size_t>(u)];
  }
  void flush_returns(Replica& r);
  void send_requests();
  uint32_t request_id(uint32_t channel, uint32_t node, uint32_t unit);
  uint32_t node_latency(const Node& n) const;

  VgiwParams v_;
  const sm::SmParams& sm_;
  uint32_t core_id_;
  GridLayout layout_;
  std::string n_;                       // stats prefix (sm0.grid)
  std::vector<uint32_t> port_of_unit_;  // layout unit -> its L1D or LVC port

  // What a configuration of one block needs that does not change while its
  // compilation lives: built at its first configuration, reused after
  // (a kernel's loop reconfigures the same few blocks over and over).
  struct Route {
    std::vector<uint32_t> unit;                                   // per node: layout unit
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> out;  // per node: (consumer, edge latency)
  };
  struct BlockSetup {
    std::unique_ptr<BatchRunner> runner;
    std::vector<uint32_t> latency;  // per node
    std::vector<uint16_t> inputs;   // per node: edges in
    std::vector<Route> routes;      // per replica
  };
  BlockSetup& setup_for(const GridConfigure& g);

  // The configuration.
  const Compilation* comp_ = nullptr;
  const CompiledBlock* block_ = nullptr;
  std::shared_ptr<const Compilation> setups_owner_;  // the compilation setups_ belong to
  std::unordered_map<const CompiledBlock*, BlockSetup> setups_;
  const BlockSetup* setup_ = nullptr;
  BatchRunner* runner_ = nullptr;        // setup_'s
  uint32_t slots_ = 0;
  uint64_t configured_at_ = 0;
  std::vector<std::unique_ptr<Replica>> replicas_;  // reused from one configuration to the next
  std::vector<Channel> channels_;        // replica * vgiw.channels + c
  uint32_t nodes_ = 0;                   // nodes of the configured graph
  std::vector<uint64_t> ready_;          // [channel * nodes_ + node]: when its last input arrives
  std::vector<uint16_t> waiting_;        // ... inputs still to come
  std::vector<uint16_t> mem_left_;       // ... memory responses still to come
  std::vector<std::shared_ptr<BatchData>> batch_pool_;

  EventWheel<Event> events_;
  std::vector<uint64_t> unit_free_;      // per layout unit: the first cycle it can fire again
  std::vector<uint32_t> reserved_;       // per layout unit: lines in flight (LDST, LVU)
  // Per layout unit: memory nodes waiting for room in its reservation
  // buffer, oldest first (a response that frees room fires the next).
  std::vector<util::RingQueue<std::pair<uint32_t, uint32_t>>> waiters_;
  std::vector<util::RingQueue<Pending>> l1d_q_, lvc_q_;
  std::vector<Outstanding> out_;
  std::vector<uint32_t> free_ids_;
  util::RingQueue<BatchReturn> returns_q_;
  uint32_t l1_rr_ = 0;                   // LDST port that goes first for the L1's banks this cycle
  uint32_t in_flight_ = 0;               // threads in channels
  uint64_t last_cycle_ = 0;
  util::FaultLatch fault_;

  stats::Counter &threads_, &batches_, &conflicts_, &reservation_stalls_, &channel_cycles_, &configs_,
      &config_cycles_, &l1d_requests_, &lvc_reads_, &lvc_writes_, &shared_, &thread_instructions_,
      &batch_instructions_, &int_threads_, &fp_threads_, &sfu_threads_, &token_hops_, &bank_conflicts_;
  std::vector<stats::Counter*> firings_;  // per unit type
  // Power gating: the FP-ALU's lane (per layout unit; kNone for others), the
  // controller's interface, the stall counter (all set when bound).
  std::vector<uint32_t> lane_of_unit_;
  tlm::tlm_fw_transport_if<util::PacketTypes<sm::LaneUseRequest>>* power_if_ = nullptr;
  stats::Registry& reg_;
  stats::Counter* wakeup_stalls_ = nullptr;
  trace::Waveform* wf_ = nullptr;
  std::array<uint32_t, kUnitTypes> fired_now_{};  // firings this cycle (tracing)
  std::vector<sc_core::sc_signal<uint32_t>*> sig_busy_;  // per unit type
  sc_core::sc_signal<uint32_t>* sig_threads_ = nullptr;
};

}  // namespace simt::vgiw
