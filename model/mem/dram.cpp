#include "mem/dram.h"

#include <algorithm>
#include <stdexcept>

#include "util/error.h"

namespace simt::mem {

namespace {
bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

void DramParams::bind(config::ParamRegistry& r, const std::string& prefix) {
  r.add(prefix + ".channels", channels, "DRAM channels (one memory controller and L2 partition each)", 1, 256);
  r.add(prefix + ".banks", banks, "DRAM banks per channel", 1, 256);
  r.add(prefix + ".row_bytes", row_bytes, "DRAM row (page) size per bank in bytes, power of two", 32,
        1u << 20);
  r.add(prefix + ".bytes_per_cycle", bytes_per_cycle, "DRAM data bus bandwidth per channel, bytes per core cycle",
        1, 4096);
  r.add(prefix + ".queue", queue, "DRAM request queue capacity per channel", 1, 4096);
  r.add_choice(prefix + ".scheduler", scheduler, {"fr-fcfs", "fcfs"},
               "DRAM scheduler: fr-fcfs (oldest row hit first, else oldest) or fcfs (arrival order)");
  r.add(prefix + ".t_cl", t_cl, "DRAM CAS latency (column command to data), core cycles", 1, 10000);
  r.add(prefix + ".t_rp", t_rp, "DRAM precharge to activate, same bank, core cycles", 0, 10000);
  r.add(prefix + ".t_rcd", t_rcd, "DRAM activate to column command, core cycles", 0, 10000);
  r.add(prefix + ".t_ras", t_ras, "DRAM activate to precharge, same bank, core cycles", 0, 10000);
  r.add(prefix + ".t_rc", t_rc, "DRAM activate to activate, same bank, core cycles", 0, 10000);
  r.add(prefix + ".t_rrd", t_rrd, "DRAM activate to activate, different banks of a channel, core cycles", 0, 10000);
  r.add(prefix + ".latency", latency,
        "DRAM fixed controller/return-path cycles added after a request's last data beat", 0, 1000000);
  r.add(prefix + ".interleave", interleave, "bytes mapped to one DRAM channel before the next, power of two", 1,
        1u << 30);
}

void DramParams::validate(const std::string& prefix) const {
  auto bad = [&](const std::string& name, const std::string& why) {
    throw input_error("option " + prefix + "." + name + ": " + why);
  };
  if (channels == 0) bad("channels", "must be at least 1");
  if (banks == 0) bad("banks", "must be at least 1");
  if (!is_pow2(row_bytes)) bad("row_bytes", std::to_string(row_bytes) + " is not a power of two");
  if (bytes_per_cycle == 0) bad("bytes_per_cycle", "must be at least 1");
  if (queue == 0) bad("queue", "must be at least 1");
  if (scheduler != "fr-fcfs" && scheduler != "fcfs")
    bad("scheduler", "'" + scheduler + "' is not one of fr-fcfs, fcfs");
  if (t_cl == 0) bad("t_cl", "must be at least 1");
  if (t_ras < t_rcd)
    bad("t_ras", std::to_string(t_ras) + " is less than t_rcd (" + std::to_string(t_rcd) +
                     "): a row would close before it can be read");
  if (!is_pow2(interleave)) bad("interleave", std::to_string(interleave) + " is not a power of two");
}

Dram::Dram(const DramParams& p, stats::Registry& stats, const std::string& stats_name)
    : p_(p),
      frfcfs_(p.scheduler == "fr-fcfs"),
      reads_(stats.counter(stats_name + ".reads", "read requests served by DRAM")),
      writes_(stats.counter(stats_name + ".writes", "write requests served by DRAM")),
      bytes_(stats.counter(stats_name + ".bytes", "bytes moved over the DRAM data buses")),
      row_hits_(stats.counter(stats_name + ".row_hits", "requests served from a row opened for another request")),
      row_misses_(stats.counter(stats_name + ".row_misses", "requests that needed their own row activation")),
      rejects_(stats.counter(stats_name + ".queue_full_rejects", "requests refused because a channel queue was full")) {
  p_.validate("dram");
  ch_.resize(p_.channels);
  for (uint32_t i = 0; i < p_.channels; ++i) {
    Channel& c = ch_[i];
    c.banks.assign(p_.banks, Bank{});
    c.queue.reserve(p_.queue);
    c.inflight.resize(64);
    c.bank_claimed.assign(p_.banks, 0);
    c.busy_cycles = &stats.counter(stats_name + ".ch" + std::to_string(i) + ".busy_cycles",
                                   "cycles the channel's data bus was transferring");
  }
}

DramAddress Dram::decode(uint64_t addr) const {
  const uint64_t chunk = addr / p_.interleave;
  const uint64_t local = partition_local(addr, p_.interleave, p_.channels);
  DramAddress a;
  a.channel = uint32_t(chunk % p_.channels);
  a.bank = uint32_t((local / p_.row_bytes) % p_.banks);
  a.row = local / (uint64_t(p_.row_bytes) * p_.banks);
  return a;
}

bool Dram::can_accept(uint32_t channel) {
  if (ch_[channel].queue.size() < p_.queue) return true;
  ++rejects_;
  return false;
}

void Dram::accept(const DramRequest& r, uint64_t now) {
  if (r.bytes == 0) throw std::logic_error("dram: request of 0 bytes");
  // Requests are cache-line sized; one must stay inside one channel chunk and one row.
  const uint64_t span = std::min<uint64_t>(p_.interleave, p_.row_bytes);
  if (r.addr % span + r.bytes > span)
    throw std::logic_error("dram: request at " + std::to_string(r.addr) + " of " + std::to_string(r.bytes) +
                           " bytes crosses a channel chunk or a row");
  const DramAddress a = decode(r.addr);
  Channel& c = ch_[a.channel];
  if (c.queue.size() >= p_.queue) throw std::logic_error("dram: accept() on a full channel queue");
  Queued q;
  q.id = r.id;
  q.row = a.row;
  q.visible = now;
  q.bank = a.bank;
  q.xfer = (r.bytes + p_.bytes_per_cycle - 1) / p_.bytes_per_cycle;
  q.bytes = r.bytes;
  q.write = r.write;
  q.activated = false;
  c.queue.push_back(q);
  c.next_known = false;
}

Dram::Cmd Dram::next_cmd(const Channel& c, const Queued& q) const {
  const Bank& b = c.banks[q.bank];
  if (b.open_row == q.row) return Cmd::Cas;
  return b.open_row == kNoRow ? Cmd::Act : Cmd::Pre;
}

uint64_t Dram::cmd_ready(const Channel& c, const Queued& q, Cmd cmd) const {
  const Bank& b = c.banks[q.bank];
  uint64_t t = q.visible;
  switch (cmd) {
    case Cmd::Cas:
      t = std::max(t, b.cas_ready);
      // The data must find the bus free t_cl cycles later.
      if (c.bus_free > p_.t_cl) t = std::max(t, c.bus_free - p_.t_cl);
      break;
    case Cmd::Pre: t = std::max(t, b.pre_ready); break;
    case Cmd::Act: t = std::max({t, b.act_ready, c.act_ready}); break;
    case Cmd::None: break;
  }
  return t;
}

void Dram::push_inflight(Channel& c, const InFlight& f) {
  if (c.inflight_count == c.inflight.size()) {  // grow (rare: only until the ring fits the pipeline)
    std::vector<InFlight> bigger(c.inflight.size() * 2);
    for (uint32_t i = 0; i < c.inflight_count; ++i)
      bigger[i] = c.inflight[(c.inflight_head + i) % c.inflight.size()];
    c.inflight.swap(bigger);
    c.inflight_head = 0;
  }
  c.inflight[(c.inflight_head + c.inflight_count) % c.inflight.size()] = f;
  ++c.inflight_count;
}

void Dram::issue(Channel& c, size_t qi, Cmd cmd, uint64_t now) {
  Queued& q = c.queue[qi];
  Bank& b = c.banks[q.bank];
  switch (cmd) {
    case Cmd::Act:
      b.open_row = q.row;
      b.cas_ready = now + p_.t_rcd;
      b.pre_ready = now + p_.t_ras;
      b.act_ready = now + p_.t_rc;  // next ACT also waits t_rp after the PRE
      c.act_ready = now + p_.t_rrd;
      q.activated = true;
      break;
    case Cmd::Pre:
      b.open_row = kNoRow;
      b.act_ready = std::max(b.act_ready, now + p_.t_rp);
      break;
    case Cmd::Cas: {
      const uint64_t start = now + p_.t_cl;
      const uint64_t end = start + q.xfer;
      c.bus_free = end;
      // A write's data must reach the array before the row closes.
      b.pre_ready = std::max(b.pre_ready, q.write ? end : now + 1);
      *c.busy_cycles += q.xfer;
      ++(q.write ? writes_ : reads_);
      bytes_ += q.bytes;
      ++(q.activated ? row_misses_ : row_hits_);
      ++(q.activated ? c.row_misses : c.row_hits);
      push_inflight(c, InFlight{end + p_.latency, q.id, start, end});
      c.queue.erase(c.queue.begin() + qi);  // <= queue entries, no allocation
      break;
    }
    case Cmd::None: break;
  }
}

// One command per channel per cycle. Column commands: FR-FCFS takes the
// oldest ready row hit; FCFS only the oldest request. Row commands (PRE/ACT)
// go to the oldest request of each bank, so bank activations overlap other
// banks' transfers; FR-FCFS does not close a row that queued requests still hit.
bool Dram::schedule(Channel& c, uint64_t now) {
  if (c.queue.empty()) return false;
  const size_t n = c.queue.size();
  // Column command.
  for (size_t i = 0; i < n; ++i) {
    const Queued& q = c.queue[i];
    if (next_cmd(c, q) == Cmd::Cas && cmd_ready(c, q, Cmd::Cas) <= now) {
      issue(c, i, Cmd::Cas, now);
      return true;
    }
    if (!frfcfs_) break;
  }
  // Row command.
  std::fill(c.bank_claimed.begin(), c.bank_claimed.end(), 0);
  if (frfcfs_)
    for (const Queued& q : c.queue)
      if (c.banks[q.bank].open_row == q.row) c.bank_claimed[q.bank] = 1;
  for (size_t i = 0; i < n; ++i) {
    const Queued& q = c.queue[i];
    if (c.bank_claimed[q.bank]) continue;
    c.bank_claimed[q.bank] = 1;
    const Cmd cmd = next_cmd(c, q);
    if (cmd == Cmd::Cas) continue;  // FCFS: a younger hit waits for its turn
    if (cmd_ready(c, q, cmd) <= now) {
      issue(c, i, cmd, now);
      return true;
    }
  }
  return false;
}

void Dram::retire(Channel& c, uint64_t now, std::vector<uint64_t>& done_ids) {
  while (c.inflight_count != 0 && c.inflight[c.inflight_head].done <= now) {
    done_ids.push_back(c.inflight[c.inflight_head].id);
    c.inflight_head = uint32_t((c.inflight_head + 1) % c.inflight.size());
    --c.inflight_count;
  }
}

bool Dram::tick(uint64_t now, std::vector<uint64_t>& done_ids) {
  bool progress = false;
  for (Channel& c : ch_) {
    if (c.next_known && c.next > now) continue;  // nothing can happen on it yet
    const size_t before = done_ids.size();
    retire(c, now, done_ids);
    const bool changed = schedule(c, now) || done_ids.size() != before;
    if (changed) c.next_known = false;
    progress |= changed;
  }
  return progress;
}

uint64_t Dram::next_event(uint64_t now) const {
  uint64_t t = kNever;
  for (const Channel& c : ch_) {
    if (!c.next_known) {
      c.next = channel_next(c);
      c.next_known = true;
    }
    t = std::min(t, c.next);
  }
  if (t == kNever) return kNever;
  return std::max(t, now + 1);
}

// Mirrors schedule()'s eligibility with the current state; state changes
// only at the cycles this returns (or on accept()), so it is a lower bound.
uint64_t Dram::channel_next(const Channel& c) const {
  uint64_t t = kNever;
  if (c.inflight_count != 0) t = c.inflight[c.inflight_head].done;
  if (c.queue.empty()) return t;
  std::vector<uint8_t>& claimed = c.bank_claimed;
  std::fill(claimed.begin(), claimed.end(), 0);
  for (size_t i = 0; i < c.queue.size(); ++i) {
    const Queued& q = c.queue[i];
    const Cmd cmd = next_cmd(c, q);
    if (cmd == Cmd::Cas) {
      if (frfcfs_ || i == 0) t = std::min(t, cmd_ready(c, q, cmd));
      if (frfcfs_) claimed[q.bank] = 1;
    }
  }
  for (const Queued& q : c.queue) {
    if (claimed[q.bank]) continue;
    claimed[q.bank] = 1;
    const Cmd cmd = next_cmd(c, q);
    if (cmd != Cmd::Cas) t = std::min(t, cmd_ready(c, q, cmd));
  }
  return t;
}

bool Dram::bus_busy(uint32_t channel, uint64_t now) const {
  // A transfer stays in flight `latency` cycles past its data, so every one
  // that could still be on the bus is in the ring.
  const Channel& c = ch_[channel];
  for (uint32_t i = 0; i < c.inflight_count; ++i) {
    const InFlight& f = c.inflight[(c.inflight_head + i) % c.inflight.size()];
    if (f.bus_start <= now && now < f.bus_end) return true;
  }
  return false;
}

bool Dram::idle() const {
  for (const Channel& c : ch_)
    if (!c.queue.empty() || c.inflight_count != 0) return false;
  return true;
}

}  // namespace simt::mem
