// The SM <-> L2 interconnect: a crossbar with one MemResponder per source
// (an SM-side L1 port) and one MemRequester per L2 partition. Requests go
// to the partition that owns their address (partition_of(), the DRAM
// channel mapping); responses go back to the source they came from.
//
// Two independent networks (requests, responses), each built the same way:
//   - every input port stages one message (head of line); every output port
//     arbitrates round robin among the inputs whose staged message targets
//     it. A grant occupies both the input and the output port for
//     flits = ceil(bytes / flit_bytes) cycles for a data-carrying message
//     (write or atomic request, read or atomic response), 1 cycle otherwise:
//     each port moves at most one message per cycle and at most flit_bytes
//     per cycle.
//   - a message granted at cycle g is delivered to its output port's queue
//     at g + latency + flits - 1 (head latency, then the tail flits), then
//     offered downstream in order, one per cycle; the downstream port sees
//     it one cycle later (its own visibility rule).
//   - an output queue holds at most `queue` messages (in flight + waiting);
//     a full queue stops grants to that output, so backpressure from an L2
//     partition reaches the source ports.
// Unloaded, a request popped at cycle v (visible at the source port) is
// offered to the partition at v + latency + flits - 1.
//
// Default latency 8 core cycles (our pick): GPGPU-Sim's GTX480 config clocks
// its iSLIP crossbar at 700 MHz, half the 1400 MHz shader clock; about four
// interconnect cycles through input buffer, allocation and traversal make
// 8 core cycles. flit_bytes 32 is GPGPU-Sim's flit size.
//
// Statistics under <stats_name>: requests, responses, flits (both
// networks), stall_cycles (message-cycles a ready message waited because its
// output port was busy, full, or granted to another input, or because the
// partition refused it).
//
// Waveform signals (when `waveform` records them), per network <n> = req
// (toward the L2) or rsp (back to the SMs): <stats_name>.<n>_waiting,
// messages staged at an input waiting for a grant, and <n>_in_flight,
// messages granted and not yet handed to their output.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "config/param_registry.h"
#include "mem/dram.h"
#include "mem/mem_port.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "util/ring_queue.h"
#include "util/slot_pool.h"

namespace simt::trace { class Waveform; }

namespace simt::mem {

struct CrossbarParams {
  uint32_t latency = 8;      // cycles from a grant to the delivery of a one-flit message
  uint32_t flit_bytes = 32;  // bytes a port moves per cycle
  uint32_t partitions = 8;   // L2 partitions = DRAM channels (must equal dram.channels)
  uint32_t interleave = 256; // bytes per partition chunk (must equal dram.interleave)
  uint32_t queue = 16;       // messages per port buffer (source port input, output queues)

  void bind(config::ParamRegistry& r, const std::string& prefix);
  // Throws simt::input_error("option <prefix>.<name>: ...") on a bad value.
  void validate(const std::string& prefix) const;
  // The crossbar must route exactly as the DRAM maps channels.
  void check_matches(const DramParams& dram, const std::string& prefix) const;
};

class Crossbar : public sc_core::sc_module, private util::Clocked {
 public:
  // `num_sources` source ports (SM side), `p.partitions` partition ports.
  Crossbar(sc_core::sc_module_name name, const CrossbarParams& p, uint32_t num_sources,
           stats::Registry& stats, const std::string& stats_name, trace::Waveform* waveform = nullptr);
  ~Crossbar() override;

  // Bind an L1's MemRequester socket to source_port(i).socket.
  MemResponder& source_port(uint32_t i) { return *src_[i]; }
  // Bind partition_port(p).socket to L2 partition p's MemResponder socket.
  MemRequester& partition_port(uint32_t p) { return *part_[p]; }
  uint32_t num_sources() const { return uint32_t(src_.size()); }
  const CrossbarParams& params() const { return p_; }

  // Times the method has run (tests check that an idle block sleeps).
  uint64_t activations() const { return activations_; }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;

  // One request through the crossbar, from its entry until its response
  // leaves. The slot index is the id sent to the partition.
  struct Slot {
    MemRequest req;  // as popped from the source port (payload to answer)
    uint32_t source = 0;
    uint32_t part = 0;
  };
  struct Msg {
    uint32_t slot;
    uint64_t ready;  // cycle it reaches the output port
  };
  // One direction of the crossbar: inputs stage, outputs arbitrate.
  struct Net {
    std::vector<uint32_t> staged;     // per input: slot or kNone
    std::vector<uint64_t> in_free;    // per input: first cycle the port is free
    std::vector<uint64_t> out_free;   // per output
    std::vector<uint32_t> rr;         // per output: input with priority
    std::vector<util::RingQueue<Msg>> outq;
    // Scratch of arbitrate(): per output, the inputs that may send to it
    // this cycle, and the outputs that have any.
    std::vector<std::vector<uint32_t>> contenders;
    std::vector<uint32_t> wanted;
  };

  void on_cycle(uint64_t now) override;  // run by util::Clock
  void stage_inputs();
  // Grants for one direction; `to_part` selects the request network.
  void arbitrate(Net& n, bool to_part, uint64_t now);
  void deliver(uint64_t now);
  uint32_t flits(const Slot& s, bool request) const;
  bool pending_now(uint64_t now, uint64_t& next) const;
  void write_signals();

  CrossbarParams p_;
  std::vector<std::unique_ptr<MemResponder>> src_;
  std::vector<std::unique_ptr<MemRequester>> part_;
  util::SlotPool<Slot> slots_;
  Net req_;  // inputs = sources, outputs = partitions
  Net rsp_;  // inputs = partitions, outputs = sources
  uint64_t activations_ = 0;
  // Waveform, per network (0 requests, 1 responses); null = not recorded.
  trace::Waveform* wf_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_waiting_[2] = {nullptr, nullptr};
  sc_core::sc_signal<uint32_t>* sig_in_flight_[2] = {nullptr, nullptr};
  stats::Counter& requests_;
  stats::Counter& responses_;
  stats::Counter& flits_;
  stats::Counter& stall_cycles_;
};

}  // namespace simt::mem
