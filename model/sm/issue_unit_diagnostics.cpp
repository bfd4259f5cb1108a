// IssueUnit's diagnostics: kernel faults with kernel/CTA/thread/PC, and the
// deadlock watchdog's dump of every resident warp (PC, stack, pending
// registers, what it waits for). Kept apart from the hot per-cycle code.
#include <sstream>

#include "func/thread_fault.h"
#include "sm/issue_unit.h"
#include "util/error.h"

namespace simt::sm {

using func::dim3_text;

// ------------------------------------------------------------ faults, watchdog

std::string IssueUnit::where(const Cta& c, uint32_t pc) const {
  return func::fault_where(*c.info->kernel->prog, *c.state, pc);
}

void IssueUnit::fault(const Cta& c, uint32_t pc, const func::Fault& f) const {
  throw func::thread_fault(*c.info->kernel->prog, *c.state, pc, f);
}

std::string IssueUnit::waiting_reason(uint32_t wi) const {
  const Warp& w = warps_[wi];
  const WarpSlot& ws = branch_->slot(wi);
  if (ws.state == SlotState::Retired)
    return "finished, " + std::to_string(w.inflight) + " instruction(s) still in a pipe";
  if (ws.state == SlotState::Waiting) return "empty: its threads wait at a synchronisation point of the " +
                                             std::string(branch_->name()) + " branch unit";
  if (w.barrier >= 0) return "waits at barrier " + std::to_string(w.barrier);
  const ptx::Instr* in = next_instr(wi);
  if (!in && ideal_fetch_) return "at PC " + std::to_string(ws.pc) + ", past the end of the program";
  if (!in) return "I-buffer empty (" + std::to_string(w.credits) + " fetch credit(s) outstanding)";
  const Hazard h = hazard(ws, ctas_[ws.cta].info->du[ws.pc]);
  if (h != Hazard::None) return std::string("scoreboard ") + hazard_name(h) + " hazard";
  if (warp_sb_ && w.inflight > 0) return "waits for its previous instruction to write back (sm.scoreboard = warp)";
  if (!pipe_free(wi % p_.schedulers, pipe_of(in->cls))) return "its pipe refuses the latched instruction";
  return "ready (not picked)";
}

void IssueUnit::deadlock(uint64_t now) const {
  std::ostringstream s;
  s << name() << ": deadlock watchdog: no instruction issued or wrote back for " << (now - last_progress_)
    << " cycles (cycle " << now << "; option sm.watchdog_cycles = " << p_.watchdog_cycles
    << ": raise it if the machine's latencies or the kernel's waits are that long)";
  describe_warps(s, ~uint32_t{0});
  throw kernel_fault(s.str());
}

// Every resident CTA (or only CTA slot `only`) with each warp's state, PC
// and source line.
void IssueUnit::describe_warps(std::ostream& s, uint32_t only) const {
  for (uint32_t ci = 0; ci < p_.max_ctas; ++ci) {
    const Cta& c = ctas_[ci];
    if (!c.live || (only != ~uint32_t{0} && ci != only)) continue;
    const func::CtaState& cta = *c.state;
    const ptx::Program& prog = *c.info->kernel->prog;
    const uint32_t live = cta.threads() - cta.exited().count();
    // Not exited: running, or waiting to reconverge, at a barrier or asleep.
    s << "\n  kernel '" << prog.kernel << "' CTA " << dim3_text(cta.ctaid()) << ": " << live << " threads not exited";
    for (uint32_t id = 0; id < kNumBarriers; ++id)
      if (c.barriers.arrived(id))
        s << "; barrier " << id << ": " << c.barriers.arrived(id) << " of " << c.barriers.expected(id, live)
          << " threads arrived";
    s << branch_->describe_cta(ci);
    for (uint32_t wi : c.slots) {
      if (!warps_[wi].live) continue;
      s << "\n    warp " << wi << ": " << waiting_reason(wi);
      const WarpSlot& ws = branch_->slot(wi);
      // Its threads may be another CTA's when the branch unit mixes CTAs.
      const uint32_t own = ws.cta < p_.max_ctas && ctas_[ws.cta].live ? ws.cta : ci;
      if (ws.state == SlotState::Running) {
        // A warp at a barrier has moved past it: name the barrier's line.
        const bool at_bar = warps_[wi].barrier >= 0;
        const uint32_t pc = at_bar ? warps_[wi].barrier_pc : ws.pc;
        s << (at_bar ? " at PC " : "; PC ") << pc;
        if (pc < prog.code.size()) s << " (line " << prog.code[pc].line << " of " << prog.source_path << ")";
        const func::ThreadMask& exited = ctas_[own].state->exited();
        const uint32_t here = ws.mask.minus(exited).count();
        s << "; " << here << (here == 1 ? " thread" : " threads") << " at this PC";
        // The rest of its scope waits on its stack (e.g. to reconverge).
        const uint32_t parked = ws.scope.minus(exited).minus(ws.mask).count();
        if (parked) s << ", " << parked << " more of its threads waiting on its stack";
        if (own != ci) s << " of CTA " << dim3_text(ctas_[own].state->ctaid());
        if (!ws.others.empty()) s << " and threads of " << ws.others.size() << " more CTA(s)";
        s << "; stack depth " << ws.depth;
      }
      const std::vector<uint32_t> regs = sb_.pending_regs(own, ws.scope);
      if (!regs.empty()) {
        s << "; pending";
        for (uint32_t r : regs) s << " " << (r < prog.regs.size() ? prog.regs[r].name : "r" + std::to_string(r));
      }
    }
  }
}

void IssueUnit::runaway_instructions(uint32_t ci) const {
  const Cta& c = ctas_[ci];
  std::ostringstream s;
  s << name() << ": runaway kernel '" << c.info->kernel->prog->kernel << "': CTA " << dim3_text(c.state->ctaid())
    << " issued more than " << c.info->kernel->max_warp_instructions
    << " warp instructions (option --max-warp-instructions; raise it, or 0 for no limit, if the kernel is "
       "meant to run that long). Its warps:";
  describe_warps(s, ci);
  throw kernel_fault(s.str());
}

void IssueUnit::runaway_cycles(uint64_t now) const {
  std::ostringstream s;
  s << name() << ": runaway kernel";
  for (const Cta& c : ctas_)
    if (c.live) {
      s << " '" << c.info->kernel->prog->kernel << "'";
      break;
    }
  s << ": the launch ran for " << max_cycles_ << " cycles (cycle " << now
    << "; option --max-cycles; raise it, or 0 for no limit, if the kernel is meant to run that long). "
       "Resident warps:";
  describe_warps(s, ~uint32_t{0});
  throw kernel_fault(s.str());
}

void IssueUnit::note_spin(const KernelContext& k, const Cta& c, const func::StepResult& r, uint32_t pc,
                          uint64_t now) {
  SpinWatch& w = *k.spin;
  if (r.is_store || r.is_atomic || r.control == func::Control::Barrier ||
      (r.control == func::Control::Exit && r.taken.any()))
    return w.progress(now);
  if (!r.is_load) return;
  // Lines another thread could write: global, or this CTA's shared memory.
  // One look per line, not per thread: a warp's accesses come in thread order.
  uint64_t last = ~uint64_t{0};
  bool polled = false;
  for (const func::MemAccess& a : r.accesses) {
    uint64_t key;
    if (a.space == ptx::Space::Global) key = a.addr >> 7;
    else if (a.space == ptx::Space::Shared) key = (a.addr >> 7) ^ (c.index << 40) ^ (uint64_t{1} << 63);
    else continue;
    if (!polled) {  // the first thread's read stands for the warp's
      polled = true;
      const uint64_t thread = (c.index << 16) ^ a.tid;
      w.poll((a.addr * 0x9E3779B97F4A7C15ull) ^ (thread * 0xC2B2AE3D27D4EB4Full) ^
             ((uint64_t{pc} << 1 | (a.space == ptx::Space::Shared)) * 0x165667B19E3779F9ull));
    }
    if (key != last) w.line(key, now);
    last = key;
  }
}

void IssueUnit::runaway_spin(uint64_t now) const {
  std::ostringstream s;
  s << name() << ": runaway kernel: for " << (now - spin_->last_progress()) << " cycles (cycle " << now
    << ") no thread stored to memory, ran an atomic, exited or reached a barrier, and the loads kept to a few "
       "lines, threads re-reading the same addresses: a spin-wait on a value nothing will change (option "
       "--max-spin-cycles; raise it, or 0 to turn the check off, if the kernel waits that long for a reason). "
       "Resident warps:";
  describe_warps(s, ~uint32_t{0});
  throw kernel_fault(s.str());
}

void IssueUnit::check_watchdog(uint64_t now) {
  if (live_warps_ == 0) return;
  if (cycle_limit_ && now >= cycle_limit_) runaway_cycles(now);
  if (spin_ && spin_->spinning(now)) runaway_spin(now);
  // A warp asleep in nanosleep wakes by itself (at most 1 ms later): no deadlock yet.
  if (now >= watchdog_deadline() && !asleep_.any()) deadlock(now);
}

}  // namespace simt::sm
