#include "sm/two_level_policy.h"

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

int TwoLevelPolicy::pick(const std::vector<WarpCandidate>& c, uint64_t) {
  ++stamp_;
  for (size_t i = 0; i < c.size(); ++i) {
    Slot& s = slot(c[i].warp, "candidate offered");
    s.cand = int32_t(i);
    s.stamp = stamp_;
  }
  // Active warps stuck behind a long-latency result make room.
  for (size_t p = active_.size(); p-- > 0;) {
    uint32_t w = active_[p];
    int i = candidate(w);
    if (i >= 0 && c[i].long_wait) {
      leave_active(w);
      push_pending(w);
    }
  }
  // Refill from the pending FIFO, front first, skipping warps that still wait.
  for (int32_t w = head_; w >= 0 && active_.size() < active_size_;) {
    int32_t next = slots_[w].next;
    int i = candidate(uint32_t(w));
    if (!slots_[w].sleeping && i >= 0 && !c[i].long_wait) {
      unlink_pending(uint32_t(w));
      slots_[w].in_active = true;
      active_.push_back(uint32_t(w));
    }
    w = next;
  }
  return active_.empty() ? -1 : choose(c);
}

int TwoLevelPolicy::choose(const std::vector<WarpCandidate>& c) {
  for (size_t k = 0; k < active_.size(); ++k) {
    int i = candidate(active_at(k));
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

void TwoLevelPolicy::on_wakeup(uint32_t warp) { slot(warp, "on_wakeup").sleeping = false; }

void TwoLevelPolicy::on_warp_added(uint32_t warp, uint64_t) {
  if (warp >= slots_.size()) slots_.resize(warp + 1);
  if (slots_[warp].present)
    throw std::logic_error("two-level scheduler: warp " + std::to_string(warp) + " added twice");
  slots_[warp] = Slot{};
  slots_[warp].present = true;
  push_pending(warp);
}

void TwoLevelPolicy::on_warp_removed(uint32_t warp) {
  Slot& s = slot(warp, "on_warp_removed");
  if (s.in_active) leave_active(warp);
  else unlink_pending(warp);
  s = Slot{};
}

std::vector<uint32_t> TwoLevelPolicy::pending() const {
  std::vector<uint32_t> out;
  for (int32_t w = head_; w >= 0; w = slots_[w].next) out.push_back(uint32_t(w));
  return out;
}

}  // namespace simt::sm
