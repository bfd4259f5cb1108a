#include "vws/warp_ganging_unit.h"

#include <algorithm>
#include <stdexcept>

#include "stats/stats.h"
#include "trace/waveform.h"

namespace simt::vws {

namespace {

uint32_t popcount(uint32_t m) { return static_cast<uint32_t>(__builtin_popcount(m)); }

template <class F>
void for_bits(uint32_t m, F&& f) {
  while (m) {
    f(static_cast<uint32_t>(__builtin_ctz(m)));
    m &= m - 1;
  }
}

}  // namespace

WarpGangingUnit::WarpGangingUnit(const GangingParams& p, uint32_t warp_slots, uint32_t slices)
    : p_(p),
      slices_(slices),
      mem_split_(p.split_on_memory == "impatient" ? MemSplit::Impatient
                 : p.split_on_memory == "group"   ? MemSplit::Group
                                                  : MemSplit::None),
      reform_(p.reform == "opportunistic"),
      table_((warp_slots + slices - 1) / slices, slices),
      sched_(GangIssueScheduler::parse(p.gang_scheduler), p.gangs_per_cycle),
      sets_(table_.sets()),
      set_of_(warp_slots, kNone),
      claimed_(slices, 0),
      changed_flag_(warp_slots, 0),
      next_pc_(slices, 0),
      unblocked_(table_.sets(), 0),
      pipe_(table_.sets() * GangTable::kWays, 0),
      dirty_(table_.sets()),
      with_unblocked_(table_.sets()),
      wait_pc_(warp_slots, kNone),
      wait_until_(warp_slots, 0),
      held_(warp_slots) {
  if (p.split_on_memory != "none" && mem_split_ == MemSplit::None)
    throw std::invalid_argument("warp ganging: split_on_memory must be none, impatient or group");
  if (p.reform != "none" && !reform_) throw std::invalid_argument("warp ganging: reform must be none or opportunistic");
  if (p.sync_wait && !(p.ganging && reform_))
    throw std::invalid_argument("warp ganging: sync_wait needs ganging and opportunistic reformation");
}

void WarpGangingUnit::register_stats(stats::Registry& r, const std::string& prefix) {
  st_control_splits_ = &r.counter(prefix + ".control_splits", "gangs split by control divergence");
  st_memory_splits_ = &r.counter(prefix + ".memory_splits", "gangs split by memory latency divergence");
  st_reforms_ = &r.counter(prefix + ".reforms", "gangs reformed (opportunistic merges)");
  st_meets_ = &r.counter(prefix + ".meets",
                         "warp-synchronous instructions issued by warps that met outside one gang");
  st_sync_waits_ = &r.counter(prefix + ".sync_waits",
                              "warp-cycles held at a reconvergence point to regang (E-VWS-Sync)");
  st_gang_sizes_ = &r.histogram(prefix + ".issued_gang_size", 0, 1, 9, "gangs issued, by members");
}

void WarpGangingUnit::register_series(stats::Registry& r, const std::string& prefix, uint64_t interval) {
  for (uint32_t k = 1; k <= slices_; ++k)
    ser_sizes_.push_back(&r.series(prefix + ".warps_in_gangs_of_" + std::to_string(k), interval,
                                   k == 1 ? "resident warps not in a gang, at the end of each interval"
                                          : "resident warps in gangs of " + std::to_string(k) +
                                                " warps, at the end of each interval"));
}

std::array<uint32_t, 9> WarpGangingUnit::warps_by_gang_size() const {
  std::array<uint32_t, 9> n{};
  for (uint32_t set = 0; set < sets_.size(); ++set) {
    if (!sets_[set].used) continue;
    for (uint32_t k = 0; k < slices_; ++k) {
      if (sets_[set].slot[k] == kNone) continue;
      const int w = table_.way_of(set, k);
      ++n[w < 0 ? 1 : popcount(table_.entry(set, static_cast<uint32_t>(w)).mask)];
    }
  }
  return n;
}

void WarpGangingUnit::sample() {
  const std::array<uint32_t, 9> n = warps_by_gang_size();
  for (size_t k = 0; k < ser_sizes_.size(); ++k) ser_sizes_[k]->sample(n[k + 1]);
}

bool WarpGangingUnit::make_signals(trace::Waveform& wf, const std::string& prefix) {
  bool any = false;
  for (uint32_t set = 0; set < table_.sets(); ++set)
    for (uint32_t w = 0; w < GangTable::kWays; ++w) {
      const std::string k = prefix + ".g" + std::to_string(table_.gang_id(set, w));
      sig_mask_.push_back(wf.signal<uint32_t>(k + "_mask", 0));
      sig_pc_.push_back(wf.maybe_signal(k + "_pc"));
      sig_valid_.push_back(wf.signal<bool>(k + "_valid", false));
      any = any || sig_mask_.back() || sig_pc_.back() || sig_valid_.back();
    }
  tracing_ = any;
  return any;
}

void WarpGangingUnit::write_signals() {
  for (uint32_t set = 0; set < table_.sets(); ++set)
    for (uint32_t w = 0; w < GangTable::kWays; ++w) {
      const size_t i = size_t{set} * GangTable::kWays + w;
      const GangEntry& e = table_.entry(set, w);
      if (sig_mask_[i]) sig_mask_[i]->write(e.used ? e.mask : 0);
      if (sig_pc_[i]) e.used ? sig_pc_[i]->set(e.pc) : sig_pc_[i]->set_undefined();
      if (sig_valid_[i]) sig_valid_[i]->write(e.used && e.valid);
    }
}

// ------------------------------------------------------------ bookkeeping

void WarpGangingUnit::add_slots(uint32_t set, uint8_t mask, bool refetch) {
  for_bits(mask, [&](uint32_t k) {
    const uint32_t s = sets_[set].slot[k];
    if (s == kNone) return;
    if (!changed_flag_[s]) {
      changed_.push_back(sm::LockstepChange{s, refetch});
      changed_flag_[s] = static_cast<uint32_t>(changed_.size());
    }
    changed_[changed_flag_[s] - 1].refetch |= refetch;
  });
}

uint8_t WarpGangingUnit::members_of_ways(uint32_t set, uint8_t ways) const {
  uint8_t m = 0;
  for_bits(ways, [&](uint32_t w) {
    if (table_.entry(set, w).used) m |= table_.entry(set, w).mask;
  });
  return m;
}

void WarpGangingUnit::note(uint32_t set, const GangChange& c, uint8_t before, bool merge) {
  mark_dirty(set);
  const uint8_t now = members_of_ways(set, c.ways);
  add_slots(set, static_cast<uint8_t>(c.left | before | now), false);
  // A merged gang's members held different I-buffers: all refetch.
  if (merge) add_slots(set, static_cast<uint8_t>(now | c.joined), true);
}

const std::vector<sm::LockstepChange>& WarpGangingUnit::take_changed() {
  handed_.swap(changed_);
  changed_.clear();
  for (const sm::LockstepChange& c : handed_) {
    changed_flag_[c.slot] = 0;
    if (set_of_[c.slot] != kNone) mark_dirty(set_of_[c.slot]);
  }
  return handed_;
}

// ------------------------------------------------------------ lock-step unit

// A CTA's warps form ceil(warps / slices) original gangs, one set each; sets
// free only when every member retired, so the slots a CTA's short last gang
// leaves on some slices may let a CTA in that the table cannot hold.
bool WarpGangingUnit::has_room(uint32_t warps) const {
  return sets_.size() - sets_used_ >= (warps + slices_ - 1) / slices_;
}

void WarpGangingUnit::start_cta(uint32_t, const std::vector<uint32_t>& slots, const sm::LockstepView& v) {
  for (size_t first = 0; first < slots.size(); first += slices_) {
    uint32_t set = 0;
    while (set < sets_.size() && sets_[set].used) ++set;
    if (set == sets_.size()) throw std::logic_error("warp ganging: no free gang-table set");
    Set& st = sets_[set];
    st.used = true;
    ++sets_used_;
    st.age = next_age_++;
    mark_dirty(set);
    st.slot.fill(kNone);
    uint8_t mask = 0;
    for (size_t i = first; i < slots.size() && i < first + slices_; ++i) {
      const uint32_t k = slots[i] % slices_;
      st.slot[k] = slots[i];
      set_of_[slots[i]] = set;
      mask |= static_cast<uint8_t>(1u << k);
    }
    if (p_.ganging) note(set, table_.start(set, mask, v.pc(slots[first])), 0);
  }
}

bool WarpGangingUnit::holds(uint32_t slot) const {
  const uint32_t set = set_of_[slot];
  return set != kNone && table_.way_of(set, slot % slices_) >= 0;
}

uint32_t WarpGangingUnit::fetch_leader(uint32_t slot) const {
  const uint32_t set = set_of_[slot];
  if (set == kNone) return slot;
  const int way = table_.way_of(set, slot % slices_);
  if (way < 0) return slot;
  return sets_[set].slot[__builtin_ctz(table_.entry(set, static_cast<uint32_t>(way)).mask)];
}

void WarpGangingUnit::members(uint32_t leader, std::vector<uint32_t>& out) const {
  out.clear();
  const uint32_t set = set_of_[leader];
  const int way = set == kNone ? -1 : table_.way_of(set, leader % slices_);
  if (way < 0) {
    out.push_back(leader);
    return;
  }
  for_bits(table_.entry(set, static_cast<uint32_t>(way)).mask, [&](uint32_t k) { out.push_back(sets_[set].slot[k]); });
}

void WarpGangingUnit::retired(uint32_t slot) {
  const uint32_t set = set_of_[slot];
  if (set == kNone) return;
  const uint32_t k = slot % slices_;
  const int way = table_.way_of(set, k);
  if (way >= 0) {
    const uint8_t before = table_.entry(set, static_cast<uint32_t>(way)).mask;
    note(set, table_.remove(set, static_cast<uint8_t>(1u << k)), before);
  }
  Set& st = sets_[set];
  st.slot[k] = kNone;
  set_of_[slot] = kNone;
  mark_dirty(set);
  wait_pc_[slot] = kNone;
  held_.reset(slot);
  for (uint32_t s : st.slot)
    if (s != kNone) return;
  st.used = false;
  --sets_used_;
  table_.clear(set);
}

void WarpGangingUnit::moved(const std::vector<uint32_t>& slots, const sm::LockstepView& v) {
  const uint32_t set = set_of_[slots.front()];
  if (set == kNone || !p_.ganging) return;
  const Set& st = sets_[set];
  uint8_t moved = 0;
  for (uint32_t s : slots) moved |= static_cast<uint8_t>(1u << (s % slices_));
  // Members that finished leave their gangs.
  uint8_t gone = 0;
  for_bits(moved & table_.ganged(set), [&](uint32_t k) {
    if (!v.running(st.slot[k])) gone |= static_cast<uint8_t>(1u << k);
  });
  if (gone) {
    uint8_t ways = 0;  // the gangs they leave
    for (uint32_t w = 0; w < GangTable::kWays; ++w)
      if (table_.entry(set, w).used && (table_.entry(set, w).mask & gone)) ways |= static_cast<uint8_t>(1u << w);
    const uint8_t before = members_of_ways(set, ways);
    note(set, table_.remove(set, gone), before);
  }
  // Every gang that issued regroups by its members' next PCs.
  uint8_t ways = 0;
  for (uint32_t w = 0; w < GangTable::kWays; ++w)
    if (table_.entry(set, w).used && (table_.entry(set, w).mask & moved)) ways |= static_cast<uint8_t>(1u << w);
  for_bits(ways, [&](uint32_t w) {
    const uint8_t mask = table_.entry(set, w).mask;
    for_bits(mask, [&](uint32_t k) { next_pc_[k] = v.pc(st.slot[k]); });
    const GangChange c = table_.split_on_pcs(set, w, next_pc_);
    if (c.ways || c.left) {
      ++*st_control_splits_;
      note(set, c, mask);
    }
  });
}

// ------------------------------------------------------------ per cycle

void WarpGangingUnit::split_on_memory(uint32_t set, const sm::LockstepView& v) {
  const Set& st = sets_[set];
  for (uint32_t w = 0; w < GangTable::kWays; ++w) {
    const GangEntry& e = table_.entry(set, w);
    if (!e.used) continue;
    uint8_t ready = 0, waiting = 0;
    for_bits(e.mask, [&](uint32_t k) {
      if (v.ready(st.slot[k])) ready |= static_cast<uint8_t>(1u << k);
      else if (v.waits_on_memory(st.slot[k])) waiting |= static_cast<uint8_t>(1u << k);
    });
    if (!ready || !waiting) continue;  // no latency divergence among the members
    const uint8_t before = e.mask;
    const GangChange c = mem_split_ == MemSplit::Impatient ? table_.split_impatient(set, w)
                                                           : table_.split_group(set, w, ready);
    ++*st_memory_splits_;
    note(set, c, before);
  }
}

void WarpGangingUnit::reform_one(const sm::LockstepView& v) {
  // Round robin over the sets in use, one a cycle.
  for (size_t n = 0; n < sets_.size(); ++n) {
    const uint32_t set = reform_next_;
    reform_next_ = (reform_next_ + 1) % static_cast<uint32_t>(sets_.size());
    if (!sets_[set].used) continue;
    const Set& st = sets_[set];
    // Warps waiting at a CTA barrier stay out: one that arrived and one that
    // has yet to come round to the barrier may stand at the same PC, and
    // ganging them would hold the first until the second arrives.
    uint8_t candidates = 0, waiting = 0;
    for (uint32_t k = 0; k < slices_; ++k) {
      const uint32_t s = st.slot[k];
      if (s == kNone || !v.running(s)) continue;
      next_pc_[k] = v.pc(s);
      if (v.at_barrier(s)) waiting |= static_cast<uint8_t>(1u << k);
      else if (table_.way_of(set, k) < 0) candidates |= static_cast<uint8_t>(1u << k);
    }
    if (waiting & table_.ganged(set)) return;  // a gang at a barrier: not this set this cycle
    std::array<uint8_t, GangTable::kWays> before{};
    for (uint32_t w = 0; w < GangTable::kWays; ++w)
      if (table_.entry(set, w).used) {
        before[w] = table_.entry(set, w).mask;
        next_pc_[__builtin_ctz(before[w])] = table_.entry(set, w).pc;
      }
    const GangChange c = table_.reform(set, candidates, next_pc_);
    if (c.ways || c.joined) {
      ++*st_reforms_;
      uint8_t was = 0;  // the members of the gangs that changed, before the change
      for (uint32_t w = 0; w < GangTable::kWays; ++w)
        if ((c.ways >> w) & 1) was |= before[w];
      note(set, c, was, true);
    }
    return;
  }
}

void WarpGangingUnit::find_meets(uint32_t set, const sm::LockstepView& v) {
  const Set& st = sets_[set];
  const uint32_t width = 32 / slices_;
  const uint32_t lane_mask = width >= 32 ? ~0u : (1u << width) - 1;
  for (uint32_t k = 0; k < slices_; ++k) {
    const uint32_t s = st.slot[k];
    uint32_t lanes = 0;
    if (s == kNone || ((taken_ >> k) & 1) || !v.running(s) || !v.sync_point(s, lanes)) continue;
    // The warps whose lanes take part, and whole gangs for the ganged ones.
    uint8_t req = static_cast<uint8_t>(1u << k);
    for (uint32_t j = 0; j < slices_; ++j)
      if (((lanes >> (j * width)) & lane_mask) && st.slot[j] != kNone && v.running(st.slot[j]))
        req |= static_cast<uint8_t>(1u << j);
    uint8_t whole = req;
    bool one_gang = false;
    for (uint32_t w = 0; w < GangTable::kWays; ++w) {
      const GangEntry& e = table_.entry(set, w);
      if (!e.used || !(e.mask & req)) continue;
      whole |= e.mask;
      one_gang = (req & ~e.mask) == 0;  // the gang holds them all: it issues as a gang
    }
    if (one_gang || (whole & taken_)) continue;
    const uint32_t pc = v.pc(s);
    bool ok = true;
    for_bits(whole, [&](uint32_t j) {
      ok = ok && !changed_flag_[st.slot[j]] && v.pc(st.slot[j]) == pc && v.ready(st.slot[j]);
    });
    if (!ok) continue;
    sm::LockstepGroup& g = new_group(false);
    for_bits(whole, [&](uint32_t j) { g.slots.push_back(st.slot[j]); });
    taken_ |= whole;
    ++*st_meets_;
  }
}

void WarpGangingUnit::hold_at_sync_points(uint32_t set, const sm::LockstepView& v, uint64_t now) {
  const Set& st = sets_[set];
  uint8_t running = 0;
  for (uint32_t k = 0; k < slices_; ++k)
    if (st.slot[k] != kNone && v.running(st.slot[k])) running |= static_cast<uint8_t>(1u << k);
  // Whole again (one gang holds every running member): nobody waits.
  bool whole = false;
  for (uint32_t w = 0; w < GangTable::kWays; ++w)
    whole = whole || (table_.entry(set, w).used && table_.entry(set, w).mask == running);
  for (uint32_t k = 0; k < slices_; ++k) {
    const uint32_t s = st.slot[k];
    if (s == kNone) continue;
    held_.reset(s);
    if (!((running >> k) & 1) || whole || v.at_barrier(s) || !v.at_reconvergence(s)) {
      wait_pc_[s] = kNone;
      continue;
    }
    const uint32_t pc = v.pc(s);
    if (wait_pc_[s] != pc) {  // just arrived
      wait_pc_[s] = pc;
      wait_until_[s] = now + p_.sync_wait;
    }
    if (now < wait_until_[s]) {
      held_.set(s);
      ++*st_sync_waits_;
    }
  }
}

bool WarpGangingUnit::members_unblocked(uint32_t set, uint8_t gang, const sm::LockstepView& v) const {
  const Set& st = sets_[set];
  const uint32_t width = 32 / slices_;
  const util::BitSet& maybe_sync = v.maybe_sync();
  for (uint8_t todo = gang; todo; todo &= static_cast<uint8_t>(todo - 1)) {
    const uint32_t s = st.slot[__builtin_ctz(todo)];
    if (changed_flag_[s] || !v.unblocked(s)) return false;
    uint32_t lanes = 0;
    if (maybe_sync.test(s) && v.sync_point(s, lanes))
      for (uint32_t j = 0; j < slices_; ++j)
        if (((lanes >> (j * width)) & ((1u << width) - 1)) && !((gang >> j) & 1) && st.slot[j] != kNone &&
            v.running(st.slot[j]))
          return false;
  }
  return true;
}

void WarpGangingUnit::refresh_dirty_sets(const sm::LockstepView& v) {
  v.touched().for_each([&](uint32_t s) {
    if (s < set_of_.size() && set_of_[s] != kNone) mark_dirty(set_of_[s]);
  });
  dirty_.for_each([&](uint32_t set) {
    uint8_t ok = 0;
    if (sets_[set].used && p_.ganging)
      for (uint32_t w = 0; w < GangTable::kWays; ++w) {
        const GangEntry& e = table_.entry_unchecked(set, w);
        if (!e.used || !members_unblocked(set, e.mask, v)) continue;
        ok |= static_cast<uint8_t>(1u << w);
        const uint32_t pipe = v.pipe(sets_[set].slot[__builtin_ctz(e.mask)]);
        if (pipe >= kPipes) throw std::logic_error("warp ganging: pipe number out of range");
        pipe_[table_.gang_id(set, w)] = static_cast<uint8_t>(pipe);
      }
    unblocked_[set] = ok;
    ok ? with_unblocked_.set(set) : with_unblocked_.reset(set);
  });
  dirty_.clear();
}

sm::LockstepGroup& WarpGangingUnit::new_group(bool gang) {
  if (spare_.empty()) {
    groups_.emplace_back();
  } else {
    groups_.push_back(std::move(spare_.back()));
    spare_.pop_back();
  }
  groups_.back().gang = gang;
  return groups_.back();
}

const std::vector<sm::LockstepGroup>& WarpGangingUnit::pick(const sm::LockstepView& v, uint64_t now) {
  for (sm::LockstepGroup& g : groups_) {  // keep their storage: no allocation per cycle
    g.slots.clear();
    spare_.push_back(std::move(g));
  }
  groups_.clear();
  cands_.clear();
  blocked_.clear();
  std::fill(claimed_.begin(), claimed_.end(), 0);
  taken_ = 0;
  if (p_.ganging && reform_) reform_one(v);
  if (p_.sync_wait)
    for (uint32_t set = 0; set < sets_.size(); ++set)
      if (sets_[set].used) hold_at_sync_points(set, v, now);
  if (p_.ganging && mem_split_ != MemSplit::None)
    for (uint32_t set = 0; set < sets_.size(); ++set)
      if (sets_[set].used) split_on_memory(set, v);
  // Meets: only the sets holding a warp that may stand at a warp-synchronous
  // instruction, each looked at once.
  meet_sets_.clear();
  v.maybe_sync().for_each([&](uint32_t s) {
    const uint32_t set = s < set_of_.size() ? set_of_[s] : kNone;
    if (set != kNone && (meet_sets_.empty() || meet_sets_.back() != set) &&
        std::find(meet_sets_.begin(), meet_sets_.end(), set) == meet_sets_.end())
      meet_sets_.push_back(set);
  });
  for (uint32_t set : meet_sets_) find_meets(set, v);
  if (!p_.ganging) return groups_;
  refresh_dirty_sets(v);
  if (tracing_) {  // the VCD shows every entry's ReadyMask and valid bit
    for (uint32_t set = 0; set < sets_.size(); ++set) {
      if (!sets_[set].used) continue;
      for (uint32_t w = 0; w < GangTable::kWays; ++w) {
        const GangEntry& e = table_.entry_unchecked(set, w);
        if (!e.used) continue;
        uint8_t ready = 0;
        bool valid = true;
        for_bits(e.mask, [&](uint32_t k) {
          const uint32_t s = sets_[set].slot[k];
          valid = valid && v.eligible(s);
          if (!changed_flag_[s] && v.ready(s)) ready |= static_cast<uint8_t>(1u << k);
        });
        table_.set_ready(set, w, ready);
        table_.set_valid(set, w, valid);
      }
    }
  }
  // A gang may issue now when its members are unblocked (kept across
  // cycles) and the pipe its instruction needs is free on every member's
  // slice (looked at each cycle).
  free_.fill(~uint64_t{0});
  with_unblocked_.for_each([&](uint32_t set) {
    const Set& st = sets_[set];
    for_bits(unblocked_[set], [&](uint32_t w) {
      const GangEntry& e = table_.entry_unchecked(set, w);
      if (e.mask & taken_) return;
      // E-VWS-Sync: a gang waits while all its members do (a merged gang
      // waits no longer than its first arrival).
      if (p_.sync_wait) {
        bool all_held = true;
        for_bits(e.mask, [&](uint32_t k) { all_held = all_held && held_.test(st.slot[k]); });
        if (all_held) return;
      }
      const uint8_t pipe = pipe_[table_.gang_id(set, w)];
      uint64_t& free = free_[pipe];
      if (free == ~uint64_t{0}) free = v.free_slices(pipe);
      const GangCandidate c{table_.gang_id(set, w), e.mask, e.pc, st.age};
      (e.mask & ~free ? blocked_ : cands_).push_back(c);
    });
  });
#ifndef NDEBUG
  // The kept half must equal a fresh look (a missed invalidation would
  // change which gangs issue).
  for (uint32_t set = 0; set < sets_.size(); ++set)
    for (uint32_t w = 0; sets_[set].used && w < GangTable::kWays; ++w) {
      const GangEntry& e = table_.entry_unchecked(set, w);
      if (e.used && ((unblocked_[set] >> w) & 1) != members_unblocked(set, e.mask, v))
        throw std::logic_error("warp ganging: stale readiness kept for gang " + std::to_string(table_.gang_id(set, w)));
    }
#endif
  const auto& picked = sched_.pick(cands_);
  for (uint32_t i : picked) {
    const GangCandidate& c = cands_[i];
    const uint32_t set = c.id / GangTable::kWays;
    sm::LockstepGroup& g = new_group(true);
    for_bits(c.mask, [&](uint32_t k) { g.slots.push_back(sets_[set].slot[k]); });
    st_gang_sizes_->add(static_cast<int64_t>(g.slots.size()));
  }
  // Gangs waiting only for a pipe latch claim it on their slices.
  if (!blocked_.empty()) {
    uint8_t used = static_cast<uint8_t>(taken_);
    for (uint32_t i : picked) used |= cands_[i].mask;
    for (uint32_t i : sched_.claim(blocked_, used))
      for_bits(blocked_[i].mask, [&](uint32_t k) { claimed_[k] |= static_cast<uint8_t>(1u << pipe_[blocked_[i].id]); });
  }
  return groups_;
}

}  // namespace simt::vws
