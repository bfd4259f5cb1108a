#include "sm/scoreboard.h"

#include <algorithm>
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
  pending_.assign(size_t(ctas) * kWords * regs, 0);
  long_.assign(size_t(ctas) * kWords * regs, 0);
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

bool Scoreboard::overlaps(const std::vector<uint64_t>& b, uint32_t cta, uint32_t reg, const ThreadMask& m) const {
  for (uint32_t i = 0; i < kWords; ++i)
    if (b[at(cta, i, reg)] & m.word(i)) return true;
  return false;
}

Hazard Scoreboard::check(uint32_t cta, const ThreadMask& scope, const ptx::DefUse& du, Words w) const {
  if (count_[cta] == 0) return Hazard::None;  // common case: nothing in flight
  check_words(scope, w);
  auto hit = [&](uint32_t r) {
    if (r >= regs_) return false;
    for (uint32_t i = w.lo; i < w.hi; ++i)
      if (pending_[at(cta, i, r)] & scope.word(i)) return true;
    return false;
  };
  for (uint32_t r : du.uses)
    if (hit(r)) return Hazard::Raw;
  for (uint32_t r : du.defs)
    if (hit(r)) return Hazard::Waw;
  return Hazard::None;
}

bool Scoreboard::is_pending(uint32_t cta, const ThreadMask& scope, uint32_t reg) const {
  return cta < ctas_ && reg < regs_ && overlaps(pending_, cta, reg, scope);
}

bool Scoreboard::waits_on_long(uint32_t cta, const ThreadMask& scope, const ptx::DefUse& du, Words w) const {
  if (long_count_[cta] == 0) return false;
  check_words(scope, w);
  auto hit = [&](uint32_t r) {
    if (r >= regs_) return false;
    for (uint32_t i = w.lo; i < w.hi; ++i)
      if (long_[at(cta, i, r)] & scope.word(i)) return true;
    return false;
  };
  for (uint32_t r : du.uses)
    if (hit(r)) return true;
  for (uint32_t r : du.defs)
    if (hit(r)) return true;
  return false;
}

void Scoreboard::reserve(uint32_t cta, const ThreadMask& threads, const ptx::DefUse& du, bool long_latency, Words w) {
  check_cta(cta);
  check_words(threads, w);
  for (uint32_t r : du.defs) {
    check_reg(r);
    for (uint32_t i = w.lo; i < w.hi; ++i)
      if (pending_[at(cta, i, r)] & threads.word(i))
        throw std::logic_error("scoreboard: CTA slot " + std::to_string(cta) + " reserves register " +
                               std::to_string(r) + " already pending for some of its threads (WAW not checked)");
    for (uint32_t i = w.lo; i < w.hi; ++i) pending_[at(cta, i, r)] |= threads.word(i);
    ++count_[cta];
    if (long_latency) {
      for (uint32_t i = w.lo; i < w.hi; ++i) long_[at(cta, i, r)] |= threads.word(i);
      ++long_count_[cta];
    }
  }
}

bool Scoreboard::release(uint32_t cta, const ThreadMask& threads, uint32_t reg, Words w) {
  check_cta(cta);
  check_reg(reg);
  check_words(threads, w);
  bool any = false, all_pending = true;  // an empty set releases nothing: a model bug
  for (uint32_t i = w.lo; i < w.hi; ++i) {
    any = any || threads.word(i) != 0;
    all_pending = all_pending && (threads.word(i) & ~pending_[at(cta, i, reg)]) == 0;
  }
  all_pending = all_pending && any;
  if (!all_pending)
    throw std::logic_error("scoreboard: CTA slot " + std::to_string(cta) + " releases register " +
                           std::to_string(reg) + " that is not pending for all its threads");
  for (uint32_t i = w.lo; i < w.hi; ++i) pending_[at(cta, i, reg)] &= ~threads.word(i);
  --count_[cta];
  bool was_long = false;
  for (uint32_t i = w.lo; i < w.hi; ++i) was_long = was_long || (long_[at(cta, i, reg)] & threads.word(i)) != 0;
  if (!was_long) return false;
  for (uint32_t i = w.lo; i < w.hi; ++i) long_[at(cta, i, reg)] &= ~threads.word(i);
  --long_count_[cta];
  return true;
}

void Scoreboard::clear_cta(uint32_t cta) {
  check_cta(cta);
  const auto first = static_cast<std::ptrdiff_t>(at(cta, 0, 0)), n = static_cast<std::ptrdiff_t>(kWords * regs_);
  std::fill(pending_.begin() + first, pending_.begin() + first + n, 0);
  std::fill(long_.begin() + first, long_.begin() + first + n, 0);
  count_[cta] = 0;
  long_count_[cta] = 0;
}

std::vector<uint32_t> Scoreboard::pending_regs(uint32_t cta, const ThreadMask& scope) const {
  check_cta(cta);
  std::vector<uint32_t> out;
  for (uint32_t r = 0; r < regs_; ++r)
    if (overlaps(pending_, cta, r, scope)) out.push_back(r);
  return out;
}

}  // namespace simt::sm
