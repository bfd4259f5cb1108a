#include "sm/ldst_unit.h"

#include <algorithm>

#include "config/param_registry.h"
#include "func/address_space.h"
#include "trace/waveform.h"
#include "util/cycle.h"
#include "util/error.h"

namespace simt::sm {

void LdstParams::bind(config::ParamRegistry& r, const std::string& prefix, const std::string& shared_prefix) {
  shared.bind(r, shared_prefix);
  r.add(prefix + ".line", line, "coalescing granularity in bytes: one request per line touched; follows l1d.line (setting another value is refused)",
        4, 4096);
  r.add(prefix + ".queue", queue, "LDST instructions in flight (accepted, not yet written back)", 1, 4096);
}

void LdstParams::validate(const std::string& prefix, const std::string& shared_prefix) const {
  shared.validate(shared_prefix);
  mem::CoalescerParams{line, tex_line}.validate(prefix);
  if (queue < 1 || queue > 4096)
    throw input_error("option " + prefix + ".queue: " + std::to_string(queue) + " is not in 1..4096");
}

namespace {

// "sm0.ldst" -> "sm0.shmem"; "ldst" -> "shmem".
std::string sibling(const std::string& name, const char* leaf) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? std::string(leaf) : name.substr(0, dot + 1) + leaf;
}

// Request ids: the slot in the low 16 bits, the line request's index in
// the next 12, the instruction's sequence number above, so a response can
// never be credited to a later occupant.
constexpr unsigned kSlotBits = 16, kLineBits = 12;
uint64_t make_id(uint32_t slot, uint32_t line, uint64_t seq) {
  return (((seq << kLineBits) | line) << kSlotBits) | slot;
}

}  // namespace

LdstUnit::LdstUnit(sc_core::sc_module_name name, const LdstParams& p, stats::Registry& st,
                   const std::string& n, uint32_t sm, trace::Waveform* waveform)
    : sc_module(name),
      in("in", this, &LdstUnit::receive),
      l1d("l1d"),
      tex("tex"),
      writeback("writeback"),
      p_((p.validate(), p)),
      sm_(sm),
      banks_(p.shared, st, sibling(n, "shmem")),
      coalescer_(mem::CoalescerParams{p.line, p.tex_line}, st, n + ".coalescer"),
      slots_(p.queue),
      instructions_(st.counter(n + ".instructions", "warp memory instructions executed")),
      requests_(st.counter(n + ".requests", "line requests sent to the L1D")),
      tex_requests_(st.counter(n + ".tex_requests", "line requests sent to the texture cache")),
      shared_cycles_(st.counter(n + ".shared_cycles", "cycles the shared-memory banks were busy")),
      bank_conflicts_(st.counter(n + ".bank_conflicts", "extra shared-memory bank cycles (cycles - 1 per access)")),
      mem_stall_cycles_(st.counter(n + ".mem_pipeline_stall_cycles", "cycles a request waited on the L1D port")),
      tex_stall_cycles_(st.counter(n + ".tex_stall_cycles", "cycles a request waited on the texture cache port")),
      writeback_stall_cycles_(st.counter(n + ".writeback_stall_cycles", "cycles a completed instruction's "
                                                                         "write-back was refused")),
      // Bins 0..128 (a 32-thread v4 access can touch 128 lines); more lands in the last bin.
      per_instruction_(st.histogram(n + ".requests_per_instruction", 0, 1, 129,
                                    "line requests per warp memory instruction")) {
  if (p.queue >= (1u << kSlotBits)) throw input_error("option ldst.queue: too large");
  order_.reserve(p.queue);
  done_.reserve(p.queue);
  if (waveform && waveform->enabled()) {
    sig_queue_ = waveform->signal<uint32_t>(n + ".queue", 0);
    sig_requests_ = waveform->signal<uint32_t>(n + ".requests", 0);
    sig_warp_ = waveform->signal<int32_t>(n + ".warp", -1);
    if (sig_queue_ || sig_requests_ || sig_warp_) wf_ = waveform;
  }
  attach_to_clock(false);
  l1d.wake_on_response(*this);
  tex.wake_on_response(*this);
}

void LdstUnit::receive(IssuePacket& p, sc_core::sc_time&) {
  // A slot freed this cycle counts as taken until the next one, so the
  // answer does not depend on whether our method ran first.
  const uint64_t now = util::now_cycle();
  const uint32_t freed_now = freed_cycle_ == now ? freed_count_ : 0;
  if (in_flight_ + freed_now >= p_.queue) return;  // full: issue retries later
  uint32_t s = 0;
  while (slots_[s].used) ++s;  // a free slot exists: in_flight_ < queue
  Slot& e = slots_[s];
  e.used = true;
  e.sent_all = false;
  e.seq = next_seq_++;
  e.visible = now + 1;
  e.shared_done = 0;
  e.pending = 0;
  e.warp = p.warp;
  e.instr = p.instr;
  e.long_latency = p.long_latency;
  e.ticket = p.ticket;
  e.atomic = p.is_atomic;
  e.store = p.is_store;
  e.cta_slot = p.cta_slot;
  e.cta_threads = p.cta_threads;
  e.local_bytes = p.local_bytes;
  e.other_parts.assign(p.other_parts.begin(), p.other_parts.end());
  e.riders.assign(p.riders.begin(), p.riders.end());
  e.ready = e.written = 0;
  e.in_done = false;
  e.accesses.assign(p.accesses.begin(), p.accesses.end());
  order_.push_back(s);
  ++in_flight_;
  p.accepted = true;
  wake_next();
}

void LdstUnit::start(uint32_t s, uint64_t now) {
  Slot& e = slots_[s];
  ++instructions_;
  const uint32_t c = banks_.access(e.accesses);
  if (c > 0) {
    shared_cycles_ += c;
    bank_conflicts_ += c - 1;
    e.shared_done = now + (c - 1) + p_.shared.latency;
  }
  const mem::AccessKind kind = e.atomic  ? mem::AccessKind::Atomic
                               : e.store ? mem::AccessKind::Write
                                         : mem::AccessKind::Read;
  bool has_local = false;
  for (const func::MemAccess& a : e.accesses)
    if (a.space == ptx::Space::Local) { has_local = true; break; }
  local_.clear();
  if (has_local) {
    auto layout = [&](uint32_t cta_slot, uint32_t cta_threads, uint32_t local_bytes) {
      if (cta_threads == 0 || uint64_t{cta_threads} * local_bytes > (uint64_t{1} << 32) || cta_slot >= 256)
        throw std::invalid_argument("ldst: local access needs a CTA of 1..1024 threads, a slot below 256 and at "
                                    "most 4 GiB of local memory per CTA");
      mem::LocalLayout l;
      l.base = kLocalRegion + (uint64_t{sm_} << 40) + (uint64_t{cta_slot} << 32);
      l.threads = cta_threads;
      local_.push_back(l);
    };
    layout(e.cta_slot, e.cta_threads, e.local_bytes);
    for (const IssuePacket::Part& q : e.other_parts) layout(q.cta_slot, q.cta_threads, q.local_bytes);
  }
  const uint8_t* member = nullptr;
  if (!e.riders.empty()) {  // tag each access with its member (0 = the slot's own)
    member_of_.assign(e.accesses.size(), 0);
    for (size_t k = 0; k < e.riders.size(); ++k) {
      const size_t end = k + 1 < e.riders.size() ? e.riders[k + 1].first_access : e.accesses.size();
      for (size_t i = e.riders[k].first_access; i < end && i < e.accesses.size(); ++i)
        member_of_[i] = static_cast<uint8_t>(k + 1);
    }
    member = member_of_.data();
  }
  coalescer_.coalesce(e.accesses, kind, lines_, local_.empty() ? nullptr : local_.data(), local_.size(), member);
  if (lines_.size() >= (1u << kLineBits))
    throw std::logic_error("ldst: an access of " + std::to_string(lines_.size()) + " line requests");
  if (!e.riders.empty()) {
    e.todo.assign(e.riders.size() + 1, 0);
    e.line_members.clear();
    for (const mem::LineRequest& r : lines_) {
      e.line_members.push_back(r.members);
      for (uint64_t m = r.members; m; m &= m - 1) ++e.todo[__builtin_ctzll(m)];
    }
  }
  size_t tex_lines = 0;
  for (mem::LineRequest& r : lines_) {
    if (r.space == ptx::Space::Param) r.line_addr += func::kParamWindow;
    if (r.space == ptx::Space::Tex) ++tex_lines;
  }
  requests_ += lines_.size() - tex_lines;
  tex_requests_ += tex_lines;
  per_instruction_.add(static_cast<int64_t>(lines_.size()));
  cur_ = s;
  shared_left_ = c;
  next_line_ = 0;
}

// One cycle of the address stage: a bank cycle, or one request offered to
// the L1D or the texture cache. An instruction with nothing to do still
// takes its one cycle.
void LdstUnit::address_step(uint64_t now) {
  if (cur_ == kNone) {
    if (order_head_ == order_.size() || slots_[order_[order_head_]].visible > now) return;
    start(order_[order_head_++], now);
    if (order_head_ == order_.size()) {
      order_.clear();
      order_head_ = 0;
    }
  }
  Slot& e = slots_[cur_];
  if (wf_) stage_warp_ = static_cast<int32_t>(e.warp);
  if (shared_left_ > 0) {
    --shared_left_;
  } else if (next_line_ < lines_.size()) {
    const mem::LineRequest& lr = lines_[next_line_];
    mem::MemRequest r;
    r.addr = lr.line_addr;
    r.bytes = lr.bytes;
    r.write = lr.kind != mem::AccessKind::Read;
    r.atomic = lr.kind == mem::AccessKind::Atomic;
    r.id = make_id(cur_, static_cast<uint32_t>(next_line_), e.seq);
    r.source = sm_;
    const bool texture = lr.space == ptx::Space::Tex;
    if ((texture ? tex : l1d).send(r)) {
      ++next_line_;
      ++e.pending;
    } else {
      ++(texture ? tex_stall_cycles_ : mem_stall_cycles_);
    }
  }
  if (shared_left_ == 0 && next_line_ == lines_.size()) {
    e.sent_all = true;
    maybe_done(cur_);
    cur_ = kNone;
  }
}

bool LdstUnit::send_writeback(uint32_t warp, const ptx::Instr* instr, bool long_latency, uint32_t ticket) {
  WritebackPacket wb;
  wb.warp = warp;
  wb.instr = instr;
  wb.long_latency = long_latency;
  wb.ticket = ticket;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  writeback->b_transport(wb, t);
  if (!wb.accepted) ++writeback_stall_cycles_;
  return wb.accepted;
}

// Frees the slot of done_[best], whose instructions all wrote back.
bool LdstUnit::free_slot(size_t best, uint64_t now) {
  Slot& e = slots_[done_[best]];
  e.used = false;
  done_[best] = done_.back();
  done_.pop_back();
  --in_flight_;
  if (freed_cycle_ != now) {
    freed_cycle_ = now;
    freed_count_ = 0;
  }
  ++freed_count_;
  return true;
}

// Sends the write-back of the oldest completed instruction; true if one was
// sent or refused (i.e. there is still write-back work next cycle).
bool LdstUnit::try_writeback(uint64_t now) {
  size_t best = done_.size();
  for (size_t i = 0; i < done_.size(); ++i) {
    const Slot& e = slots_[done_[i]];
    if (e.shared_done <= now && (best == done_.size() || e.seq < slots_[done_[best]].seq)) best = i;
  }
  if (best == done_.size()) return false;
  Slot& e = slots_[done_[best]];
  if (e.riders.empty())  // one instruction: its write-back frees the slot
    return send_writeback(e.warp, e.instr, e.long_latency, e.ticket) ? free_slot(best, now) : true;
  const uint64_t members = e.ready & ~e.written;
  for (uint64_t m = members; m; m &= m - 1) {
    const uint32_t k = static_cast<uint32_t>(__builtin_ctzll(m));
    const bool sent = k == 0 ? send_writeback(e.warp, e.instr, e.long_latency, e.ticket)
                             : send_writeback(e.riders[k - 1].warp, e.riders[k - 1].instr,
                                              e.riders[k - 1].long_latency, e.riders[k - 1].ticket);
    if (!sent) return true;
    e.written |= uint64_t{1} << k;
  }
  const uint64_t all = (uint64_t{2} << e.riders.size()) - 1;
  if (e.written != all) {  // members still waiting for lines
    e.in_done = false;
    done_[best] = done_.back();
    done_.pop_back();
    return true;
  }
  return free_slot(best, now);
}

void LdstUnit::members_done(uint32_t s) {
  Slot& e = slots_[s];
  if (!e.sent_all) return;  // its lines are not all out yet
  for (size_t k = 0; k < e.todo.size(); ++k)
    if (e.todo[k] == 0) e.ready |= uint64_t{1} << k;
  if ((e.ready & ~e.written) && !e.in_done) {
    e.in_done = true;
    done_.push_back(s);
  }
}

// Request ids are unique over both ports, so responses are credited the
// same way whichever cache answered.
void LdstUnit::take_responses(mem::MemRequester& port) {
  uint64_t id = 0;
  while (port.pop_response(id)) {
    const uint32_t s = static_cast<uint32_t>(id & ((1u << kSlotBits) - 1));
    const uint32_t line = static_cast<uint32_t>((id >> kSlotBits) & ((1u << kLineBits) - 1));
    if (s >= slots_.size() || !slots_[s].used || slots_[s].seq != (id >> (kSlotBits + kLineBits)) ||
        slots_[s].pending == 0)
      throw std::logic_error("ldst: response with unknown id " + std::to_string(id));
    Slot& e = slots_[s];
    --e.pending;
    if (!e.riders.empty()) {
      if (line >= e.line_members.size()) throw std::logic_error("ldst: response for an unknown line");
      for (uint64_t m = e.line_members[line]; m; m &= m - 1) --e.todo[__builtin_ctzll(m)];
      maybe_done(s);
    } else if (e.pending == 0) {
      maybe_done(s);
    }
  }
}

void LdstUnit::on_cycle(uint64_t now) {
  ++activations_;
  // Responses first: each answers one request of the slot named in its id.
  take_responses(l1d);
  take_responses(tex);
  bool busy = false;
  if (now != last_cycle_) {  // a second wake-up in the same cycle only drains responses
    last_cycle_ = now;
    stage_warp_ = -1;
    address_step(now);
    busy = try_writeback(now);
  }
  // Work next cycle: the address stage, queued instructions, write-backs.
  busy = busy || cur_ != kNone || order_head_ < order_.size();
  uint64_t wake_at = UINT64_MAX;
  for (uint32_t s : done_) wake_at = std::min(wake_at, std::max(slots_[s].shared_done, now + 1));
  if (busy) wake_at = now + 1;
  if (wf_) {
    // Every value here changes only in this method or on an arrival that
    // wakes it; asleep when the window opens, wake then to record them.
    if (wf_->in_window(now)) {
      write_signals();
      if (stage_warp_ >= 0) wake_at = now + 1;  // shown for this cycle only: clear it next
    } else if (now < wf_->window_start())
      wake_at = std::min(wake_at, wf_->window_start());
  }
  if (wake_at != UINT64_MAX) sleep_until(wake_at);
  // else idle until an instruction or a response arrives
}

void LdstUnit::write_signals() {
  if (sig_queue_) sig_queue_->write(in_flight_);
  if (sig_requests_) sig_requests_->write(static_cast<uint32_t>(l1d.outstanding()));
  if (sig_warp_) sig_warp_->write(stage_warp_);
}

}  // namespace simt::sm
