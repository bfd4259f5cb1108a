#include "sm/scoreboard.h"

#include <stdexcept>
#include <string>

namespace simt::sm {

const char* hazard_name(Hazard h) {
  switch (h) {
    case Hazard::None: return "none";
    case Hazard::Raw: return "raw";
    case Hazard::Waw: return "waw";
  }
  return "?";
}

void Scoreboard::configure(uint32_t ctas, uint32_t regs) {
  ctas_ = ctas;
  regs_ = regs;
  pending_.assign(size_t(ctas) * regs, ThreadMask{});
  long_.assign(size_t(ctas) * regs, ThreadMask{});
  count_.assign(ctas, 0);
  long_count_.assign(ctas, 0);
}

void Scoreboard::check_cta(uint32_t cta) const {
  if (cta >= ctas_)
    throw std::logic_error("scoreboard: CTA slot " + std::to_string(cta) + " out of range (" +
                           std::to_string(ctas_) + " slots)");
}
void Scoreboard::check_reg(uint32_t reg) const {
  if (reg >= regs_)
    throw std::logic_error("scoreboard: register " + std::to_string(reg) + " out of range (" +
                           std::to_string(regs_) + " registers)");
}

bool Scoreboard::overlaps(const ThreadMask& a, const ThreadMask& b) {
  for (uint32_t i = 0; i < ThreadMask::kWords; ++i)
    if (a.word(i) & b.word(i)) return true;
  return false;
}

namespace {
struct WordRange {  // ThreadMask::word_range, as a value
  uint32_t lo = 0, hi = 0;
  explicit WordRange(const func::ThreadMask& m) { m.word_range(lo, hi); }
};
}  // namespace

Hazard Scoreboard::check(uint32_t cta, const ThreadMask& scope, const ptx::DefUse& du) const {
  if (count_[cta] == 0) return Hazard::None;  // common case: nothing in flight
  const WordRange w(scope);
  auto hit = [&](uint32_t r) {
    if (r >= regs_) return false;
    const ThreadMask& p = at(pending_, cta, r);
    for (uint32_t i = w.lo; i < w.hi; ++i)
      if (p.word(i) & scope.word(i)) return true;
    return false;
  };
  for (uint32_t r : du.uses)
    if (hit(r)) return Hazard::Raw;
  for (uint32_t r : du.defs)
    if (hit(r)) return Hazard::Waw;
  return Hazard::None;
}

bool Scoreboard::is_pending(uint32_t cta, const ThreadMask& scope, uint32_t reg) const {
  return cta < ctas_ && reg < regs_ && overlaps(at(pending_, cta, reg), scope);
}

bool Scoreboard::waits_on_long(uint32_t cta, const ThreadMask& scope, const ptx::DefUse& du) const {
  if (long_count_[cta] == 0) return false;
  const WordRange w(scope);
  auto hit = [&](uint32_t r) {
    if (r >= regs_) return false;
    const ThreadMask& l = at(long_, cta, r);
    for (uint32_t i = w.lo; i < w.hi; ++i)
      if (l.word(i) & scope.word(i)) return true;
    return false;
  };
  for (uint32_t r : du.uses)
    if (hit(r)) return true;
  for (uint32_t r : du.defs)
    if (hit(r)) return true;
  return false;
}

void Scoreboard::reserve(uint32_t cta, const ThreadMask& threads, const ptx::DefUse& du, bool long_latency) {
  check_cta(cta);
  const WordRange w(threads);
  for (uint32_t r : du.defs) {
    check_reg(r);
    ThreadMask& p = pending_[size_t(cta) * regs_ + r];
    ThreadMask& l = long_[size_t(cta) * regs_ + r];
    for (uint32_t i = w.lo; i < w.hi; ++i)
      if (p.word(i) & threads.word(i))
        throw std::logic_error("scoreboard: CTA slot " + std::to_string(cta) + " reserves register " +
                               std::to_string(r) + " already pending for some of its threads (WAW not checked)");
    for (uint32_t i = w.lo; i < w.hi; ++i) p.set_word(i, p.word(i) | threads.word(i));
    ++count_[cta];
    if (long_latency) {
      for (uint32_t i = w.lo; i < w.hi; ++i) l.set_word(i, l.word(i) | threads.word(i));
      ++long_count_[cta];
    }
  }
}

bool Scoreboard::release(uint32_t cta, const ThreadMask& threads, uint32_t reg) {
  check_cta(cta);
  check_reg(reg);
  const WordRange w(threads);
  ThreadMask& p = pending_[size_t(cta) * regs_ + reg];
  bool all_pending = w.lo < w.hi;  // an empty set releases nothing: a model bug
  for (uint32_t i = w.lo; i < w.hi; ++i) all_pending = all_pending && (threads.word(i) & ~p.word(i)) == 0;
  if (!all_pending)
    throw std::logic_error("scoreboard: CTA slot " + std::to_string(cta) + " releases register " +
                           std::to_string(reg) + " that is not pending for all its threads");
  for (uint32_t i = w.lo; i < w.hi; ++i) p.set_word(i, p.word(i) & ~threads.word(i));
  --count_[cta];
  ThreadMask& l = long_[size_t(cta) * regs_ + reg];
  bool was_long = false;
  for (uint32_t i = w.lo; i < w.hi; ++i) was_long = was_long || (l.word(i) & threads.word(i)) != 0;
  if (!was_long) return false;
  for (uint32_t i = w.lo; i < w.hi; ++i) l.set_word(i, l.word(i) & ~threads.word(i));
  --long_count_[cta];
  return true;
}

void Scoreboard::clear_cta(uint32_t cta) {
  check_cta(cta);
  for (uint32_t r = 0; r < regs_; ++r) {
    pending_[size_t(cta) * regs_ + r].clear();
    long_[size_t(cta) * regs_ + r].clear();
  }
  count_[cta] = 0;
  long_count_[cta] = 0;
}

std::vector<uint32_t> Scoreboard::pending_regs(uint32_t cta, const ThreadMask& scope) const {
  check_cta(cta);
  std::vector<uint32_t> out;
  for (uint32_t r = 0; r < regs_; ++r)
    if (overlaps(at(pending_, cta, r), scope)) out.push_back(r);
  return out;
}

}  // namespace simt::sm
