// Sleep-transistor lane controllers of one SP unit (seeds 003 and 004): a
// LaneGate per gating domain for the unit's INT pipelines and one for its FP
// pipelines, behind one socket. The SP pipe asks before an instruction's
// passes enter the unit (sm::LaneUseRequest): lanes that are ON take it and
// the use is recorded; gated lanes must be woken first, and the pipe refuses
// the issue until they are ON (the wait shows as the pipe's
// wakeup_stall_cycles and in the issue breakdown's stall bin).
//
// No process runs per cycle or per lane: the gates are lazy (lane_gate.h)
// and the counters are brought up to date at the end of every kernel
// (settle_stats, called by the SM). Uses are batched too: while a unit stays
// busy on the same lanes (a run of full warps), an instruction moves one
// shared drain cycle instead of every lane's (see Batch below).
//
// Stats under `stats_name` (e.g. sm0.power.sp0), per type int / fp:
//   <type>.{busy,idle,gated_uncompensated,gated_compensated,waking}_cycles,
//   <type>.gating_events, <type>.delayed_issues, <type>.lane_cycles (lanes x
//   cycles: the no-gating leakage) and per-lane histograms
//   <type>.<state>_cycles_by_lane, <type>.gating_events_by_lane (bin = lane).
// The same totals summed over the SM's units go under `sm_name`.power.<type>.
//
// VCD (when asked for): <stats_name>.<type>.lane<l>_state, the lane's state
// as 0 ON, 1 IDLE-DETECT, 2 GATED (uncompensated), 3 GATED (compensated),
// 4 WAKING. Only then does the controller run a process: on the waveform's
// clock, which stops when the rest of the model is idle.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "power/lane_gate.h"
#include "power/power_params.h"
#include "sm/packets.h"
#include "sm/stats_settler.h"
#include "stats/stats.h"
#include "util/packet_socket.h"

namespace simt::trace { class Waveform; }

namespace simt::power {

class LanePowerController : public sc_core::sc_module, public sm::StatsSettler {
 public:
  util::PacketTarget<LanePowerController, sm::LaneUseRequest> in;  // from the SP pipe

  // `lanes`: the unit's lanes. Counters go under `stats_name`; the SM's sums
  // under `sm_stats_name` (e.g. "sm0.power").
  // `series_interval` > 0: per-lane time series of gated cycles,
  // <stats_name>.<type>.lane<l>_gated, one value per interval of that many
  // cycles (the gated cycles in it).
  LanePowerController(sc_core::sc_module_name name, const PowerParams& p, uint32_t lanes, stats::Registry& reg,
                      const std::string& stats_name, const std::string& sm_stats_name,
                      trace::Waveform* waveform = nullptr, uint64_t series_interval = 0);

  void settle_stats(uint64_t now) override;

  LaneState state(bool fp, uint32_t lane, uint64_t now) const;
  uint32_t lanes() const { return lanes_; }
  uint32_t domain_lanes() const { return dsize_; }

 private:
  struct Counters {
    stats::Counter *busy, *idle, *gated_uncomp, *gated_comp, *waking, *events, *delayed, *lane_cycles;
  };
  struct ByLane {
    stats::Histogram *busy, *idle, *gated_uncomp, *gated_comp, *waking, *events;
  };

  // The batch of one pipeline type: every domain in `domains` has been busy
  // since it joined and has had every use since, so its drain is the larger
  // of its gate's own and `drain` (its gate has not yet been told). A domain
  // joins only with a use whose drain is the batch's latest, and leaves
  // (flush) before anything else reads or changes its gate.
  struct Batch {
    uint64_t domains = 0, drain = 0;
  };
  // Domains known to be gated, with power.wakeup > 0 (they cannot take an
  // issue before a Wake request), and domains eager
  // gating already asked in their open idle period (until used or woken):
  // bit tests that spare the requests a walk over the gates.
  struct Known {
    uint64_t gated = 0, asked_early = 0;
    void used(uint64_t doms) { asked_early &= ~doms; }
    void woken(uint64_t doms) {
      gated &= ~doms;
      asked_early &= ~doms;
    }
  };

  void on_request(sm::LaneUseRequest& r, sc_core::sc_time& t);
  // Records the uses of one pass entering at `in` on domains `doms`.
  void use(int fp, uint64_t doms, uint64_t in, uint64_t drain);
  // Hands the batch's drain to the gates of `doms` and takes them out of it.
  void flush(int fp, uint64_t doms);
  void flush_all() {
    flush(0, ~uint64_t{0});
    flush(1, ~uint64_t{0});
  }
  void write_states();  // tracing only: the lane states of this cycle
  // Series: samples every interval boundary up to `now` (states between
  // events are known, so a boundary passed since the last event can be
  // sampled at the next one).
  void sample_until(uint64_t now) {
    if (now >= next_sample_) take_samples(now);
  }
  void take_samples(uint64_t now);
  // Domains (bit d = domain d) holding any of `lanes`.
  uint64_t domains_of(uint64_t lanes) const;
  uint32_t lanes_in(uint32_t domain) const;
  static Counters counters(stats::Registry& reg, const std::string& prefix);

  GateTiming timing_;
  uint32_t lanes_, dsize_, domains_;
  std::array<std::vector<LaneGate>, 2> gates_;  // [fp][domain]
  std::array<Batch, 2> batch_;                  // [fp]
  std::array<Known, 2> known_;                  // [fp]
  // [fp][domain]: the domain is ON for any request before this cycle (0:
  // ask its gate). Set from a gate found ON (its off_at(): the gate's own
  // later changes only move that on, except a wake-up or eager gating, which
  // reset it), so that the requests' ON test reads one word per domain
  // instead of the domain's gate. A use may start a domain's busy period at
  // a later pass's cycle; that is sound because the pipe asks a unit again
  // only once it is free, after every pass of its last use has entered.
  // Requests come in time order.
  std::array<std::vector<uint64_t>, 2> on_until_;
  uint64_t upper_domains_ = 0;  // domains of cluster lanes 2-3 only (eager gating under folding)
  uint64_t interval_ = 0, next_sample_ = UINT64_MAX;
  // Above: what every request reads, kept together; below: counters and tracing.
  std::array<Counters, 2> unit_, sm_;
  std::array<ByLane, 2> by_lane_;
  std::array<GateTotals, 2> reported_;  // what the SM sums last got from this unit
  std::array<std::vector<stats::TimeSeries*>, 2> series_;  // [fp][lane]
  std::array<std::vector<uint64_t>, 2> gated_at_sample_;   // [fp][domain]: gated cycles at the last sample
  trace::Waveform* wf_ = nullptr;       // set when some lane state is traced
  std::array<std::vector<sc_core::sc_signal<uint8_t>*>, 2> sig_;  // [fp][lane], null = not traced
};

}  // namespace simt::power
