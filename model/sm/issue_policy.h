// Warp scheduler policies: which of the warps offered this cycle issues.
//
// The issue stage builds one WarpCandidate per warp it owns every cycle it
// has something to issue and asks the policy to pick(). The policy only
// orders warps; readiness (valid decoded instruction, no scoreboard hazard,
// execution unit free) is decided by the issue stage and passed in. After a
// warp issues the stage calls on_issue(); the long-latency hooks feed the
// two-level policies. Policies are deterministic: the same call sequence
// gives the same picks.
//
// A policy keeps per-warp state indexed by warp id (a warp slot of the SM);
// ids come from on_warp_added() and are small integers.
#pragma once

#include <cstdint>
#include <vector>

#include "ptx/ir.h"
#include "util/bit_set.h"

namespace simt::sm {

// Fields ordered so that a candidate packs into 32 bytes: the schedulers
// rewrite a list of them every cycle, for every SM.
struct WarpCandidate {
  uint32_t warp = 0;                       // warp slot id
  uint32_t block = 0;                      // CTA slot of the SM the warp belongs to
  uint64_t age = 0;                        // launch order: lower = older
  uint64_t block_age = 0;                  // that CTA's launch order on this SM: lower = older
  uint32_t priority = 0;                   // branch unit hint (DWF majority: threads at its PC); lpc: the PC; origami: active threads
  ptx::InstrClass cls = ptx::InstrClass::Int;  // class of its next instruction
  bool ready = false;                      // could issue this cycle
  bool long_wait = false;                  // its next instruction waits on a long-latency result
};
static_assert(sizeof(WarpCandidate) == 32, "keep WarpCandidate packed");

class IssuePolicy {
 public:
  virtual ~IssuePolicy() = default;

  // Index into `c` of the candidate to issue, or -1 when none may issue.
  // Only ready candidates are ever picked. May update internal state
  // (e.g. the two-level active set), so call it once per issue slot.
  virtual int pick(const std::vector<WarpCandidate>& c, uint64_t now) = 0;

  // The issue stage's incremental protocol. Between two calls of
  // pick_incremental() the stage reports, with on_offer_changed(), every warp
  // whose entry in the list was inserted or removed (shifted: later entries
  // moved) or whose long_wait flag changed; any other entry kept its index
  // and long_wait flag (only `ready` and `priority` may differ). The list is
  // in ascending warp order, and `bits` says by warp id which warps it holds
  // and which of them are ready or wait on a long-latency result. A policy
  // may then skip the work such a list cannot change; by default it ignores
  // all this and calls pick().
  virtual void on_offer_changed(uint32_t warp, bool shifted) {
    (void)warp, (void)shifted;
  }
  struct OfferBits {
    const util::BitSet& listed;
    const util::BitSet& ready;
    const util::BitSet& long_wait;
  };
  virtual int pick_incremental(const std::vector<WarpCandidate>& c, const OfferBits& bits, uint64_t now) {
    (void)bits;
    return pick(c, now);
  }

  // The warp picked last issued an instruction of class `cls` at `now`.
  virtual void on_issue(uint32_t warp, ptx::InstrClass cls, uint64_t now) {}
  // The warp issued a long-latency operation whose result it will wait for.
  virtual void on_long_latency(uint32_t warp) {}
  // Every long-latency result the warp was waiting for has arrived.
  virtual void on_wakeup(uint32_t warp) {}
  // A warp slot starts a new warp (`age` = launch order) / its warp exited.
  virtual void on_warp_added(uint32_t warp, uint64_t age) {}
  virtual void on_warp_removed(uint32_t warp) {}

  virtual const char* name() const = 0;

  // True when a pick() that found nothing to issue, repeated in later cycles
  // with the same candidates and no hook called in between, finds nothing
  // again and leaves the policy as it was. The issue stage then need not
  // call it while it waits for a pipe (IssueUnit skips those cycles).
  virtual bool idle_pick_repeats() const { return false; }
  // True when the policy orders warps by their next PC: the issue stage then
  // puts it in WarpCandidate::priority (lpc).
  virtual bool wants_pc() const { return false; }
  // True when the policy groups warps by how many of their threads are
  // active (Origami's lane-aware groups): the issue stage then puts the
  // count of the warp's active, unexited threads in WarpCandidate::priority.
  virtual bool wants_active_threads() const { return false; }
};

}  // namespace simt::sm
