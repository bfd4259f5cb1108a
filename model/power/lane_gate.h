// The sleep-transistor controller of one gating domain (a lane, a 4-lane
// cluster or a whole SP unit) for one pipeline type (INT or FP): plain C++,
// driven by the lane power controller module (lane_power_controller.h).
//
// States over time (seed 003 Fig. 3, seed 004 §2.2, Hu et al. ISLPED 2004):
//   ON           an instruction is in the domain's pipeline (from the cycle
//                its pass enters until its result leaves: the pipe cannot
//                gate with work in flight, seed 004's N_pipeflush)
//   IDLE-DETECT  empty, counting idle cycles (idle_detect)
//   GATED-U      gated, not yet paid back: the first BET gated cycles
//   GATED-C      gated beyond BET: leakage actually saved
//   WAKING       a wake-up request arrived; ON again `wakeup` cycles later
// With blackout, a wake-up request during GATED-U waits until BET has passed.
// While an issue waits for the lanes it needs to wake, those already ON stay
// ON (hold): idle detection restarts when the last of them is ON. Eager
// gating (seed 004 §3.3): when a folded instruction issues, the lanes that
// folding leaves idle gate after their first idle cycle (gate_early).
//
// The controller is lazy: nothing runs per cycle. Each domain keeps the start
// of its open period and when its pipeline drains, and classifies an idle
// period when it ends (the next use or wake-up) or when totals are asked.
// Modes (power.gating):
//   conventional  the FSM above; an issue to a gated domain must wake it first
//   ideal         seed 003's evaluation: an oracle gates an idle period for
//                 its whole length iff it lasts at least BET cycles; no
//                 idle-detect, no wake-up delay (never changes timing)
//   none          only busy and idle cycles are counted
// Net saving (seed 003): gated cycles - gating events x BET; negative when
// domains woke before BET.
#pragma once

#include <cstdint>
#include <ostream>

#include "power/power_params.h"

namespace simt::power {

// The values are the VCD encoding (docs/power.md).
enum class LaneState : uint8_t { On = 0, IdleDetect = 1, GatedUncompensated = 2, GatedCompensated = 3, Waking = 4 };
const char* state_name(LaneState s);
inline std::ostream& operator<<(std::ostream& o, LaneState s) { return o << state_name(s); }

// Cycles of one domain (or a sum over domains) in each state, and events.
struct GateTotals {
  uint64_t busy = 0;          // ON with work in the pipeline
  uint64_t idle = 0;          // ON and empty (idle detect, or idle periods not gated)
  uint64_t gated_uncomp = 0;  // gated, within BET of the gating
  uint64_t gated_comp = 0;    // gated beyond BET
  uint64_t waking = 0;
  uint64_t events = 0;        // gatings
  uint64_t delayed = 0;       // wake-ups that made an issue wait

  uint64_t gated() const { return gated_uncomp + gated_comp; }
  uint64_t cycles() const { return busy + idle + gated() + waking; }
  // Seed 003's net leakage saving in domain-cycles: gated - events x BET.
  int64_t net_saved(uint32_t bet) const {
    return static_cast<int64_t>(gated()) - static_cast<int64_t>(events) * static_cast<int64_t>(bet);
  }
  GateTotals& operator+=(const GateTotals& o);
};

struct GateTiming {
  Gating mode = Gating::None;
  uint32_t idle_detect = 5, bet = 14, wakeup = 3;
  bool eager = false, blackout = false;
  static GateTiming from(const PowerParams& p);
};

class alignas(64) LaneGate {
 public:
  explicit LaneGate(const GateTiming& t) : t_(t) { refresh(); }

  // First cycle >= now at which the domain is ON (now unless it is gated or
  // waking). Changes nothing.
  uint64_t ready_at(uint64_t now) const;
  // True when the domain is ON at `now` (then ready_at(now) == now): the
  // controller's fast path, a compare against kept bounds.
  bool on_at(uint64_t now) const { return now >= acc_ && now < off_at_; }
  // Conventional: the cycle the open idle period gates (no later than the
  // truth once a batched drain is pending; UINT64_MAX in the other modes).
  // Only wake() and gate_early() bring it earlier.
  uint64_t off_at() const { return off_at_; }
  // True when the domain is gated at `now`: it stays so until woken.
  bool gated_at(uint64_t now) const { return now >= acc_ && now >= off_at_; }
  // An issue wants the domain at `now` and ready_at(now) > now: the wake-up
  // starts (at now, or when BET has passed with blackout). Returns the cycle
  // the domain is ON. A domain already waking keeps its wake-up.
  // `*started` (if given) is set when a wake-up started (the state changed).
  uint64_t wake(uint64_t now, bool* started = nullptr);
  // A wake-up request for an issue that needs this domain is pending until
  // `until` (the other domains it needs are still waking): the domain does
  // not count idle cycles before then, so it cannot gate again meanwhile.
  // Returns true when that moved the hold (the state changed).
  bool hold(uint64_t until) {
    if (until <= hold_) return false;
    hold_ = until;
    refresh();
    return true;
  }
  // Eager gating: the domain's current idle period gates after its first
  // idle cycle, or at `now` if later, instead of after idle_detect cycles
  // (conventional only; not while a wake-up request holds it ON).
  // Returns true when eager gating now holds for the open idle period, so
  // that asking again before the next use or wake-up changes nothing.
  bool gate_early(uint64_t now) {
    const uint64_t s = acc_ > drain_ ? acc_ : drain_;
    if (t_.mode != Gating::Conventional || now < s) return false;  // busy or waking: nothing to do
    if (early_ == UINT64_MAX || early_ < s) {  // the first request of this idle period
      early_ = now;
      refresh();
    }
    return true;
  }
  // The pipeline, busy since before `drain`, now drains at `drain` if that is
  // later: use()'s busy case, for a domain known to be busy (the
  // controller's batched uses, lane_power_controller.h).
  void extend(uint64_t drain) {
    if (drain > drain_) {
      drain_ = drain;
      refresh();
    }
  }
  // A pass enters the domain's pipeline at `in` (ready_at(in) == in, in not
  // before an earlier use) and its result leaves at `drain`. Inline: a busy
  // lane only moves its drain.
  void use(uint64_t in, uint64_t drain) {
    if (drain_ > in && in >= acc_)  // still busy: the busy period goes on
      extend(drain);
    else
      start_busy(in, drain);
  }

  LaneState state(uint64_t now) const;
  // Totals over [0, now): the committed ones plus the open period as it
  // stands at `now` (an idle period ending at `now`).
  GateTotals totals(uint64_t now) const;

 private:
  // use() after an idle period (or a misuse, which it reports).
  void start_busy(uint64_t in, uint64_t drain);
  // Adds the idle period [s, e) to `to` as the mode classifies it.
  void classify_idle(uint64_t s, uint64_t e, GateTotals& to) const;
  // Conventional: the cycle an idle period starting at `s` gates.
  uint64_t gate_at(uint64_t s) const {
    uint64_t g = (s > hold_ ? s : hold_) + t_.idle_detect;
    if (early_ != UINT64_MAX && early_ >= s && early_ >= hold_) {
      const uint64_t e = early_ > s + 1 ? early_ : s + 1;
      g = e < g ? e : g;
    }
    return g;
  }

  // Recomputes off_at_ after a change.
  void refresh() { off_at_ = t_.mode == Gating::Conventional ? gate_at(acc_ > drain_ ? acc_ : drain_) : UINT64_MAX; }

  // What on_at(), use() and gate_early() read comes first, so that it sits in
  // one cache line (alignas on the class): the controller walks many gates
  // per request.
  uint64_t off_at_ = UINT64_MAX;  // conventional: the cycle the open idle period gates (set by the constructor)
  uint64_t acc_ = 0;    // start of the open period (after a wake-up: the cycle the domain is ON)
  uint64_t drain_ = 0;  // the pipeline holds work until drain_ (busy [acc_, drain_))
  uint64_t hold_ = 0;   // a pending wake-up request keeps it ON until hold_
  uint64_t early_ = UINT64_MAX;  // eager gating asked for at this cycle (counts within the open idle period)
  GateTiming t_;
  GateTotals done_;  // every cycle before acc_
};

}  // namespace simt::power
