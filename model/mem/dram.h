// GDDR-like DRAM behind the L2 partitions: one memory controller per
// channel (request queue, FR-FCFS or FCFS scheduling, per-bank row state
// machine) and the channel's data bus. Plain C++, cycle-driven in core
// cycles; the sc_module wrapper owns the sockets and calls tick().
//
// Address mapping (documented, and what channel_of()/decode() compute):
//   chunk   = addr / interleave            consecutive `interleave` bytes stay on one channel
//   channel = chunk % channels             chunks rotate over the channels
//   local   = (chunk / channels) * interleave + addr % interleave   (channel-local address)
//   bank    = (local / row_bytes) % banks  a row's worth of local bytes per bank, then the next bank
//   row     = local / (row_bytes * banks)
// so a sequential stream walks every channel, fills open rows, and spreads
// over banks before it changes row.
//
// Timing per channel, every value in core cycles (one command per channel per cycle):
//   ACT  bank precharged, >= t_rp after its PRE, >= t_rc after its last ACT,
//        >= t_rrd after the channel's last ACT. Opens the row.
//   CAS  (read or write) row open, >= t_rcd after ACT, and the data bus free at
//        CAS + t_cl; the data then holds the bus ceil(bytes / bytes_per_cycle) cycles.
//   PRE  >= t_ras after ACT, after the last read CAS, after the last write's data.
// A request completes `latency` cycles after its last data beat (the fixed
// controller / return path). Writes use t_cl as their write latency.
// FR-FCFS has no age cap (as in GPGPU-Sim): a steady stream of row hits can
// delay an older row miss to the same bank indefinitely.
// Not modelled: refresh, read/write bus turnaround (tWTR), tFAW, tCCD beyond
// the data bus, power-down. Initially every bank is precharged.
//
// Defaults are seed 001's GPGPU-Sim GDDR3 setup (Table 2: 8 channels, queue 32,
// FR-FCFS, 8 B/cycle per channel). Its memory timings are in 800 MHz memory
// cycles against a 1300 MHz core; converted to core cycles by x1.625, rounded up:
//   tCL 10 -> 17, tRP 10 -> 17, tRCD 12 -> 20, tRAS 25 -> 41, tRC 35 -> 57, tRRD 8 -> 13.
// Seed 000 gives only a total of 32 B/cycle (e.g. 4 channels x 8 B/cycle).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/param_registry.h"
#include "mem/partition_map.h"
#include "stats/stats.h"

namespace simt::mem {

struct DramParams {
  uint32_t channels = 8;          // memory channels (one L2 partition each)
  uint32_t banks = 8;             // banks per channel
  uint32_t row_bytes = 2048;      // row (page) size of one bank, bytes, power of two
  uint32_t bytes_per_cycle = 8;   // data bus bandwidth per channel, bytes per core cycle
  uint32_t queue = 32;            // request queue capacity per channel
  std::string scheduler = "fr-fcfs";  // fr-fcfs | fcfs
  uint32_t t_cl = 17;             // CAS to first data beat
  uint32_t t_rp = 17;             // PRE to ACT, same bank
  uint32_t t_rcd = 20;            // ACT to CAS, same bank
  uint32_t t_ras = 41;            // ACT to PRE, same bank
  uint32_t t_rc = 57;             // ACT to ACT, same bank
  uint32_t t_rrd = 13;            // ACT to ACT, different banks of a channel
  uint32_t latency = 100;         // fixed controller + return path after the last data beat
  uint32_t interleave = 256;      // bytes on one channel before the next, power of two

  void bind(config::ParamRegistry& r, const std::string& prefix);
  // Throws simt::input_error("option <prefix>.<name>: ...") on a bad value.
  void validate(const std::string& prefix) const;
};

struct DramRequest {
  uint64_t id = 0;     // returned in tick()'s done_ids
  uint64_t addr = 0;
  uint32_t bytes = 0;  // must not cross an interleave chunk or a row
  bool write = false;
};

struct DramAddress {
  uint32_t channel = 0;
  uint32_t bank = 0;
  uint64_t row = 0;
};

class Dram {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  // Counters "<stats_name>.reads", ".writes", ".bytes", ".row_hits",
  // ".row_misses", ".queue_full_rejects" (totals) and
  // "<stats_name>.ch<i>.busy_cycles" (data bus busy cycles of channel i).
  // Validates `p` under the option prefix "dram".
  Dram(const DramParams& p, stats::Registry& stats, const std::string& stats_name);

  DramAddress decode(uint64_t addr) const;
  uint32_t channel_of(uint64_t addr) const { return partition_of(addr, p_.interleave, p_.channels); }

  // False when the channel's queue is full; each false answer counts as one
  // refused offer in queue_full_rejects (ask once per offer).
  bool can_accept(uint32_t channel);
  // Queues `r` on its channel; it can be scheduled from cycle `now` on.
  // Throws std::logic_error if the queue is full or the request is malformed.
  void accept(const DramRequest& r, uint64_t now);
  // Simulates cycle `now` (non-decreasing across calls): appends the ids of
  // requests complete by `now` (per channel in completion order, channels in
  // order), then issues at most one command per channel. Returns whether
  // anything happened.
  bool tick(uint64_t now, std::vector<uint64_t>& done_ids);
  // Earliest cycle after `now` at which tick() can do anything, kNever when idle.
  // Call after tick(now) and after any accept().
  uint64_t next_event(uint64_t now) const;

  uint32_t queued(uint32_t channel) const { return uint32_t(ch_[channel].queue.size()); }
  uint32_t in_flight(uint32_t channel) const { return ch_[channel].inflight_count; }
  // For waveforms: column accesses of `channel` so far that found their row
  // open / had to open it, and whether its data bus carries data in `now`.
  uint64_t row_hits(uint32_t channel) const { return ch_[channel].row_hits; }
  uint64_t row_misses(uint32_t channel) const { return ch_[channel].row_misses; }
  bool bus_busy(uint32_t channel, uint64_t now) const;
  bool idle() const;
  const DramParams& params() const { return p_; }

 private:
  static constexpr uint64_t kNoRow = UINT64_MAX;

  struct Bank {
    uint64_t open_row = kNoRow;
    uint64_t act_ready = 0;  // earliest ACT
    uint64_t cas_ready = 0;  // earliest CAS (row open)
    uint64_t pre_ready = 0;  // earliest PRE (row open)
  };
  struct Queued {
    uint64_t id;
    uint64_t row;
    uint64_t visible;  // cycle from which it may be scheduled
    uint32_t bank;
    uint32_t xfer;     // data bus cycles
    uint32_t bytes;
    bool write;
    bool activated;    // an ACT was issued for it: a row miss when served
  };
  struct InFlight {
    uint64_t done;
    uint64_t id;
    uint64_t bus_start, bus_end;  // its data on the bus: [start, end)
  };
  struct Channel {
    std::vector<Bank> banks;
    std::vector<Queued> queue;       // arrival order, capacity reserved
    std::vector<InFlight> inflight;  // ring buffer, completion order
    uint32_t inflight_head = 0;
    uint32_t inflight_count = 0;
    uint64_t act_ready = 0;          // t_rrd
    uint64_t bus_free = 0;           // first cycle the data bus is free
    uint64_t row_hits = 0, row_misses = 0;  // per channel (the counters are totals)
    mutable std::vector<uint8_t> bank_claimed;  // scratch for one scheduling pass
    // channel_next() of the current state, valid until the channel changes
    // (accept, a command, a completion): ticks skip the channel before then.
    mutable uint64_t next = 0;
    mutable bool next_known = false;
    stats::Counter* busy_cycles = nullptr;
  };
  enum class Cmd : uint8_t { None, Act, Pre, Cas };

  void retire(Channel& c, uint64_t now, std::vector<uint64_t>& done_ids);
  bool schedule(Channel& c, uint64_t now);
  // Earliest cycle at which tick() can do anything on `c` (may be in the past).
  uint64_t channel_next(const Channel& c) const;
  Cmd next_cmd(const Channel& c, const Queued& q) const;
  uint64_t cmd_ready(const Channel& c, const Queued& q, Cmd cmd) const;
  void issue(Channel& c, size_t qi, Cmd cmd, uint64_t now);
  void push_inflight(Channel& c, const InFlight& f);

  DramParams p_;
  bool frfcfs_;
  std::vector<Channel> ch_;
  stats::Counter& reads_;
  stats::Counter& writes_;
  stats::Counter& bytes_;
  stats::Counter& row_hits_;
  stats::Counter& row_misses_;
  stats::Counter& rejects_;
};

}  // namespace simt::mem
