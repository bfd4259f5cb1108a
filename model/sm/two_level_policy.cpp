#include "sm/two_level_policy.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace simt::sm {

TwoLevelPolicy::TwoLevelPolicy(uint32_t active_size) : active_size_(active_size) {
  if (active_size == 0) throw std::logic_error("two-level scheduler: active set size must be >= 1");
  active_.reserve(active_size);
}

void TwoLevelPolicy::never_added(uint32_t warp, const char* what) {
  throw std::logic_error(std::string("two-level scheduler: ") + what + " for warp " + std::to_string(warp) +
                         " that was never added");
}

void TwoLevelPolicy::push_pending(uint32_t warp) {
  Slot& s = slots_[warp];
  s.prev = tail_;
  s.next = -1;
  s.seq = seq_++;
  if (tail_ >= 0) slots_[tail_].next = int32_t(warp);
  else head_ = int32_t(warp);
  tail_ = int32_t(warp);
}

void TwoLevelPolicy::unlink_pending(uint32_t warp) {
  Slot& s = slots_[warp];
  if (s.prev >= 0) slots_[s.prev].next = s.next;
  else head_ = s.next;
  if (s.next >= 0) slots_[s.next].prev = s.prev;
  else tail_ = s.prev;
  s.prev = s.next = -1;
}

void TwoLevelPolicy::leave_active(uint32_t warp) {
  for (size_t p = 0; p < active_.size(); ++p) {
    if (active_[p] != warp) continue;
    active_.erase(active_.begin() + long(p));  // capacity is reserved: no allocation
    if (p < rr_) --rr_;  // keep pointing at the same successor
    slots_[warp].in_active = false;
    return;
  }
}

void TwoLevelPolicy::join_active(uint32_t warp) {
  unlink_pending(warp);
  slots_[warp].in_active = true;
  active_.push_back(warp);
}

void TwoLevelPolicy::touch(uint32_t warp) {
  Slot& s = slots_[warp];
  if (s.touched) return;
  s.touched = true;
  touched_.push_back(warp);
}

void TwoLevelPolicy::clear_touched() {
  for (uint32_t w : touched_) slots_[w].touched = false;
  touched_.clear();
}

int TwoLevelPolicy::pick(const std::vector<WarpCandidate>& c, uint64_t now) {
  before_pick(c, now);
  // Any order: every candidate is mapped now.
  ++stamp_;
  sorted_ = false;
  for (size_t i = 0; i < c.size(); ++i) {
    Slot& s = slot(c[i].warp, "candidate offered");
    s.cand = int32_t(i);
    s.stamp = stamp_;
  }
  regroup_full(c);
  return active_.empty() ? -1 : choose(c);
}

void TwoLevelPolicy::on_offer_changed(uint32_t warp, bool shifted) {
  if (shifted) ++stamp_;  // later entries moved: every cached index is stale
  if (warp < slots_.size()) touch(warp);  // (a warp never added has no entry to report)
}

int TwoLevelPolicy::pick_incremental(const std::vector<WarpCandidate>& c, const OfferBits& bits, uint64_t now) {
  before_pick(c, now);
  list_ = &c;
  bits_ = &bits;
#ifndef NDEBUG
  if (!std::is_sorted(c.begin(), c.end(), [](const WarpCandidate& a, const WarpCandidate& b) { return a.warp < b.warp; }))
    throw std::logic_error("two-level scheduler: pick_incremental() needs its candidates in ascending warp order");
#endif
  if (!sorted_) {  // after pick(): this list was never reported against
    ++stamp_;
    sorted_ = true;
    regroup_full(c);
  } else {
    regroup_touched(c);
  }
  const int i = active_.empty() ? -1 : choose(c);
  bits_ = nullptr;
  return i;
}

int TwoLevelPolicy::find_sorted(uint32_t warp) const {
  const std::vector<WarpCandidate>& c = *list_;
  auto at = std::lower_bound(c.begin(), c.end(), warp, [](const WarpCandidate& x, uint32_t w) { return x.warp < w; });
  const Slot& s = slots_[warp];
  s.cand = at != c.end() && at->warp == warp ? static_cast<int32_t>(at - c.begin()) : -1;
  s.stamp = stamp_;
  return s.cand;
}

template <bool OnlyTouched>
void TwoLevelPolicy::release_waiting(const std::vector<WarpCandidate>& c) {
  // Active warps stuck behind a long-latency result make room, back to front.
  for (size_t p = active_.size(); p-- > 0;) {
    const uint32_t w = active_[p];
    if ((!OnlyTouched || slots_[w].touched) && waits_long(w, c)) {
      leave_active(w);
      push_pending(w);
    }
  }
}

void TwoLevelPolicy::regroup_full(const std::vector<WarpCandidate>& c) {
  release_waiting<false>(c);
  refill_in_order(c);
  clear_touched();
}

void TwoLevelPolicy::refill_in_order(const std::vector<WarpCandidate>& c) {
  // From the pending FIFO, front first, skipping warps that still wait.
  int32_t w = head_;
  while (w >= 0 && active_.size() < active_size_) {
    const int32_t next = slots_[w].next;
    if (eligible(uint32_t(w), c)) join_active(uint32_t(w));
    w = next;
  }
  pending_idle_ = w < 0;  // every pending warp was looked at: none is eligible
}

// The same moves as regroup_full(), knowing that the last regroup left no
// active warp waiting on a long-latency result and that only the touched
// warps can have changed since: the active ones among them that now wait
// leave (back to front, as there); then, if every other pending warp is
// known not eligible (pending_idle_), the eligible touched ones join in
// FIFO order, else the FIFO is walked when there is room.
void TwoLevelPolicy::regroup_touched(const std::vector<WarpCandidate>& c) {
  release_waiting<true>(c);
  const bool joined = pending_idle_ && join_touched(c);
  clear_touched();
  if (!joined && active_.size() < active_size_) refill_in_order(c);
}

bool TwoLevelPolicy::join_touched(const std::vector<WarpCandidate>& c) {
  // Touched pending warps that are eligible, in FIFO order (few: insertion sort).
  uint32_t joining[64];
  size_t n = 0;
  for (uint32_t w : touched_) {
    Slot& s = slots_[w];
    if (!s.touched) continue;  // listed twice (removed and added again)
    s.touched = false;
    if (!s.present || s.in_active || !eligible(w, c)) continue;
    if (n == std::size(joining)) {  // too many to sort here: the caller walks the FIFO
      pending_idle_ = false;
      return false;
    }
    size_t k = n++;
    for (; k > 0 && slots_[joining[k - 1]].seq > s.seq; --k) joining[k] = joining[k - 1];
    joining[k] = w;
  }
  size_t k = 0;
  for (; k < n && active_.size() < active_size_; ++k) join_active(joining[k]);
  pending_idle_ = k == n;  // an eligible warp left behind: the next refill walks
  return true;
}

int TwoLevelPolicy::choose(const std::vector<WarpCandidate>& c) {
  for (size_t k = 0; k < active_.size(); ++k) {
    const uint32_t w = active_at(k);
    if (bits_) {  // pick_incremental(): one lookup, for the warp picked
      if (bits_->ready.test(w)) return candidate(w);
      continue;
    }
    const int i = candidate(w);
    if (i >= 0 && c[i].ready) return i;
  }
  return -1;
}

void TwoLevelPolicy::on_issue(uint32_t warp, ptx::InstrClass, uint64_t) {
  for (size_t p = 0; p < active_.size(); ++p)
    if (active_[p] == warp) {
      rr_ = p + 1;  // may equal size(): wraps when used, after any removals
      return;
    }
}

void TwoLevelPolicy::on_long_latency(uint32_t warp) {
  Slot& s = slot(warp, "on_long_latency");
  s.sleeping = true;
  if (s.in_active) {
    leave_active(warp);
    push_pending(warp);
  }
}

void TwoLevelPolicy::on_wakeup(uint32_t warp) {
  slot(warp, "on_wakeup").sleeping = false;
  touch(warp);  // it may be eligible now
}

void TwoLevelPolicy::on_warp_added(uint32_t warp, uint64_t) {
  if (warp >= slots_.size()) slots_.resize(warp + 1);
  if (slots_[warp].present)
    throw std::logic_error("two-level scheduler: warp " + std::to_string(warp) + " added twice");
  slots_[warp] = Slot{};
  slots_[warp].present = true;
  push_pending(warp);
  touch(warp);
}

void TwoLevelPolicy::on_warp_removed(uint32_t warp) {
  Slot& s = slot(warp, "on_warp_removed");
  if (s.in_active) leave_active(warp);
  else unlink_pending(warp);
  s = Slot{};  // a stale entry of it in touched_ is skipped (its flag is clear)
}

std::vector<uint32_t> TwoLevelPolicy::pending() const {
  std::vector<uint32_t> out;
  for (int32_t w = head_; w >= 0; w = slots_[w].next) out.push_back(uint32_t(w));
  return out;
}

}  // namespace simt::sm
