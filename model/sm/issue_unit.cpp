#include "sm/issue_unit.h"

#include <algorithm>
#include <sstream>

#include "config/param_registry.h"
#include "func/thread_fault.h"
#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::sm {

using func::dim3_text;

void IssueParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".warp_size", warp_size, "threads per warp", 4, 64);
  r.add(prefix + ".max_warps", max_warps, "warp slots of the SM; follows sm.max_threads / sm.warp_size unless set", 1, 1024);
  r.add(prefix + ".max_ctas", max_ctas, "CTA slots of the SM", 1, 1024);
  r.add(prefix + ".schedulers", schedulers,
        "issue schedulers; warp w belongs to scheduler w % schedulers (Fermi: 2)", 1, 64);
  r.add(prefix + ".watchdog_cycles", watchdog_cycles,
        "deadlock watchdog: cycles without an issue or write-back while warps are resident", 1);
  r.add(prefix + ".clock_mhz", clock_mhz,
        "the SM's clock in MHz: nanosleep durations and %globaltimer convert between ns and cycles with it",
        1, 100000);
  r.add(prefix + ".operand_read_cycles", operand_read_cycles,
        "cycles from issue until the operands are read and the instruction may enter its pipe (pipelined)", 0, 16);
  policy.bind(r, prefix);
  ibuffer.bind(r, prefix + ".ibuffer");
  r.add_choice(prefix + ".scoreboard", scoreboard, {"registers", "warp"},
               "registers: an instruction waits for pending writes of the registers it uses (per thread); "
               "warp: a warp's next instruction waits until its previous one wrote back (seed 001 §2.2)");
  r.add(prefix + ".unified_pipe", unified_pipe,
        "one issue port per scheduler for SP, SFU and LDST: an instruction a pipe refuses holds back the "
        "others too (seed 001 §2.2's unified ALU/MEM pipeline)");
  r.add_choice("fetch.model", fetch_model, {"realistic", "ideal"},
               "realistic: fetch credits, L1I reads and decode before issue; ideal: the I-cache always hits and "
               "an instruction is fetched, decoded and issued in one cycle (seed 001 §2.2)");
}

void IssueParams::validate(const std::string& prefix) const {
  auto bad = [&](const std::string& f, const std::string& why) {
    throw input_error("option " + prefix + "." + f + ": " + why);
  };
  if (warp_size < 4 || warp_size > 64) bad("warp_size", "must be 4..64");
  if (max_warps < 1 || max_warps > 1024) bad("max_warps", "must be 1..1024");
  if (max_ctas < 1 || max_ctas > 1024) bad("max_ctas", "must be 1..1024");
  if (schedulers < 1 || schedulers > max_warps) bad("schedulers", "must be 1..max_warps");
  if (watchdog_cycles < 1) bad("watchdog_cycles", "must be at least 1");
  if (clock_mhz < 1 || clock_mhz > 100000) bad("clock_mhz", "must be 1..100000");
  policy.validate(prefix);
  ibuffer.validate(prefix + ".ibuffer");
  if (scoreboard != "registers" && scoreboard != "warp") bad("scoreboard", "must be registers or warp");
  if (fetch_model != "realistic" && fetch_model != "ideal")
    throw input_error("option fetch.model: must be realistic or ideal");
}

PipeKind pipe_of(ptx::InstrClass c) {
  switch (c) {
    case ptx::InstrClass::Int: case ptx::InstrClass::Fp: return PipeKind::Sp;
    case ptx::InstrClass::Tensor: return PipeKind::Tensor;
    case ptx::InstrClass::Sfu: return PipeKind::Sfu;
    case ptx::InstrClass::Ldst: return PipeKind::Ldst;
    default: return PipeKind::None;
  }
}

static IssueParams checked(const IssueParams& p, const BranchUnit* b, const std::string& name) {
  p.validate(name);
  if (!b || b->num_slots() != p.max_warps || b->warp_size() != p.warp_size)
    throw std::invalid_argument(name + ": the issue unit needs a branch unit with " +
                                std::to_string(p.max_warps) + " slots of " + std::to_string(p.warp_size) +
                                " threads");
  return p;
}

IssueUnit::IssueUnit(sc_core::sc_module_name name, const IssueParams& p, std::unique_ptr<BranchUnit> branch,
                     stats::Registry& st, const std::string& stats_name, uint32_t sm_id,
                     trace::Waveform* waveform, trace::WarpTrace* warp_trace)
    : sc_core::sc_module(name),
      launch("launch", this, &IssueUnit::on_launch),
      done("done"),
      credits("credits"),
      fetched("fetched", this, &IssueUnit::on_fetched),
      to_sp("to_sp"),
      to_sfu("to_sfu"),
      to_tensor("to_tensor"),
      to_ldst("to_ldst"),
      wb_sp("wb_sp", this, &IssueUnit::on_writeback),
      wb_sfu("wb_sfu", this, &IssueUnit::on_writeback),
      wb_tensor("wb_tensor", this, &IssueUnit::on_writeback),
      wb_ldst("wb_ldst", this, &IssueUnit::on_writeback),
      to_compactor("to_compactor"),
      from_compactor("from_compactor", this, &IssueUnit::on_generated),
      p_(checked(p, branch.get(), stats_name)),
      reg_(st),
      ideal_fetch_(p.fetch_model == "ideal"),
      warp_sb_(p.scoreboard == "warp"),
      sm_id_(sm_id),
      stats_name_(stats_name),
      lane_bin_width_(std::max(1u, p.warp_size / 8)),
      warps_(p.max_warps),
      ctas_(p.max_ctas),
      sched_live_(p.schedulers, util::BitSet(p.max_warps)),
      want_credit_(p.max_warps),
      maybe_finished_(p.max_warps),
      cand_(p.max_warps),
      ibuf_(p.ibuffer, p.max_warps),
      branch_(std::move(branch)),
      latches_(p.schedulers),
      views_(p.schedulers),
      last_bin_(p.schedulers, kBinIdle),
      st_warp_instr_(st.counter(stats_name + ".warp_instructions", "warp instructions issued")),
      st_thread_instr_(st.counter(stats_name + ".thread_instructions",
                                  "sum of the stack-top threads over issued warp instructions")),
      st_active_lanes_(st.counter(stats_name + ".active_lanes",
                                  "sum of active lanes over issued instructions (SIMD efficiency = "
                                  "active_lanes / (warp_instructions * warp_size))")),
      st_cycles_(st.counter(stats_name + ".cycles", "cycles with at least one CTA resident")),
      st_cta_cycles_(st.counter(stats_name + ".resident_cta_cycles",
                                "sum over cycles of the CTAs resident (/ cycles = mean CTAs held)")),
      st_warp_cycles_(st.counter(stats_name + ".resident_warp_cycles",
                                 "sum over cycles of the warp slots held by resident CTAs (/ cycles = mean warps)")),
      st_issue_cycles_(st.counter(stats_name + ".issue_cycles", "cycles in which some scheduler issued")),
      st_max_depth_(st.counter(stats_name + ".max_stack_depth", "deepest reconvergence stack of any warp or block")),
      st_barrier_waits_(st.counter(stats_name + ".barrier_waits", "warps that waited at a CTA barrier")),
      st_ctas_launched_(st.counter(stats_name + ".ctas_launched", "CTAs started")),
      st_ctas_done_(st.counter(stats_name + ".ctas_done", "CTAs completed")),
      st_flushes_(st.counter(stats_name + ".ibuffer_flushes", "I-buffer flushes on a change of control flow")),
      st_stale_fetches_(st.counter(stats_name + ".stale_fetches", "fetched instructions dropped (old generation)")),
      st_latch_stalls_(st.counter(stats_name + ".latch_stalls", "cycles an issue latch was refused by its pipe")),
      st_sleep_cycles_(st.counter(stats_name + ".sleep_warp_cycles",
                                  "sum over warps of the cycles they were suspended by nanosleep")) {
  asleep_ = util::BitSet(p.max_warps);
  const uint32_t nbins = kBinIssued + (p_.warp_size + lane_bin_width_ - 1) / lane_bin_width_;
  std::vector<std::string> labels = {"W0-idle", "W0-mem", "stall"};
  for (uint32_t lo = 1; lo <= p_.warp_size; lo += lane_bin_width_) {
    uint32_t hi = std::min(p_.warp_size, lo + lane_bin_width_ - 1);
    labels.push_back(lo == hi ? "W" + std::to_string(lo) : "W" + std::to_string(lo) + "-" + std::to_string(hi));
  }
  st_breakdown_ = &st.histogram(stats_name + ".issue_breakdown", 0, 1, nbins,
                                "scheduler cycles by outcome, all schedulers (seed 001 Fig. 13)");
  st_breakdown_->labels = labels;
  for (uint32_t s = 0; s < p_.schedulers; ++s) {
    const std::string pre = stats_name + ".sched" + std::to_string(s);
    SchedStats ss;
    ss.cycles = &st.counter(pre + ".cycles", "cycles of this scheduler with a CTA resident");
    ss.issued = &st.counter(pre + ".issued", "warp instructions this scheduler issued");
    ss.breakdown = &st.histogram(pre + ".issue_breakdown", 0, 1, nbins, "cycles by outcome");
    ss.breakdown->labels = labels;
    sched_stats_.push_back(ss);
    policies_.push_back(make_issue_policy(p_.policy, stats_name));
  }
  pc_priority_ = policies_.front()->wants_pc();
  threads_priority_ = policies_.front()->wants_active_threads();
  st_energy_.rf_reads = &st.counter(stats_name + ".rf_reads", "register operands read, per executing thread");
  st_energy_.rf_writes = &st.counter(stats_name + ".rf_writes", "register operands written, per executing thread");
  st_energy_.int_threads = &st.counter(stats_name + ".int_thread_instructions", "thread instructions on the INT pipelines");
  st_energy_.fp_threads = &st.counter(stats_name + ".fp_thread_instructions", "thread instructions on the FP pipelines");
  st_energy_.sfu_threads = &st.counter(stats_name + ".sfu_thread_instructions", "thread instructions on the SFUs");
  branch_->register_stats(st, stats_name + ".branch");
  launch_q_.cap = 1;
  for (auto& per_sched : latches_)
    for (Latch& l : per_sched) l.ring.resize(p_.operand_read_cycles + 1);
  slot_debt_.assign(p_.schedulers, 0);
  for (SchedView& v : views_)
    for (util::BitSet* b : {&v.changed, &v.listed, &v.ready, &v.long_wait}) b->resize(p_.max_warps);
  parts_.resize(1);
  parts_[0].r.accesses.reserve(64 * 4);
  trace_.pc.assign(p_.max_warps, ptx::kNoPc);
  trace_.stack_depth.assign(p_.max_warps, 0);
  trace_.issued_warp.assign(p_.schedulers, -1);
  trace_.active_mask.assign(p_.schedulers, 0);
  trace_.cta_depth.assign(p_.max_ctas, 0);
  trace_.cta_pc.assign(p_.max_ctas, ptx::kNoPc);
  waveform_ = waveform;
  if (waveform && waveform->enabled()) make_signals(*waveform);
  wt_ = warp_trace;
  if (wt_) wt_->add_sm(sm_id_, p_.schedulers);
  last_reason_.assign(p_.schedulers, trace::StallReason::Idle);
  if (p_.sample_interval) {
    ser_ipc_ = &st.series(stats_name + ".ipc", p_.sample_interval,
                          "thread instructions per cycle over each interval (stats.interval)");
    ser_warps_ = &st.series(stats_name + ".active_warps", p_.sample_interval,
                            "resident warps at the end of each interval (stats.interval)");
    next_sample_ = p_.sample_interval;
  }
  attach_to_clock(true);
}

IssueUnit::~IssueUnit() = default;

void IssueUnit::rethrow_fault() const {
  fault_.rethrow();
}

bool IssueUnit::idle() const {
  return live_ctas_ == 0 && launch_q_.q.empty() && done_q_.empty() && wb_q_.q.empty() && gen_q_.q.empty();
}

// ------------------------------------------------------------ socket handlers

void IssueUnit::on_launch(CtaLaunch& p, sc_core::sc_time&) {
  const uint64_t now = util::now_cycle();
  if (!launch_q_.can_push(now)) return;  // one launch waits at a time: backpressure to the dispatcher
  p.accepted = true;
  launch_q_.q.emplace_back(now + 1, p);
  wake_next();
}

void IssueUnit::on_fetched(FetchedInstr& p, sc_core::sc_time&) {
  // Always room: a fetch answers a credit, and a credit is only sent for a
  // free I-buffer slot (stale answers are dropped when they are read).
  p.accepted = true;
  fetched_q_.q.emplace_back(util::now_cycle() + 1, p);
  wake_next();
}

void IssueUnit::on_writeback(WritebackPacket& p, sc_core::sc_time&) {
  // Always room: bounded by the instructions in flight.
  p.accepted = true;
  wb_q_.q.emplace_back(util::now_cycle() + 1, p);
  wake_next();
}

void IssueUnit::on_generated(GeneratedWarp& p, sc_core::sc_time&) {
  // Always room: a generated warp answers a request for a CTA whose warp
  // slots are all parked, one warp per slot.
  p.accepted = true;
  gen_q_.q.emplace_back(util::now_cycle() + 1, p);
  wake_next();
}

// ------------------------------------------------------------ the method

void IssueUnit::on_cycle(uint64_t now) {
  ++activations_;
  if (fault_.faulted()) return;  // stopped; no re-arm
  if (sleeping_ && now == flush_at_ && !inputs_ready(now) && now < next_wake_ &&
      (live_warps_ == 0 || now < watchdog_deadline())) {
    // Woken only because the VCD window opened: record the values held
    // while asleep, change nothing else, and go back to sleep.
    flush_at_ = ~uint64_t{0};
    write_signals(now);
    sleep(now);
    return;
  }
  fault_.run([&] { cycle(now); });
}

void IssueUnit::cycle(uint64_t now) {
  sample_until(now);
  account_skipped(now);
  last_tick_ = now;
  sleeping_ = false;
  waiting_for_pipes_ = false;
  issued_this_cycle_ = false;

  drain_writebacks(now);
  drain_fetched(now);
  drain_generated(now);
  free_finished();
  start_launches(now);
  if (now >= next_wake_) wake_sleepers(now);
  const bool done_blocked = send_done();

  const bool resident = live_ctas_ > 0;
  if (resident) {
    ++st_cycles_;
    st_cta_cycles_ += live_ctas_;
    st_warp_cycles_ += live_warps_;
  }
  if (tracing_) {
    std::fill(trace_.issued_warp.begin(), trace_.issued_warp.end(), -1);
    std::fill(trace_.issued_by.begin(), trace_.issued_by.end(), 0);
  }
  if (lockstep_) {
    issue_groups(now);  // groups first; the slices they used issue nothing else
    for (uint32_t s = 0; s < p_.schedulers; ++s)
      if (!((slices_taken_ >> s) & 1)) schedule(s, now);
  } else {
    for (uint32_t s = 0; s < p_.schedulers; ++s) schedule(s, now);
  }
  if (issued_this_cycle_) ++st_issue_cycles_;
  const bool latched = drain_latches(now);
  const bool request_blocked = send_requests();
  const bool credit_blocked = send_credits();

  if (tracing_)
    for (uint32_t w = 0; w < p_.max_warps; ++w) {
      const bool run = running(w);
      trace_.pc[w] = run ? branch_->slot(w).pc : ptx::kNoPc;
      trace_.stack_depth[w] = run ? branch_->slot(w).depth : 0;
    }
  if (tracing_)
    for (uint32_t c = 0; c < p_.max_ctas; ++c) {
      uint32_t depth = 0, pc = ptx::kNoPc;
      if (!ctas_[c].live || !branch_->cta_stack(c, depth, pc)) depth = 0, pc = ptx::kNoPc;
      trace_.cta_depth[c] = depth;
      trace_.cta_pc[c] = pc;
    }
  write_signals(now);

  check_watchdog(now);

  // Warps the lock-step unit holds back (E-VWS-Sync) go on by themselves: look again next cycle.
  const util::BitSet* held = lockstep_ ? lockstep_->held_back() : nullptr;
  const bool busy = issued_this_cycle_ || credit_blocked || done_blocked || request_blocked || (held && held->any()) ||
                    branch_->peek_request() || !launch_q_.q.empty() || !fetched_q_.q.empty() ||
                    !wb_q_.q.empty() || !gen_q_.q.empty();
  if (busy || (latched && !can_wait_for_pipes(now))) {
    wake_next();
    return;
  }
  // Nothing can change until a socket delivers something, or (latched) until
  // a pipe takes a latched instruction: sleep. The cycles slept through are
  // classified like this one (account_skipped).
  sleeping_ = true;
  waiting_for_pipes_ = latched;
  if (wf_ && tracing_ && now < wf_->window_start()) flush_at_ = wf_->window_start();
  sleep(now);
}

bool IssueUnit::can_wait_for_pipes(uint64_t now) const {
  // Every latch waits for a known cycle, and until then each cycle would
  // repeat this one: the same refused offers, the same empty picks.
  if (latch_wait_until_ <= now + 1 || tracing_ || branch_->ranks_warps()) return false;
  for (uint32_t s = 0; s < p_.schedulers; ++s)
    if (views_[s].dirty || !policies_[s]->idle_pick_repeats()) return false;
  return true;
}

bool IssueUnit::inputs_ready(uint64_t now) const {
  return launch_q_.ready(now) || fetched_q_.ready(now) || wb_q_.ready(now) || gen_q_.ready(now);
}

void IssueUnit::sleep(uint64_t now) {
  uint64_t until = flush_at_ > now ? flush_at_ : ~uint64_t{0};
  if (waiting_for_pipes_) until = std::min(until, latch_wait_until_);
  until = std::min(until, next_wake_);  // ~0 when no warp sleeps
  if (live_warps_ > 0) {
    uint64_t deadline = watchdog_deadline();
    if (cycle_limit_) deadline = std::min(deadline, cycle_limit_);
    until = std::min(until, deadline > now ? deadline : now + 1);
  }
  if (until != ~uint64_t{0}) sleep_until(until);
}

void IssueUnit::account_skipped(uint64_t now) {
  if (!sleeping_ || last_tick_ == ~uint64_t{0} || live_ctas_ == 0 || now <= last_tick_ + 1) return;
  const uint64_t n = now - last_tick_ - 1;
  st_cycles_ += n;
  st_cta_cycles_ += n * live_ctas_;
  st_warp_cycles_ += n * live_warps_;
  for (uint32_t s = 0; s < p_.schedulers; ++s) {
    count_bin(s, last_bin_[s], n);
    if (wt_) wt_->stall(sm_id_, s, last_tick_ + 1, now - 1, last_reason_[s]);
  }
  if (!waiting_for_pipes_) return;
  // The offers not made while waiting for the pipes, each refused, and the
  // credit round robin, which moves on every cycle the unit runs.
  st_latch_stalls_ += n * held_offers_.size();
  for (stats::Counter* c : held_offers_) *c += n;
  credit_rr_ = static_cast<uint32_t>((credit_rr_ + n) % p_.max_warps);
}

void IssueUnit::count_bin(uint32_t s, uint32_t bin, uint64_t n) {
  *sched_stats_[s].cycles += n;
  sched_stats_[s].breakdown->add(bin, n);
  st_breakdown_->add(bin, n);
  last_bin_[s] = static_cast<uint8_t>(bin);
}

void IssueUnit::drain_writebacks(uint64_t now) {
  while (wb_q_.ready(now)) {
    const WritebackPacket wb = wb_q_.q.front().second;
    wb_q_.pop(now);
    if (wb.warp >= p_.max_warps || !warps_[wb.warp].live || warps_[wb.warp].inflight == 0)
      throw std::logic_error(std::string(name()) + ": write-back for warp " + std::to_string(wb.warp) +
                             " with nothing in flight");
    Warp& w = warps_[wb.warp];
    if (--w.inflight == 0) maybe_finished_.set(wb.warp);
    if (warp_sb_) mark_stale(wb.warp);  // its next instruction waited for this one
    last_progress_ = now;
    if (!wb.instr) continue;
    Reservation& res = tickets_[wb.ticket];
    bool was_long = false;
    for (uint32_t r : res.du->defs) was_long = sb_.release(res.cta, res.threads, r, res.words) || was_long;
    mark_stale_overlapping(res.cta, res.threads, res.warp);
    for (const WarpPart& q : res.others) {
      for (uint32_t r : res.du->defs) sb_.release(q.cta, q.mask, r);
      mark_stale_overlapping(q.cta, q.mask, res.warp);
    }
    // Its CTAs may have been waiting for this to finish (units that mix CTAs).
    if (--ctas_[res.cta].inflight == 0 && ctas_[res.cta].warps_left == 0) finish_cta(res.cta);
    for (const WarpPart& q : res.others)
      if (--ctas_[q.cta].inflight == 0 && ctas_[q.cta].warps_left == 0) finish_cta(q.cta);
    tickets_.release(wb.ticket);
    if (was_long && --w.long_pending == 0) policies_[wb.warp % p_.schedulers]->on_wakeup(wb.warp);
  }
}

void IssueUnit::drain_fetched(uint64_t now) {
  while (fetched_q_.ready(now)) {
    const FetchedInstr f = fetched_q_.q.front().second;
    fetched_q_.pop(now);
    if (f.warp >= p_.max_warps) throw std::logic_error(std::string(name()) + ": fetched warp out of range");
    Warp& w = warps_[f.warp];
    if (!running(f.warp) || f.gen != ibuf_.generation(f.warp)) {
      ++st_stale_fetches_;
      continue;
    }
    const ptx::Program& prog = prog_of(w);
    if (f.pc >= prog.code.size() || w.credits == 0 || ibuf_.space(f.warp) == 0)
      throw std::logic_error(std::string(name()) + ": fetched PC " + std::to_string(f.pc) + " for warp " +
                             std::to_string(f.warp) + " was not asked for");
    --w.credits;
    if (lockstep_) {
      // A group fetch fills every member's I-buffer (a changed group was
      // flushed, so the leader's generation still stands for this group).
      lockstep_->members(f.warp, fill_);
      for (uint32_t m : fill_) {
        ibuf_.push(m, f.pc, &prog.code[f.pc]);
        mark_stale(m);
      }
      continue;
    }
    ibuf_.push(f.warp, f.pc, &prog.code[f.pc]);
    mark_stale(f.warp);
  }
}

void IssueUnit::drain_generated(uint64_t now) {
  while (gen_q_.ready(now)) {
    const GeneratedWarp g = gen_q_.q.front().second;
    gen_q_.pop(now);
    if (g.cta >= p_.max_ctas || !ctas_[g.cta].live)
      throw std::logic_error(std::string(name()) + ": generated warp for CTA slot " + std::to_string(g.cta) +
                             " that is not resident");
    branch_->warp_generated(g);
    resync_cta(g.cta);
  }
}

bool IssueUnit::send_requests() {
  while (const CompactRequest* r = branch_->peek_request()) {
    if (to_compactor.size() == 0)
      throw std::logic_error(std::string(name()) + ": the " + branch_->name() +
                             " branch unit needs a thread compactor but to_compactor is unbound");
    CompactRequest req = *r;
    req.accepted = false;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    to_compactor->b_transport(req, t);
    if (!req.accepted) return true;
    branch_->pop_request();
  }
  return false;
}

void IssueUnit::resync(uint32_t wi) {
  mark_stale(wi);
  Warp& w = warps_[wi];
  const WarpSlot& ws = branch_->slot(wi);
  // A slot that waits (TBC, DWF) is not offered until the branch unit forms
  // a warp in it again; a two-level policy that kept it in its active set
  // would starve the warps that can issue, for good if those are the ones
  // the wait is for. Tell the policy as for a warp waiting on memory.
  const bool parked = ws.state == SlotState::Waiting;
  if (parked != w.parked) {
    w.parked = parked;
    IssuePolicy& pol = *policies_[wi % p_.schedulers];
    parked ? pol.on_long_latency(wi) : pol.on_wakeup(wi);
  }
  if (ws.version == w.version) return;
  w.version = ws.version;
  ibuf_.flush(wi);  // also bumps the generation: fetches in flight are dropped
  w.credits = 0;
  if (ws.state == SlotState::Retired) maybe_finished_.set(wi);
  if (ws.state != SlotState::Running) return;
  if (!ideal_fetch_) want_credit_.set(wi);
  ++st_flushes_;
  if (ws.pc >= prog_of(w).code.size()) past_end(w, ws.pc);
  w.fetch_pc = ws.pc;
}

void IssueUnit::past_end(const Warp& w, uint32_t pc) const {
  throw kernel_fault("kernel '" + prog_of(w).kernel + "' CTA " + dim3_text(ctas_[w.cta].state->ctaid()) +
                     ": control reached PC " + std::to_string(pc) + " past the end of the program");
}

void IssueUnit::set_policies(const std::function<std::unique_ptr<IssuePolicy>(uint32_t)>& make) {
  if (live_warps_ > 0) throw std::logic_error(std::string(name()) + ": scheduler policies replaced while warps run");
  for (uint32_t s = 0; s < p_.schedulers; ++s) policies_[s] = make(s);
  pc_priority_ = policies_.front()->wants_pc();
  threads_priority_ = policies_.front()->wants_active_threads();
}

void IssueUnit::resync_cta(uint32_t ci) {
  mark_cta_stale(ci);
  for_each_slot_of(ci, [&](uint32_t wi) {
    if (warps_[wi].live) resync(wi);
  });
}

util::PacketInitiator<IssueUnit, IssuePacket>& IssueUnit::pipe_socket(PipeKind k) {
  switch (k) {
    case PipeKind::Sp: return to_sp;
    case PipeKind::Sfu: return to_sfu;
    case PipeKind::Tensor: return to_tensor;
    default: return to_ldst;
  }
}

template <bool Slices>
bool IssueUnit::drain_latches_in(uint64_t now) {
  bool any_full = false;
  latch_wait_until_ = ~uint64_t{0};
  held_offers_.clear();
  // Slices mode: the LDST latches (the last kind) go out combined.
  static_assert(static_cast<size_t>(PipeKind::Ldst) == 3, "LDST is the last latch");
  constexpr size_t kinds = Slices ? 3 : 4;
  if (Slices) any_full = drain_combined_ldst(now);
  for (uint32_t s = 0; s < p_.schedulers; ++s)
    for (size_t k = 0; k < kinds; ++k) {
      Latch& l = latches_[s][k];
      if (l.empty()) continue;
      any_full = true;
      IssuePacket& p = l.front();
      const uint64_t operands_read = p.issue_cycle + p_.operand_read_cycles;
      if (now < operands_read) {  // operands still being read
        latch_wait_until_ = std::min(latch_wait_until_, operands_read);
        continue;
      }
      p.accepted = false;
      p.retry_at = 0;
      p.refusals = nullptr;
      p.extra_issue_slots = 0;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      pipe_socket(static_cast<PipeKind>(k))->b_transport(p, t);
      if (p.accepted) {
        slot_debt_[s] += p.extra_issue_slots;
        l.pop();
        views_[s].dirty = true;
        latch_wait_until_ = now + 1;
      } else {
        ++st_latch_stalls_;
        const bool known = p.retry_at > now && p.refusals;
        latch_wait_until_ = std::min(latch_wait_until_, known ? p.retry_at : now + 1);
        if (known) held_offers_.push_back(p.refusals);
      }
    }
  return any_full;
}

template <bool Slices>
bool IssueUnit::send_credits_in() {
  if (ideal_fetch_) return false;  // the ideal front end needs none
  // Round robin from credit_rr_ over the warps that may want credits, which
  // gives the same order as a round robin over every slot. The fetch unit
  // holds one credit per warp: a refusal means that warp's previous credit
  // is still waiting there, so only that warp waits (it goes first next
  // cycle); the other warps' credits still go out.
  const uint32_t n = p_.max_warps;
  uint32_t first_refused = n;
  want_credit_.for_each_from(credit_rr_, [&](uint32_t wi) {
    Warp& w = warps_[wi];
    if (!running(wi) || (Slices && lockstep_->fetch_leader(wi) != wi)) {
      want_credit_.reset(wi);  // a group member: its leader's fetches fill it
      return true;
    }
    const bool group = Slices && lockstep_->holds(wi);
    const size_t code = prog_of(w).code.size();
    while (ibuf_.space(wi) > w.credits && w.fetch_pc < code) {
      const KernelContext& k = *ctas_[w.cta].info->kernel;
      FetchCredit c;
      c.warp = wi;
      c.pc = w.fetch_pc;
      c.gen = ibuf_.generation(wi);
      c.addr = k.code_base + uint64_t{w.fetch_pc} * k.instr_bytes;  // the I-cache reads this
      c.bytes = k.instr_bytes;
      c.group = group;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      credits->b_transport(c, t);
      if (!c.accepted) {
        if (first_refused == n) first_refused = wi;
        return true;  // still wants credits
      }
      ++w.credits;
      ++w.fetch_pc;
    }
    want_credit_.reset(wi);  // wants none until it issues or refetches
    return true;
  });
  if (first_refused != n) {
    credit_rr_ = first_refused;  // the first refused warp goes first next cycle
    return true;
  }
  credit_rr_ = (credit_rr_ + 1) % n;
  return false;
}

template bool IssueUnit::drain_latches_in<false>(uint64_t);
template bool IssueUnit::drain_latches_in<true>(uint64_t);
template bool IssueUnit::send_credits_in<false>();
template bool IssueUnit::send_credits_in<true>();

}  // namespace simt::sm
