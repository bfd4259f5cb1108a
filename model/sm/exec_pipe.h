// One execution pipe of the SM (INT/FP "sp", "sfu", ...): wraps a
// PipelineUnit (lanes, units, latency, initiation interval, per-opcode
// timing). The SM makes one instance per pipe kind from its PipeParams.
//
// - An issue packet is accepted only when some unit is free in the cycle it
//   is offered (PipelineUnit::can_accept); otherwise it is refused, which is
//   the structural hazard the issue stage sees.
// - The write-back leaves at the result's completion cycle
//   (issue cycle + (passes - 1) * ii + latency), and is retried every cycle
//   while issue refuses it. Write-backs due in the same cycle leave in issue
//   order.
// - With lane power gating (power.gating), unit u's `power[u]` socket is
//   bound to that unit's lane power controller: before an instruction's
//   passes enter a unit the pipe asks whether the lanes it needs are ON,
//   preferring a free unit whose lanes are; when none is, it asks the lowest
//   free unit's controller to wake them and refuses the issue until they are
//   ON (wakeup_stall_cycles). Unbound sockets cost nothing.
//   The issue stage offers a refused instruction again every cycle it runs;
//   while nothing that answer depends on can have changed, the pipe answers
//   from a memo of the refusal instead of asking the controllers again (see
//   RefusalMemo).
// - With tracing on, lane_activity() holds, for every unit, the lanes that
//   receive a thread in the current cycle (bit l = lane l), refreshed every
//   cycle a unit is busy; without tracing it stays zero and costs nothing.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include <systemc>

#include "sm/lane_map_policy.h"
#include "sm/packets.h"
#include "sm/pipeline_unit.h"
#include "stats/stats.h"
#include "util/clock.h"
#include "util/packet_socket.h"

namespace simt::trace { class Waveform; }

namespace simt::sm {

class ExecPipe : public sc_core::sc_module, private util::Clocked {
 public:
  util::PacketTarget<ExecPipe, IssuePacket> in;             // from issue
  util::PacketInitiator<ExecPipe, WritebackPacket> writeback; // to issue
  // Per unit, to its lane power controller (left unbound without gating).
  sc_core::sc_vector<util::OptionalPacketInitiator<ExecPipe, LaneUseRequest>> power;

  // Counters go under `stats_name` (e.g. "sm0.sp"), beside the PipelineUnit's.
  // `waveform` (may be null) offers <stats_name>.u<k>_lanes per unit (bit l =
  // lane l busy); asking for any of them turns tracing on.
  ExecPipe(sc_core::sc_module_name name, const PipeParams& p, const OpLatencyTable& ops,
           stats::Registry& reg, const std::string& stats_name, trace::Waveform* waveform = nullptr);

  void set_tracing(bool on);
  // The issue-side power techniques' choice of lane map per instruction
  // (sm/lane_map_policy.h); none = every thread on its home lane.
  // With a waveform, <stats_name>.u<k>_map shows the lane map of unit k's
  // current instruction (sm::LaneMap values: 0 home ... 5 fold, 6 fold_shift).
  void set_lane_policy(std::unique_ptr<LaneMapPolicy> p);
  const std::vector<uint64_t>& lane_activity() const { return lane_activity_; }
  // Raised whenever lane_activity() changes (for a waveform writer).
  const sc_core::sc_event& lane_activity_event() const { return lane_event_; }

  const PipelineUnit& unit() const { return unit_; }
  size_t writebacks_pending() const { return wb_.size(); }

  // Times the block's method ran (an idle block must not run every cycle).
  uint64_t activations() const { return activations_; }

 private:
  struct Pending {
    uint64_t due = 0;  // completion cycle
    uint64_t seq = 0;  // issue order, breaks ties
    WritebackPacket wb;
  };
  struct Later {
    bool operator()(const Pending& a, const Pending& b) const {
      return a.due != b.due ? a.due > b.due : a.seq > b.seq;
    }
  };

  // What the controllers last answered an offer that was refused for its
  // lanes, kept so that the same offer repeated (the issue stage offers a
  // refused instruction every cycle it runs) costs a lookup instead of the
  // requests while their answers cannot have changed. Per unit: it refuses
  // this offer before `until` as long as its epoch has not moved (an accept
  // on it, or a Wake that changed one of its lanes, moves it): the woken unit
  // until its lanes are ON, the others while a Wake must reach them first
  // (LaneUseRequest::until_woken). A Wake repeated to the same unit with its
  // epoch unmoved finds the lanes already waking: same ready cycle, no change.
  // Debug builds check every answer taken from a memo against the controllers.
  struct UnitMemo {
    uint64_t epoch = 0, until = 0;
  };
  struct RefusalMemo {
    const IssuePacket* packet = nullptr;  // the latch's packet, with the fields below unchanged
    const ptx::Instr* instr = nullptr;
    uint32_t ticket = 0;
    uint64_t issue_cycle = 0;
    LaneMap map = LaneMap::Home;
    uint32_t woken = PipelineUnit::kAnyUnit;  // the unit its last Wake went to
    uint64_t wake_epoch = 0, ready = 0;       // that unit's epoch after it, and its answer
    std::vector<UnitMemo> units;
    bool matches(const IssuePacket& p, LaneMap m) const {
      return packet == &p && instr == p.instr && ticket == p.ticket && issue_cycle == p.issue_cycle && map == m;
    }
  };

  void on_issue(IssuePacket& p, sc_core::sc_time& t);
  void end_of_elaboration() override;
  // Power gating: the free unit whose lanes are ON for `p` (recorded as used
  // by its controller), or PipelineUnit::kAnyUnit after asking the lowest
  // free unit's lanes to wake (p.retry_at says until when). On an accept,
  // mapped_passes_ holds the passes the lane map gave.
  uint32_t power_unit(IssuePacket& p, uint64_t now, LaneMap map, OpTiming t);
  // The memo of offer `p` with lane map `map`, or null; a fresh one for it.
  RefusalMemo* find_memo(const IssuePacket& p, LaneMap map);
  RefusalMemo& new_memo(const IssuePacket& p, LaneMap map);
  [[noreturn]] void memo_broken(uint32_t u, uint64_t now) const;  // debug builds' check failed
  void on_cycle(uint64_t now) override;  // run by util::Clock
  void refresh_lanes(uint64_t now);
  void write_lane_signals(uint64_t now);

  PipelineUnit unit_;
  std::priority_queue<Pending, std::vector<Pending>, Later> wb_;
  uint64_t seq_ = 0;
  uint64_t busy_until_ = 0;  // first cycle every unit's input stage is free
  bool tracing_ = false;
  std::vector<uint64_t> lane_activity_;
  trace::Waveform* wf_ = nullptr;
  std::vector<sc_core::sc_signal<uint64_t>*> sig_lanes_;  // per unit, null = not traced
  std::vector<sc_core::sc_signal<uint8_t>*> sig_map_;     // per unit, with a lane policy only
  trace::Waveform* waveform_ = nullptr;                   // as given, for signals added later
  uint64_t last_tick_ = UINT64_MAX;
  uint64_t activations_ = 0;
  sc_core::sc_event lane_event_;
  bool gated_ = false;                 // power sockets bound
  std::vector<uint64_t> pass_lanes_;   // scratch for lane requests
  uint32_t mapped_passes_ = 0;         // passes of the instruction power_unit() last placed
  // The controllers' sockets' interfaces, looked up once (end_of_elaboration).
  std::vector<tlm::tlm_fw_transport_if<util::PacketTypes<LaneUseRequest>>*> power_if_;
  std::vector<uint64_t> unit_epoch_;   // per unit: moves with every change of its state (older memos are void)
  std::array<RefusalMemo, 4> memos_;   // one per latch that may wait on this pipe (a few schedulers)
  uint32_t next_memo_ = 0;             // the entry a new offer's memo replaces
  std::unique_ptr<LaneMapPolicy> lane_policy_;

  stats::Counter& structural_stalls_;
  stats::Counter& wb_stall_cycles_;
  // Registered only when the power sockets are bound (end_of_elaboration):
  // machines without gating keep exactly their counters.
  stats::Registry& reg_;
  std::string stats_name_;
  stats::Counter* wakeup_stalls_ = nullptr;
};

}  // namespace simt::sm
