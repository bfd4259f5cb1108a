#include "vgiw/grid_layout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "util/error.h"

namespace simt::vgiw {

namespace {

bool perimeter_type(Unit t) { return t == Unit::Ldst || t == Unit::Lvu; }

}  // namespace

GridLayout::GridLayout(const UnitCounts& units) : of_type_(kUnitTypes) {
  uint32_t inner = 0, outer = 0;
  for (size_t u = 0; u < kUnitTypes; ++u) (perimeter_type(static_cast<Unit>(u)) ? outer : inner) += units.n[u];
  int32_t r = std::max<int32_t>(1, static_cast<int32_t>(std::sqrt(static_cast<double>(std::max(inner, 1u)))));
  int32_t c = static_cast<int32_t>((std::max(inner, 1u) + r - 1) / r);
  while (static_cast<uint32_t>(2 * (r + c)) < outer) ++c;  // the ring holds every perimeter unit
  rows_ = r + 2;
  cols_ = c + 2;

  auto place = [&](Unit t, int32_t row, int32_t col) {
    of_type_[static_cast<size_t>(t)].push_back(static_cast<uint32_t>(cell_.size()));
    cell_.push_back({row, col});
    type_.push_back(t);
  };
  // Interior, row by row: each cell takes the type furthest behind its share.
  std::array<uint32_t, kUnitTypes> done{};
  for (uint32_t k = 0; k < inner; ++k) {
    int best = -1;
    double lag = -1e300;
    for (size_t u = 0; u < kUnitTypes; ++u) {
      if (perimeter_type(static_cast<Unit>(u)) || done[u] >= units.n[u]) continue;
      const double l = static_cast<double>(units.n[u]) * (k + 1) / inner - done[u];
      if (l > lag) lag = l, best = static_cast<int>(u);
    }
    ++done[static_cast<size_t>(best)];
    place(static_cast<Unit>(best), 1 + static_cast<int32_t>(k) / c, 1 + static_cast<int32_t>(k) % c);
  }
  // The ring without its corners, clockwise from the top left, LDST and LVU alternating.
  std::vector<Cell> ring;
  for (int32_t j = 1; j <= c; ++j) ring.push_back({0, j});
  for (int32_t i = 1; i <= r; ++i) ring.push_back({i, c + 1});
  for (int32_t j = c; j >= 1; --j) ring.push_back({r + 1, j});
  for (int32_t i = r; i >= 1; --i) ring.push_back({i, 0});
  uint32_t ldst = units[Unit::Ldst], lvu = units[Unit::Lvu];
  for (size_t k = 0; k < ring.size() && (ldst || lvu); ++k) {
    // `outer` cells spread evenly over the ring.
    if (k * outer / ring.size() != (k + 1) * outer / ring.size()) {
      const bool pick_ldst = ldst && (!lvu || ldst >= lvu);
      place(pick_ldst ? Unit::Ldst : Unit::Lvu, ring[k].row, ring[k].col);
      --(pick_ldst ? ldst : lvu);
    }
  }
  if (ldst || lvu) throw internal_error("vgiw grid: the perimeter ring is too small");
}

uint32_t GridLayout::corner(uint32_t unit, uint32_t p) const {
  const Cell c = cell_[unit];
  // Corners of cell (r, c) are switches (r|r+1, c|c+1): take the one of parity p.
  const int32_t sr = (c.row % 2 == static_cast<int32_t>(p / 2)) ? c.row : c.row + 1;
  const int32_t sc = (c.col % 2 == static_cast<int32_t>(p % 2)) ? c.col : c.col + 1;
  return switch_at(sr, sc);
}

std::vector<uint32_t> GridLayout::switch_links(uint32_t s) const {
  const int32_t w = cols_ + 1, row = static_cast<int32_t>(s) / w, col = static_cast<int32_t>(s) % w;
  std::vector<uint32_t> out;
  const int32_t d[4][2] = {{-2, 0}, {2, 0}, {0, -2}, {0, 2}};
  for (const auto& v : d) {
    const int32_t r = row + v[0], c = col + v[1];
    if (r >= 0 && r <= rows_ && c >= 0 && c <= cols_) out.push_back(switch_at(r, c));
  }
  return out;
}

uint32_t GridLayout::latency(uint32_t a, uint32_t b) const {
  const Cell x = cell_[a], y = cell_[b];
  if (std::abs(x.row - y.row) + std::abs(x.col - y.col) == 1) return 1;  // direct link
  const int32_t w = cols_ + 1;
  uint32_t best = UINT32_MAX;
  for (uint32_t p = 0; p < 4; ++p) {
    const int32_t s = static_cast<int32_t>(corner(a, p)), t = static_cast<int32_t>(corner(b, p));
    const uint32_t links = static_cast<uint32_t>((std::abs(s / w - t / w) + std::abs(s % w - t % w)) / 2);
    best = std::min(best, 1 + links);
  }
  return best;
}

}  // namespace simt::vgiw
