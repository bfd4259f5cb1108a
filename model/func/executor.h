// The functional executor: executes one decoded instruction for any set of
// threads of one CTA and reports what the timing side needs to know: which
// threads branch where, which addresses were touched, whether the set
// reached a barrier, exited, or faulted. It decides *what* happens; callers
// (the functional runner, the SIMT SM, VGIW, ...) decide *when*.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "func/cta_state.h"
#include "func/global_memory.h"
#include "func/shfl_undefined.h"
#include "func/texture.h"
#include "func/thread_mask.h"
#include "ptx/ir.h"
#include "util/error.h"

namespace simt::func {

class DeviceHeap;  // func/device_heap.h

// What an instruction can reach outside its CTA.
struct ExecEnv {
  GlobalMemory* global = nullptr;
  const TextureTable* textures = nullptr;  // texture/surface objects; null: none
  std::ostream* printf_out = nullptr;  // device printf; nullptr discards
  // Device-side malloc/free; null: a call to either is a kernel fault.
  DeviceHeap* heap = nullptr;
  // shfl.sync reading a lane that is not executing it or not in membermask.
  ShflUndefined shfl_undefined = ShflUndefined::Zero;
  ShflUndefinedLog* shfl_log = nullptr;  // counts and warns; nullptr: neither
  // Fill StepResult::accesses. The timing model needs the list (coalescer,
  // banks); the functional runner does not and turns it off to save the work.
  bool record_accesses = true;
  // Bytes of saved frames each thread's call stack holds (recursion); a
  // deeper recursion is a kernel fault.
  uint32_t call_stack_bytes = kDefaultCallStackBytes;
};

enum class Control : uint8_t {
  Next,     // every executing thread continues at pc + 1
  Branch,   // `taken` threads go to `target`, the rest to pc + 1
  Call,     // `taken` threads go to `target` (callee entry), the rest wait at pc + 1 (but see `stay`)
  Ret,      // `taken` threads return (to their stack entry's return PC, see SimtStack::ret); the rest go to pc + 1
  Exit,     // `taken` threads exited; the rest continue at pc + 1
  Barrier,  // the set arrived at barrier `bar_id`; continues at pc + 1 once released
  Fault,    // see `fault`; nothing of the instruction was committed for `fault.tid`
};

struct FastProgram;  // func/fast_path.h: per-PC pre-decoded fast kernels

struct MemAccess {
  uint32_t tid = 0;
  ptx::Space space = ptx::Space::Global;  // resolved space (generic accesses are resolved per thread)
  uint8_t size = 0;   // bytes
  // The CTA part of a warp holding threads of several CTAs (DWF's SM-wide
  // pool): index into the issue packet's parts; 0 for everything else. The
  // executor leaves it 0; tid and addr are within that part's CTA.
  uint8_t part = 0;
  uint64_t addr = 0;  // address within `space`

  MemAccess() = default;
  MemAccess(uint32_t t, ptx::Space sp, uint8_t bytes, uint64_t a) : tid(t), space(sp), size(bytes), addr(a) {}
};

struct Fault {
  std::string message;  // what went wrong, e.g. "load from unmapped global address"
  uint32_t tid = 0;     // linear thread id in the CTA
  uint64_t addr = 0;    // offending address if any
  bool has_addr = false;
  FaultKind kind = FaultKind::Other;
};

// The PTX ISA bounds a nanosleep at 1 ms ("the maximum sleep duration is 1
// millisecond"); a longer request sleeps that long.
constexpr uint32_t kMaxSleepNs = 1000000;

struct StepResult {
  Control control = Control::Next;
  ThreadMask taken;      // Branch: threads taking it; Exit: threads exiting
  uint32_t target = ptx::kNoPc;
  // Call only: the executing threads not in `taken` stay at this PC and run
  // it again once the callers are back at pc + 1. An indirect call whose
  // threads name different functions calls one of them at a time this way.
  bool stay = false;
  // Barrier
  uint32_t bar_id = 0;
  uint32_t bar_count = 0;   // threads expected; 0 = all threads of the CTA
  bool bar_arrive = false;  // bar.arrive: do not wait
  // bar.red: the barrier also reduces a predicate over the arriving threads;
  // when it completes, every participant's `bar_red_dest` receives the result.
  bool bar_red = false;
  ptx::BoolOp bar_red_op = ptx::BoolOp::None;  // Popc, And, Or
  uint32_t bar_red_true = 0;                   // arriving threads whose predicate is true
  uint32_t bar_red_dest = ptx::kNoReg;
  // Memory: one entry per thread and element touched, in thread order
  // (left empty when ExecEnv::record_accesses is off).
  bool is_load = false, is_store = false, is_atomic = false;
  std::vector<MemAccess> accesses;
  Fault fault;
  // nanosleep: the longest time its active threads asked for, in ns, at
  // most kMaxSleepNs (0 for any other instruction). The timing SM suspends
  // the warp for it; the functional runner has no time to spend.
  uint32_t sleep_ns = 0;

  void reset() {
    control = Control::Next;
    if (taken.any()) taken.clear();  // most steps leave it empty; testing is cheaper than clearing
    target = ptx::kNoPc;
    stay = false;
    bar_id = bar_count = 0;
    bar_arrive = bar_red = false;
    bar_red_op = ptx::BoolOp::None;
    bar_red_true = 0;
    bar_red_dest = ptx::kNoReg;
    is_load = is_store = is_atomic = false;
    accesses.clear();
    sleep_ns = 0;
  }
};

class Executor {
 public:
  // Throws simt::Error (BadInput) naming the instruction and its line if the
  // program uses something the executor does not implement, so unsupported
  // code is refused before anything runs. `fast_paths` false runs every
  // instruction through the general handlers (tests compare the two).
  explicit Executor(const ptx::Program& prog, bool fast_paths = true);

  // Executes the instruction at `pc` for the threads in `mask` (threads whose
  // guard predicate is false do nothing). `out` is reset first.
  void step(CtaState& cta, const ExecEnv& env, uint32_t pc, const ThreadMask& mask,
            StepResult& out) const;

  const ptx::Program& program() const { return *prog_; }
  // The pre-decoded kernels (func/fast_path.h), or null when built without
  // them: a caller that runs FastInstr::run / mem / branch itself for plain
  // instructions must give exactly what step() gives (the functional runner
  // does, for warps whose threads share one 64-thread mask word).
  const FastProgram* fast_program() const { return fast_.get(); }

 private:
  const ptx::Program* prog_;
  size_t ncode_ = 0;  // prog_->code.size(), read on every step
  // Built once here: the common instructions with plain operands, decoded
  // so step() runs them as tight lane loops (shared: Executor stays copyable).
  std::shared_ptr<const FastProgram> fast_;
};

// True if the executor implements this instruction (opcode and its modifiers);
// otherwise `why` says what is missing.
bool executor_supports(const ptx::Instr& in, std::string* why);

}  // namespace simt::func
