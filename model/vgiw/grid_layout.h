// Where the MT-CGRF's units sit and how far apart they are (seed 002 §3.5).
//
// Layout (the paper draws it but gives no coordinates; this is our choice):
// the compute units (FP-ALU, SCU, SJU, CVU) fill an interior array of R x C
// cells, R = floor(sqrt(n)), C = ceil(n / R), each type spread evenly over
// it; the LDST and LVU units alternate around its perimeter ring, which is
// widened when they do not fit. Table 1's grid gives an 8 x 10 interior (76
// units, 4 cells empty) in a 10 x 12 array.
//
// Interconnect, after the paper's description of its folded hypercube: every
// unit links directly to its four nearest units and to the four switches at
// its corners; every switch links to the four switches two cells away in its
// row and column. A token crosses a direct link in one cycle; otherwise it
// enters a corner switch, crosses k switch-to-switch links and leaves from a
// corner switch of the destination, in 1 + k cycles. Because switch links
// span two cells, a route stays in one of four parity classes of switches;
// each unit has one corner of each class, and the shortest class wins.
#pragma once

#include <cstdint>
#include <vector>

#include "vgiw/dataflow_graph.h"

namespace simt::vgiw {

struct Cell {
  int32_t row = 0, col = 0;
};

class GridLayout {
 public:
  explicit GridLayout(const UnitCounts& units);

  uint32_t units() const { return static_cast<uint32_t>(cell_.size()); }
  Unit type(uint32_t unit) const { return type_[unit]; }
  Cell cell(uint32_t unit) const { return cell_[unit]; }
  const std::vector<uint32_t>& units_of(Unit t) const { return of_type_[static_cast<size_t>(t)]; }
  int32_t rows() const { return rows_; }  // of the whole array, ring included
  int32_t cols() const { return cols_; }

  // Cycles a token takes from unit a to unit b (a != b).
  uint32_t latency(uint32_t a, uint32_t b) const;
  // Switches: (rows+1) x (cols+1) corners, index row * (cols + 1) + col.
  uint32_t switches() const { return static_cast<uint32_t>((rows_ + 1) * (cols_ + 1)); }
  uint32_t switch_at(int32_t row, int32_t col) const { return static_cast<uint32_t>(row * (cols_ + 1) + col); }
  // The corner switch of `unit` in parity class p (0..3: row parity * 2 + column parity).
  uint32_t corner(uint32_t unit, uint32_t p) const;
  // Switches linked to switch s (two cells away in its row or column).
  std::vector<uint32_t> switch_links(uint32_t s) const;

 private:
  int32_t rows_ = 0, cols_ = 0;
  std::vector<Cell> cell_;
  std::vector<Unit> type_;
  std::vector<std::vector<uint32_t>> of_type_;
};

}  // namespace simt::vgiw
