#include "mem/cache_module.h"

#include <stdexcept>

#include <algorithm>

#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::mem {

namespace {

constexpr unsigned kKindShift = 62;
constexpr uint64_t kTagMask = (uint64_t{1} << kKindShift) - 1;

}  // namespace

void CachePortParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".ports", ports, "requests the cache looks up per cycle", 1, 64);
  r.add(prefix + ".in_queue", in_queue, "requests waiting at the cache's input before the sender is held back", 1,
        4096);
  r.add(prefix + ".down_queue", down_queue,
        "requests (misses, write-backs, forwarded writes) waiting to go to the next level before the cache stalls", 1,
        4096);
  r.add_choice(prefix + ".atomics", atomics, {"forward", "perform"},
               "forward: atomics bypass this cache (L1s); perform: atomics are read-modify-write accesses here (L2)");
}

void CachePortParams::validate(const std::string& prefix) const {
  auto bad = [&](const char* name, const std::string& why) {
    return simt::input_error("option " + prefix + "." + name + ": " + why);
  };
  if (ports == 0) throw bad("ports", "must be at least 1");
  if (in_queue == 0) throw bad("in_queue", "must be at least 1");
  if (down_queue == 0) throw bad("down_queue", "must be at least 1");
  if (atomics != "forward" && atomics != "perform")
    throw bad("atomics", "'" + atomics + "' is not one of forward, perform");
}

CacheModule::CacheModule(sc_core::sc_module_name name, const CacheParams& p, stats::Registry& stats,
                         const std::string& stats_name)
    : CacheModule(name, p, CachePortParams{}, stats, stats_name) {}

CacheModule::CacheModule(sc_core::sc_module_name name, const CacheParams& p, const CachePortParams& pp,
                         stats::Registry& st, const std::string& n, trace::Waveform* waveform)
    : sc_core::sc_module(name),
      up("up", (pp.validate(n), pp.in_queue)),
      down("down"),
      arbiter("arbiter"),
      pp_(pp),
      perform_atomics_(pp.atomics == "perform"),
      cache_(p, st, n),
      stalls_(st.counter(n + ".stalls", "cycles the input stalled: no MSHR or merge slot for the oldest request")),
      down_stalls_(st.counter(n + ".down_stalls", "cycles the input stalled: the queue toward the next level was full")),
      atomics_forwarded_(st.counter(n + ".atomics_forwarded", "atomics passed on untouched (atomics = forward)")),
      down_requests_(st.counter(n + ".down_requests", "requests sent to the next level (fills, write-backs, forwards)")),
      bytes_(st.counter(n + ".bytes", "bytes requested by the level above (reads, writes and atomics accepted)")) {
  if (waveform && waveform->enabled()) {
    sig_mshrs_ = waveform->signal<uint32_t>(n + ".mshrs", 0);
    sig_queue_ = waveform->signal<uint32_t>(n + ".queue", 0);
    sig_down_queue_ = waveform->signal<uint32_t>(n + ".down_queue", 0);
    sig_hits_ = waveform->signal<uint32_t>(n + ".hits", 0);
    sig_misses_ = waveform->signal<uint32_t>(n + ".misses", 0);
    hits_total_ = st.find_counter(n + ".hits");
    misses_total_ = st.find_counter(n + ".misses");
    if (!hits_total_ || !misses_total_) throw std::logic_error(n + ": the cache registered no hit/miss counters");
    if (sig_mshrs_ || sig_queue_ || sig_down_queue_ || sig_hits_ || sig_misses_) wf_ = waveform;
  }
  if (pp.up_ports < 1 || pp.up_ports > 64) throw std::invalid_argument(n + ": 1 to 64 input ports");
  ups_.push_back(&up);
  for (uint32_t k = 1; k < pp.up_ports; ++k) {
    more_up_.push_back(std::make_unique<MemResponder>(("up" + std::to_string(k)).c_str(), pp.in_queue));
    ups_.push_back(more_up_.back().get());
  }
  attach_to_clock(true);
  up.wake_on_request(*this);
  for (auto& u : more_up_) u->wake_on_request(*this);
  if (!more_up_.empty())
    for (uint32_t k = 0; k < ups_.size(); ++k) ups_[k]->flag_queued(&queued_ports_, uint64_t{1} << k);
  down.wake_on_response(*this);
}

uint32_t CacheModule::new_slot(const MemRequest& r, uint32_t port) {
  uint32_t s;
  if (free_slots_.empty()) {
    s = static_cast<uint32_t>(slots_.size());
    slots_.push_back(r);
    if (!more_up_.empty()) slot_port_.push_back(static_cast<uint8_t>(port));
  } else {
    s = free_slots_.back();
    free_slots_.pop_back();
    slots_[s] = r;
    if (!more_up_.empty()) slot_port_[s] = static_cast<uint8_t>(port);
  }
  return s;
}

bool CacheModule::any_request() const {
  if (more_up_.empty()) return up.has_request();
  for (uint64_t q = queued_ports_; q; q &= q - 1)
    if (ups_[static_cast<uint32_t>(__builtin_ctzll(q))]->has_request()) return true;
  return false;
}

void CacheModule::answer(uint32_t slot) {
  (more_up_.empty() ? up : *ups_[slot_port_[slot]]).respond(slots_[slot]);
  slots_[slot].payload = nullptr;
  free_slots_.push_back(slot);
}

void CacheModule::push_down(uint64_t ready, uint64_t addr, uint32_t bytes, bool write, bool atomic,
                            bool instruction, uint32_t source, DownKind kind, uint64_t tag) {
  DownEntry e;
  e.ready = ready;
  e.req.addr = addr;
  e.req.bytes = bytes;
  e.req.write = write;
  e.req.atomic = atomic;
  e.req.instruction = instruction;
  e.req.source = source;
  if (tag & ~kTagMask)  // the kind lives in the id's top bits: tags must stay below them
    throw std::logic_error(std::string(name()) + ": request tag 0x" + std::to_string(tag) +
                           " collides with the id's kind bits");
  e.req.id = (static_cast<uint64_t>(kind) << kKindShift) | tag;
  down_q_.push_back(e);
}

void CacheModule::take_responses(uint64_t now) {
  MemRequest r;
  while (down.pop_response(r)) {
    const auto kind = static_cast<DownKind>(r.id >> kKindShift);
    const uint64_t tag = r.id & kTagMask;
    if (kind == DownKind::Fill) {
      const Cache::FillResult f = cache_.fill(tag);
      for (uint32_t i = 0; i < f.n_waiting; ++i) answer(static_cast<uint32_t>(f.waiting[i]));
      if (f.writeback)
        push_down(now, f.victim_line, cache_.params().line, true, false, false, pp_.source, DownKind::Writeback, 0);
    } else if (kind == DownKind::Forward) {
      answer(static_cast<uint32_t>(tag));
    }
    // Writeback: nobody waits for it.
  }
}

bool CacheModule::accept(const MemRequest& r, uint32_t port, uint64_t now) {
  const bool atomic = r.atomic;
  if (atomic && !perform_atomics_) {
    const uint32_t s = new_slot(r, port);
    ++atomics_forwarded_;
    push_down(now, r.addr, r.bytes, r.write, true, r.instruction, r.source, DownKind::Forward, s);
    return true;
  }
  // An atomic performed here is a read-modify-write: a write access.
  const bool write = r.write || atomic;
  // The req_id is the slot the request will occupy: peek at it without
  // taking it, since a ReservationFail must leave nothing behind.
  const uint32_t s = free_slots_.empty() ? static_cast<uint32_t>(slots_.size()) : free_slots_.back();
  const Cache::Outcome o = cache_.access(r.addr, write, s);
  const uint64_t lookup_done = now + cache_.params().hit_latency;
  switch (o) {
    case Cache::Outcome::ReservationFail:
      return false;
    case Cache::Outcome::Hit:
      new_slot(r, port);
      hits_.push_back({lookup_done, s});
      return true;
    case Cache::Outcome::Miss: {
      new_slot(r, port);
      const uint64_t line = cache_.line_addr(r.addr);
      push_down(lookup_done, line, cache_.params().line, false, false, r.instruction, r.source, DownKind::Fill, line);
      return true;
    }
    case Cache::Outcome::MissMerged:
      new_slot(r, port);  // answered by the fill of the line's first miss
      return true;
    case Cache::Outcome::Installed: {  // write-validate: here now, answered as a hit
      new_slot(r, port);
      hits_.push_back({lookup_done, s});
      const Cache::FillResult& f = cache_.installed();
      if (f.writeback)
        push_down(now, f.victim_line, cache_.params().line, true, false, false, pp_.source, DownKind::Writeback, 0);
      return true;
    }
    case Cache::Outcome::WriteForward:
      new_slot(r, port);
      push_down(lookup_done, r.addr, r.bytes, true, atomic, r.instruction, r.source, DownKind::Forward, s);
      return true;
  }
  return true;
}

// Several input ports: `ports` lookups over them in round robin, starting
// one port later each cycle; a stall ends the cycle's lookups.
void CacheModule::end_of_elaboration() {
  if (arbiter.size() == 0) return;
  if (pp_.up_ports < 2 || pp_.up_ports > 32)
    throw std::logic_error(std::string(name()) + ": an input arbiter needs 2 to 32 input ports");
  arb_ = arbiter[0];
}

void CacheModule::lookup_granted(uint64_t now) {
  uint32_t asking = 0;
  for (uint64_t q = queued_ports_; q; q &= q - 1) {
    const uint32_t k = static_cast<uint32_t>(__builtin_ctzll(q));
    if (k < pp_.up_ports && ups_[k]->has_request()) asking |= 1u << k;
  }
  if (!asking) return;
  uint8_t order[32];
  const uint32_t n = std::min(arb_->grant(asking, order), pp_.ports);
  uint32_t taken = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t port = order[i];
    MemRequest r;
    if (port >= pp_.up_ports || !ups_[port]->peek_request(r))
      throw std::logic_error(std::string(name()) + ": the input arbiter granted a port with no request");
    if (down_q_.size() >= pp_.down_queue) {
      ++down_stalls_;
      break;
    }
    if (!accept(r, port, now)) {
      ++stalls_;
      break;
    }
    ups_[port]->pop_request();
    bytes_ += r.bytes;
    taken |= 1u << port;
  }
  arb_->served(asking, taken);
}

void CacheModule::lookup_ports(uint64_t now) {
  if (arb_) return lookup_granted(now);
  const uint32_t nup = pp_.up_ports;
  uint32_t looked = 0;
  bool stalled = false;
  for (uint32_t i = 0; i < nup && looked < pp_.ports && !stalled; ++i) {
    const uint32_t port = (up_rr_ + i) % nup;
    if (!((queued_ports_ >> port) & 1)) continue;  // nothing queued there
    MemResponder& in = *ups_[port];
    while (looked < pp_.ports && in.has_request()) {
      MemRequest r;
      if (!in.peek_request(r)) break;
      if (down_q_.size() >= pp_.down_queue) {
        ++down_stalls_;
        stalled = true;
        break;
      }
      if (!accept(r, port, now)) {
        ++stalls_;
        stalled = true;
        break;
      }
      in.pop_request();
      bytes_ += r.bytes;
      ++looked;
    }
  }
  up_rr_ = (up_rr_ + 1) % nup;
}

void CacheModule::on_cycle(uint64_t now) {
  take_responses(now);

  while (!hits_.empty() && hits_.front().ready <= now) {
    answer(hits_.front().slot);
    hits_.pop_front();
  }

  if (!down_q_.empty() && down_q_.front().ready <= now && down.send(down_q_.front().req)) {
    down_q_.pop_front();
    ++down_requests_;
  }

  // `ports` lookups, over the input ports in round robin (one port: all
  // from `up`); a stall ends the cycle's lookups.
  if (more_up_.empty()) {
    for (uint32_t k = 0; k < pp_.ports; ++k) {
      MemRequest r;
      if (!up.peek_request(r)) break;
      if (down_q_.size() >= pp_.down_queue) {
        ++down_stalls_;
        break;
      }
      if (!accept(r, 0, now)) {
        ++stalls_;
        break;
      }
      up.pop_request();
      bytes_ += r.bytes;
    }
  } else {
    lookup_ports(now);
  }

  const bool clear_next = wf_ && write_signals(now);

  // Work that needs the next cycle: a visible request (accepted or stalled),
  // a response, or a down entry that is ready (a refused send retries).
  const bool down_ready = !down_q_.empty() && down_q_.front().ready <= now + 1;
  if (up.has_request() || (!more_up_.empty() && any_request()) || down.has_response() || down_ready || clear_next) {
    wake_next();
    return;
  }
  // Otherwise sleep until the earliest timed work, or until a port delivers.
  uint64_t wake = UINT64_MAX;
  if (!hits_.empty()) wake = hits_.front().ready;
  if (!down_q_.empty()) wake = std::min(wake, down_q_.front().ready);
  // Asleep when the VCD window opens: wake then to record the values held.
  if (wf_ && now < wf_->window_start()) wake = std::min(wake, wf_->window_start());
  if (wake != UINT64_MAX) sleep_until(wake);
}

bool CacheModule::write_signals(uint64_t now) {
  // Counter differences: lookups since this method's previous run (lookups
  // happen only here). A reset of the counters restarts them.
  auto since = [](uint64_t total, uint64_t& seen) {
    const uint64_t d = total >= seen ? total - seen : total;
    seen = total;
    return static_cast<uint32_t>(d);
  };
  if (now != counted_at_) {  // a second run in one cycle adds to the first's
    counted_at_ = now;
    hits_now_ = misses_now_ = 0;
  }
  hits_now_ += since(hits_total_->value, hits_seen_);
  misses_now_ += since(misses_total_->value, misses_seen_);
  if (!wf_->in_window(now)) return false;
  const uint32_t hits = hits_now_, misses = misses_now_;
  if (sig_mshrs_) sig_mshrs_->write(cache_.mshrs_in_use());
  if (sig_queue_) sig_queue_->write(static_cast<uint32_t>(up.queued()));
  if (sig_down_queue_) sig_down_queue_->write(static_cast<uint32_t>(down_q_.size()));
  if (sig_hits_) sig_hits_->write(hits);
  if (sig_misses_) sig_misses_->write(misses);
  return hits != 0 || misses != 0;
}

}  // namespace simt::mem
