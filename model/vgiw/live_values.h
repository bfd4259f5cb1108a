// Live values of the VGIW compiler (seed 002 §2, §3.1, §3.4): the registers
// whose values cross a block boundary. Inside a block values travel as
// tokens between units; across blocks they go through the live value cache,
// a matrix indexed by <live value ID, thread ID>.
//
// live_in(b) / live_out(b) are the registers live at block b's entry and
// exit (ptx::Liveness, refined at the cuts the barriers add). Live value IDs
// are allocated like registers: two registers share an ID unless both are
// live at the same block boundary (entry or exit of some reachable block),
// by greedy colouring in register order. A register live at no boundary
// has no ID: it never reaches the LVC.
//
// Per block, the LVU traffic follows: a register of live_in(b) that b reads
// is loaded; a register b writes that is in live_out(b) is stored once, at
// the end of b. A guarded write keeps the old value in the threads whose
// guard is false, so that register also counts as read (Liveness keeps it
// live above the write).
#pragma once

#include <cstdint>
#include <vector>

#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "vgiw/block_graph.h"

namespace simt::vgiw {

class LiveValues {
 public:
  LiveValues(const ptx::Program& p, const ptx::Cfg& cfg, const BlockGraph& g);

  // Sorted register indexes.
  const std::vector<uint32_t>& live_in(uint32_t block) const { return in_[block]; }
  const std::vector<uint32_t>& live_out(uint32_t block) const { return out_[block]; }
  // The live value ID of a register, kNone when it never crosses a boundary.
  uint32_t id_of(uint32_t reg) const { return reg < id_.size() ? id_[reg] : kNone; }
  uint32_t count() const { return count_; }      // IDs allocated (rows of the LVC matrix)
  uint32_t registers() const { return regs_; }   // registers that have an ID

 private:
  std::vector<std::vector<uint32_t>> in_, out_;
  std::vector<uint32_t> id_;
  uint32_t count_ = 0, regs_ = 0;
};

}  // namespace simt::vgiw
