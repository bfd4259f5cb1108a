// The typed packets that travel between the SM's blocks through
// util::PacketTarget / PacketInitiator sockets. Every packet has an
// `accepted` flag the receiver sets (false = its queue is full: retry in a
// later cycle). A packet accepted in cycle N is visible to the receiver's
// logic from cycle N+1 at the earliest, so evaluation order within a cycle
// never changes results.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "func/executor.h"
#include "func/thread_mask.h"
#include "ptx/ir.h"
#include "sm/kernel_context.h"

namespace simt::stats { struct Counter; }

namespace simt::sm {

// Issue -> Fetch: warp `warp` has room for one more instruction, to be
// fetched at `pc`; `gen` is the warp's I-buffer generation (bumped by every
// flush) so that fetches for an abandoned path are dropped.
struct FetchCredit {
  uint32_t warp = 0;
  uint32_t pc = 0;
  uint32_t gen = 0;
  // I-cache address of `pc` (KernelContext::code_base + pc * instr_bytes)
  // and bytes to read: filled by issue, which knows the kernel.
  uint64_t addr = 0;
  uint32_t bytes = 8;
  // Slices mode: the fetch is for the warp's whole group (seed 000's gang
  // front end fetches it; it fills every member's I-buffer).
  bool group = false;
  bool accepted = false;
};

// Fetch -> Decode -> Issue: one instruction fetched for a warp.
struct FetchedInstr {
  uint32_t warp = 0;
  uint32_t pc = 0;
  uint32_t gen = 0;
  bool accepted = false;
};

// Issue -> an execution pipe (INT/FP, SFU) or the LDST unit.
struct IssuePacket {
  uint32_t warp = 0;        // SM-wide warp slot
  uint32_t pc = 0;
  const ptx::Instr* instr = nullptr;
  func::ThreadMask active;  // threads that executed (guard true)
  uint64_t lanes = 0;       // their lanes: bit l = a thread t with t % warp_width == l (TBC keeps home lanes)
  uint32_t active_lanes = 0;
  uint32_t warp_width = 32;
  uint64_t issue_cycle = 0;
  bool long_latency = false;  // result awaited from memory (loads, atomics with a destination)
  // LDST only: what the functional executor touched, in thread order.
  uint32_t cta_slot = 0;
  uint32_t cta_threads = 0;   // threads of the CTA (local-memory interleaving)
  uint32_t local_bytes = 0;   // per-thread local memory (local-memory interleaving)
  // A warp with threads of several CTAs (DWF's SM-wide pool): the CTAs of
  // parts 1.. (MemAccess::part k is other_parts[k - 1]); empty otherwise.
  struct Part {
    uint32_t cta_slot = 0, cta_threads = 0, local_bytes = 0;
  };
  std::vector<Part> other_parts;
  // Slices mode (seed 000 §4.1): the memory instructions several slices
  // issued in one cycle reach the LDST unit as one access. The first is this
  // packet's own (warp, instr, ticket); the others ride along, their
  // accesses in `accesses` too (from first_access to the next rider's), and
  // each gets its write-back once the lines it touched were answered.
  struct Rider {
    uint32_t warp = 0, ticket = 0;
    const ptx::Instr* instr = nullptr;
    bool long_latency = false;
    uint32_t first_access = 0;
  };
  std::vector<Rider> riders;
  bool is_load = false, is_store = false, is_atomic = false;
  std::vector<func::MemAccess> accesses;
  uint32_t ticket = 0;        // the issue stage's register reservation, returned at write-back
  bool accepted = false;
  // Set by a target that refuses and knows until when it will go on
  // refusing: the first cycle an offer can be accepted, and its count of
  // refused offers. The issue stage may then stop offering until retry_at;
  // for every cycle it does not offer, it adds the refusal the target would
  // have counted. retry_at 0 = unknown: offer again next cycle.
  uint64_t retry_at = 0;
  stats::Counter* refusals = nullptr;
  // Set by a target that accepts: further issue slots the instruction takes
  // from its scheduler (seed 003's warp splitting issues a warp as two
  // half-warps: 1).
  uint32_t extra_issue_slots = 0;
};

// A pipe or the LDST unit -> Issue: the instruction completed; its
// destination registers may be released in the scoreboard.
struct WritebackPacket {
  uint32_t warp = 0;
  const ptx::Instr* instr = nullptr;
  bool long_latency = false;
  uint32_t ticket = 0;        // IssuePacket::ticket
  bool accepted = false;
};

// CTA dispatcher -> SM: start a CTA of the current kernel.
struct CtaLaunch {
  std::shared_ptr<const KernelContext> kernel;
  uint64_t cta_index = 0;
  func::Dim3 ctaid{{0, 0, 0}};
  bool accepted = false;
};

// SM -> CTA dispatcher: a CTA finished (all its threads exited).
struct CtaDone {
  uint32_t sm = 0;
  uint64_t cta_index = 0;
  bool accepted = false;
};

// Issue (TBC branch unit) -> thread compactor: a block-wide active mask to
// turn into compacted warps (seed 001 Figure 9). `cta` and `pc` come back
// with every generated warp.
struct CompactRequest {
  uint32_t cta = 0;
  uint32_t pc = 0;
  func::ThreadMask mask;
  uint32_t threads = 0;     // threads of the CTA
  uint32_t warp_size = 32;
  bool compact = true;      // false: hand back the static warps (compactor off)
  bool accepted = false;
};

// Thread compactor -> issue (warp buffer): one generated warp per cycle.
struct GeneratedWarp {
  uint32_t cta = 0;
  uint32_t pc = 0;
  func::ThreadMask mask;    // its threads; thread t runs in lane t % warp_size
  uint32_t index = 0;       // 0.. in generation order for this request
  bool last = false;        // the request's final warp
  bool accepted = false;
};

// An execution pipe -> the lane power controller of one of its units
// (power.gating; power/lane_power_controller.h). TryUse: may the passes of
// this instruction enter the unit's lanes from `now` on? If every lane they
// need is ON the controller records the use and accepts; otherwise it
// refuses (a quick check: ready_at is only a lower bound, now + 1;
// until_woken says the refusal stands until a Wake reaches this unit). Wake:
// start waking the lanes the passes need; ready_at is when all are ON (the
// issue waits until then). `changed` tells the pipe whether the answer may
// differ for a request repeated later (exec_pipe.h's refusal memo).
struct LaneUseRequest {
  enum Kind : uint8_t { TryUse, Wake };
  Kind kind = TryUse;
  bool fp = false;                       // the lanes' FP pipelines (else INT)
  uint64_t now = 0;                      // cycle the first pass enters
  const uint64_t* pass_lanes = nullptr;  // per pass: the lanes receiving a thread
  uint32_t passes = 0;
  uint32_t ii = 1;                       // cycles between passes
  uint32_t latency = 1;                  // cycles from a pass entering to its result
  bool folded = false;                   // warp folding on: the high pair of each 4-lane cluster is left idle
  uint64_t ready_at = 0;                 // answer (Wake): first cycle every needed lane is ON
  bool accepted = false;
  // Answers. TryUse refused: a lane it needs is gated and only a Wake turns it
  // ON, so time alone will not change the answer.
  bool until_woken = false;
  // Some lane's state changed: a use was recorded, or a Wake started a
  // wake-up or kept a lane ON longer.
  bool changed = false;
};

}  // namespace simt::sm
