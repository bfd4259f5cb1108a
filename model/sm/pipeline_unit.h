// One execution pipeline type of the SM (INT, FP/SP, SFU, tensor or LDST): `units`
// identical SIMD units of `lanes` lanes each.
//
// A warp instruction goes to one unit. A warp of width W needs
// passes = ceil(W / lanes) passes through it: at home (sm/lane_map.h) thread t runs on
// lane t % lanes in pass t / lanes (the static thread-to-lane mapping of a
// SIMT machine, so inactive threads still cost their slot). Each pass holds
// the unit's input stage for `ii` cycles, so the unit accepts its next
// instruction passes * ii cycles later (e.g. 32 threads on 8 lanes, ii 1:
// busy 4 cycles). Passes are pipelined: the result of the last pass is ready
// `latency` cycles after that pass entered, i.e. at
//   now + (passes - 1) * ii + latency.
// Latency and ii may be overridden per opcode group (OpLatencyTable).
//
// lane_activity(unit, t) says which lanes of a unit receive a thread in cycle
// t (the input-stage view): the base for lane waveforms and power gating.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "ptx/ir.h"
#include "sm/lane_map.h"
#include "stats/stats.h"

namespace simt::config { class ParamRegistry; }

namespace simt::sm {

struct PipeParams {
  uint32_t lanes = 32;    // SIMD width of one unit (4..64)
  uint32_t units = 1;     // identical units (Fermi: 2 SP units x 16 lanes)
  uint32_t latency = 10;  // cycles from a pass entering to its result
  uint32_t ii = 1;        // initiation interval: cycles one pass holds the unit's input

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

// Latency and initiation interval of one instruction; 0 = the unit's own.
struct OpTiming {
  uint32_t latency = 0;
  uint32_t ii = 0;
};

// Per-opcode-group overrides shared by every pipeline. Defaults are
// GPGPU-Sim's GTX480 (Fermi) numbers for the slow operations, which a PTX-level
// model executes as one instruction although the hardware runs a sequence:
//   int_mul  mul/mad/mul24/mad24 on integers     0 / 0   (unit's own)
//   int_div  div/rem on integers               145 / 8
//   fp_div   div.rn (IEEE) on f32/f16            39 / 4
//   f64      any other f64 arithmetic/cvt        0 / 8   (1/8 rate double precision)
//   f64_div  div/rcp/sqrt/rsqrt on f64         330 / 130
// div.approx/div.full.f32 and the transcendental ops are SFU instructions and
// take the SFU unit's latency; wmma.mma and mma (InstrClass::Tensor) take the
// tensor pipe's own (tensor.*), whatever their types.
struct OpLatencyTable {
  enum Group : uint8_t { None, IntMul, IntDiv, FpDiv, F64, F64Div, kGroups };
  std::array<OpTiming, kGroups> t{{{0, 0}, {0, 0}, {145, 8}, {39, 4}, {0, 8}, {330, 130}}};

  static Group group_of(const ptx::Instr& in);
  OpTiming lookup(const ptx::Instr& in) const { return t[group_of(in)]; }

  void bind(config::ParamRegistry& r, const std::string& prefix);
  void validate(const std::string& prefix) const;
};

class PipelineUnit {
 public:
  PipelineUnit(const PipeParams& p, const OpLatencyTable& ops, stats::Registry& reg,
               const std::string& name);

  uint32_t lanes() const { return p_.lanes; }
  uint32_t units() const { return p_.units; }
  uint32_t passes(uint32_t warp_width) const { return (warp_width + p_.lanes - 1) / p_.lanes; }

  // Resolved timing of `in` on this pipeline (overrides applied, never 0).
  OpTiming timing_for(const ptx::Instr& in) const;
  uint32_t latency_for(const ptx::Instr& in) const { return timing_for(in).latency; }

  // True when some unit can take an instruction in cycle `now`.
  bool can_accept(uint64_t now) const { return next_free(now) <= now; }
  // Earliest cycle >= now at which some unit is free.
  uint64_t next_free(uint64_t now) const;

  // True when unit `u` can take an instruction in cycle `now`.
  bool unit_free(uint32_t u, uint64_t now) const { return u < p_.units && unit_[u].busy_until <= now; }

  // Issues a warp instruction in cycle `now` to unit `unit`, or to the
  // lowest-numbered free unit (kAnyUnit). `lane_mask` bit t = thread t of the
  // warp is active; `warp_width` 1..64. Returns the cycle its result is
  // ready. Throws std::logic_error when that unit is busy (the caller must
  // check can_accept() / unit_free()).
  // `map` places the threads on lanes (sm/lane_map.h; its pass count sets
  // how long the unit is held); `extra_latency` adds pipeline stages.
  // `map_passes`: the passes `map` gives this instruction, when the caller
  // has mapped its lanes already (0: map them here).
  static constexpr uint32_t kAnyUnit = ~0u;
  uint64_t accept(uint64_t now, uint64_t lane_mask, uint32_t warp_width, OpTiming t = {}, uint32_t unit = kAnyUnit,
                  LaneMap map = LaneMap::Home, uint32_t extra_latency = 0, uint32_t map_passes = 0);
  uint64_t accept(uint64_t now, const ptx::Instr& in, uint64_t lane_mask, uint32_t warp_width,
                  uint32_t unit = kAnyUnit, LaneMap map = LaneMap::Home, uint32_t extra_latency = 0) {
    return accept(now, lane_mask, warp_width, timing_for(in), unit, map, extra_latency);
  }
  // Passes of the last accepted instruction.
  uint32_t last_passes() const { return unit_[last_unit_].passes; }
  // Lanes that pass `k` of a warp of `warp_width` threads with active
  // threads `lane_mask` gives a thread (thread t runs on lane t % lanes in
  // pass t / lanes).
  uint64_t pass_lanes(uint64_t lane_mask, uint32_t k) const {
    return k * p_.lanes >= 64 ? 0 : (lane_mask >> (k * p_.lanes)) & lane_all_;
  }
  // Unit that took the last accepted instruction.
  uint32_t last_unit() const { return last_unit_; }

  // Lanes of `unit` receiving a thread in cycle `now` (bit l = lane l).
  // Exact for `now` at or after the unit's latest accept (queries move forward).
  uint64_t lane_activity(uint32_t unit, uint64_t now) const;
  // The lane map of the instruction in `unit`'s input stage at `now` (home when idle).
  LaneMap map_at(uint32_t unit, uint64_t now) const {
    if (unit >= p_.units) return LaneMap::Home;
    const UnitState& s = unit_[unit];
    return s.passes && now >= s.start && now < s.busy_until ? s.map : LaneMap::Home;
  }

  // Warp-relative lane bits of the warp whose threads are
  // [first, first + width) of a CTA mask (width <= 64).
  template <class Mask>
  static uint64_t warp_bits(const Mask& m, uint32_t first, uint32_t width) {
    uint32_t w = first >> 6, s = first & 63;
    if (w >= Mask::kWords) return 0;  // no such threads (and GCC sees the bound)
    uint64_t bits = m.word(w) >> s;
    if (s && w + 1 < Mask::kWords) bits |= m.word(w + 1) << (64 - s);
    return width >= 64 ? bits : bits & ((uint64_t{1} << width) - 1);
  }

 private:
  static constexpr uint32_t kMaxUnits = 64;
  struct UnitState {
    uint64_t start = 0;      // cycle the latest instruction entered
    uint64_t busy_until = 0; // first cycle the unit can accept again
    uint64_t mask = 0;       // its warp-relative lane mask
    uint32_t passes = 0, ii = 1;
    uint32_t width = 32;
    LaneMap map = LaneMap::Home;
  };

  PipeParams p_;
  OpLatencyTable ops_;
  std::array<UnitState, kMaxUnits> unit_{};
  uint32_t last_unit_ = 0;
  uint64_t lane_all_;  // low `lanes` bits
  stats::Counter& instructions_;
  stats::Counter& busy_cycles_;
  stats::Counter& lane_cycles_;
};

}  // namespace simt::sm
