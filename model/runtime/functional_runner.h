// Runs whole CTAs functionally: the CTA's threads are grouped into warps
// (static or a random grouping), each warp walks the program with its own
// PDOM reconvergence stack, and warps meet at CTA barriers. No timing: this
// is the reference every timing model's memory results must equal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "func/cta_state.h"
#include "func/executor.h"
#include "ptx/cfg.h"
#include "runtime/device.h"
#include "runtime/simt_stack.h"
#include "sm/cta_barriers.h"

namespace simt::runtime {

struct RunnerStats {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  size_t max_stack_depth = 0;
};

class FunctionalRunner {
 public:
  FunctionalRunner(const ptx::Program& prog, const ptx::Cfg& cfg, const func::Executor& exec,
                   const DeviceOptions& opts);

  // Runs one CTA to completion. Throws simt::Error(KernelFault) naming the
  // kernel, CTA, thread, PC and address on a fault, a barrier deadlock, or
  // when the instruction budget runs out.
  void run_cta(func::CtaState& cta, const func::ExecEnv& env, uint64_t cta_index, RunnerStats& stats);

  // The same in steps, for CTAs that must run side by side (a cooperative
  // launch's grid.sync() spins until every CTA arrives): start_cta() forms
  // the warps, each step_cta() gives every runnable warp one slice and
  // returns true once the CTA has finished. One runner per CTA in flight;
  // `env` must not record accesses.
  void start_cta(func::CtaState& cta, uint64_t cta_index);
  bool step_cta(func::CtaState& cta, const func::ExecEnv& env, RunnerStats& stats);

 private:
  // A narrow warp's stack entry: SimtStack's, with the mask as its one word.
  struct WordEntry {
    uint32_t pc;
    uint32_t rpc;
    uint64_t mask;
  };
  struct Warp {
    func::ThreadMask threads;
    // Threads all in mask word `word` (static warps of up to 64 threads):
    // the warp keeps its PDOM stack as one word per entry in `wstack`
    // (the same entries and max depth SimtStack would have) and runs
    // through run_narrow; otherwise `stack`.
    bool narrow = false;
    uint32_t word = 0;
    SimtStack stack;
    std::vector<WordEntry> wstack;
    size_t wmax_depth = 1;
    int barrier = -1;      // barrier id it waits at, or -1
    bool at_sync = false;  // waits at a warp-synchronous instruction (see WarpSync)
    bool done = false;
    bool runnable() const { return !done && barrier < 0 && !at_sync; }
    uint32_t top_pc() const { return narrow ? wstack.back().pc : stack.top().pc; }
    void set_top_pc(uint32_t pc) { (narrow ? wstack.back().pc : stack.top().pc) = pc; }
    func::ThreadMask top_mask() const {
      if (!narrow) return stack.top().mask;
      func::ThreadMask m;
      m.set_word(word, wstack.back().mask);
      return m;
    }
    size_t depth() const { return narrow ? wstack.size() : stack.depth(); }
    size_t max_depth() const { return narrow ? wmax_depth : stack.max_depth(); }
  };
  // A warp-synchronous instruction (shfl/vote/match/redux .sync, bar.warp.sync)
  // whose member threads are spread over several of our warps (warp size
  // below 32, or a random grouping): the parts wait here until every live
  // member has arrived, then the instruction executes once for all of them,
  // as PTX defines it over the 32-thread warp.
  struct WarpSync {
    func::ThreadMask arrived, need;
    std::vector<uint32_t> warps;
  };


  void form_warps(const func::CtaState& cta, uint64_t cta_index);
  // Runs warp `w` until it blocks, finishes or `budget` instructions pass.
  // Returns the number of instructions executed.
  uint64_t run_warp(Warp& w, func::CtaState& cta, const func::ExecEnv& env, uint64_t budget,
                    RunnerStats& stats);
  // run_warp for a narrow warp: masks are one word, and the pre-decoded
  // kernels run here without a StepResult; the rest goes through step().
  uint64_t run_narrow(Warp& w, func::CtaState& cta, const func::ExecEnv& env, uint64_t budget,
                      RunnerStats& stats);
  // A warp-synchronous instruction at `pc` whose members are not all in
  // this warp: parks the warp there. Returns true if it did.
  bool wait_sync(Warp& w, func::CtaState& cta, const func::ExecEnv& env, uint32_t pc,
                 const func::ThreadMask& mask);
  void release_barriers(func::CtaState& cta);  // wakes the warps of completed barriers
  // A bar/barrier step of warp w: checks the id (faulting at first_tid),
  // counts `arriving` threads in; true when the warp must wait there.
  bool barrier_step(Warp& w, func::CtaState& cta, uint32_t pc, const func::StepResult& r, uint32_t first_tid,
                    uint32_t arriving);
  // Live member threads the instruction at `pc` must wait for, given the
  // threads `mask` executing it (their 32-thread groups ∩ membermask).
  func::ThreadMask sync_members(const func::CtaState& cta, uint32_t pc, const func::ThreadMask& mask) const;
  void release_syncs(func::CtaState& cta, const func::ExecEnv& env);
  [[noreturn]] void fault(const func::CtaState& cta, uint32_t pc, const func::Fault& f) const;
  [[noreturn]] void deadlock(const func::CtaState& cta) const;
  // --max-warp-instructions exceeded: names the kernel, CTA and each live warp's PC.
  [[noreturn]] void runaway(const func::CtaState& cta, uint64_t limit) const;
  std::string where(const func::CtaState& cta, uint32_t pc) const;

  const ptx::Program& prog_;
  const ptx::Cfg& cfg_;
  const func::Executor& exec_;
  DeviceOptions opts_;
  std::vector<Warp> warps_;       // reused from CTA to CTA (no allocation per CTA)
  uint64_t executed_ = 0;         // warp instructions of the current CTA (the runaway limit)
  std::vector<uint32_t> order_;   // form_warps: thread order
  sm::CtaBarriers barriers_;
  std::vector<int8_t> member_operand_;  // per PC: operand index of the membermask, -1 if not warp-synchronous
  std::vector<std::pair<uint32_t, WarpSync>> syncs_;  // pending, by PC
  func::StepResult step_;
  func::ThreadMask word_mask_;  // run_narrow: all zero but for the word it is using
};

}  // namespace simt::runtime
