#include "vgiw/mt_cgrf.h"

#include <algorithm>
#include <deque>

#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::vgiw {

// A batch at an initiator: what the executor decided for its threads.
struct MtCgrf::BatchData {
  VgiwCta* cta = nullptr;
  uint32_t base = 0;
  uint64_t left = 0;  // threads not injected yet
  BatchResult res;
};

// A virtual channel: one thread in flight in one replica.
// Its per-node state lives in MtCgrf's flat arrays at [channel * nodes + node].
struct MtCgrf::Channel {
  uint32_t replica = 0;
  bool busy = false;
  std::shared_ptr<BatchData> batch;
  uint32_t bit = 0;
};

struct MtCgrf::Replica {
  const Route* route = nullptr;                                  // its placement (the block set-up's)
  std::deque<std::shared_ptr<BatchData>> queue;                  // at the initiator (two at most)
  // Free channels: those freed since the configuration (taken last freed
  // first), then the never used ones [fresh, fresh_end) in order; the same
  // order as one stack filled with every channel at configuration, without
  // filling it each time.
  std::vector<uint32_t> freed;
  uint32_t fresh = 0, fresh_end = 0;
  bool has_free() const { return !freed.empty() || fresh < fresh_end; }
  uint32_t take() {
    if (freed.empty()) return fresh++;
    const uint32_t ch = freed.back();
    freed.pop_back();
    return ch;
  }
  uint32_t busy = 0;
  struct Builder {
    uint32_t next, base;
    uint64_t bits;
  };
  std::vector<Builder> builders;  // returning batches, per next block
};

MtCgrf::MtCgrf(sc_core::sc_module_name name, const VgiwParams& v, const sm::SmParams& sm, stats::Registry& st,
               const std::string& sm_stats, uint32_t core_id, trace::Waveform* wf)
    : sc_core::sc_module(name),
      configure("configure", this, &MtCgrf::on_configure),
      batches("batches", this, &MtCgrf::on_batch),
      returns("returns"),
      l1d("l1d", v.units[Unit::Ldst]),
      lvc("lvc", v.units[Unit::Lvu]),
      power("power"),
      v_(v),
      sm_(sm),
      core_id_(core_id),
      layout_(v.units),
      n_(sm_stats + ".grid"),
      threads_(st.counter(n_ + ".threads", "threads streamed through the grid (one per thread and block)")),
      batches_(st.counter(n_ + ".batches", "thread batches taken by initiator CVUs")),
      conflicts_(st.counter(n_ + ".unit_conflicts", "token sets that waited a cycle for a unit that had fired")),
      reservation_stalls_(st.counter(n_ + ".reservation_stalls",
                                     "cycles a memory node waited for room in its unit's reservation buffer")),
      channel_cycles_(st.counter(n_ + ".channel_cycles", "threads in flight x cycles (token-buffer occupancy)")),
      configs_(st.counter(n_ + ".configurations", "grid reconfigurations")),
      config_cycles_(st.counter(n_ + ".configuration_cycles", "cycles spent reconfiguring")),
      l1d_requests_(st.counter(n_ + ".l1d_requests", "line requests from LDST units to the L1")),
      lvc_reads_(st.counter(n_ + ".lvc_reads", "live values read from the LVC")),
      lvc_writes_(st.counter(n_ + ".lvc_writes", "live values written to the LVC")),
      shared_(st.counter(n_ + ".shared_accesses", "thread accesses to shared memory")),
      thread_instructions_(st.counter(sm_stats + ".thread_instructions", "thread instructions executed")),
      batch_instructions_(st.counter(sm_stats + ".warp_instructions",
                                     "instructions executed per thread batch (VGIW has no warps)")),
      int_threads_(st.counter(sm_stats + ".int_thread_instructions", "thread instructions of the INT class")),
      fp_threads_(st.counter(sm_stats + ".fp_thread_instructions", "thread instructions of the FP class")),
      sfu_threads_(st.counter(sm_stats + ".sfu_thread_instructions", "thread instructions of the SFU class")),
      token_hops_(st.counter(n_ + ".token_hops", "token-cycles on the interconnect (edge latencies of every token)")),
      bank_conflicts_(st.counter(n_ + ".l1_bank_conflicts",
                                 "cycles an LDST port's request waited because its L1 bank was taken")),
      reg_(st) {
  for (size_t u = 0; u < kUnitTypes; ++u)
    firings_.push_back(&st.counter(n_ + "." + unit_name(static_cast<Unit>(u)) + "_firings",
                                   std::string("token sets fired by ") + unit_name(static_cast<Unit>(u)) +
                                       " units (busy unit-cycles)"));
  if (wf && wf->enabled()) {
    for (size_t u = 0; u < kUnitTypes; ++u)
      sig_busy_.push_back(wf->signal<uint32_t>(n_ + "." + unit_name(static_cast<Unit>(u)) + "_busy", 0));
    sig_threads_ = wf->signal<uint32_t>(n_ + ".threads", 0);
    wf_ = wf;
  }
  port_of_unit_.assign(layout_.units(), kNone);
  for (Unit t : {Unit::Ldst, Unit::Lvu}) {
    const auto& us = layout_.units_of(t);
    for (uint32_t k = 0; k < us.size(); ++k) port_of_unit_[us[k]] = k;
  }
  lane_of_unit_.assign(layout_.units(), kNone);
  const auto& alus = layout_.units_of(Unit::FpAlu);
  for (uint32_t k = 0; k < alus.size(); ++k) lane_of_unit_[alus[k]] = k;
  unit_free_.assign(layout_.units(), 0);
  reserved_.assign(layout_.units(), 0);
  waiters_.resize(layout_.units());
  l1d_q_.resize(l1d.size());
  lvc_q_.resize(lvc.size());
  attach_to_clock(false);
  for (auto& p : l1d) p.wake_on_response(*this);
  for (auto& p : lvc) p.wake_on_response(*this);
}

MtCgrf::~MtCgrf() = default;

void MtCgrf::end_of_elaboration() {
  if (power.size() == 0) return;
  power_if_ = power.operator->();
  wakeup_stalls_ = &reg_.counter(n_ + ".wakeup_stall_cycles",
                                 "grid cycles token sets waited for their FP-ALU to wake up (power gating)");
}

uint64_t MtCgrf::power_ready(uint32_t unit, bool fp, uint64_t g, uint32_t latency) {
  const uint64_t gc = v_.grid_clock, c = g / gc;
  const uint64_t lanes = uint64_t{1} << lane_of_unit_[unit];
  sm::LaneUseRequest r;
  r.kind = sm::LaneUseRequest::TryUse;
  r.fp = fp;
  r.now = c;
  r.pass_lanes = &lanes;
  r.passes = 1;
  r.latency = static_cast<uint32_t>(std::max<uint64_t>(1, (g + latency + gc - 1) / gc - c));
  sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
  power_if_->b_transport(r, zero);
  if (r.accepted) return g;
  r.kind = sm::LaneUseRequest::Wake;
  r.accepted = false;
  power_if_->b_transport(r, zero);
  const uint64_t ready = std::max(r.ready_at * gc, g + 1);
  *wakeup_stalls_ += ready - g;
  return ready;
}

MtCgrf::BlockSetup& MtCgrf::setup_for(const GridConfigure& g) {
  if (!g.owner || g.owner != setups_owner_) {  // another compilation: its blocks are others
    setups_.clear();
    setups_owner_ = g.owner;
  }
  auto [it, fresh] = setups_.try_emplace(g.block);
  BlockSetup& s = it->second;
  if (!fresh) return s;
  const CompiledBlock& b = *g.block;
  s.runner = std::make_unique<BatchRunner>(*g.compilation, b, sm_.l1d.line, kLocalRegion + (uint64_t{core_id_} << 40));
  const auto& nodes = b.graph.nodes();
  s.latency.resize(nodes.size());
  s.inputs.resize(nodes.size());
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    s.latency[i] = node_latency(nodes[i]);
    s.inputs[i] = static_cast<uint16_t>(nodes[i].data.size() + nodes[i].control.size());
  }
  for (const vgiw::Replica& pr : b.placement.replicas) {
    Route& r = s.routes.emplace_back();
    r.unit = pr.unit_of;
    r.out.assign(nodes.size(), {});
    for (const RoutedEdge& e : pr.edges) r.out[e.from].push_back({e.to, e.latency});
  }
  return s;
}

bool MtCgrf::busy() const {
  if (in_flight_) return true;
  for (const auto& r : replicas_)
    if (!r->queue.empty()) return true;
  return false;
}

uint32_t MtCgrf::node_latency(const Node& n) const {
  switch (n.kind) {
    case NodeKind::Join: return 1;
    case NodeKind::Instr: {
      if (n.unit == Unit::Ldst) return 0;  // memory: the responses decide
      const ptx::Instr& in = comp_->program().code[n.pc];
      // The SIMT SM's latencies are core cycles: the same time in grid cycles.
      const uint32_t t = sm_.ops.lookup(in).latency;
      if (t) return t * v_.grid_clock;
      return (in.cls == ptx::InstrClass::Sfu ? sm_.sfu.latency : sm_.sp.latency) * v_.grid_clock;
    }
    default: return 0;
  }
}

void MtCgrf::on_configure(GridConfigure& g, sc_core::sc_time&) {
  if (busy() || !g.block || !g.compilation) return;  // threads of the last block still run: refuse
  const uint64_t now = util::now_cycle();
  comp_ = g.compilation;
  block_ = g.block;
  slots_ = g.slots;
  const BlockSetup& s = setup_for(g);
  setup_ = &s;
  runner_ = s.runner.get();
  const size_t nrep = s.routes.size();
  while (replicas_.size() < nrep) replicas_.push_back(std::make_unique<Replica>());
  replicas_.resize(nrep);
  for (size_t r = 0; r < nrep; ++r) {  // idle (busy() was false): only their storage is kept
    Replica& rep = *replicas_[r];
    rep.route = &s.routes[r];
    rep.queue.clear();
    rep.freed.clear();
    rep.fresh = static_cast<uint32_t>(r) * v_.channels;
    rep.fresh_end = rep.fresh + v_.channels;
    rep.busy = 0;
    rep.builders.clear();
  }
  nodes_ = static_cast<uint32_t>(s.latency.size());
  // Every channel is idle here (busy() was false): grown only, never reset.
  if (channels_.size() < replicas_.size() * v_.channels) channels_.resize(replicas_.size() * v_.channels);
  const size_t cells = channels_.size() * nodes_;
  if (ready_.size() < cells) {  // grown only: no allocation on most reconfigurations
    ready_.resize(cells);
    waiting_.resize(cells);
    mem_left_.resize(cells);
  }
  configured_at_ = now * v_.grid_clock + v_.reconfig_cycles;  // a grid cycle
  ++configs_;
  config_cycles_ += v_.reconfig_core_cycles();
  g.accepted = true;
  wake_next();
}

void MtCgrf::on_batch(ThreadBatch& b, sc_core::sc_time&) {
  if (!block_ || b.replica >= replicas_.size() || replicas_[b.replica]->queue.size() >= 2) return;
  // A batch record no thread uses any more keeps its buffers for this one.
  std::shared_ptr<BatchData> d;
  for (auto& p : batch_pool_)
    if (p.use_count() == 1) {
      d = p;
      break;
    }
  if (!d) {
    d = std::make_shared<BatchData>();
    batch_pool_.push_back(d);
  }
  d->cta = b.cta;
  d->base = b.base;
  d->left = b.bits;
  try {
    runner_->run(*b.cta, b.base, b.bits, d->res);
  } catch (...) {
    fault_.keep_current();
    b.accepted = true;
    return;
  }
  thread_instructions_ += d->res.thread_instructions;
  batch_instructions_ += d->res.batch_instructions;
  int_threads_ += d->res.int_threads;
  fp_threads_ += d->res.fp_threads;
  sfu_threads_ += d->res.sfu_threads;
  replicas_[b.replica]->queue.push_back(std::move(d));
  ++batches_;
  b.accepted = true;
  wake_next();
}

void MtCgrf::push(uint64_t cycle, uint32_t channel, uint32_t node, uint8_t kind) {
  events_.push(cycle, Event{channel, node, kind});
}

uint32_t MtCgrf::request_id(uint32_t channel, uint32_t node, uint32_t unit) {
  uint32_t id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
    out_[id] = {channel, node, unit};
  } else {
    id = static_cast<uint32_t>(out_.size());
    out_.push_back({channel, node, unit});
  }
  return id;
}

void MtCgrf::complete(uint32_t ch, uint32_t node, uint64_t at) {
  const Channel& c = channels_[ch];
  uint64_t* ready = &ready_[size_t{ch} * nodes_];
  uint16_t* waiting = &waiting_[size_t{ch} * nodes_];
  for (const auto& [to, lat] : replicas_[c.replica]->route->out[node]) {
    token_hops_ += lat;
    ready[to] = std::max(ready[to], at + lat);
    if (--waiting[to] == 0) push(ready[to], ch, to, kArrive);
  }
}

void MtCgrf::finish_thread(uint32_t ch) {
  Channel& c = channels_[ch];
  Replica& r = *replicas_[c.replica];
  const uint32_t next = c.batch->res.next[c.bit];
  const uint32_t slot = c.batch->base + c.bit;
  const uint32_t base = slot & ~63u;
  auto it = std::find_if(r.builders.begin(), r.builders.end(),
                         [&](const Replica::Builder& b) { return b.next == next; });
  if (it != r.builders.end() && it->base != base) {  // another word: send the one collected
    returns_q_.push_back(BatchReturn{it->next, it->base, it->bits, false});
    r.builders.erase(it);
    it = r.builders.end();
  }
  if (it == r.builders.end()) r.builders.push_back({next, base, 0});
  for (auto& b : r.builders)
    if (b.next == next) b.bits |= uint64_t{1} << (slot & 63);
  c.busy = false;
  c.batch.reset();
  r.freed.push_back(ch);
  --r.busy;
  --in_flight_;
}

void MtCgrf::flush_returns(Replica& r) {
  for (const auto& b : r.builders) returns_q_.push_back(BatchReturn{b.next, b.base, b.bits, false});
  r.builders.clear();
}

void MtCgrf::take_responses(uint64_t now) {
  const uint64_t g = now * v_.grid_clock;  // responses arrive at the core cycle's first grid cycle
  auto take = [&](mem::MemRequester& port) {
    if (!port.has_response()) return;
    uint64_t id;
    while (port.pop_response(id)) {
      const Outstanding o = out_[id];
      free_ids_.push_back(static_cast<uint32_t>(id));
      --reserved_[o.unit];
      if (o.node != kNone && --mem_left_[size_t{o.channel} * nodes_ + o.node] == 0) complete(o.channel, o.node, g);
      auto& w = waiters_[o.unit];
      if (!w.empty()) {  // room again: the oldest waiting node fires (next grid cycle)
        push(g + 1, w.front().first, w.front().second, kFire);
        w.pop_front();
      }
    }
  };
  for (auto& p : l1d) take(p);
  for (auto& p : lvc) take(p);
}

void MtCgrf::inject(uint64_t now) {  // `now`: a grid cycle
  if (now < configured_at_) return;
  for (auto& rp : replicas_) {
    Replica& r = *rp;
    while (!r.queue.empty() && r.queue.front()->left == 0) r.queue.pop_front();
    if (r.queue.empty() || !r.has_free()) continue;
    BatchData& d = *r.queue.front();
    const uint32_t bit = static_cast<uint32_t>(__builtin_ctzll(d.left));
    d.left &= d.left - 1;
    const uint32_t ch = r.take();
    Channel& c = channels_[ch];
    c.replica = ch / v_.channels;
    c.busy = true;
    c.batch = r.queue.front();
    c.bit = bit;
    std::fill_n(&ready_[size_t{ch} * nodes_], nodes_, 0);
    std::copy(setup_->inputs.begin(), setup_->inputs.end(), &waiting_[size_t{ch} * nodes_]);
    ++r.busy;
    ++in_flight_;
    ++threads_;
    count_firing(Unit::Cvu);
    unit_free_[r.route->unit[0]] = now + 1;
    complete(ch, 0, now);  // the initiator sends the thread's tokens
    if (d.left == 0) r.queue.pop_front();
  }
}

void MtCgrf::fire(const Event& e, uint64_t now) {
  Channel& c = channels_[e.channel];
  if (!c.busy)
    throw internal_error(std::string(name()) + ": a token for node " + std::to_string(e.node) +
                         " of a thread that has finished");
  if (e.kind == kDone) {
    complete(e.channel, e.node, now);
    return;
  }
  Replica& r = *replicas_[c.replica];
  const uint32_t unit = r.route->unit[e.node];
  if (e.kind == kArrive) {
    // One token set a cycle per unit, in arrival order: take the unit's next
    // free cycle (a set that arrives while others wait queues behind them).
    const uint64_t at = std::max(now, unit_free_[unit]);
    unit_free_[unit] = at + 1;
    if (at > now) {
      conflicts_ += at - now;
      push(at, e.channel, e.node, kFire);
      return;
    }
  }
  const Node& n = block_->graph.nodes()[e.node];
  if (power_if_ && n.kind == NodeKind::Instr && n.unit == Unit::FpAlu) {
    const bool fp = comp_->program().code[n.pc].cls == ptx::InstrClass::Fp;
    const uint64_t at = power_ready(unit, fp, now, setup_->latency[e.node]);
    if (at > now) {  // its unit wakes up: nothing else fires there meanwhile
      unit_free_[unit] = std::max(unit_free_[unit], at + 1);
      push(at, e.channel, e.node, kFire);
      return;
    }
  }
  const BatchResult& res = c.batch->res;
  switch (n.kind) {
    case NodeKind::Terminator:
      count_firing(Unit::Cvu);
      finish_thread(e.channel);
      return;
    case NodeKind::LiveLoad:
    case NodeKind::LiveStore: {
      if (reserved_[unit] >= v_.ldst_reservations) {
        ++reservation_stalls_;
        waiters_[unit].push_back({e.channel, e.node});
        return;
      }
      const bool write = n.kind == NodeKind::LiveStore;
      const uint32_t slot = c.batch->base + c.bit;
      mem::MemRequest q;
      // Row = live value ID, column = thread slot; each row padded by a line
      // so that rows do not all map to the same LVC sets.
      const uint64_t row = uint64_t{slots_} * v_.lvc_entry_bytes + v_.lvc.line;
      q.addr = kLvcRegion + (uint64_t{core_id_} << 40) + uint64_t{n.live_id == kNone ? 0 : n.live_id} * row +
               uint64_t{slot} * v_.lvc_entry_bytes;
      q.bytes = v_.lvc_entry_bytes;
      q.write = write;
      q.source = core_id_;
      // Writes are posted: the store completes once its LVU has it, and the
      // reservation buffer holds it until the LVC answers (a later read of
      // the entry meets it in the LVC's MSHRs).
      q.id = request_id(e.channel, write ? kNone : e.node, unit);
      lvc_q_[port_of_unit_[unit]].push_back({q, 0});
      ++reserved_[unit];
      ++(write ? lvc_writes_ : lvc_reads_);
      if (write) {
        push(now + 1, e.channel, e.node, kDone);
      } else {
        mem_left_[size_t{e.channel} * nodes_ + e.node] = 1;
      }
      break;
    }
    case NodeKind::Instr:
      if (n.unit == Unit::Ldst) {
        const uint32_t m = runner_->memory_index(e.node);
        const uint32_t first = res.first[m * 65 + c.bit], last = res.first[m * 65 + c.bit + 1];
        if (first == last) {  // shared memory, or nothing to touch (guard false)
          if (res.shared[m]) ++shared_;
          push(now + (res.shared[m] ? sm_.ldst.shared.latency * v_.grid_clock : 1), e.channel, e.node, kDone);
          break;
        }
        if (reserved_[unit] + (last - first) > v_.ldst_reservations && reserved_[unit] > 0) {
          ++reservation_stalls_;
          waiters_[unit].push_back({e.channel, e.node});
          return;
        }
        for (uint32_t k = first; k < last; ++k) {
          const LineAccess& a = res.lines[k];
          mem::MemRequest q;
          q.addr = a.addr;
          q.bytes = a.bytes;
          q.write = a.write;
          q.atomic = a.atomic;
          q.source = core_id_;
          q.id = request_id(e.channel, e.node, unit);
          l1d_q_[port_of_unit_[unit]].push_back({q, static_cast<uint32_t>((a.addr / 4 + a.word) % v_.l1_banks)});
          ++reserved_[unit];
        }
        l1d_requests_ += last - first;
        mem_left_[size_t{e.channel} * nodes_ + e.node] = static_cast<uint16_t>(last - first);
        break;
      }
      push(now + setup_->latency[e.node], e.channel, e.node, kDone);
      break;
    default:  // joins
      push(now + std::max<uint32_t>(1, setup_->latency[e.node]), e.channel, e.node, kDone);
      break;
  }
  count_firing(n.unit);
}

void MtCgrf::send_requests() {
  // L1: one request per bank a cycle, the ports in round robin.
  uint64_t banks = 0;
  const uint32_t np = static_cast<uint32_t>(l1d_q_.size());
  for (uint32_t k = 0; k < np; ++k) {
    const uint32_t p = (l1_rr_ + k) % np;
    if (l1d_q_[p].empty()) continue;
    const uint64_t bit = uint64_t{1} << l1d_q_[p].front().bank;
    if (banks & bit) {
      ++bank_conflicts_;
      continue;
    }
    if (l1d[p].send(l1d_q_[p].front().req)) {
      l1d_q_[p].pop_front();
      banks |= bit;
    }
  }
  l1_rr_ = np ? (l1_rr_ + 1) % np : 0;
  for (size_t p = 0; p < lvc_q_.size(); ++p)
    if (!lvc_q_[p].empty() && lvc[p].send(lvc_q_[p].front().req)) lvc_q_[p].pop_front();
}

void MtCgrf::on_cycle(uint64_t now) {
  fault_.run([&] { cycle(now); });
}

void MtCgrf::cycle(uint64_t now) {
  fired_now_.fill(0);
  channel_cycles_ += uint64_t{in_flight_} * (now > last_cycle_ ? now - last_cycle_ : 1);
  last_cycle_ = now;
  take_responses(now);
  // The grid's own cycles within this core cycle: injections and firings.
  for (uint64_t g = now * v_.grid_clock; g < (now + 1) * v_.grid_clock; ++g) {
    inject(g);
    events_.run(g, [this](uint64_t at, const Event& e) { fire(e, at); });
  }
  send_requests();
  for (auto& r : replicas_)
    if (r->busy == 0 && r->queue.empty() && !r->builders.empty()) flush_returns(*r);
  while (!returns_q_.empty()) {
    BatchReturn b = returns_q_.front();
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    returns->b_transport(b, t);
    if (!b.accepted) break;
    returns_q_.pop_front();
  }
  const bool tracing = wf_ && wf_->in_window(now);
  if (tracing) {
    for (size_t u = 0; u < sig_busy_.size(); ++u)
      if (sig_busy_[u]) sig_busy_[u]->write(fired_now_[u]);
    if (sig_threads_) sig_threads_->write(in_flight_);
  }
  // When to run again (every cycle while traced and busy, so that the
  // signals show the idle cycles too).
  bool fired = false;
  for (uint32_t f : fired_now_) fired = fired || f;
  bool pending_sends = !returns_q_.empty() || (tracing && (busy() || !events_.empty() || fired));
  for (const auto& q : l1d_q_) pending_sends = pending_sends || !q.empty();
  for (const auto& q : lvc_q_) pending_sends = pending_sends || !q.empty();
  bool can_inject = false;
  for (const auto& r : replicas_) can_inject = can_inject || (!r->queue.empty() && r->has_free());
  const uint64_t ready_core = configured_at_ / v_.grid_clock;  // the core cycle the grid takes threads again
  if (pending_sends || (can_inject && now + 1 >= ready_core)) {
    wake_next();
  } else if (can_inject) {
    wake_at(ready_core);
  } else if (!events_.empty()) {
    wake_at(std::max(events_.next_cycle() / v_.grid_clock, now + 1));
  }
  // Otherwise asleep until a response, a batch or a configuration.
}

}  // namespace simt::vgiw
