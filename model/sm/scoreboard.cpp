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

void Scoreboard::configure(uint32_t warps, uint32_t regs) {
  warps_ = warps;
  regs_ = regs;
  words_ = (regs + 63) / 64;
  pending_.assign(size_t(warps) * words_, 0);
  long_.assign(size_t(warps) * words_, 0);
  count_.assign(warps, 0);
  long_count_.assign(warps, 0);
}

void Scoreboard::check_warp(uint32_t warp) const {
  if (warp >= warps_)
    throw std::logic_error("scoreboard: warp " + std::to_string(warp) + " out of range (" +
                           std::to_string(warps_) + " warps)");
}
void Scoreboard::check_reg(uint32_t reg) const {
  if (reg >= regs_)
    throw std::logic_error("scoreboard: register " + std::to_string(reg) + " out of range (" +
                           std::to_string(regs_) + " registers)");
}

Hazard Scoreboard::check(uint32_t warp, const ptx::DefUse& du) const {
  if (count_[warp] == 0) return Hazard::None;  // common case: nothing in flight
  for (uint32_t r : du.uses)
    if (test(pending_, warp, r)) return Hazard::Raw;
  for (uint32_t r : du.defs)
    if (test(pending_, warp, r)) return Hazard::Waw;
  return Hazard::None;
}

bool Scoreboard::waits_on_long(uint32_t warp, const ptx::DefUse& du) const {
  if (long_count_[warp] == 0) return false;
  for (uint32_t r : du.uses)
    if (test(long_, warp, r)) return true;
  for (uint32_t r : du.defs)
    if (test(long_, warp, r)) return true;
  return false;
}

void Scoreboard::reserve(uint32_t warp, const ptx::DefUse& du, bool long_latency) {
  check_warp(warp);
  for (uint32_t r : du.defs) {
    check_reg(r);
    uint64_t bit = uint64_t{1} << (r & 63);
    uint64_t& w = pending_[word(warp, r)];
    if (w & bit)
      throw std::logic_error("scoreboard: warp " + std::to_string(warp) + " reserves pending register " +
                             std::to_string(r) + " (WAW not checked)");
    w |= bit;
    ++count_[warp];
    if (long_latency) {
      long_[word(warp, r)] |= bit;
      ++long_count_[warp];
    }
  }
}

bool Scoreboard::release(uint32_t warp, uint32_t reg) {
  check_warp(warp);
  check_reg(reg);
  uint64_t bit = uint64_t{1} << (reg & 63);
  uint64_t& w = pending_[word(warp, reg)];
  if (!(w & bit))
    throw std::logic_error("scoreboard: warp " + std::to_string(warp) + " releases register " +
                           std::to_string(reg) + " that is not pending");
  w &= ~bit;
  --count_[warp];
  uint64_t& l = long_[word(warp, reg)];
  if (l & bit) {
    l &= ~bit;
    --long_count_[warp];
    return true;
  }
  return false;
}

void Scoreboard::clear_warp(uint32_t warp) {
  check_warp(warp);
  for (uint32_t i = 0; i < words_; ++i) {
    pending_[size_t(warp) * words_ + i] = 0;
    long_[size_t(warp) * words_ + i] = 0;
  }
  count_[warp] = 0;
  long_count_[warp] = 0;
}

std::vector<uint32_t> Scoreboard::pending_regs(uint32_t warp) const {
  check_warp(warp);
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < words_; ++i) {
    uint64_t w = pending_[size_t(warp) * words_ + i];
    while (w) {
      out.push_back(i * 64 + static_cast<uint32_t>(__builtin_ctzll(w)));
      w &= w - 1;
    }
  }
  return out;
}

}  // namespace simt::sm
