// The SM's load/store unit. It takes LDST issue packets (the addresses the
// functional executor touched, per thread) and decides when the instruction
// completes:
//   - shared-space accesses go through the bank model: the unit's address
//     stage is busy `cycles` = the worst bank's distinct words, and the
//     shared part completes (cycles - 1) + shmem.latency cycles after it
//     started;
//   - global, local, const and param accesses go through the coalescer:
//     one MemRequest per line (ldst.line, the L1D's) touched, sent to the
//     L1D on `l1d`;
//   - texture accesses (ptx::Space::Tex: the texels tex/tld4/suld read, at
//     their global address) go through the same coalescer at tex_line, the
//     texture cache's line, and are sent as reads to the texture cache on
//     `tex`;
//   requests leave in the coalescer's order, at most one per cycle over both
//   ports (a refused request is retried next cycle, and the cycle is counted
//   in mem_pipeline_stall_cycles or tex_stall_cycles). The address stage
//   holds the instruction until its last request is accepted.
// The address stage serves one instruction at a time, in accept order; an
// instruction that has sent everything waits in its slot for its responses
// while the next one starts, so instructions complete out of order. Every
// request is acknowledged: loads, stores and atomics complete when the L1D
// and the texture cache have answered every request (the base protocol
// answers every transaction). An instruction whose accesses mix texture and
// other spaces (the executor never reports one) waits for both ports.
// A completed instruction sends one WritebackPacket (at most one
// instruction's per cycle, oldest first, retried while refused) and frees
// its slot. A packet that carries the instructions of several slices (seed
// 000's VWS SM: IssuePacket::riders) is one access: coalesced as a whole,
// complete when all of it was answered, and then every instruction in it
// writes back in the same cycle.
//
// Request addresses (the cache tags the L1D/L1T/L2 see):
//   global, const, tex  the access address as is: const data and textures
//                  live in device memory (func/address_space.h), so their
//                  lines are the global lines holding them;
//   param          func::kParamWindow + offset (never a device address);
//   local          kLocalRegion + (sm << 40) + (cta_slot << 32) + the
//                  coalescer's interleaved offset ((a/4)*threads + t)*4 + a%4,
//                  so locals of different CTA slots and SMs never share a line
//                  with each other or with device memory. These addresses are
//                  timing tags only: the functional executor owns the data.
// A request's addr is its line address and bytes the distinct bytes the
// warp touched in that line (<= ldst.line, or tex_line on `tex`). Atomics
// (and reductions) are sent with atomic = true and write = true: Fermi
// performs global atomics at the L2, so the L1D must pass them on rather
// than serve them. Texture requests are always reads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "mem/coalescer.h"
#include "mem/mem_port.h"
#include "mem/shared_memory_banks.h"
#include "sm/packets.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "util/packet_socket.h"

namespace simt::config { class ParamRegistry; }
namespace simt::trace { class Waveform; }

namespace simt::sm {

struct LdstParams {
  mem::SharedMemoryParams shared;  // bound under "shmem"
  uint32_t line = 128;             // coalescing granularity = the L1D line (bytes, power of two)
  // Texture coalescing granularity = the texture cache's line. Not an
  // option: the SM netlist sets it from l1t.line (SmParams::ldst_unit_params()).
  uint32_t tex_line = 64;
  // Instructions accepted and not yet written back. An instruction stays
  // until its last response, so this bounds loads in flight per SM: sized to
  // the SM's warps (48 on Fermi) so that the L1D's MSHRs, not this queue,
  // limit memory-level parallelism.
  uint32_t queue = 64;

  void bind(config::ParamRegistry& r, const std::string& prefix = "ldst",
            const std::string& shared_prefix = "shmem");
  void validate(const std::string& prefix = "ldst", const std::string& shared_prefix = "shmem") const;
};

class LdstUnit : public sc_core::sc_module, private util::Clocked {
 public:
  // Base of the local-memory request region (see the file comment).
  static constexpr uint64_t kLocalRegion = uint64_t{1} << 56;

  util::PacketTarget<LdstUnit, IssuePacket> in;           // refuses while `queue` instructions are in flight
  mem::MemRequester l1d;                                   // toward the L1D CacheModule
  mem::MemRequester tex;                                   // toward the texture cache (read-only)
  util::PacketInitiator<LdstUnit, WritebackPacket> writeback;  // toward issue (scoreboard release)

  // Counters under `stats_name` ("sm0.ldst"): instructions, requests (to
  // the L1D), tex_requests (to the texture cache), shared_cycles,
  // bank_conflicts, mem_pipeline_stall_cycles (L1D port), tex_stall_cycles
  // (texture port), writeback_stall_cycles, requests_per_instruction (both
  // ports). The bank model counts under "<parent>.shmem"
  // (sm0.shmem.bank_conflicts), the coalescer under
  // "<stats_name>.coalescer". `sm` is the SM index: MemRequest::source and
  // part of the local-memory addresses. `waveform` (may be null) offers
  // <stats_name>.queue (instructions in flight), .requests (line requests
  // the L1D has not answered) and .warp (the warp whose instruction the
  // address stage worked on this cycle, -1 when none).
  LdstUnit(sc_core::sc_module_name name, const LdstParams& p, stats::Registry& stats,
           const std::string& stats_name, uint32_t sm = 0, trace::Waveform* waveform = nullptr);

  // Instructions accepted and not yet written back.
  uint32_t in_flight() const { return in_flight_; }
  // Times the method ran (tests check that an idle or waiting unit sleeps).
  uint64_t activations() const { return activations_; }

 private:

  struct Slot {
    bool used = false;
    bool sent_all = false;       // left the address stage
    uint64_t seq = 0;            // accept order
    uint64_t visible = 0;        // first cycle the address stage may take it
    uint64_t shared_done = 0;    // cycle the shared part completes (0: none)
    uint32_t pending = 0;        // requests sent and not yet answered
    uint32_t warp = 0;
    const ptx::Instr* instr = nullptr;
    bool long_latency = false;
    uint32_t ticket = 0;         // issue's register reservation (IssuePacket::ticket)
    bool atomic = false, store = false;
    uint32_t cta_slot = 0, cta_threads = 0, local_bytes = 0;
    std::vector<IssuePacket::Part> other_parts;
    // Further instructions of the same access (slices mode). Member 0 is
    // the slot's own instruction, member k rider k - 1; each writes back once
    // every line it touched was answered (its loads may return at other
    // times than the others': memory latency divergence).
    std::vector<IssuePacket::Rider> riders;
    std::vector<uint32_t> todo;          // per member: its lines not answered yet
    std::vector<uint64_t> line_members;  // per line request: the members that wait for it
    uint64_t ready = 0, written = 0;     // members whose lines are all answered; written back
    bool in_done = false;                // listed in done_
    std::vector<func::MemAccess> accesses;  // reused: no allocation once warm
  };

  void receive(IssuePacket& p, sc_core::sc_time& t);
  void on_cycle(uint64_t now) override;  // run by util::Clock
  void take_responses(mem::MemRequester& port);
  void start(uint32_t slot, uint64_t now);
  void address_step(uint64_t now);
  bool try_writeback(uint64_t now);
  bool free_slot(size_t done_index, uint64_t now);
  // One instruction's write-back; false (counted as a stall) when refused.
  bool send_writeback(uint32_t warp, const ptx::Instr* instr, bool long_latency, uint32_t ticket);
  void write_signals();

  LdstParams p_;
  uint32_t sm_;
  mem::SharedMemoryBanks banks_;
  mem::Coalescer coalescer_;

  std::vector<Slot> slots_;
  std::vector<uint32_t> order_;      // slots waiting for the address stage, accept order (FIFO)
  // Slots whose requests have all been sent and answered: the write-back
  // candidates, so a cycle need not walk every slot.
  std::vector<uint32_t> done_;
  void maybe_done(uint32_t s) {
    Slot& e = slots_[s];
    if (!e.riders.empty()) return members_done(s);
    if (e.sent_all && e.pending == 0) done_.push_back(s);
  }
  // A slot with riders: lists it when a member became ready to write back.
  void members_done(uint32_t s);
  std::vector<uint8_t> member_of_;       // scratch: per access, its member
  size_t order_head_ = 0;
  uint32_t in_flight_ = 0;
  uint64_t next_seq_ = 1;
  uint64_t freed_cycle_ = UINT64_MAX;  // slots freed in this cycle stay taken for receive()
  uint32_t freed_count_ = 0;

  // The address stage: one instruction at a time.
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t cur_ = kNone;
  uint32_t shared_left_ = 0;              // bank cycles still to spend
  std::vector<mem::LineRequest> lines_;   // its line requests
  std::vector<mem::LocalLayout> local_;   // scratch: local layout per CTA part
  size_t next_line_ = 0;

  uint64_t activations_ = 0;
  uint64_t last_cycle_ = UINT64_MAX;      // guards against two steps in one cycle

  trace::Waveform* wf_ = nullptr;  // null unless one of the signals below is recorded
  sc_core::sc_signal<uint32_t>* sig_queue_ = nullptr;
  sc_core::sc_signal<uint32_t>* sig_requests_ = nullptr;
  sc_core::sc_signal<int32_t>* sig_warp_ = nullptr;
  int32_t stage_warp_ = -1;  // the address stage's warp this cycle (kept only when traced)

  stats::Counter& instructions_;
  stats::Counter& requests_;
  stats::Counter& tex_requests_;
  stats::Counter& shared_cycles_;
  stats::Counter& bank_conflicts_;
  stats::Counter& mem_stall_cycles_;
  stats::Counter& tex_stall_cycles_;
  stats::Counter& writeback_stall_cycles_;
  stats::Histogram& per_instruction_;
};

}  // namespace simt::sm
