#include "mem/dram_module.h"

#include <algorithm>
#include <stdexcept>

#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::mem {

DramModule::DramModule(sc_core::sc_module_name name, const DramParams& p, stats::Registry& stats,
                       const std::string& stats_name, trace::Waveform* waveform)
    : sc_core::sc_module(name), dram_(p, stats, stats_name), span_(std::min(p.interleave, p.row_bytes)) {
  for (uint32_t c = 0; c < p.channels; ++c)
    ports_.emplace_back(new MemResponder(("ch" + std::to_string(c)).c_str(), kPortCapacity));
  feed_.resize(p.channels);
  if (waveform && waveform->enabled()) {
    bool any = false;
    for (uint32_t c = 0; c < p.channels; ++c) {
      const std::string k = stats_name + ".ch" + std::to_string(c);
      ChannelSignals s;
      s.queue = waveform->signal<uint32_t>(k + ".queue", 0);
      s.row_hits = waveform->signal<uint32_t>(k + ".row_hits", 0);
      s.row_misses = waveform->signal<uint32_t>(k + ".row_misses", 0);
      s.busy = waveform->signal<bool>(k + ".busy", false);
      any = any || s.queue || s.row_hits || s.row_misses || s.busy;
      sig_.push_back(s);
    }
    if (any) wf_ = waveform;
  }
  attach_to_clock(true);
  for (auto& port : ports_) port->wake_on_request(*this);
}

DramModule::~DramModule() = default;

// Hands at most one piece of channel c's current request to the Dram.
void DramModule::take(uint32_t c, uint64_t now) {
  Feed& f = feed_[c];
  if (!f.active) {
    MemRequest r;
    if (!ports_[c]->pop_request(r)) return;
    const DramParams& p = dram_.params();
    const auto where = [&] {  // only for a message: no string work per request
      return std::string(name()) + ": request at " + std::to_string(r.addr) + " of " + std::to_string(r.bytes) +
             " bytes";
    };
    if (r.bytes == 0) throw std::logic_error(where() + " carries no data");
    if (r.atomic)
      throw std::logic_error(where() + " is atomic: atomics are performed at L2, DRAM serves line reads and writes");
    const uint64_t last = r.addr + r.bytes - 1;
    if (r.addr / p.interleave != last / p.interleave)
      throw input_error(where() + " spans two channels (dram.interleave " + std::to_string(p.interleave) +
                        "): the L2 line must not exceed the interleave");
    if (dram_.channel_of(r.addr) != c)
      throw std::logic_error(where() + " arrived on channel " + std::to_string(c) + " but belongs to channel " +
                             std::to_string(dram_.channel_of(r.addr)));
    const uint32_t slot = slots_.alloc();
    Slot& s = slots_[slot];
    s.req = r;
    s.channel = c;
    s.pending = uint32_t(last / span_ - r.addr / span_ + 1);  // one piece per row touched
    f.active = true;
    f.refused = false;
    f.slot = slot;
    f.addr = r.addr;
    f.left = r.bytes;
  }
  // Ask the Dram once per waiting request, so its reject counter counts requests.
  const bool room = f.refused ? dram_.queued(c) < dram_.params().queue : dram_.can_accept(c);
  if (!room) {
    f.refused = true;
    return;
  }
  DramRequest d;
  d.id = f.slot;
  d.addr = f.addr;
  d.bytes = uint32_t(std::min<uint64_t>(f.left, span_ - f.addr % span_));
  d.write = slots_[f.slot].req.write;
  dram_.accept(d, now);
  f.addr += d.bytes;
  f.left -= d.bytes;
  if (f.left == 0) f.active = false;
}

void DramModule::on_cycle(uint64_t now) {
  ++activations_;
  // Requests enter before the tick: one popped now can be scheduled now.
  for (uint32_t c = 0; c < ports_.size(); ++c) take(c, now);
  done_.clear();
  dram_.tick(now, done_);
  for (uint64_t id : done_) {
    Slot& s = slots_[id];
    if (--s.pending != 0) continue;
    ports_[s.channel]->respond(s.req);
    slots_.release(uint32_t(id));
  }

  uint64_t next = dram_.next_event(now);
  if (wf_) {
    write_signals(now);
    // The bus turns busy and idle between the Dram's own events: look every
    // cycle while it has work (the last look records it idle).
    if (wf_->in_window(now)) {
      if (!dram_.idle()) next = std::min(next, now + 1);
    } else if (now < wf_->window_start()) {
      next = std::min(next, wf_->window_start());
    }
  }
  for (uint32_t c = 0; c < ports_.size(); ++c) {
    const Feed& f = feed_[c];
    // A piece can go next cycle when its queue has room; a full queue frees at
    // one of the Dram's own events. Requests waiting at an idle feed (the
    // port's event fired already) are taken next cycle.
    const bool can_take = f.active ? dram_.queued(c) < dram_.params().queue : ports_[c]->has_request();
    if (can_take) next = std::min(next, now + 1);
  }
  if (next != Dram::kNever) sleep_until(next);
}

void DramModule::write_signals(uint64_t now) {
  const bool show = wf_->in_window(now);
  for (uint32_t c = 0; c < sig_.size(); ++c) {
    ChannelSignals& s = sig_[c];
    // Column accesses happen only in this method: the totals' growth since
    // its last run belongs to this cycle (added up if it runs twice in one).
    if (s.counted_at != now) {
      s.counted_at = now;
      s.hits_now = s.misses_now = 0;
    }
    s.hits_now += static_cast<uint32_t>(dram_.row_hits(c) - s.hits_seen);
    s.misses_now += static_cast<uint32_t>(dram_.row_misses(c) - s.misses_seen);
    s.hits_seen = dram_.row_hits(c);
    s.misses_seen = dram_.row_misses(c);
    if (!show) continue;
    if (s.queue) s.queue->write(dram_.queued(c));
    if (s.row_hits) s.row_hits->write(s.hits_now);
    if (s.row_misses) s.row_misses->write(s.misses_now);
    if (s.busy) s.busy->write(dram_.bus_busy(c, now));
  }
}

}  // namespace simt::mem
