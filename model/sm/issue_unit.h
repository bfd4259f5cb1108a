// The SM's issue stage: owns every per-warp structure of the SM (I-buffers,
// scoreboard, CTA barriers, the scheduler policies, the branch unit that
// forms warps and reconverges them: PDOM, TBC or DWF, sm/branch_unit.h) and
// runs the functional executor when an instruction issues
// (docs/timing-model.md).
//
// Per cycle, in this order: write-backs release the scoreboard; fetched
// instructions fill I-buffers (stale generations dropped); warps generated
// by the thread compactor (TBC) enter their warp-buffer slots; retired warp
// slots whose in-flight work drained are freed, a CTA whose slots are all
// free reports CtaDone; a pending CTA launch starts when warp and CTA slots
// allow; every scheduler picks one ready warp and executes it; issue latches
// are offered to their pipes; block-wide masks go to the thread compactor;
// fetch credits go out for free I-buffer slots.
//
// Issue latches. A socket has no can_accept query, and an instruction must
// execute functionally before its packet (addresses, active mask) exists.
// So each scheduler has a one-entry latch per pipe kind: the instruction is
// executed, its packet waits in the latch until the pipe accepts it, and
// the scheduler offers no warp whose next instruction needs that pipe while
// the latch is full. A refusal therefore delays the pipe, never the
// functional result.
//
// Everything received through a socket is stamped with the next cycle, so
// the order SystemC runs blocks within a cycle never changes results. The
// per-cycle step runs from util::Clock, which steps the SMs' issue stages in
// SM order: SMs racing on a global word in one cycle resolve in that order.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <exception>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "func/cta_state.h"
#include "func/executor.h"
#include "ptx/def_use.h"
#include "sm/instruction_buffer.h"
#include "sm/issue_policy.h"
#include "sm/issue_policy_factory.h"
#include "sm/cta_barriers.h"
#include "sm/packets.h"
#include "sm/scoreboard.h"
#include "sm/branch_unit.h"
#include "sm/lockstep_unit.h"
#include "stats/stats.h"
#include "trace/warp_trace.h"
#include "util/bit_set.h"
#include "util/clock.h"
#include "util/fault_latch.h"
#include "util/packet_socket.h"
#include "util/ring_queue.h"
#include "util/slot_pool.h"

namespace simt::config { class ParamRegistry; }
namespace simt::trace { class Waveform; class MaybeSignal; }

namespace simt::sm {

struct IssueParams {
  uint32_t warp_size = 32;          // threads per warp, 4..64
  uint32_t max_warps = 48;          // warp slots of the SM
  uint32_t max_ctas = 8;            // CTA slots of the SM
  uint32_t schedulers = 2;          // issue schedulers; warp w belongs to scheduler w % schedulers (Fermi)
  uint64_t watchdog_cycles = 1000000;  // no issue or write-back for this long with warps resident = deadlock
  // The SM's clock: what a cycle is in time, for nanosleep and %globaltimer.
  uint32_t clock_mhz = 1400;
  // Cycles from issue until the operands have been read from the register
  // file and the instruction may enter its pipe (a pipelined, fixed-latency
  // stage; register-bank conflicts are not modelled). 0 = in the issue cycle:
  // the machine files' pipe latencies then include the operand read.
  uint32_t operand_read_cycles = 0;
  uint64_t sample_interval = 1000;  // time series period in cycles (0 = none); bound as stats.interval by SmParams
  IssuePolicyParams policy;         // one policy instance per scheduler
  IBufferParams ibuffer;
  // Seed 001's simplified pipeline (§2.2), each part on its own:
  // fetch.model = ideal: the I-cache always hits and a warp's next
  //   instruction is fetched, decoded and issued in one cycle (no fetch
  //   credits, no L1I traffic; the I-buffer is not used);
  // sm.scoreboard = warp: a warp's next instruction waits until its previous
  //   one wrote back (registers: only for the registers it uses, per thread);
  // sm.unified_pipe: one issue port per scheduler for all pipes, so a latched
  //   instruction a pipe refuses holds back the others too.
  std::string fetch_model = "realistic";
  std::string scoreboard = "registers";
  bool unified_pipe = false;

  // Binds <prefix>.warp_size, .max_warps, .max_ctas, .schedulers,
  // .watchdog_cycles, <prefix>.policy / .active_warps, <prefix>.ibuffer.entries,
  // <prefix>.scoreboard, <prefix>.unified_pipe and fetch.model. The branch
  // unit's options belong to whoever builds it (gpu/core_factory.h).
  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

// Execution pipes an issued instruction can go to.
enum class PipeKind : uint8_t { Sp, Sfu, Tensor, Ldst, None };
// INT and FP -> SP (Fermi SP units do both), SFU -> SFU, wmma.mma/mma ->
// Tensor, LDST -> LDST; branches and barriers resolve in the issue stage (None).
PipeKind pipe_of(ptx::InstrClass c);
// Instructions whose PTX semantics span the 32-thread warp (shfl, vote,
// match, redux, bar.warp.sync).
bool warp_synchronous(ptx::Op op);

// Per-scheduler classification of one cycle (seed 001 Fig. 13). Bins of the
// breakdown histogram: 0 W0-idle, 1 W0-mem, 2 stall, 3.. issued with k
// active lanes in groups of max(1, warp_size/8) lanes (W1-4 … W29-32 for 32).
enum IssueBin : uint8_t { kBinIdle = 0, kBinMem = 1, kBinStall = 2, kBinIssued = 3 };

class IssueUnit : public sc_core::sc_module, private util::Clocked {
 public:
  util::PacketTarget<IssueUnit, CtaLaunch> launch;
  util::PacketInitiator<IssueUnit, CtaDone> done;
  util::PacketInitiator<IssueUnit, FetchCredit> credits;
  util::PacketTarget<IssueUnit, FetchedInstr> fetched;
  util::PacketInitiator<IssueUnit, IssuePacket> to_sp, to_sfu, to_tensor, to_ldst;
  // A tlm_target_socket binds one initiator, so each pipe has its own target.
  util::PacketTarget<IssueUnit, WritebackPacket> wb_sp, wb_sfu, wb_tensor, wb_ldst;
  // TBC: block-wide masks to the thread compactor, compacted warps back
  // (bound only when the branch unit makes compaction requests).
  util::OptionalPacketInitiator<IssueUnit, CompactRequest> to_compactor;
  util::OptionalPacketTarget<IssueUnit, GeneratedWarp> from_compactor;

  // Statistics go under `stats_name` (e.g. "sm0"); `sm_id` is reported in
  // CtaDone and read by %smid. `waveform` (may be null) offers the VCD
  // signals <stats_name>.issue.s<k>_warp / s<k>_mask per scheduler and
  // .issue.w<i>_pc / w<i>_depth per warp slot; `warp_trace` (may be null)
  // receives every issue and stall (--trace-warps). `branch` is the branch
  // unit (PDOM, TBC, DWF: chosen by the assembly layer, gpu/core_factory.h),
  // with p.max_warps slots of p.warp_size threads.
  SC_HAS_PROCESS(IssueUnit);
  IssueUnit(sc_core::sc_module_name name, const IssueParams& p, std::unique_ptr<BranchUnit> branch,
            stats::Registry& stats, const std::string& stats_name, uint32_t sm_id = 0,
            trace::Waveform* waveform = nullptr, trace::WarpTrace* warp_trace = nullptr);
  ~IssueUnit() override;
  // Replaces the scheduler policies (one per scheduler, made by `make`),
  // before simulation: how a technique outside sm/ brings its own scheduler
  // (e.g. power/'s Origami scheduler), chosen by gpu/core_factory.
  void set_policies(const std::function<std::unique_ptr<IssuePolicy>(uint32_t scheduler)>& make);

  // A kernel fault or deadlock raised inside the simulation stops it with
  // sc_stop() (SystemC would turn the exception into an sc_report and lose
  // its exit code); the owner calls this after sc_start to rethrow it.
  void rethrow_fault() const;
  // Throws simt::input_error when this stage or its branch unit cannot run
  // the kernel (sm/core.h, check_kernel).
  void check_kernel(const KernelContext& k) const;
  bool faulted() const { return fault_.faulted(); }
  // No CTA resident and nothing queued.
  bool idle() const;
  // Times the block's method ran (a unit that waits must not run every cycle).
  uint64_t activations() const { return activations_; }
  const IssueParams& params() const { return p_; }
  const BranchUnit& branch_unit() const { return *branch_; }
  // Deepest reconvergence stack since the last call (per-kernel stat).
  uint32_t take_max_stack_depth() {
    const uint32_t d = std::max(kernel_max_depth_, branch_->take_max_depth());
    kernel_max_depth_ = 0;
    return d;
  }
  uint32_t resident_ctas() const { return live_ctas_; }
  // Time series (<stats_name>.ipc, .active_warps): emits the samples due at
  // interval boundaries up to `now`. The method does this itself when it
  // runs; the owner calls it when the simulation stops so a unit that went
  // idle early still has samples up to the end.
  void sample_until(uint64_t now);

  // Values for waveforms, updated only while tracing is on.
  struct Trace {
    std::vector<uint32_t> pc;            // per warp slot: next PC (kNoPc when free)
    std::vector<uint32_t> stack_depth;   // per warp slot
    std::vector<int32_t> issued_warp;    // per scheduler: warp issued this cycle, -1 none
    std::vector<uint64_t> active_mask;   // per scheduler: lanes of the issued warp (bit = lane)
    std::vector<uint32_t> cta_depth;     // per CTA slot: block-wide stack depth (TBC), 0 when free
    std::vector<uint32_t> cta_pc;        // per CTA slot: its top-of-stack PC (TBC), kNoPc when free
    std::vector<uint8_t> issued_by;      // slices mode, per slice: 0 nothing, 1 its own warp, 2 a group
  };
  void set_tracing(bool on) { tracing_ = on; }
  const Trace& trace() const { return trace_; }

  // Slices mode (seed 000's VWS SM; sm/lockstep_unit.h): scheduler k is
  // slice k with pipes of its own (the netlist routes packets and credits by
  // warp % schedulers), static warp i of a CTA goes to a slot of slice
  // i % schedulers, the unit issues groups of warps before the slices'
  // schedulers run, and the memory instructions that leave the slices in
  // one cycle reach the LDST unit as one access. Call before simulating;
  // `u` must have sm.schedulers slices.
  void set_lockstep(std::unique_ptr<LockstepUnit> u);
  const LockstepUnit* lockstep() const { return lockstep_.get(); }

 private:
  static constexpr uint32_t kNumBarriers = CtaBarriers::kCount;

  // Inbound items, visible from their stamp cycle. `cap` (0 = unbounded)
  // bounds the queue; an entry popped in cycle N frees its place only in
  // cycle N+1, so whether a sender is refused does not depend on whether
  // this block ran before it within the cycle.
  template <class T>
  struct Inbox {
    size_t cap = 0;
    util::RingQueue<std::pair<uint64_t, T>> q;
    uint64_t pop_cycle = ~uint64_t{0};
    size_t popped = 0;
    bool can_push(uint64_t now) const {
      return cap == 0 || q.size() + (pop_cycle == now ? popped : 0) < cap;
    }
    bool ready(uint64_t now) const { return !q.empty() && q.front().first <= now; }
    void pop(uint64_t now) {
      if (pop_cycle != now) { pop_cycle = now; popped = 0; }
      ++popped;
      q.pop_front();
    }
  };

  // Per-kernel facts, computed once per KernelContext.
  struct KernelInfo {
    std::shared_ptr<const KernelContext> kernel;
    const ptx::DefUse* du = nullptr;   // per PC: the kernel's shared table, or own_du
    std::vector<ptx::DefUse> own_du;  // for a context without one
    bool warp_sync = false;       // has warp-synchronous instructions (warp_synchronous())
    uint32_t users = 0;           // resident CTAs
  };

  struct Cta {
    bool live = false;
    KernelInfo* info = nullptr;
    std::unique_ptr<func::CtaState> state;
    uint64_t index = 0;
    uint64_t age = 0;          // launch order on this SM
    uint32_t warps_left = 0;   // warp slots still held
    // Issued instructions of its threads not written back. Equals its slots'
    // in-flight count unless the branch unit mixes CTAs; then its threads
    // may be in flight from other CTAs' slots, and it finishes only when
    // these drained too.
    uint32_t inflight = 0;
    std::vector<uint32_t> slots;  // warp slots reserved for it (static warp i in slots[i])
    CtaBarriers barriers;
    uint64_t issued = 0;       // warp instructions issued (the runaway limit)
  };

  static constexpr uint32_t kAnyWord = ~uint32_t{0};  // Warp::word: not one word
  // Issue-side state of a warp slot; which threads it runs and at which PC
  // is the branch unit's (branch_->slot(i)).
  struct Warp {
    bool live = false;       // slot reserved by a resident CTA
    uint32_t cta = 0;        // that CTA (its threads run here unless the branch unit mixes CTAs: slot().cta)
    int barrier = -1;        // barrier id it waits at, or -1
    uint32_t barrier_pc = 0;  // and the PC of that bar.sync (for reports: its own PC is the next one)
    uint32_t inflight = 0;   // issued to a pipe (or latched), not written back
    uint32_t long_pending = 0;  // long-latency writes in flight
    uint32_t credits = 0;    // fetch credits outstanding in the current generation
    uint32_t fetch_pc = 0;   // PC of the next credit
    uint32_t version = 0;    // branch unit slot version last seen
    uint64_t age = 0;
    bool may_sync = false;   // its kernel has warp-synchronous instructions
    // The one word of a thread mask its threads sit in, for good, when the
    // branch unit keeps static scopes and the warp's scope lies in one word;
    // else kAnyWord. Spares scoreboard calls the scan for it.
    uint32_t word = kAnyWord;
    // Its branch-unit slot waits (TBC/DWF: its threads wait at a
    // reconvergence or compaction point): the policy was told, as for a
    // warp waiting on memory, so that a two-level active set makes room.
    bool parked = false;
    // Suspended by nanosleep until `wake_at` (not offered to its scheduler).
    bool asleep = false;
    uint64_t wake_at = 0;
  };

  // A register reservation in flight: the write-back finds it by ticket.
  struct Reservation {
    uint32_t warp = 0, cta = 0;
    func::ThreadMask threads;
    std::vector<WarpPart> others;  // threads of further CTAs (units that mix CTAs)
    const ptx::DefUse* du = nullptr;
    bool long_latency = false;
    Scoreboard::Words words;  // bounds `threads`' words
  };
  // One CTA part of the warp being executed (execute()).
  struct PartRun {
    uint32_t cta = 0;
    func::ThreadMask mask, active;  // live threads; those whose guard holds
    func::StepResult r;
  };

  // The operand-read stage of one scheduler for one pipe kind: an issued
  // instruction spends `operand_read_cycles` here, then waits until its pipe
  // accepts it. It holds operand_read_cycles + 1 instructions, so one may
  // enter every cycle; while it is full the scheduler issues nothing needing
  // that pipe.
  // A ring of packets reused from one instruction to the next, so that the
  // access list of a memory instruction is copied without allocating.
  struct Latch {
    std::vector<IssuePacket> ring;  // capacity = ring.size()
    uint32_t head = 0, count = 0;   // in issue order from head
    bool full() const { return count >= ring.size(); }
    bool empty() const { return count == 0; }
    IssuePacket& front() { return ring[head]; }
    IssuePacket& push() { return ring[(head + count++) % ring.size()]; }
    void pop() {
      head = static_cast<uint32_t>((head + 1) % ring.size());
      --count;
    }
  };

  struct SchedStats {
    stats::Counter* cycles = nullptr;
    stats::Counter* issued = nullptr;
    stats::Histogram* breakdown = nullptr;
  };

  // Socket handlers.
  void on_launch(CtaLaunch& p, sc_core::sc_time& t);
  void on_fetched(FetchedInstr& p, sc_core::sc_time& t);
  void on_writeback(WritebackPacket& p, sc_core::sc_time& t);
  void on_generated(GeneratedWarp& p, sc_core::sc_time& t);

  void on_cycle(uint64_t now) override;  // run by util::Clock
  void cycle(uint64_t now);
  void account_skipped(uint64_t now);
  void drain_writebacks(uint64_t now);
  void drain_fetched(uint64_t now);
  void drain_generated(uint64_t now);
  bool send_requests();
  // Follows the branch unit's view of slot `wi`: refetch after a jump or a
  // new warp, drop the I-buffer of a parked or retired one.
  void resync(uint32_t wi);
  void resync_cta(uint32_t ci);
  bool running(uint32_t wi) const { return warps_[wi].live && branch_->slot(wi).state == SlotState::Running; }
  void free_finished();
  void start_launches(uint64_t now);
  bool send_done();
  void schedule(uint32_t s, uint64_t now) { lockstep_ ? schedule_in<true>(s, now) : schedule_in<false>(s, now); }
  // Slices: slices mode (compiled apart so that the SIMT SM's loops stay as they were).
  template <bool Slices> void schedule_in(uint32_t s, uint64_t now);
  void execute(uint32_t s, uint32_t w, uint64_t now);
  // Mixed: the warp holds threads of several CTAs (compiled apart so that
  // the one-CTA case keeps a loop of one).
  template <bool Mixed> void execute_warp(uint32_t s, uint32_t w, uint64_t now);
  bool drain_latches(uint64_t now) { return lockstep_ ? drain_latches_in<true>(now) : drain_latches_in<false>(now); }
  template <bool Slices> bool drain_latches_in(uint64_t now);
  bool send_credits() { return lockstep_ ? send_credits_in<true>() : send_credits_in<false>(); }
  template <bool Slices> bool send_credits_in();
  void release_barriers(Cta& c);
  struct PartTotals {
    uint32_t lanes = 0;                        // live threads
    uint64_t active_bits = 0, mask_bits = 0;   // lanes of those whose guard holds; of all (only while tracing)
  };
  template <bool Mixed>
  PartTotals run_parts(const WarpSlot& ws, const ptx::Instr& in, uint64_t now, uint32_t word);
  PartTotals run_word(const WarpSlot& ws, const ptx::Instr& in, uint64_t now, uint32_t word);
  void step_part(PartRun& q, Cta& c, uint32_t pc, uint64_t now);
  // q.active = the threads of q.mask whose guard of `in` holds (before the instruction may change it).
  static void guard_threads(PartRun& q, const ptx::Instr& in, const func::CtaState& cta) {
    q.active = q.mask;
    if (in.guard.kind != ptx::Operand::Kind::Reg) return;
    q.active.clear();
    const uint64_t* row = cta.reg_row(in.guard.reg);
    q.mask.for_each([&](uint32_t t) {
      if (((row[t] & 1) != 0) != in.guard.neg) q.active.set(t);
    });
  }
  template <bool Mixed> void reserve_parts(uint32_t wi, const ptx::DefUse& du, bool long_latency, IssuePacket& p);
  void finish_cta(uint32_t ci);
  // The branch unit's deepest stack since the last look, into the per-kernel and overall maxima.
  void note_depth() {
    const uint32_t depth = branch_->take_max_depth();
    if (depth > kernel_max_depth_) kernel_max_depth_ = depth;
    if (depth > st_max_depth_.value) st_max_depth_.value = depth;
  }
  // Scoreboard checks of every CTA part of slot `ws` for `du`; `words`
  // bounds the words of ws.scope (scope_words()).
  Hazard hazard(const WarpSlot& ws, const ptx::DefUse& du, Scoreboard::Words words) const {
    const Hazard h = sb_.check(ws.cta, ws.scope, du, words);
    return h != Hazard::None || ws.others.empty() ? h : other_parts_hazard(ws, du);
  }
  Hazard hazard(const WarpSlot& ws, const ptx::DefUse& du) const {
    return hazard(ws, du, Scoreboard::Words::of(ws.scope));
  }
  bool waits_on_long(const WarpSlot& ws, const ptx::DefUse& du, Scoreboard::Words words) const {
    return sb_.waits_on_long(ws.cta, ws.scope, du, words) ||
           (!ws.others.empty() && other_parts_wait_on_long(ws, du));
  }
  bool waits_on_long(const WarpSlot& ws, const ptx::DefUse& du) const {
    return waits_on_long(ws, du, Scoreboard::Words::of(ws.scope));
  }
  // The words slot `wi`'s scope may use: its one word when its threads are
  // a static warp's (they stay within it), else found from the scope.
  Scoreboard::Words scope_words(uint32_t wi, const WarpSlot& ws) const {
    const uint32_t word = warps_[wi].word;
    return word != kAnyWord ? Scoreboard::Words::one(word) : Scoreboard::Words::of(ws.scope);
  }
  Hazard other_parts_hazard(const WarpSlot& ws, const ptx::DefUse& du) const;
  bool other_parts_wait_on_long(const WarpSlot& ws, const ptx::DefUse& du) const;
  // The slots where a CTA's warps may be: its own, or every slot when the
  // branch unit mixes CTAs.
  template <class F> void for_each_slot_of(uint32_t ci, F&& f) const;
  void count_bin(uint32_t s, uint32_t bin, uint64_t n);
  void check_watchdog(uint64_t now);
  // The cycle the deadlock watchdog fires at (saturates: sm.watchdog_cycles may be near 2^64).
  uint64_t watchdog_deadline() const {
    return last_progress_ > ~uint64_t{0} - p_.watchdog_cycles ? ~uint64_t{0} : last_progress_ + p_.watchdog_cycles;
  }
  // nanosleep: warp `wi` is not offered for `ns` of simulated time.
  void start_sleep(uint32_t wi, uint32_t ns, uint64_t now);
  void wake_sleepers(uint64_t now);  // those whose time is up (now >= next_wake_)
  void sleep(uint64_t now);
  bool can_wait_for_pipes(uint64_t now) const;
  bool inputs_ready(uint64_t now) const;

  // Observability (issue_unit_trace.cpp).
  void make_signals(trace::Waveform& wf);
  void write_signals(uint64_t now);
  trace::StallReason stall_reason(uint32_t s) const;
  void trace_stall(uint32_t s, uint64_t now);
  void trace_issue(uint32_t s, uint32_t w, uint32_t pc, uint64_t lanes, uint64_t now);

  KernelInfo* kernel_info(const std::shared_ptr<const KernelContext>& k);
  const ptx::Program& prog_of(const Warp& w) const { return *ctas_[w.cta].info->kernel->prog; }
  std::string where(const Cta& c, uint32_t pc) const;
  [[noreturn]] void fault(const Cta& c, uint32_t pc, const func::Fault& f) const;
  [[noreturn]] void deadlock(uint64_t now) const;
  // Runaway limits (KernelContext::max_warp_instructions, cycle_limit).
  [[noreturn]] void runaway_instructions(uint32_t cta) const;
  [[noreturn]] void runaway_cycles(uint64_t now) const;
  [[noreturn]] void runaway_spin(uint64_t now) const;
  void describe_warps(std::ostream& s, uint32_t only_cta) const;
  std::string waiting_reason(uint32_t w) const;

  util::PacketInitiator<IssueUnit, IssuePacket>& pipe_socket(PipeKind k);

  // Slices mode (issue_unit_lockstep.cpp).
  class View;
  void issue_groups(uint64_t now);
  void execute_group(const LockstepGroup& g, uint64_t now);
  void apply_lockstep_changes();
  // Whether warp `wi` may issue now: eligible, no hazard, its pipe's latch free.
  bool ready_now(uint32_t wi);
  // refresh() in slices mode: whether the warp's next instruction `in` (null:
  // none buffered) synchronises its 32-thread group, and which lanes.
  void note_sync(uint32_t w, const ptx::Instr* in, const WarpSlot& ws);
  // The lanes of its 32-thread group a warp-synchronous instruction names.
  uint32_t sync_lanes(const ptx::Instr& in, const WarpSlot& ws) const;
  // The LDST packets latched by several slices in the same cycle, offered as one.
  bool drain_combined_ldst(uint64_t now);
  std::unique_ptr<LockstepUnit> lockstep_;
  std::unique_ptr<LockstepView> view_;  // a View
  uint64_t slices_taken_ = 0;            // slices a group issued on this cycle
  std::vector<uint8_t> claimed_;         // per slice: pipes the unit claims this cycle (bit = PipeKind)
  util::BitSet maybe_sync_{0};           // stale candidates and those at a warp-synchronous instruction
  util::BitSet touched_{0};              // slots marked stale since the unit's last pick()
  util::BitSet solo_{0};                 // slots the unit does not hold: their slice schedules them
  // solo_ for one slot, after launch or a change the unit reported.
  void note_solo(uint32_t wi) { lockstep_->holds(wi) ? solo_.reset(wi) : solo_.set(wi); }
  std::vector<uint32_t> group_moved_;    // scratch: members of the group just executed
  std::vector<uint32_t> group_words_;    // scratch: execute_group()'s members' first threads
  IssuePacket combined_;                 // scratch: the combined LDST access
  std::vector<uint32_t> combined_from_;  // the slices whose latched packets it holds
  func::StepResult member_step_;         // scratch: a group member's part of the step
  std::vector<uint32_t> fill_;           // scratch: the warps a group fetch fills

  IssueParams p_;
  stats::Registry& reg_;
  bool ideal_fetch_;    // fetch.model = ideal
  bool warp_sb_;        // sm.scoreboard = warp
  uint32_t sm_id_;
  std::string stats_name_;
  uint32_t lane_bin_width_;

  std::vector<Warp> warps_;
  std::vector<Cta> ctas_;
  std::vector<uint32_t> released_;  // slots a barrier released during execute(), for the branch unit
  std::vector<uint32_t> released_cta_;  // and the CTA of each
  // Sets kept so that a cycle visits only the warps it can concern, not
  // every slot: the live warps of each scheduler; the warps that may want
  // fetch credits (a superset: send_credits drops those that do not); the
  // warps that may have finished (retired, possibly still draining).
  std::vector<util::BitSet> sched_live_;
  util::BitSet want_credit_;
  util::BitSet maybe_finished_;

  // What schedule() last found for a warp, kept until something it depends
  // on changes: the warp's I-buffer or branch-unit slot, or its CTA's
  // scoreboard or barriers. Every such change marks the warp (or the whole
  // CTA) stale, so a cached entry always equals a fresh look.
  struct Candidate {
    bool stale = true;
    bool eligible = false;  // running, not at a barrier, its next instruction buffered
    Hazard hazard = Hazard::None;
    PipeKind pipe = PipeKind::None;
    bool sync = false;      // slices mode: its next instruction synchronises its 32-thread group
    uint32_t sync_lanes = 0;  // and these lanes of the group take part
    WarpCandidate offer;    // what the policy sees, but `ready` and `priority` (per cycle)
  };
  std::vector<Candidate> cand_;
  void refresh(uint32_t wi);
  // Lanes of a thread set: bit l for a thread t with t % warp_size == l.
  uint64_t lanes_of(const func::ThreadMask& m) const;
  // The same for a mask whose set bits are `bits`, all in word `word`.
  uint64_t lanes_of_word(uint64_t bits, uint32_t word) const;
  // The running warp's next instruction if the front end has it: the
  // I-buffer's front entry at the slot's PC, or under fetch.model = ideal
  // the program's instruction at that PC. Null while it is still fetched.
  const ptx::Instr* next_instr(uint32_t wi) const;
  // Whether scheduler s may issue an instruction for pipe k this cycle.
  bool pipe_free(uint32_t s, PipeKind k) const;
  [[noreturn]] void past_end(const Warp& w, uint32_t pc) const;
  void mark_stale(uint32_t wi) {
    cand_[wi].stale = true;
    SchedView& v = views_[wi % p_.schedulers];
    v.dirty = true;
    v.changed.set(wi);
    if (lockstep_) {
      touched_.set(wi);
      if (warps_[wi].may_sync) maybe_sync_.set(wi);  // unknown until refreshed
    }
  }
  void mark_cta_stale(uint32_t ci) {
    for_each_slot_of(ci, [&](uint32_t wi) { mark_stale(wi); });
  }
  // The CTA's warps whose scope shares a thread with `threads` (issued by
  // warp `owner`): the only ones a scoreboard change for `threads` can concern.
  void mark_stale_overlapping(uint32_t ci, const func::ThreadMask& threads, uint32_t owner);
  std::vector<std::unique_ptr<KernelInfo>> kernels_;
  InstructionBuffer ibuf_;
  Scoreboard sb_;
  std::unique_ptr<BranchUnit> branch_;
  util::SlotPool<Reservation> tickets_;
  std::vector<std::unique_ptr<IssuePolicy>> policies_;   // per scheduler
  bool pc_priority_ = false;  // the policy orders by PC (wants_pc): candidates carry it in `priority`
  bool threads_priority_ = false;  // ... or by active threads (wants_active_threads)
  std::vector<std::array<Latch, 4>> latches_;            // [scheduler][pipe kind]
  // Per scheduler: issue slots owed to instructions a pipe took as several
  // issues (IssuePacket::extra_issue_slots: a split warp's second half).
  std::vector<uint32_t> slot_debt_;
  // Per scheduler: the candidate list of its last look, reused while nothing
  // it was built from changed (no warp of the scheduler went stale, its
  // latches neither filled nor emptied), so a cycle in which every warp
  // still waits costs one policy call instead of a walk over its warps.
  // Outside slices mode the list is kept in ascending warp order and only
  // the entries of warps marked stale since the last look are redone
  // (`changed`, update_entry); `ready` is redone for every entry only when
  // the free pipes differ from the last look's (`free_pipes`), or for every
  // look when the branch unit ranks warps. Per entry, `meta`: bit 7 = no
  // hazard, low bits = its PipeKind. Inserted and removed entries and
  // changed long_wait flags are reported to the policy (on_offer_changed),
  // which then picks incrementally.
  struct SchedView {
    std::vector<WarpCandidate> cands;
    std::vector<uint8_t> meta;
    util::BitSet changed;
    bool dirty = true;
    bool pipe_blocked = false;  // a warp could issue but its pipe's latch is full
    uint32_t free_pipes = ~0u;  // at the last look (~0: none yet)
    std::array<uint16_t, 8> clear{};  // entries without a hazard, per PipeKind
    uint32_t long_waits = 0;  // entries with long_wait set
    // By warp id (outside slices mode): which warps the list holds, and of
    // those which are ready and which wait on a long-latency result.
    util::BitSet listed{0}, ready{0}, long_wait{0};
  };
  static constexpr uint8_t kMetaNoHazard = 0x80, kMetaPipe = 0x07;
  // Brings warp w's entry in scheduler s's list up to date (inserted,
  // rewritten or removed), its `ready` for the pipes `free_pipes`, outside
  // slices mode.
  void update_entry(uint32_t s, uint32_t w, uint32_t free_pipes);
  // Sets `ready` of every entry of scheduler s's list (outside slices mode).
  void refresh_ready(uint32_t s, uint32_t free_pipes, bool ranks);
  // One entry's `ready` from its meta byte and the free pipes, in the list,
  // its bit set and the I-buffer.
  void set_entry_ready(SchedView& v, WarpCandidate& c, uint8_t meta, uint32_t free_pipes);
  // Slices mode: rebuilds scheduler s's list (the unit's own warps left out).
  void look_slices(uint32_t s, uint32_t free_pipes, const util::BitSet* held, bool ranks);
  std::vector<SchedView> views_;
  std::vector<PartRun> parts_;           // execute(): the warp's CTA parts
  std::vector<PartStep> part_steps_;     // execute(): what the branch unit gets for a mixed warp

  Inbox<CtaLaunch> launch_q_;
  Inbox<FetchedInstr> fetched_q_;
  Inbox<WritebackPacket> wb_q_;
  Inbox<GeneratedWarp> gen_q_;
  util::RingQueue<CtaDone> done_q_;

  uint32_t live_warps_ = 0, live_ctas_ = 0;
  uint64_t next_age_ = 0, next_cta_age_ = 0;
  uint32_t kernel_max_depth_ = 0;  // deepest stack since take_max_stack_depth()
  uint32_t credit_rr_ = 0;       // first warp offered a credit (rotates for fairness)
  uint64_t last_tick_ = ~uint64_t{0};
  uint64_t last_progress_ = 0;   // last cycle an instruction issued or wrote back (or a warp woke)
  util::BitSet asleep_{0};       // warps suspended by nanosleep
  uint64_t next_wake_ = ~uint64_t{0};  // the earliest wake_at among them
  uint64_t cycle_limit_ = 0;     // the resident kernel's runaway deadline (0 = none)
  uint64_t max_cycles_ = 0;      // and the limit it came from, for the message
  std::shared_ptr<SpinWatch> spin_;  // the resident kernel's spin-wait watch (null = off)
  // What an executed instruction tells the launch's spin watch (only
  // memory instructions, exits and barriers have anything to tell).
  void note_spin(const KernelContext& k, const Cta& c, const func::StepResult& r, uint32_t pc, uint64_t now);
  static bool tells_spin_watch(const func::StepResult& r) {
    return r.is_load || r.is_store || r.is_atomic || r.control == func::Control::Barrier ||
           r.control == func::Control::Exit;
  }
  bool sleeping_ = false;        // asleep (waiting for a socket) after last_tick_
  // Asleep with instructions latched: every pipe refused with a known
  // retry cycle (drain_latches), the earliest being latch_wait_until_;
  // held_offers_ are the refusal counters of the offers it does not repeat.
  bool waiting_for_pipes_ = false;
  uint64_t latch_wait_until_ = ~uint64_t{0};
  std::vector<stats::Counter*> held_offers_;
  bool issued_this_cycle_ = false;
  uint64_t activations_ = 0;
  std::vector<uint8_t> last_bin_;  // per scheduler: class of the last ticked cycle
  util::FaultLatch fault_;

  bool tracing_ = false;
  Trace trace_;

  // VCD signals (null = not traced) and the window start to wake for.
  trace::Waveform* wf_ = nullptr;
  trace::Waveform* waveform_ = nullptr;  // as given (wf_ is set only when a signal is recorded)
  std::vector<sc_core::sc_signal<uint32_t>*> sig_issued_by_;  // slices mode, per slice
  bool lockstep_signals_ = false;
  std::vector<sc_core::sc_signal<int32_t>*> sig_warp_;
  std::vector<sc_core::sc_signal<uint64_t>*> sig_mask_;
  std::vector<trace::MaybeSignal*> sig_pc_, sig_cta_pc_;  // 'x' while the slot is idle
  std::vector<sc_core::sc_signal<uint32_t>*> sig_depth_, sig_cta_depth_;  // cta: TBC only
  uint64_t flush_at_ = ~uint64_t{0};  // asleep when the window opens: write the held values then

  trace::WarpTrace* wt_ = nullptr;
  std::vector<trace::StallReason> last_reason_;  // per scheduler, for the cycles slept through

  // Time series.
  stats::TimeSeries* ser_ipc_ = nullptr;
  stats::TimeSeries* ser_warps_ = nullptr;
  uint64_t next_sample_ = 0;
  uint64_t instr_at_sample_ = 0;

  // Statistics.
  // Events the energy model prices (power/energy_model.h), per active thread:
  // register operands read and written, and instructions by unit type.
  struct EnergyEvents {
    stats::Counter *rf_reads = nullptr, *rf_writes = nullptr;
    stats::Counter *int_threads = nullptr, *fp_threads = nullptr, *sfu_threads = nullptr;
  } st_energy_;
  void count_energy_events(const ptx::Instr& in, const ptx::DefUse& du, uint32_t threads) {
    *st_energy_.rf_reads += uint64_t{threads} * du.uses.size();
    *st_energy_.rf_writes += uint64_t{threads} * du.defs.size();
    if (in.cls == ptx::InstrClass::Int) *st_energy_.int_threads += threads;
    else if (in.cls == ptx::InstrClass::Fp) *st_energy_.fp_threads += threads;
    else if (in.cls == ptx::InstrClass::Sfu) *st_energy_.sfu_threads += threads;
  }
  stats::Counter& st_warp_instr_;
  stats::Counter& st_thread_instr_;
  stats::Counter& st_active_lanes_;   // sum of active lanes over issued instructions (SIMD efficiency)
  stats::Counter& st_cycles_;         // cycles with a CTA resident
  stats::Counter& st_cta_cycles_;     // sum over those cycles of the resident CTAs (occupancy)
  stats::Counter& st_warp_cycles_;    // and of the warp slots they hold
  stats::Counter& st_issue_cycles_;   // cycles in which some scheduler issued
  stats::Counter& st_max_depth_;
  stats::Counter& st_barrier_waits_;
  stats::Counter& st_ctas_launched_;
  stats::Counter& st_ctas_done_;
  stats::Counter& st_flushes_;
  stats::Counter& st_stale_fetches_;
  stats::Counter& st_latch_stalls_;   // cycles a latched packet was refused by its pipe
  stats::Counter& st_sleep_cycles_;   // warp-cycles suspended by nanosleep
  // Slices mode only (registered by set_lockstep).
  stats::Counter* st_group_issues_ = nullptr;   // groups issued (one fetch and decode each)
  stats::Counter* st_group_warps_ = nullptr;    // warp instructions issued in groups
  stats::Counter* st_combined_ = nullptr;       // LDST accesses combining several slices' instructions
  stats::Histogram* st_breakdown_;    // all schedulers summed
  std::vector<SchedStats> sched_stats_;
};

template <class F>
void IssueUnit::for_each_slot_of(uint32_t ci, F&& f) const {
  if (!branch_->mixes_ctas()) {
    for (uint32_t wi : ctas_[ci].slots) f(wi);
    return;
  }
  for (uint32_t wi = 0; wi < p_.max_warps; ++wi)
    if (warps_[wi].live) f(wi);
}

}  // namespace simt::sm
