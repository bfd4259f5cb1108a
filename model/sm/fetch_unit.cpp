#include "sm/fetch_unit.h"

#include <stdexcept>

#include "config/param_registry.h"
#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::sm {

namespace {
// Request ids carry the warp in their low bits, so a response finds its
// warp's in-flight queue without a lookup table.
constexpr uint32_t kWarpBits = 20;
constexpr uint64_t kWarpMask = (uint64_t{1} << kWarpBits) - 1;
}  // namespace

void FetchParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add_choice(prefix + ".scheduler", scheduler, {"lrr"}, "fetch scheduler (lrr: loose round-robin)");
  r.add(prefix + ".width", width, "instructions fetched per cycle (the L1I port takes one request per cycle: 1)",
        1, 1);
}

void FetchParams::validate(const std::string& prefix) const {
  if (scheduler != "lrr")
    throw input_error("option " + prefix + ".scheduler: '" + scheduler +
                      "' is not modelled (the fetch scheduler supports: lrr)");
  // A memory port starts one request per cycle; a wider fetch would need a
  // multi-ported L1I, which is not modelled.
  if (width != 1)
    throw input_error("option " + prefix + ".width: only 1 is modelled (the L1I port takes one request per cycle)");
}

FetchUnit::FetchUnit(sc_core::sc_module_name name, const FetchParams& p, uint32_t warps,
                     stats::Registry& reg, const std::string& stats_name, trace::Waveform* waveform)
    : sc_core::sc_module(name),
      credits("credits", this, &FetchUnit::on_credit),
      icache("icache"),
      out("out"),
      p_(p),
      warps_(warps),
      credit_(warps),
      staged_(warps),
      credit_set_(warps),
      staged_set_(warps),
      inflight_(warps),
      last_warp_(warps ? warps - 1 : 0),
      fetches_(reg.counter(stats_name + ".fetches", "instruction reads sent to the L1I")),
      stall_cycles_(reg.counter(stats_name + ".fetch_stall_cycles",
                                "cycles a credited warp or a fetched instruction could not move on "
                                "(L1I or decode refused)")),
      icache_waits_(reg.counter(stats_name + ".icache_waits",
                                "fetch-cycles spent waiting for the L1I (sum over reads; / fetches = mean latency)")),
      redirected_credits_(reg.counter(stats_name + ".redirected_credits",
                                      "unfetched credits replaced by a newer generation")) {
  p_.validate(stats_name);
  if (warps == 0 || warps > kWarpMask) throw std::logic_error("fetch: warp count outside 1..2^20");
  if (waveform && waveform->enabled()) {
    sig_warp_ = waveform->signal<int32_t>(stats_name + ".warp", -1);
    sig_pc_ = waveform->maybe_signal(stats_name + ".pc");
    sig_credits_ = waveform->signal<uint32_t>(stats_name + ".credits", 0);
    sig_in_flight_ = waveform->signal<uint32_t>(stats_name + ".in_flight", 0);
    if (sig_warp_ || sig_pc_ || sig_credits_ || sig_in_flight_) wf_ = waveform;
  }
  attach_to_clock(false);
  icache.wake_on_response(*this);
}

size_t FetchUnit::pending_work() const {
  size_t n = ready_.size();
  for (uint32_t w = 0; w < warps_; ++w) n += credit_[w].valid + staged_[w].valid + inflight_[w].size();
  return n;
}

void FetchUnit::on_credit(FetchCredit& c, sc_core::sc_time&) {
  if (c.warp >= warps_) throw std::logic_error("fetch: credit for warp " + std::to_string(c.warp) + " out of range");
  const uint64_t now = util::now_cycle();
  // One arriving credit per warp. Only tick() empties the slot, a slot it
  // emptied this cycle is free only from the next one, and tick() never
  // touches a credit of the current cycle: acceptance never depends on
  // SystemC's process order.
  Credit& k = staged_[c.warp];
  if (!k.valid && k.freed_at == now) return;  // issue retries next cycle
  if (k.valid) {
    // tick() may already have taken a credit of an earlier cycle: refuse in
    // both cases. One of this cycle is still untouched: the newer wins.
    if (k.visible_at <= now) return;
    const int32_t age = static_cast<int32_t>(c.gen - k.gen);  // wrap-safe generation order
    if (age == 0) return;
    c.accepted = true;
    if (age < 0) return;  // older than the one held: already abandoned
    ++redirected_credits_;
  }
  k.valid = true;
  k.pc = c.pc;
  k.gen = c.gen;
  k.addr = c.addr;
  k.bytes = c.bytes;
  k.visible_at = now + 1;
  staged_set_.set(c.warp);
  c.accepted = true;
  wake_next();
}

// Moves arrived credits (from earlier cycles) into the fetch scheduler's
// slots: a newer generation replaces the credit held for its warp (the warp
// was redirected), an older one is dropped, and one of the held generation
// waits until the held one has been fetched.
void FetchUnit::merge_staged(uint64_t now) {
  staged_set_.for_each([&](uint32_t w) {
    Credit& s = staged_[w];
    if (s.visible_at > now) return;
    Credit& k = credit_[w];
    if (k.valid) {
      const int32_t age = static_cast<int32_t>(s.gen - k.gen);  // wrap-safe generation order
      if (age == 0) return;  // same path: after the held one is fetched
      if (age < 0) {         // stale: drop it
        s.valid = false;
        s.freed_at = now;
        staged_set_.reset(w);
        return;
      }
      ++redirected_credits_;
    }
    k = s;
    k.visible_at = now;
    credit_set_.set(w);
    s.valid = false;
    s.freed_at = now;
    staged_set_.reset(w);
  });
}

void FetchUnit::collect_responses(uint64_t now) {
  uint64_t id;
  while (icache.pop_response(id)) {
    uint32_t w = static_cast<uint32_t>(id & kWarpMask);
    auto& q = inflight_.at(w);
    bool found = false;
    for (size_t i = 0; i < q.size(); ++i) {
      InFlight& f = q[i];
      if (f.id != id) continue;
      f.done = true;
      icache_waits_ += now - f.sent;
      found = true;
      break;
    }
    if (!found) throw std::logic_error("fetch: L1I answered an unknown request");
    // Pass on the warp's finished reads in fetch order.
    while (!q.empty() && q.front().done) {
      FetchedInstr fi;
      fi.warp = w;
      fi.pc = q.front().pc;
      fi.gen = q.front().gen;
      ready_.push_back(fi);
      q.pop_front();
    }
  }
}

// Hands up to `width` returned instructions to decode; false when decode refused one.
bool FetchUnit::deliver() {
  for (uint32_t n = 0; n < p_.width && !ready_.empty(); ++n) {
    FetchedInstr fi = ready_.front();
    fi.accepted = false;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(fi, t);
    if (!fi.accepted) return false;
    ready_.pop_front();
  }
  return true;
}

// Loose round-robin: starting after the warp fetched last, the first `width`
// warps with a visible credit each start one read. `stalled` = the L1I refused.
uint32_t FetchUnit::start_fetches(uint64_t now, bool& stalled) {
  uint32_t sent = 0;
  stalled = false;
  credit_set_.for_each_from((last_warp_ + 1) % warps_, [&](uint32_t w) {
    Credit& k = credit_[w];
    if (k.visible_at > now) return true;
    mem::MemRequest r;
    r.addr = k.addr;
    r.bytes = k.bytes;
    r.instruction = true;
    r.id = (seq_ << kWarpBits) | w;
    if (!icache.send(r)) {
      stalled = true;
      return false;
    }
    ++seq_;
    ++fetches_;
    ++sent;
    inflight_[w].push_back(InFlight{r.id, k.pc, k.gen, now, false});
    k.valid = false;
    credit_set_.reset(w);
    last_warp_ = w;
    return sent < p_.width;
  });
  return sent;
}

void FetchUnit::on_cycle(uint64_t now) {
  ++activations_;

  collect_responses(now);
  merge_staged(now);
  bool decode_refused = !deliver();
  bool icache_refused = false;
  const uint32_t sent = start_fetches(now, icache_refused);
  if (decode_refused || icache_refused) ++stall_cycles_;

  const bool credits_waiting = credit_set_.any() || staged_set_.any();
  const uint64_t trace_wake = wf_ ? write_signals(now, sent) : UINT64_MAX;
  if (credits_waiting || !ready_.empty())
    wake_next();
  else if (trace_wake != UINT64_MAX)
    sleep_until(trace_wake);
  // else idle until a credit or a read returns
}

uint64_t FetchUnit::write_signals(uint64_t now, uint32_t sent) {
  if (!wf_->in_window(now)) return now < wf_->window_start() ? wf_->window_start() : UINT64_MAX;
  // With width 1, a read started this cycle is the newest of last_warp_'s.
  const bool started = sent > 0;
  const uint32_t w = last_warp_;
  if (sig_warp_) sig_warp_->write(started ? static_cast<int32_t>(w) : -1);
  if (sig_pc_) {
    if (started)
      sig_pc_->set(inflight_[w].back().pc);
    else
      sig_pc_->set_undefined();
  }
  if (sig_credits_) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < warps_; ++k) n += credit_[k].valid || staged_[k].valid;
    sig_credits_->write(n);
  }
  if (sig_in_flight_) sig_in_flight_->write(static_cast<uint32_t>(icache.outstanding()));
  // A started read is shown for one cycle: come back to clear it. The read
  // in flight changes when the L1I answers, which wakes this method anyway.
  return started ? now + 1 : UINT64_MAX;
}

}  // namespace simt::sm
